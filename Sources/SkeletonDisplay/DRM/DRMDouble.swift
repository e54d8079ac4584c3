import CLibDRM
import SkeletonRender
import SkeletonSystem

/// A device that answers `DRMCalls` instead of the kernel, for tests: registered with
/// `DRMDoubles` (debug builds only), it is asked for every call on its `descriptor`. What it
/// hands out as libdrm structures must be allocated as libdrm allocates them (malloc, one block
/// per array), since `DRMCalls.free` lets libdrm free them; what `map` returns, as mmap(2) maps.
/// Failures are errno codes, as the kernel gives them.
package protocol DRMDouble: AnyObject, Sendable {
    var path: String { get }
    var descriptor: FileDescriptor { get }
    func supportsDumbBuffers() -> Bool
    func resources() -> drmModeResPtr?
    func connector(_ id: UInt32, probing: Bool) -> drmModeConnectorPtr?
    func encoder(_ id: UInt32) -> drmModeEncoderPtr?
    func crtc(_ id: UInt32) -> drmModeCrtcPtr?
    func createDumb(width: Int, height: Int) throws(Errno) -> (handle: UInt32, pitch: UInt32, size: UInt64)
    func addFramebuffer(width: Int, height: Int, handle: UInt32, pitch: UInt32) throws(Errno) -> UInt32
    func map(handle: UInt32, size: UInt64) throws(Errno) -> UnsafeMutableRawPointer
    func removeFramebuffer(_ id: UInt32)
    func destroyDumb(_ handle: UInt32)
    /// A mode set; framebuffer 0 and no mode turn the CRTC off.
    func setCrtc(_ crtc: UInt32, framebuffer: UInt32, connector: UInt32?, mode: drmModeModeInfo?) -> Int32?
    func pageFlip(crtc: UInt32, framebuffer: UInt32) -> Int32?
    func dirty(framebuffer: UInt32, rects: [PixelRect]) -> Int32?
    func scannedOut(crtc: UInt32) -> UInt32?
    func completedFlips() -> [UInt32]
    func setMaster() -> Int32?
    func isMaster() -> Bool
    func dropMaster() -> Int32?
    func closeFramebuffer(_ id: UInt32) -> Int32?
    func waitReadable(milliseconds: Int32) -> Bool
    func panelOrientation(connector: UInt32) -> Int?
    func isNonDesktop(connector: UInt32) -> Bool
    func close()
}

import CLibDRM
import SkeletonSystem
import SkeletonRender

/// A dumb buffer with its framebuffer and mapping, created in the drm-howto order and
/// destroyed in reverse. Its memory may be write-combined: it is only ever written.
final class DumbBuffer {
    let fd: FileDescriptor
    let handle: UInt32
    let pitch: UInt32
    let size: UInt64
    let framebuffer: UInt32
    let memory: UnsafeMutableRawPointer
    let width: Int
    let height: Int

    init(fd: FileDescriptor, width: Int, height: Int, device: String, connector: String) throws(DisplayError) {
        let created = try DRMCalls.createDumb(fd, width: width, height: height, device: device, connector: connector)
        do {
            framebuffer = try DRMCalls.addFramebuffer(fd, width: width, height: height, handle: created.handle,
                                                      pitch: created.pitch, device: device, connector: connector)
        } catch {
            DRMCalls.destroyDumb(fd, created.handle)
            throw error
        }
        do {
            memory = try DRMCalls.map(fd, handle: created.handle, size: created.size, device: device, connector: connector)
        } catch {
            DRMCalls.removeFramebuffer(fd, framebuffer)
            DRMCalls.destroyDumb(fd, created.handle)
            throw error
        }
        self.fd = fd
        self.handle = created.handle
        self.pitch = created.pitch
        self.size = created.size
        self.width = width
        self.height = height
    }

    /// The mapped pixels as a canvas honouring the pitch.
    var canvas: Canvas {
        Canvas(base: memory.assumingMemoryBound(to: UInt32.self), width: width, height: height, stride: Int(pitch) / 4)
    }

    /// Unmaps and lets go of the buffer but leaves its framebuffer (already closed with
    /// CLOSEFB), which stays on screen until the next program sets its mode.
    func destroyKeepingFramebuffer() {
        DRMCalls.unmap(memory, size: size)
        DRMCalls.destroyDumb(fd, handle)
    }

    func destroy() {
        DRMCalls.unmap(memory, size: size)
        DRMCalls.removeFramebuffer(fd, framebuffer)
        DRMCalls.destroyDumb(fd, handle)
    }
}

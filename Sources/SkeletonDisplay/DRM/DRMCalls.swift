#if canImport(Glibc)
import Glibc
#endif
import CLibDRM
import CSkeletonDRM
import SkeletonRender
import SkeletonSystem

/// Every libdrm and system call of the DRM backend. Failures become `DisplayError`s that name
/// the device, the connector when there is one, the call and errno's text.
enum DRMCalls {
    /// DRM_FORMAT_XRGB8888, fourcc 'XR24' (a function-like macro in C).
    static let formatXRGB8888: UInt32 = 0x3432_5258

    static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// errno(3) now, after a libdrm call that failed.
    static var lastErrno: Int32 { errno }

    /// libdrm returns -1 with errno set, or a negative errno: either way, the errno.
    static func errorCode(_ result: Int32) -> Int32 { result == -1 ? errno : -result }

    /// A test's stand-in for the device behind `fd` (`DRMDouble`); always nil in a release
    /// build, where the checks below fold away.
    @inline(__always)
    private static func double(for fd: FileDescriptor) -> (any DRMDouble)? {
        #if DEBUG
        return DRMDoubles.device(for: fd)
        #else
        return nil
        #endif
    }

    static func fail(_ device: String, _ connector: String?, _ call: String, _ code: Int32) -> DisplayError {
        DisplayError("\(device)\(connector.map { ", connector \($0)" } ?? ""): \(call) failed: \(describe(code))",
                     deviceGone: code == ENODEV || code == ENOENT)
    }

    /// open(2) with O_RDWR | O_CLOEXEC | O_NONBLOCK, EINTR retried by SkeletonSystem's helper.
    static func open(_ path: String) throws(DisplayError) -> FileDescriptor {
        #if DEBUG
        if let double = DRMDoubles.device(at: path) { return double.descriptor }
        #endif
        do {
            return try SystemCalls.openDevice(path, nonBlocking: true)
        } catch {
            throw fail(path, nil, "open", error.rawValue)
        }
    }

    /// drmGetCap(DRM_CAP_DUMB_BUFFER).
    static func supportsDumbBuffers(_ fd: FileDescriptor) -> Bool {
        if let double = double(for: fd) { return double.supportsDumbBuffers() }
        var value: UInt64 = 0
        return drmGetCap(fd.rawValue, UInt64(DRM_CAP_DUMB_BUFFER), &value) == 0 && value != 0
    }

    /// drmModeGetResources; release with `free(_:)`.
    static func resources(_ fd: FileDescriptor) -> drmModeResPtr? {
        if let double = double(for: fd) { return double.resources() }
        return drmModeGetResources(fd.rawValue)
    }

    /// drmModeFreeResources.
    static func free(_ resources: drmModeResPtr) { drmModeFreeResources(resources) }

    /// drmModeGetConnector (probing: the kernel asks the monitor again) or
    /// drmModeGetConnectorCurrent (what it last found); release with `free(_:)`.
    static func connector(_ fd: FileDescriptor, _ id: UInt32, probing: Bool) -> drmModeConnectorPtr? {
        if let double = double(for: fd) { return double.connector(id, probing: probing) }
        return probing ? drmModeGetConnector(fd.rawValue, id) : drmModeGetConnectorCurrent(fd.rawValue, id)
    }

    /// drmModeFreeConnector.
    static func free(_ connector: drmModeConnectorPtr) { drmModeFreeConnector(connector) }

    /// drmModeGetEncoder; release with `free(_:)`.
    static func encoder(_ fd: FileDescriptor, _ id: UInt32) -> drmModeEncoderPtr? {
        if let double = double(for: fd) { return double.encoder(id) }
        return drmModeGetEncoder(fd.rawValue, id)
    }

    /// drmModeFreeEncoder.
    static func free(_ encoder: drmModeEncoderPtr) { drmModeFreeEncoder(encoder) }

    /// drmModeGetCrtc: the CRTC's state, saved to be restored later; release with `free(_:)`.
    static func crtc(_ fd: FileDescriptor, _ id: UInt32) -> drmModeCrtcPtr? {
        if let double = double(for: fd) { return double.crtc(id) }
        return drmModeGetCrtc(fd.rawValue, id)
    }

    /// drmModeFreeCrtc.
    static func free(_ crtc: drmModeCrtcPtr) { drmModeFreeCrtc(crtc) }

    /// drmModeCreateDumbBuffer at 32 bits per pixel.
    static func createDumb(_ fd: FileDescriptor, width: Int, height: Int, device: String, connector: String)
        throws(DisplayError) -> (handle: UInt32, pitch: UInt32, size: UInt64) {
        if let double = double(for: fd) {
            do { return try double.createDumb(width: width, height: height) } catch {
                throw fail(device, connector, "drmModeCreateDumbBuffer", error.rawValue)
            }
        }
        var handle: UInt32 = 0, pitch: UInt32 = 0, size: UInt64 = 0
        let r = drmModeCreateDumbBuffer(fd.rawValue, UInt32(width), UInt32(height), 32, 0, &handle, &pitch, &size)
        if r != 0 { throw fail(device, connector, "drmModeCreateDumbBuffer", errorCode(r)) }
        return (handle, pitch, size)
    }

    /// drmModeAddFB2 with XRGB8888, falling back to drmModeAddFB (depth 24, 32 bpp).
    static func addFramebuffer(_ fd: FileDescriptor, width: Int, height: Int, handle: UInt32, pitch: UInt32,
                               device: String, connector: String) throws(DisplayError) -> UInt32 {
        if let double = double(for: fd) {
            do { return try double.addFramebuffer(width: width, height: height, handle: handle, pitch: pitch) } catch {
                throw fail(device, connector, "drmModeAddFB2 and drmModeAddFB", error.rawValue)
            }
        }
        var id: UInt32 = 0
        var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (pitch, 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        let r = withUnsafePointer(to: &handles) { h in
            withUnsafePointer(to: &pitches) { p in
                withUnsafePointer(to: &offsets) { o in
                    drmModeAddFB2(fd.rawValue, UInt32(width), UInt32(height), formatXRGB8888,
                                  UnsafeRawPointer(h).assumingMemoryBound(to: UInt32.self),
                                  UnsafeRawPointer(p).assumingMemoryBound(to: UInt32.self),
                                  UnsafeRawPointer(o).assumingMemoryBound(to: UInt32.self), &id, 0)
                }
            }
        }
        if r == 0 { return id }
        let legacy = drmModeAddFB(fd.rawValue, UInt32(width), UInt32(height), 24, 32, pitch, handle, &id)
        if legacy != 0 { throw fail(device, connector, "drmModeAddFB2 and drmModeAddFB", errorCode(legacy)) }
        return id
    }

    /// drmModeMapDumbBuffer, then SkeletonSystem's mmap(2), shared and writable.
    static func map(_ fd: FileDescriptor, handle: UInt32, size: UInt64, device: String, connector: String)
        throws(DisplayError) -> UnsafeMutableRawPointer {
        if let double = double(for: fd) {
            do { return try double.map(handle: handle, size: size) } catch {
                throw fail(device, connector, "drmModeMapDumbBuffer", error.rawValue)
            }
        }
        var offset: UInt64 = 0
        let r = drmModeMapDumbBuffer(fd.rawValue, handle, &offset)
        if r != 0 { throw fail(device, connector, "drmModeMapDumbBuffer", errorCode(r)) }
        do { return try SystemCalls.mapShared(fd, length: Int(size), offset: offset) } catch {
            throw fail(device, connector, "mmap", error.rawValue)
        }
    }

    static func unmap(_ pointer: UnsafeMutableRawPointer, size: UInt64) { SystemCalls.unmap(pointer, length: Int(size)) }
    static func removeFramebuffer(_ fd: FileDescriptor, _ id: UInt32) {
        if let double = double(for: fd) { return double.removeFramebuffer(id) }
        _ = drmModeRmFB(fd.rawValue, id)
    }

    static func destroyDumb(_ fd: FileDescriptor, _ handle: UInt32) {
        if let double = double(for: fd) { return double.destroyDumb(handle) }
        _ = drmModeDestroyDumbBuffer(fd.rawValue, handle)
    }

    /// drmModeSetCrtc for one connector; returns the errno on failure.
    static func setCrtc(_ fd: FileDescriptor, crtc: UInt32, framebuffer: UInt32, connector: UInt32, mode: drmModeModeInfo) -> Int32? {
        if let double = double(for: fd) { return double.setCrtc(crtc, framebuffer: framebuffer, connector: connector, mode: mode) }
        var connectorID = connector
        var m = mode
        let r = drmModeSetCrtc(fd.rawValue, crtc, framebuffer, 0, 0, &connectorID, 1, &m)
        return r == 0 ? nil : errorCode(r)
    }

    /// drmModeSetCrtc back to what drmModeGetCrtc saved (the console), or the CRTC off when
    /// nothing was showing.
    static func restoreCrtc(_ fd: FileDescriptor, saved: drmModeCrtcPtr?, crtc: UInt32, connector: UInt32) {
        if let saved, saved.pointee.mode_valid != 0 {
            if let double = double(for: fd) {
                _ = double.setCrtc(saved.pointee.crtc_id, framebuffer: saved.pointee.buffer_id, connector: connector, mode: saved.pointee.mode)
                return
            }
            var connectorID = connector
            var savedMode = saved.pointee.mode
            _ = drmModeSetCrtc(fd.rawValue, saved.pointee.crtc_id, saved.pointee.buffer_id, saved.pointee.x, saved.pointee.y,
                               &connectorID, 1, &savedMode)
        } else {
            disableCrtc(fd, crtc)
        }
    }

    /// drmModeSetCrtc with no framebuffer: the CRTC stops scanning out and is free.
    static func disableCrtc(_ fd: FileDescriptor, _ crtc: UInt32) {
        if let double = double(for: fd) { _ = double.setCrtc(crtc, framebuffer: 0, connector: nil, mode: nil); return }
        _ = drmModeSetCrtc(fd.rawValue, crtc, 0, 0, 0, nil, 0, nil)
    }

    /// The same mode, field for field (its name included).
    static func sameMode(_ a: drmModeModeInfo, _ b: drmModeModeInfo) -> Bool {
        withUnsafeBytes(of: a) { x in withUnsafeBytes(of: b) { y in memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 } }
    }

    /// drmModePageFlip with an event whose user data is the CRTC id; returns the errno on failure.
    static func pageFlip(_ fd: FileDescriptor, crtc: UInt32, framebuffer: UInt32) -> Int32? {
        if let double = double(for: fd) { return double.pageFlip(crtc: crtc, framebuffer: framebuffer) }
        let r = drmModePageFlip(fd.rawValue, crtc, framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT), UnsafeMutableRawPointer(bitPattern: UInt(crtc)))
        return r == 0 ? nil : errorCode(r)
    }

    /// drmModeDirtyFB over the whole framebuffer, or over `rects` alone; returns the errno on failure.
    static func dirty(_ fd: FileDescriptor, framebuffer: UInt32, rects: [PixelRect] = []) -> Int32? {
        if let double = double(for: fd) { return double.dirty(framebuffer: framebuffer, rects: rects) }
        var clips = rects.map {
            drmModeClip(x1: UInt16(clamping: $0.x), y1: UInt16(clamping: $0.y), x2: UInt16(clamping: $0.maxX), y2: UInt16(clamping: $0.maxY))
        }
        let r = clips.isEmpty ? drmModeDirtyFB(fd.rawValue, framebuffer, nil, 0)
            : drmModeDirtyFB(fd.rawValue, framebuffer, &clips, UInt32(clips.count))
        return r == 0 ? nil : errorCode(r)
    }

    /// The framebuffer the CRTC scans out (`skdrm_crtc_framebuffer`: DRM_IOCTL_MODE_GETCRTC); nil
    /// when the call failed.
    static func scannedOut(_ fd: FileDescriptor, crtc: UInt32) -> UInt32? {
        if let double = double(for: fd) { return double.scannedOut(crtc: crtc) }
        let id = skdrm_crtc_framebuffer(fd.rawValue, crtc)
        return id < 0 ? nil : UInt32(id)
    }

    /// drmHandleEvent: the CRTC ids whose page flips completed.
    static func completedFlips(_ fd: FileDescriptor) -> [UInt32] {
        if let double = double(for: fd) { return double.completedFlips() }
        var crtcs = [UInt32](repeating: 0, count: 32)
        let n = skdrm_collect_flips(fd.rawValue, &crtcs, Int32(crtcs.count))
        return n > 0 ? Array(crtcs[0..<Int(n)]) : []
    }

    static func setMaster(_ fd: FileDescriptor) -> Int32? {
        if let double = double(for: fd) { return double.setMaster() }
        return drmSetMaster(fd.rawValue) == 0 ? nil : errno
    }

    static func isMaster(_ fd: FileDescriptor) -> Bool {
        if let double = double(for: fd) { return double.isMaster() }
        return drmIsMaster(fd.rawValue) != 0
    }

    /// DRM_IOCTL_MODE_CLOSEFB (Linux 6.8): lets a framebuffer outlive our file, so a retained
    /// frame stays on screen after we exit. Returns the errno (ENOTTY or EINVAL before 6.8).
    static func closeFramebuffer(_ fd: FileDescriptor, _ id: UInt32) -> Int32? {
        if let double = double(for: fd) { return double.closeFramebuffer(id) }
        return skdrm_close_framebuffer(fd.rawValue, id) == 0 ? nil : errno
    }

    static func dropMaster(_ fd: FileDescriptor) -> Int32? {
        if let double = double(for: fd) { return double.dropMaster() }
        return drmDropMaster(fd.rawValue) == 0 ? nil : errno
    }

    /// poll(2) for readability, at most `milliseconds`.
    static func waitReadable(_ fd: FileDescriptor, milliseconds: Int32) -> Bool {
        if let double = double(for: fd) { return double.waitReadable(milliseconds: milliseconds) }
        return !SystemCalls.pollReady([Watch(descriptor: fd, events: .readable)], timeoutMilliseconds: milliseconds).isEmpty
    }

    static func close(_ fd: FileDescriptor) {
        if let double = double(for: fd) { return double.close() }
        fd.close()
    }

    /// The connector's name as the kernel prints it, such as "HDMI-A-1" or "Virtual-1".
    static func connectorName(type: UInt32, typeID: UInt32) -> String {
        let name = drmModeGetConnectorTypeName(type).map { String(cString: $0) } ?? String("Unknown", number: type)
        return String(name + "-", number: typeID)
    }

    /// The connector's "panel orientation" property (0 normal, 1 upside down, 2 left side up,
    /// 3 right side up); nil when it has none.
    static func panelOrientation(_ fd: FileDescriptor, connector: UInt32) -> Int? {
        if let double = double(for: fd) { return double.panelOrientation(connector: connector) }
        let value = skdrm_connector_panel_orientation(fd.rawValue, connector)
        return value < 0 ? nil : Int(value)
    }

    static func isNonDesktop(_ fd: FileDescriptor, connector: UInt32) -> Bool {
        if let double = double(for: fd) { return double.isNonDesktop(connector: connector) }
        return skdrm_connector_is_non_desktop(fd.rawValue, connector) != 0
    }

    static func refreshMillihertz(_ mode: drmModeModeInfo) -> UInt32 {
        var m = mode
        return skdrm_mode_refresh_millihertz(&m)
    }

    /// The card nodes under /dev/dri (`cardN`), in the order of N (card2 before card10).
    static func cardPaths(directory: String = "/dev/dri") -> [String] {
        var paths: [String] = []
        forEachCard(directory: directory) { path in
            paths.append(path)
            return true
        }
        return paths
    }

    /// Calls `body` with each card node under `directory` in the order of N, until it returns
    /// false. The directory is read again for each card, and nothing is collected: this runs
    /// on the boot path, where an array would make the Swift runtime instantiate its metadata.
    static func forEachCard(directory: String = "/dev/dri", _ body: (String) -> Bool) {
        var previous = -1
        while let number = nextCardNumber(after: previous, directory: directory) {
            guard body(String(directory + "/card", number: UInt32(number))) else { return }
            previous = number
        }
    }

    /// The smallest N above `after` of a `cardN` in `directory`.
    private static func nextCardNumber(after: Int, directory: String) -> Int? {
        guard let dir = directory.withCString({ opendir($0) }) else { return nil }
        defer { closedir(dir) }
        var next: Int?
        while let entry = readdir(dir) {
            let number = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { cardNumber($0) }
            }
            if let number, number > after, number < next ?? Int.max { next = number }
        }
        return next
    }

    /// N of a file name `cardN`, read in place.
    private static func cardNumber(_ name: UnsafePointer<CChar>) -> Int? {
        guard strncmp(name, "card", 4) == 0, name[4] != 0 else { return nil }
        var number = 0
        var digit = name + 4
        while digit.pointee != 0 {
            guard (48...57).contains(digit.pointee), number < 1 << 20 else { return nil }
            number = number * 10 + Int(digit.pointee - 48)
            digit += 1
        }
        return number
    }
}

import SkeletonSystem

/// A framebuffer device opened and its memory mapped: its mode (FBIOGET_VSCREENINFO and
/// FBIOGET_FSCREENINFO), the pixel layout that mode implies, and the memory. Shared by
/// `FramebufferDisplay` and the boot path's `BootFramebuffer`, whose mapping the display adopts.
struct MappedFramebuffer {
    let fd: FileDescriptor
    let info: FramebufferInfo
    let format: FramebufferFormat
    let memory: UnsafeMutableRawPointer

    /// Opens `path`, reads its mode and maps its memory; nothing is drawn.
    static func open(_ path: String) throws(DisplayError) -> MappedFramebuffer {
        let fd: FileDescriptor
        do { fd = try SystemCalls.openDevice(path) } catch {
            throw DisplayError("\(path): \(error)", deviceGone: SystemCalls.isNoSuchFile(error.rawValue))
        }
        let info: FramebufferInfo
        do { info = try SystemCalls.framebufferInfo(fd) } catch {
            fd.close()
            throw DisplayError("\(path): \(error) (not a framebuffer device?)")
        }
        let format: FramebufferFormat
        switch FramebufferFormat.of(info) {
        case .success(let f): format = f
        case .failure(let error):
            fd.close()
            throw DisplayError("\(path) (\(info.id), \(info.width)x\(info.height)): \(error.message)")
        }
        // The page on screen (from the pan offset's row) must lie in the memory mapped.
        guard info.width > 0, info.height > 0, info.lineLength >= info.width * format.bytesPerPixel, info.yOffset >= 0,
              info.memoryLength >= info.lineLength * (info.yOffset + info.height) else {
            fd.close()
            throw DisplayError("\(path): the mode (\(info.width)x\(info.height) from row \(info.yOffset), \(info.lineLength) bytes a row) does not fit its \(info.memoryLength) bytes of memory")
        }
        let memory: UnsafeMutableRawPointer
        do { memory = try SystemCalls.mapShared(fd, length: info.memoryLength) } catch {
            fd.close()
            throw DisplayError("\(path): \(error)")
        }
        return MappedFramebuffer(fd: fd, info: info, format: format, memory: memory)
    }

    /// The page on screen: the row the driver's pan offset shows first.
    var pageOnScreen: UnsafeMutableRawPointer { memory + info.yOffset * info.lineLength }

    /// munmap and close, in reverse order of `open`.
    func close() {
        SystemCalls.unmap(memory, length: info.memoryLength)
        fd.close()
    }
}

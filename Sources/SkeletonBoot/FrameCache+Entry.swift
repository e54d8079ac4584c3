import SkeletonRender
import SkeletonLayout
import SkeletonSystem

extension FrameCache {
    /// An open, checked entry whose pixels are next in its file.
    public final class Entry {
        private let fd: FileDescriptor
        package let size: Size

        init(fd: FileDescriptor, size: Size) {
            self.fd = fd
            self.size = size
        }

        deinit { fd.close() }

        /// Reads the pixels into `canvas` (of the entry's size, any stride), writing only.
        public func read(into canvas: Canvas) -> Bool {
            guard canvas.width == size.width && canvas.height == size.height else { return false }
            let rowBytes = canvas.width * 4
            do {
                if canvas.stride == canvas.width {
                    return try fd.readFully(into: UnsafeMutableRawBufferPointer(start: canvas.base, count: rowBytes * canvas.height))
                }
                for y in 0..<canvas.height {
                    guard try fd.readFully(into: UnsafeMutableRawBufferPointer(start: canvas.row(y), count: rowBytes)) else {
                        return false
                    }
                }
                return true
            } catch {
                return false
            }
        }
    }
}

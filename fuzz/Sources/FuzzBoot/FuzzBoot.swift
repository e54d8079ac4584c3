import SkeletonBoot
import SkeletonDisplay
import SkeletonLayout
import SkeletonRender

/// A file from the cache directory read as a start reads it: as a boot record (its confirmed
/// outputs and the frame entries they name; its choices for the fixtures' connectors and its
/// frame for their size; its framebuffer's fields) and as a frame cache entry (header, size and pixels).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBoot(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    if let record = BootRecordView(bytes) {
        if let (_, screens) = record.screens {
            var screen: BootScreen? = screens
            while let s = screen {
                _ = s.size
                screen = s.next
            }
        }
        for name in BootFixtures.connectorNames {
            _ = record.accepts(name)
            _ = record.wantedSize(name)
        }
        _ = record.device
        // Read, not shown: an input may name any device, and the fuzzer must not draw on one.
        _ = record.framebuffer
        if let path = record.framePath(for: BootFixtures.frameSize) { readEntry(path) }
    }
    fixtures.withInputFile(bytes, readEntry)
    return 0
}

private let fixtures = BootFixtures()

/// Opens a frame cache entry and reads its pixels: into a plain buffer when its width is even,
/// else into one whose rows are wider than the entry's (a framebuffer's pitch).
private func readEntry(_ path: String) {
    guard let entry = FrameCache.openEntry(path) else { return }
    let width = entry.size.width, height = entry.size.height
    let stride = width % 2 == 0 ? width : width + 3
    let pixels = UnsafeMutablePointer<UInt32>.allocate(capacity: stride * height)
    defer { pixels.deallocate() }
    _ = entry.read(into: Canvas(base: pixels, width: width, height: height, stride: stride))
}

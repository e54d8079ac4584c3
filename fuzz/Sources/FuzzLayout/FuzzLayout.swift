import SkeletonLayout
import SkeletonRender

/// A layout file through the loader (parse, decode, validate, resolve at the design size), then
/// one frame at a small output size, fully and as the damage path draws the next one.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLayout(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    switch LayoutLoader.load(text: Array(UnsafeBufferPointer(start: data, count: size)), file: "fuzz.json") {
    case .failure(let error):
        _ = error.description
    case .success(let layout):
        let renderer = FrameRenderer(layout: layout, outputSize: Size(width: 64, height: 48))
        let frame = PixelBuffer(size: renderer.layout.outputSize)
        _ = renderer.renderFull(at: 0, into: frame.canvas)
        _ = renderer.render(at: 0.4, into: frame.canvas)
    }
    return 0
}

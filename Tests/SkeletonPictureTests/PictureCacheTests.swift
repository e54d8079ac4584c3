import SkeletonLayout
import SkeletonPicture
import SkeletonRender
import Testing

@Suite("Picture cache")
struct PictureCacheTests {
    @Test func eachSourceIsDecodedOnce() throws {
        let directory = TemporaryDirectory("picture-cache")
        defer { directory.remove() }
        let source = PictureSource.file(directory.write("a.png", PNGBytes.rgb(width: 4, height: 4) { _, _ in 0x00FF00 }))
        let loader = PictureLoader()
        let first = try loader.load(source)
        #expect(loader.decodeCount == 1)
        #expect(try loader.load(source).pixels === first.pixels)
        let box = try loader.render(source, mode: .scaleAspectFit, width: 40, height: 20)
        #expect(try loader.render(source, mode: .scaleAspectFit, width: 40, height: 20) === box)
        #expect(try loader.render(source, mode: .scaleAspectFill, width: 40, height: 20) !== box)
        #expect(try loader.render(source, mode: .scaleAspectFit, width: 41, height: 20) !== box)
        #expect(loader.decodeCount == 1)
        // The file changing does not matter until the loader forgets.
        directory.write("a.png", Array("no longer a PNG".utf8))
        #expect(try loader.load(source).pixels === first.pixels)
        loader.removeAll()
        #expect(throws: PictureError.self) { try loader.load(source) }
        #expect(loader.decodeCount == 2)
        // A broken file is not read again either.
        #expect(throws: PictureError.self) { try loader.render(source, mode: .center, width: 3, height: 3) }
        #expect(loader.decodeCount == 2)
    }

    /// A picture of more than `keptPixels` is not kept once placed: its placement is.
    @Test func aHugePictureIsNotKeptOncePlaced() throws {
        let directory = TemporaryDirectory("picture-cache")
        defer { directory.remove() }
        let side = 2049  // 2049 x 2049 is just over 4 megapixels
        #expect(side * side > PictureLoader.keptPixels)
        let source = PictureSource.file(directory.write("big.png", PNGBytes.rgb(width: side, height: side) { _, _ in 0x2040C0 }))
        let loader = PictureLoader()
        let box = try loader.render(source, mode: .scaleToFill, width: 20, height: 20)
        #expect(box[10, 10] & 0xFFFFFF == 0x2040C0)
        #expect(try loader.render(source, mode: .scaleToFill, width: 20, height: 20) === box, "the placement is kept")
        #expect(loader.decodeCount == 1)
        _ = try loader.render(source, mode: .scaleToFill, width: 30, height: 30)
        #expect(loader.decodeCount == 2, "decoded again for another placement: the picture was not kept")
    }

    @Test func theFirmwareLogoIsReadOnce() throws {
        let directory = BGRTTests.logo()
        defer { directory.remove() }
        let loader = PictureLoader(bgrtDirectory: directory.path)
        _ = try loader.bgrtPlacement(outputWidth: 1024, outputHeight: 768)
        let logo = try loader.load(.bgrt)
        _ = try loader.render(.bgrt, mode: .scaleToFill, width: 100, height: 50)
        _ = try loader.bgrtPlacement(outputWidth: 800, outputHeight: 600)
        #expect(try loader.load(.bgrt).pixels === logo.pixels)
        #expect(loader.decodeCount == 1)
    }
}

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

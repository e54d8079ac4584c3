import SkeletonPicture
import SkeletonDisplay
import SkeletonRender
import Testing

@Suite("Image formats")
struct ImageFormatTests {
    @Test func ppm() {
        let image = PixelBuffer(width: 2, height: 1)
        image[0, 0] = 0x102030
        image[1, 0] = 0xFFFEFD
        #expect(PPMEncoder.encode(image.canvas) == Array("P6\n2 1\n255\n".utf8) + [0x10, 0x20, 0x30, 0xFF, 0xFE, 0xFD])
    }

    @Test func formatsByExtension() {
        #expect(ImageFile.format(for: "a.png") == .png)
        #expect(ImageFile.format(for: "A.PNG") == .png)
        #expect(ImageFile.format(for: "a.ppm") == .ppm)
        #expect(ImageFile.format(for: "a.jpg") == nil)
        #expect(ImageFile.format(for: "png") == nil)
    }
}

import SkeletonPicture
import SkeletonRender
import Testing

@Suite("Firmware logo (BGRT)")
struct BGRTTests {
    /// A BGRT directory as the kernel shows it: image, xoffset, yoffset, status.
    static func firmware(image: [UInt8], x: Int, y: Int, status: Int = 1) -> TemporaryDirectory {
        let directory = TemporaryDirectory("bgrt")
        directory.write("image", image)
        directory.write("xoffset", text: "\(x)\n")
        directory.write("yoffset", text: "\(y)\n")
        directory.write("status", text: "\(status)\n")
        return directory
    }

    /// A 200x100 logo the firmware centred across a 1024x768 mode, 250 pixels down.
    static func logo(status: Int = 1) -> TemporaryDirectory {
        firmware(image: BMPBytes.bottomUp24(width: 200, height: 100, pixels: Array(repeating: 0x3366CC, count: 200 * 100)),
                 x: 412, y: 250, status: status)
    }

    static func placement(_ loader: PictureLoader, _ width: Int, _ height: Int, firmware: (Int, Int)? = nil) throws -> PixelRect {
        let p = try loader.bgrtPlacement(outputWidth: width, outputHeight: height, firmwareWidth: firmware?.0, firmwareHeight: firmware?.1)
        return PixelRect(x: p.x, y: p.y, width: p.width, height: p.height)
    }

    @Test func atTheFirmwaresModeTheLogoStaysWhereItWas() throws {
        let directory = Self.logo()
        defer { directory.remove() }
        let loader = PictureLoader(bgrtDirectory: directory.path)
        #expect(try Self.placement(loader, 1024, 768) == PixelRect(x: 412, y: 250, width: 200, height: 100))
        #expect(try Self.placement(loader, 1024, 768, firmware: (1024, 768)) == PixelRect(x: 412, y: 250, width: 200, height: 100))
        let logo = try loader.render(.bgrt, mode: .scaleToFill, width: 200, height: 100)
        #expect(logo.pixels.allSatisfy { $0 == 0xFF33_66CC })
    }

    /// An odd-width logo (193 pixels, as OVMF's) centred as Linux checks it, rounded down: at 415
    /// on 1024, not 415.5. Found under OVMF: it was drawn one pixel right of the firmware's.
    @Test func anOddLogoCentredRoundingDownStaysWhereItWas() throws {
        let directory = Self.firmware(image: BMPBytes.bottomUp24(width: 193, height: 207, pixels: Array(repeating: 0x3366CC, count: 193 * 207)),
                                      x: 415, y: 264)
        defer { directory.remove() }
        let loader = PictureLoader(bgrtDirectory: directory.path)
        #expect(try Self.placement(loader, 1024, 768) == PixelRect(x: 415, y: 264, width: 193, height: 207))
    }

    /// sysfs reports each attribute as a 4096-byte page whatever it holds.
    @Test func attributesOfAPageAreRead() throws {
        let directory = Self.logo()
        defer { directory.remove() }
        directory.write("xoffset", text: "412\n" + String(repeating: "\n", count: 4000))
        let loader = PictureLoader(bgrtDirectory: directory.path)
        #expect(try Self.placement(loader, 1024, 768) == PixelRect(x: 412, y: 250, width: 200, height: 100))
    }

    @Test func atAnotherModeItIsScaledAboutTheCentreAndTheGoldenLine() throws {
        let directory = Self.logo()
        defer { directory.remove() }
        let loader = PictureLoader(bgrtDirectory: directory.path)
        // Twice the firmware's mode (inferred: 2 * 412 + 200 = 1024 wide): everything doubles.
        #expect(try Self.placement(loader, 2048, 1536) == PixelRect(x: 824, y: 500, width: 400, height: 200))
        // 1024x768 shown on 1920x1080: s = min(1.875, 1.40625); 281x141 (140.6), its centre
        // on the middle across (960 - 140.5 = 819.5 rounds to 820) and 6.624 * s below the 38.2%
        // line (412.56 + 9.315 - 70.5 = 351.4).
        #expect(try Self.placement(loader, 1920, 1080, firmware: (1024, 768)) == PixelRect(x: 820, y: 351, width: 281, height: 141))
    }

    @Test func offsetsThatDoNotFitTheGivenModeFallBackToPlymouthsDefault() throws {
        let directory = Self.logo()
        defer { directory.remove() }
        let loader = PictureLoader(bgrtDirectory: directory.path)
        // Not centred on 1280 wide: centred, unscaled, centre at 38.2% (412.56 rounds to 413, - 50).
        #expect(try Self.placement(loader, 1920, 1080, firmware: (1280, 1024)) == PixelRect(x: 860, y: 363, width: 200, height: 100))
    }

    @Test func aRotatedLogoIsRefused() throws {
        let directory = Self.logo(status: 3)
        defer { directory.remove() }
        #expect(throws: PictureError.self) { try PictureLoader(bgrtDirectory: directory.path).bgrtPlacement(outputWidth: 800, outputHeight: 600) }
        do { _ = try PictureLoader(bgrtDirectory: directory.path).bgrtPlacement(outputWidth: 800, outputHeight: 600) } catch {
            #expect(error.file == directory.path + "/status" && error.reason.contains("90 degrees"), "\(error)")
        }
    }

    @Test func noFirmwareLogoIsAnErrorNamingTheFile() throws {
        let directory = TemporaryDirectory("no-bgrt")
        defer { directory.remove() }
        let loader = PictureLoader(bgrtDirectory: directory.path + "/bgrt")
        do {
            _ = try loader.bgrtPlacement(outputWidth: 800, outputHeight: 600)
            Issue.record("placed a logo the firmware does not have")
        } catch {
            #expect(error.description == "cannot load picture \(directory.path)/bgrt/status: no such file (the firmware has no boot logo)")
        }
        #expect(throws: PictureError.self) { try loader.load(.bgrt) }
    }

    @Test func aBadOffsetIsNamed() throws {
        let directory = Self.logo()
        defer { directory.remove() }
        directory.write("yoffset", text: "-3\n")
        do {
            _ = try PictureLoader(bgrtDirectory: directory.path).bgrtPlacement(outputWidth: 800, outputHeight: 600)
            Issue.record("accepted a negative offset")
        } catch {
            #expect(error.file == directory.path + "/yoffset" && error.reason == "not a non-negative number")
        }
    }
}

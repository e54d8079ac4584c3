import SkeletonDisplay
import SkeletonLayout
import SkeletonRender
import SkeletonSystem
import Testing

@Suite("fbdev: pixel layouts from the kernel's bitfields, damage converted into the mapped memory")
struct FramebufferTests {
    /// The bytes one XRGB8888 pixel becomes in `format`.
    func bytes(of pixel: UInt32, in format: FramebufferFormat) -> [UInt8] {
        var source = pixel
        var out = [UInt8](repeating: 0xEE, count: format.bytesPerPixel)
        out.withUnsafeMutableBytes { raw in format.convertRow(&source, into: raw.baseAddress!, count: 1) }
        return out
    }

    func info(bits: Int, red: (Int, Int), green: (Int, Int), blue: (Int, Int), width: Int = 4, height: Int = 3,
              pitch: Int? = nil) -> FramebufferInfo {
        let lineLength = pitch ?? width * bits / 8
        return FramebufferInfo(id: "test", width: width, height: height, virtualWidth: width, virtualHeight: height, bitsPerPixel: bits,
                               red: .init(offset: red.0, length: red.1), green: .init(offset: green.0, length: green.1),
                               blue: .init(offset: blue.0, length: blue.1), lineLength: lineLength, memoryLength: lineLength * height)
    }

    @Test func eachLayoutFromItsBitfields() throws {
        let pixel: UInt32 = 0x00_12_34_56  // red 0x12, green 0x34, blue 0x56
        let xrgb = try FramebufferFormat.of(info(bits: 32, red: (16, 8), green: (8, 8), blue: (0, 8))).get()
        #expect(xrgb.layout == .xrgb8888 && bytes(of: pixel, in: xrgb) == [0x56, 0x34, 0x12, 0x00])
        let xbgr = try FramebufferFormat.of(info(bits: 32, red: (0, 8), green: (8, 8), blue: (16, 8))).get()
        #expect(xbgr.layout == .xbgr8888 && bytes(of: pixel, in: xbgr) == [0x12, 0x34, 0x56, 0x00])
        // vesafb at 24 bpp: packed, blue first in memory.
        let rgb888 = try FramebufferFormat.of(info(bits: 24, red: (16, 8), green: (8, 8), blue: (0, 8))).get()
        #expect(rgb888.layout == .rgb888 && bytes(of: pixel, in: rgb888) == [0x56, 0x34, 0x12])
        let bgr888 = try FramebufferFormat.of(info(bits: 24, red: (0, 8), green: (8, 8), blue: (16, 8))).get()
        #expect(bgr888.layout == .bgr888 && bytes(of: pixel, in: bgr888) == [0x12, 0x34, 0x56])
        // RGB565: 0x12 >> 3 = 2, 0x34 >> 2 = 13, 0x56 >> 3 = 10: 00010 001101 01010 = 0x11AA.
        let rgb565 = try FramebufferFormat.of(info(bits: 16, red: (11, 5), green: (5, 6), blue: (0, 5))).get()
        #expect(rgb565.layout == .rgb565 && bytes(of: pixel, in: rgb565) == [0xAA, 0x11])
        #expect(bytes(of: 0xFFFFFF, in: rgb565) == [0xFF, 0xFF] && bytes(of: 0, in: rgb565) == [0, 0])
    }

    @Test func packedRowsOfAnyLengthComeOutPixelByPixel() {
        // Five pixels: one block of four packed as words, then one byte by byte.
        let pixels: [UInt32] = [0x010203, 0x111213, 0x212223, 0x313233, 0x414243]
        for (format, order) in [(FramebufferFormat.rgb888, [2, 1, 0]),
                                (FramebufferFormat(bitsPerPixel: 24, red: .init(offset: 0, length: 8), green: .init(offset: 8, length: 8),
                                                   blue: .init(offset: 16, length: 8)), [0, 1, 2])] {
            var out = [UInt8](repeating: 0xEE, count: 16)
            pixels.withUnsafeBufferPointer { source in
                out.withUnsafeMutableBytes { format.convertRow(source.baseAddress!, into: $0.baseAddress!, count: 5) }
            }
            let expected = pixels.flatMap { p in order.map { UInt8(truncatingIfNeeded: p >> (8 * UInt32(2 - $0))) } }
            #expect(Array(out[0..<15]) == expected, "\(format)")
            #expect(out[15] == 0xEE, "nothing written past the row")
        }
    }

    @Test func anyOtherLayoutGoesThroughTheBitfields() throws {
        // RGB555 (vesafb's 15-bit modes report 16 bpp with a 5-bit green) and 10-bit channels.
        let rgb555 = try FramebufferFormat.of(info(bits: 16, red: (10, 5), green: (5, 5), blue: (0, 5))).get()
        #expect(rgb555.layout == .bitfields)
        #expect(bytes(of: 0x00_FF_00_00, in: rgb555) == [0x00, 0x7C])
        #expect(bytes(of: 0x00_00_FF_00, in: rgb555) == [0xE0, 0x03])
        let tenBit = try FramebufferFormat.of(info(bits: 32, red: (20, 10), green: (10, 10), blue: (0, 10))).get()
        #expect(tenBit.layout == .bitfields)
        // White is all ones in every channel; 0x80 becomes 0x202 (its top bits repeated below).
        #expect(bytes(of: 0xFFFFFF, in: tenBit) == [0xFF, 0xFF, 0xFF, 0x3F])
        #expect(bytes(of: 0x00_00_00_80, in: tenBit) == [0x02, 0x02, 0x00, 0x00])
        // The RGB565 fast path agrees with what its bitfields say, the way the generic path reads them.
        for pixel: UInt32 in [0x123456, 0xFFFFFF, 0x000000, 0x80FF01, 0x7F7F7F] {
            let out = bytes(of: pixel, in: .rgb565)
            let r = (pixel >> 16) & 0xFF, g = (pixel >> 8) & 0xFF, b = pixel & 0xFF
            #expect(UInt32(out[0]) | UInt32(out[1]) << 8 == (r >> 3) << 11 | (g >> 2) << 5 | b >> 3, "pixel \(pixel)")
        }
    }

    @Test func whatCannotBeDrawnIsRefusedWithTheReason() {
        let palette = FramebufferFormat.of(info(bits: 8, red: (0, 8), green: (0, 8), blue: (0, 8)))
        guard case .failure(let error) = palette else { Issue.record("8 bpp accepted"); return }
        #expect(error.message == "8 bits per pixel is not supported (16, 24 or 32 bits are)")
        let outside = FramebufferFormat.of(info(bits: 16, red: (12, 5), green: (5, 6), blue: (0, 5)))
        guard case .failure(let error2) = outside else { Issue.record("a channel past the pixel accepted"); return }
        #expect(error2.message == "the red channel (5 bits at 12) does not fit a 16-bit pixel")
    }

    /// A framebuffer display over memory: 5x3 at 16 bpp with rows 16 bytes apart (6 of padding).
    func display(format: FramebufferFormat = .rgb565, pitch: Int = 16) -> (FramebufferDisplay, UnsafeMutableRawBufferPointer) {
        let info = FramebufferInfo(id: "test", width: 5, height: 3, virtualWidth: 5, virtualHeight: 3, bitsPerPixel: format.bytesPerPixel * 8,
                                   red: format.red, green: format.green, blue: format.blue, lineLength: pitch, memoryLength: pitch * 3)
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: pitch * 3, alignment: 8)
        memory.initializeMemory(as: UInt8.self, repeating: 0xEE)
        return (FramebufferDisplay(path: "/dev/fb9", fd: nil, memory: memory.baseAddress!, info: info, format: format, console: nil), memory)
    }

    @Test func theFirstFrameIsWrittenWholeThenOnlyTheDamageAndNeverThePadding() throws {
        let (fb, memory) = display()
        defer { fb.close(); memory.deallocate() }
        fb.shadow.fill(fb.shadow.bounds, with: 0xFFFFFF)
        // The first present writes the whole frame, whatever damage it is given.
        #expect(try fb.present(damage: [PixelRect(x: 0, y: 0, width: 1, height: 1)]))
        for y in 0..<3 {
            #expect(Array(memory[(y * 16)..<(y * 16 + 10)]) == [UInt8](repeating: 0xFF, count: 10), "row \(y)")
            #expect(Array(memory[(y * 16 + 10)..<(y * 16 + 16)]) == [UInt8](repeating: 0xEE, count: 6), "padding of row \(y)")
        }
        // Then only the damage: the shadow changes everywhere, one pixel is presented.
        fb.shadow.fill(fb.shadow.bounds, with: 0x000000)
        #expect(try fb.present(damage: [PixelRect(x: 2, y: 1, width: 1, height: 1)]))
        #expect(memory[16 + 4] == 0 && memory[16 + 5] == 0)
        #expect(memory[16 + 2] == 0xFF && memory[16 + 6] == 0xFF && memory[4] == 0xFF && memory[32 + 4] == 0xFF)
        #expect(fb.framesPresented == 2)
        #expect(fb.status.format == "RGB565" && fb.status.pitch == 16)
    }

    @Test func aReleaseStopsPresentsAndAReacquireWritesWholeAgain() throws {
        let (fb, memory) = display(format: .rgb888)
        defer { fb.close(); memory.deallocate() }
        fb.shadow.fill(fb.shadow.bounds, with: 0x102030)
        #expect(try fb.present(damage: [fb.shadow.bounds]))
        fb.release(retainingPicture: true)
        #expect(!fb.canPresent)
        #expect(try fb.present(damage: [fb.shadow.bounds]) == false)
        #expect(Array(memory[0..<3]) == [0x30, 0x20, 0x10], "the retained frame stays")
        try fb.reacquire()
        memory.initializeMemory(as: UInt8.self, repeating: 0xEE)
        #expect(try fb.present(damage: []))
        #expect(Array(memory[(2 * 16 + 12)..<(2 * 16 + 15)]) == [0x30, 0x20, 0x10], "written whole after a reacquire")
    }

    @Test func aTurnedPictureLandsTurnedInTheFramebuffer() throws {
        // A 5x3 framebuffer (XRGB8888, rows 24 bytes apart) on its side: the picture is 3x5.
        let format = FramebufferFormat.xrgb8888
        let info = FramebufferInfo(id: "test", width: 5, height: 3, virtualWidth: 5, virtualHeight: 3, bitsPerPixel: 32,
                                   red: format.red, green: format.green, blue: format.blue, lineLength: 24, memoryLength: 72)
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: 72, alignment: 8)
        memory.initializeMemory(as: UInt8.self, repeating: 0)
        let fb = FramebufferDisplay(path: "/dev/fb9", fd: nil, memory: memory.baseAddress!, info: info, format: format,
                                    rotation: .clockwise90, console: nil)
        defer { fb.close(); memory.deallocate() }
        #expect(fb.size == Size(width: 3, height: 5))
        for y in 0..<5 { for x in 0..<3 { fb.shadow[x, y] = UInt32(y << 8 | x) } }
        #expect(try fb.present(damage: [fb.shadow.bounds]))
        // Picture pixel (x, y) is at (height - 1 - y, x) of the framebuffer: (4 - y, x).
        let words = memory.bindMemory(to: UInt32.self)
        for y in 0..<5 {
            for x in 0..<3 { #expect(words[x * 6 + (4 - y)] == UInt32(y << 8 | x), "(\(x), \(y))") }
        }
        // A damaged pixel goes to its turned place only.
        fb.shadow[1, 0] = 0xABCDEF
        fb.shadow[2, 4] = 0x123456
        #expect(try fb.present(damage: [PixelRect(x: 1, y: 0, width: 1, height: 1)]))
        #expect(words[1 * 6 + 4] == 0xABCDEF)
        #expect(words[2 * 6 + 0] == UInt32(4 << 8 | 2), "outside the damage, the old frame stays")
        #expect(fb.status.rotation == 90)
    }

    @Test func aConsoleThatCannotBeQuietedIsANoteNotAProblem() throws {
        let info = FramebufferInfo(id: "test", width: 2, height: 2, virtualWidth: 2, virtualHeight: 2, bitsPerPixel: 32,
                                   red: .init(offset: 16, length: 8), green: .init(offset: 8, length: 8),
                                   blue: .init(offset: 0, length: 8), lineLength: 8, memoryLength: 16)
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 8)
        defer { memory.deallocate() }
        let console = ConsoleQuieter(consolePath: "/nonexistent/tty0", cursorBlinkPath: "/nonexistent/cursor_blink")
        let fb = FramebufferDisplay(path: "/dev/fb9", fd: nil, memory: memory.baseAddress!, info: info, format: .xrgb8888, console: console)
        defer { fb.close() }
        #expect(try fb.present(damage: [fb.shadow.bounds]))
        #expect(fb.problem == nil, "a show --wait must not be refused for it")
        #expect(fb.status.console == ("/nonexistent/tty0: cannot open it; the text console may draw over the skeleton"))
    }
}

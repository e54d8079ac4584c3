import SkeletonLayout
import SkeletonRender
import Testing

@Suite("Rotation: the picture turned into the buffer, and its damage with it")
struct RotationTests {
    /// A 7x4 picture whose every pixel is its own coordinates.
    func picture() -> PixelBuffer {
        let buffer = PixelBuffer(size: Size(width: 7, height: 4))
        for y in 0..<4 { for x in 0..<7 { buffer.canvas[x, y] = UInt32(y << 8 | x) } }
        return buffer
    }

    /// Where pixel (x, y) of a w x h picture lands, turned clockwise by `rotation`, by the definition.
    func landing(_ x: Int, _ y: Int, w: Int, h: Int, _ rotation: Rotation) -> (Int, Int) {
        switch rotation {
        case .upright: return (x, y)
        case .clockwise90: return (h - 1 - y, x)
        case .upsideDown: return (w - 1 - x, h - 1 - y)
        case .clockwise270: return (y, w - 1 - x)
        }
    }

    @Test(arguments: Rotation.allCases)
    func aWholeCopyPutsEveryPixelWhereTheTurnSays(rotation: Rotation) {
        let source = picture()
        let size = rotation.turned(Size(width: 7, height: 4))
        let target = PixelBuffer(size: size, fill: 0xDEAD)
        target.canvas.copy(source.canvas.bounds, from: source.canvas, turnedBy: rotation)
        for y in 0..<4 {
            for x in 0..<7 {
                let (tx, ty) = landing(x, y, w: 7, h: 4, rotation)
                #expect(target.canvas[tx, ty] == UInt32(y << 8 | x), "(\(x), \(y)) at \(rotation)")
            }
        }
    }

    @Test(arguments: Rotation.allCases)
    func aDamagedRectLandsExactlyOnItsPhysicalRect(rotation: Rotation) {
        let source = picture()
        let size = rotation.turned(Size(width: 7, height: 4))
        let target = PixelBuffer(size: size, fill: 0xDEAD)
        let damage = PixelRect(x: 2, y: 1, width: 3, height: 2)
        target.canvas.copy(damage, from: source.canvas, turnedBy: rotation)
        let physical = rotation.physicalRect(damage, logical: Size(width: 7, height: 4))
        for y in 0..<size.height {
            for x in 0..<size.width {
                let inside = physical.contains(PixelRect(x: x, y: y, width: 1, height: 1))
                #expect((target.canvas[x, y] != 0xDEAD) == inside, "(\(x), \(y)) at \(rotation), physical \(physical)")
            }
        }
    }

    @Test func aLargerPictureCrossesTilesIntact() {
        // 70x45: several 32-pixel tiles, with partial ones at the edges.
        let source = PixelBuffer(size: Size(width: 70, height: 45))
        for y in 0..<45 { for x in 0..<70 { source.canvas[x, y] = UInt32(y << 8 | x) } }
        // Rects whose sides are and are not multiples of the 4x4 blocks, at odd origins.
        for rect in [PixelRect(x: 3, y: 5, width: 60, height: 38), PixelRect(x: 1, y: 2, width: 67, height: 41),
                     PixelRect(x: 33, y: 31, width: 3, height: 2)] {
            for rotation in [Rotation.clockwise90, .clockwise270] {
                let target = PixelBuffer(size: Size(width: 45, height: 70), fill: 0xDEAD)
                target.canvas.copy(rect, from: source.canvas, turnedBy: rotation)
                var expected = [UInt32](repeating: 0xDEAD, count: 45 * 70)
                for y in rect.y..<rect.maxY {
                    for x in rect.x..<rect.maxX {
                        let (tx, ty) = landing(x, y, w: 70, h: 45, rotation)
                        expected[ty * 45 + tx] = UInt32(y << 8 | x)
                    }
                }
                #expect(target.pixels == expected, "\(rect) turned \(rotation): every pixel of the rect where the turn says, nothing else touched")
            }
        }
    }

    @Test func degreesAndPanelOrientations() {
        #expect(Rotation(degrees: 90) == .clockwise90 && Rotation(degrees: 45) == nil)
        #expect(Rotation(panelOrientation: 1) == .upsideDown && Rotation(panelOrientation: 2) == .clockwise90)
        #expect(Rotation(panelOrientation: 3) == .clockwise270 && Rotation(panelOrientation: 4) == nil)
        #expect(Rotation.clockwise90.turned(Size(width: 1920, height: 1080)) == Size(width: 1080, height: 1920))
        #expect(Rotation.upsideDown.turned(Size(width: 1920, height: 1080)) == Size(width: 1920, height: 1080))
    }
}

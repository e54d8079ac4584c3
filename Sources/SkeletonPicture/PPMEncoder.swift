import SkeletonRender

/// Encodes XRGB8888 pixels as binary PPM (P6), the simplest lossless format.
public enum PPMEncoder {
    public static func encode(_ canvas: Canvas) -> [UInt8] {
        var out = Array("P6\n\(canvas.width) \(canvas.height)\n255\n".utf8)
        out.reserveCapacity(out.count + canvas.width * canvas.height * 3)
        for y in 0..<canvas.height {
            let row = canvas.row(y)
            for x in 0..<canvas.width {
                let p = row[x]
                out.append(UInt8(truncatingIfNeeded: p >> 16))
                out.append(UInt8(truncatingIfNeeded: p >> 8))
                out.append(UInt8(truncatingIfNeeded: p))
            }
        }
        return out
    }
}

import CZlib
import SkeletonRender

/// Encodes XRGB8888 pixels as an 8-bit RGB PNG, compressed with zlib.
public enum PNGEncoder {
    public static func encode(_ canvas: Canvas) -> [UInt8] {
        let rowBytes = canvas.width * 3
        var raw = [UInt8](repeating: 0, count: (rowBytes + 1) * canvas.height)
        raw.withUnsafeMutableBufferPointer { out in
            var o = 0
            for y in 0..<canvas.height {
                // Filter "Sub": each byte minus the one three to its left; it compresses flat runs well.
                out[o] = 1
                o += 1
                let row = canvas.row(y)
                var previous: (UInt8, UInt8, UInt8) = (0, 0, 0)
                for x in 0..<canvas.width {
                    let p = row[x]
                    let r = UInt8(truncatingIfNeeded: p >> 16), g = UInt8(truncatingIfNeeded: p >> 8), b = UInt8(truncatingIfNeeded: p)
                    out[o] = r &- previous.0
                    out[o + 1] = g &- previous.1
                    out[o + 2] = b &- previous.2
                    previous = (r, g, b)
                    o += 3
                }
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(canvas.width))
        header.appendBigEndian(UInt32(canvas.height))
        header += [8, 2, 0, 0, 0]
        appendChunk("IHDR", header, to: &png)
        appendChunk("IDAT", deflate(raw), to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    public static func encode(_ buffer: PixelBuffer) -> [UInt8] { encode(buffer.canvas) }

    private static func deflate(_ input: [UInt8]) -> [UInt8] {
        var destinationLength = compressBound(uLong(input.count))
        var output = [UInt8](repeating: 0, count: Int(destinationLength))
        let status = output.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { inp in
                compress2(out.baseAddress, &destinationLength, inp.baseAddress, uLong(inp.count), 6)
            }
        }
        precondition(status == Z_OK, "zlib compress2 failed with \(status)")
        output.removeSubrange(Int(destinationLength)...)
        return output
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        png.appendBigEndian(UInt32(data.count))
        let typeBytes = Array(type.utf8)
        png += typeBytes
        png += data
        var crc = crc32(0, nil, 0)
        crc = typeBytes.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
        crc = data.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
        png.appendBigEndian(UInt32(crc))
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ v: UInt32) {
        append(UInt8(v >> 24)); append(UInt8((v >> 16) & 0xFF)); append(UInt8((v >> 8) & 0xFF)); append(UInt8(v & 0xFF))
    }
}

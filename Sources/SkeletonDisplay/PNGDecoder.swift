import CZlib
import SkeletonRender

/// Why a PNG could not be read.
public struct PNGDecodingError: Error, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { "not a PNG this tool reads: \(reason)" }
}

/// Reads 8-bit, non-interlaced RGB and RGBA PNGs (what this tool and QEMU's screendump write)
/// into XRGB8888, alpha dropped.
public enum PNGDecoder {
    public static func decode(_ bytes: [UInt8]) throws(PNGDecodingError) -> PixelBuffer {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count > 8, Array(bytes[0..<8]) == signature else { throw PNGDecodingError(reason: "bad signature") }
        var offset = 8
        var width = 0, height = 0, channels = 0
        var compressed: [UInt8] = []
        func be32(_ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        while offset + 8 <= bytes.count {
            let length = be32(offset)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let start = offset + 8
            guard start + length + 4 <= bytes.count else { throw PNGDecodingError(reason: "truncated chunk \(type)") }
            switch type {
            case "IHDR":
                width = be32(start)
                height = be32(start + 4)
                let depth = bytes[start + 8], colorType = bytes[start + 9], interlace = bytes[start + 12]
                guard depth == 8, interlace == 0, colorType == 2 || colorType == 6 else {
                    throw PNGDecodingError(reason: "depth \(depth), colour type \(colorType), interlace \(interlace)")
                }
                channels = colorType == 2 ? 3 : 4
            case "IDAT":
                compressed += bytes[start..<start + length]
            default:
                break
            }
            offset = start + length + 4
            if type == "IEND" { break }
        }
        guard width > 0, height > 0, channels > 0 else { throw PNGDecodingError(reason: "no IHDR") }
        let stride = width * channels
        var raw = [UInt8](repeating: 0, count: (stride + 1) * height)
        var rawLength = uLong(raw.count)
        let status = raw.withUnsafeMutableBufferPointer { out in
            compressed.withUnsafeBufferPointer { inp in uncompress(out.baseAddress, &rawLength, inp.baseAddress, uLong(inp.count)) }
        }
        guard status == Z_OK, Int(rawLength) == raw.count else { throw PNGDecodingError(reason: "bad image data (zlib \(status))") }
        let image = PixelBuffer(width: width, height: height)
        var previous = [UInt8](repeating: 0, count: stride)
        var current = [UInt8](repeating: 0, count: stride)
        for y in 0..<height {
            let base = y * (stride + 1)
            let filter = raw[base]
            for i in 0..<stride {
                let x = raw[base + 1 + i]
                let a = i >= channels ? current[i - channels] : 0
                let b = previous[i]
                let c = i >= channels ? previous[i - channels] : 0
                switch filter {
                case 0: current[i] = x
                case 1: current[i] = x &+ a
                case 2: current[i] = x &+ b
                case 3: current[i] = x &+ UInt8((Int(a) + Int(b)) / 2)
                case 4:
                    let p = Int(a) + Int(b) - Int(c)
                    let pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
                    current[i] = x &+ (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)
                default: throw PNGDecodingError(reason: "unknown filter \(filter) on row \(y)")
                }
            }
            let row = image.canvas.row(y)
            for x in 0..<width {
                let p = x * channels
                row[x] = UInt32(current[p]) << 16 | UInt32(current[p + 1]) << 8 | UInt32(current[p + 2])
            }
            swap(&previous, &current)
        }
        return image
    }
}

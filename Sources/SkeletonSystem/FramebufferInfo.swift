/// A framebuffer device's mode and memory as the kernel reports them (FBIOGET_VSCREENINFO,
/// FBIOGET_FSCREENINFO): the visible and virtual sizes, the pan offset, the pixel layout as
/// bitfields, and the bytes per row.
public struct FramebufferInfo: Equatable, Sendable {
    /// One colour channel's place in a pixel: its lowest bit and its width in bits.
    public struct Bitfield: Equatable, Sendable {
        public var offset: Int
        public var length: Int

        public init(offset: Int, length: Int) {
            self.offset = offset
            self.length = length
        }
    }

    public var id: String
    public var width: Int
    public var height: Int
    public var virtualWidth: Int
    public var virtualHeight: Int
    public var xOffset: Int
    public var yOffset: Int
    public var bitsPerPixel: Int
    public var red: Bitfield
    public var green: Bitfield
    public var blue: Bitfield
    /// Bytes from one row to the next (`line_length`), at least a row's pixels.
    public var lineLength: Int
    /// The mapped memory's length (`smem_len`).
    public var memoryLength: Int
    /// Rows one pan may move by (`ypanstep`); 0 when the driver cannot pan.
    public var panStep: Int

    public init(id: String, width: Int, height: Int, virtualWidth: Int, virtualHeight: Int, xOffset: Int = 0, yOffset: Int = 0,
                bitsPerPixel: Int, red: Bitfield, green: Bitfield, blue: Bitfield, lineLength: Int, memoryLength: Int, panStep: Int = 0) {
        self.id = id
        self.width = width
        self.height = height
        self.virtualWidth = virtualWidth
        self.virtualHeight = virtualHeight
        self.xOffset = xOffset
        self.yOffset = yOffset
        self.bitsPerPixel = bitsPerPixel
        self.red = red
        self.green = green
        self.blue = blue
        self.lineLength = lineLength
        self.memoryLength = memoryLength
        self.panStep = panStep
    }
}

import SkeletonLayout

/// One output in a `status` reply: what every backend says (name, size, frames), and what its
/// own backend knows (a DRM connector's CRTC and master state, a framebuffer's format and pitch,
/// the memory output's snapshot). Encoded and decoded by the same code.
public struct OutputStatus: Sendable, Equatable {
    public var name = ""
    public var size = ""
    public var backend = ""
    /// The layout it shows, when one is shown.
    public var layout: String?
    public var framesPresented = 0
    public var mode: String?
    public var connector: String?
    public var device: String?
    public var rotation: Int?
    public var buffers: Int?
    /// DRM: the CRTC, page flips pending, whether this process is the DRM master, and why the
    /// output fell back to one buffer.
    public var crtc: Int?
    public var flipsPending: Int?
    public var master: Bool?
    public var singleBuffered: String?
    /// What went wrong on this output (a lost master, a failed flip).
    public var problem: String?
    /// Framebuffer devices: the driver, the pixel format, the pitch in bytes, the pages, and
    /// what happened to the text console.
    public var driver: String?
    public var format: String?
    public var pitch: Int?
    public var pages: Int?
    public var console: String?
    /// The memory output: the snapshot file, and how many times it was written (off the loop:
    /// a client that needs the file waits for the count to move).
    public var snapshot: String?
    public var snapshotsWritten: Int?
    /// The Wayland output: the compositor's program ("weston", "cage") and the scale the window
    /// is drawn at ("2", "1.25").
    public var compositor: String?
    public var scale: String?

    public init() {}

    private static var strings: [(String, WritableKeyPath<OutputStatus, String?>)] { [
        ("layout", \.layout), ("mode", \.mode), ("connector", \.connector), ("device", \.device),
        ("singleBuffered", \.singleBuffered), ("problem", \.problem), ("driver", \.driver), ("format", \.format),
        ("console", \.console), ("snapshot", \.snapshot), ("compositor", \.compositor), ("scale", \.scale),
    ] }
    private static var integers: [(String, WritableKeyPath<OutputStatus, Int?>)] { [
        ("rotation", \.rotation), ("buffers", \.buffers), ("crtc", \.crtc), ("flipsPending", \.flipsPending),
        ("pitch", \.pitch), ("pages", \.pages), ("snapshotsWritten", \.snapshotsWritten),
    ] }

    public var json: JSONValue {
        var o: [String: JSONValue] = [
            "name": .string(name), "size": .string(size), "backend": .string(backend), "framesPresented": .number(Double(framesPresented)),
        ]
        for (key, path) in Self.strings { if let v = self[keyPath: path] { o[key] = .string(v) } }
        for (key, path) in Self.integers { if let v = self[keyPath: path] { o[key] = .number(Double(v)) } }
        if let master { o["master"] = .bool(master) }
        return .object(o)
    }

    /// `path`: where the object sits in the reply, for errors.
    public init(json: JSONValue, path: JSONPath = .document) throws(StatusDecodingError) {
        var reader = try StatusReader(json, path: path)
        name = try reader.string("name")
        size = try reader.string("size")
        backend = try reader.string("backend")
        framesPresented = try reader.integer("framesPresented")
        for (key, path) in Self.strings { self[keyPath: path] = try reader.optionalString(key) }
        for (key, path) in Self.integers { self[keyPath: path] = try reader.optionalInteger(key) }
        master = try reader.optionalBool("master")
    }
}

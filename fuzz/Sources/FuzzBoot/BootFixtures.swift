#if canImport(Glibc)
import Glibc
#endif
import CLibDRM
import SkeletonBoot
import SkeletonDisplay
import SkeletonLayout
import SkeletonRender

/// The files a boot record or plan refers to, at fixed paths so that the seeds can name them: a
/// start layout, a frame cache entry of `frameSize`, and no hidden marker. Made by the code
/// that makes them at a start, written atomically (several fuzzers may share them). With
/// SKELETOND_FUZZ_BOOT_SEEDS naming a directory, the seed files are written there as well.
struct BootFixtures: Sendable {
    static let directory = "/tmp/skeletond-fuzz"
    static let layoutPath = directory + "/layout.json"
    static let hiddenMarkerPath = directory + "/skeletond.hidden"
    static let framePath = directory + "/0000000000000000-64x48.frame"
    static let frameSize = Size(width: 64, height: 48)
    static let connectorNames = ["HDMI-A-1", "Virtual-1"]
    static let layoutText = Array(#"{"canvas": {"width": 64, "height": 48}, "root": {"kind": "image", "frame": [8, 8, 32, 32], "shape": "circle"}}"#.utf8)

    /// The fuzzer's input as a file, one per process.
    let inputPath = "\(BootFixtures.directory)/input-\(getpid())"

    init() {
        mkdir(Self.directory, 0o755)
        Self.writeAtomically(Self.layoutPath, Self.layoutText)
        Self.writeAtomically(Self.framePath, Self.frameEntry)
        if let seeds = getenv("SKELETOND_FUZZ_BOOT_SEEDS").map({ String(cString: $0) }) {
            Self.writeAtomically(seeds + "/record", Self.record.encoded)
            Self.writeAtomically(seeds + "/record-framebuffer", Self.recordWithFramebuffer.encoded)
            Self.writeAtomically(seeds + "/plan", Self.plan(onlyNamed: false).encoded)
            Self.writeAtomically(seeds + "/plan-named", Self.plan(onlyNamed: true).encoded)
            Self.writeAtomically(seeds + "/frame", Self.frameEntry)
            Self.writeAtomically(seeds + "/frame-3x2", FrameCache.header(width: 3, height: 2) + [UInt8](repeating: 0x5A, count: 3 * 2 * 4))
        }
    }

    /// Lends the bytes to `body` as a file.
    func withInputFile(_ bytes: UnsafeRawBufferPointer, _ body: (String) -> Void) {
        Self.write(inputPath, bytes)
        body(inputPath)
        unlink(inputPath)
    }

    /// A record of one output at `frameSize` showing the fixture frame.
    static var record: BootRecord {
        var mode = drmModeModeInfo()
        mode.hdisplay = UInt16(frameSize.width)
        mode.vdisplay = UInt16(frameSize.height)
        mode.vrefresh = 60
        let modeBytes = withUnsafeBytes(of: mode) { Array($0) }
        let output = BootRecord.Output(connectorID: 33, crtcID: 31, modeIsPreferred: true, modeBytes: modeBytes, framePath: framePath)
        var record = plan(onlyNamed: true)
        record.confirmed = BootRecord.Confirmed(devicePath: "/dev/dri/card0", outputs: [output])
        return record
    }

    /// The record of a start that drew on the firmware's framebuffer before the native driver.
    static var recordWithFramebuffer: BootRecord {
        var record = record
        record.framebuffer = BootRecord.Framebuffer(path: "/dev/fb0", id: "EFI VGA", size: frameSize, framePath: framePath)
        return record
    }

    /// A record no boot confirmed yet.
    static func plan(onlyNamed: Bool) -> BootRecord {
        BootRecord(hiddenMarkPath: hiddenMarkerPath, layoutPath: onlyNamed ? layoutPath : nil,
                   layoutHash: onlyNamed ? BootRecord.layoutHash(layoutText) : 0, devicePath: onlyNamed ? "/dev/dri/card0" : nil,
                   connectors: onlyNamed ? connectorNames : nil, modes: onlyNamed ? [connectorNames[0]: frameSize] : [:],
                   frames: [BootRecord.Frame(size: frameSize, path: framePath), BootRecord.Frame(size: Size(width: 3, height: 2), path: framePath)])
    }

    /// The fixture layout's first frame, as the cache stores it.
    static var frameEntry: [UInt8] {
        guard case .success(let layout) = LayoutLoader.load(text: layoutText, file: "fuzz.json") else { fatalError("the fixture layout is invalid") }
        let frame = PixelBuffer(size: frameSize)
        _ = FrameRenderer(layout: layout, outputSize: frameSize).renderFull(at: 0, into: frame.canvas)
        return FrameCache.header(width: frameSize.width, height: frameSize.height)
            + frame.pixels.flatMap { pixel in withUnsafeBytes(of: pixel.littleEndian) { Array($0) } }
    }

    private static func writeAtomically(_ path: String, _ bytes: [UInt8]) {
        let temporary = "\(path).\(getpid())"
        bytes.withUnsafeBytes { write(temporary, $0) }
        rename(temporary, path)
    }

    private static func write(_ path: String, _ bytes: UnsafeRawBufferPointer) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(fd >= 0, "cannot write \(path)")
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            precondition(n > 0, "cannot write \(path)")
            done += n
        }
    }
}

import SkeletonProtocol
import SkeletonDisplay
import SkeletonLayout
import SkeletonRender
import SkeletonSystem

/// An output in memory with a connector's name: its shadow is what it shows.
final class NamedOutput: DisplayOutput {
    let name: String
    let size: Size
    let buffer: PixelBuffer
    private(set) var framesPresented = 0

    init(name: String, size: Size) {
        self.name = name
        self.size = size
        self.buffer = PixelBuffer(size: size, fill: 0)
    }

    /// Another program is DRM master: nothing this process presents reaches the screen.
    var heldByAnotherProgram = false

    var shadow: Canvas { buffer.canvas }
    var canPresent: Bool { !heldByAnotherProgram }

    func present(damage: [PixelRect], mirrored: Bool) throws(DisplayError) -> Bool {
        if heldByAnotherProgram { throw DisplayError("drmModeSetCrtc failed: Permission denied") }
        framesPresented += 1
        return true
    }

    var status: OutputStatus {
        var s = OutputStatus()
        s.connector = name
        return s
    }
}

/// Several named outputs of one size, for the per-output layouts.
final class HeadsDisplay: Display {
    let backendName = "heads"
    let heads: [NamedOutput]

    init(names: [String], size: Size) {
        heads = names.map { NamedOutput(name: $0, size: size) }
    }

    /// Another program is DRM master (a compositor still running): taking the display back fails.
    var heldByAnotherProgram = false {
        didSet { for head in heads { head.heldByAnotherProgram = heldByAnotherProgram } }
    }
    private(set) var reacquireAttempts = 0

    var outputs: [any DisplayOutput] { heads }
    var eventDescriptor: FileDescriptor? { nil }
    func handleEvents() throws(DisplayError) {}
    func tick(now: Double) -> Double? { nil }
    func release(retainingPicture: Bool) {}
    func reacquire() throws(DisplayError) {
        reacquireAttempts += 1
        if heldByAnotherProgram { throw DisplayError("drmSetMaster failed: Device or resource busy") }
    }
    var problem: String? { heldByAnotherProgram ? "another program holds the display" : nil }
    func close() {}
}

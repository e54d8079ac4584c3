import SkeletonProtocol
import SkeletonSystem
import SkeletonLayout
import SkeletonRender

/// One screen the daemon draws on: it renders into `shadow` (ordinary memory), then asks the
/// output to make the damaged rectangles visible.
public protocol DisplayOutput: AnyObject {
    /// The connector name ("HDMI-A-1", "Virtual-1") or "memory".
    var name: String { get }
    var size: Size { get }
    /// The RAM shadow canvas frames are drawn into; never the scanned-out buffer itself.
    var shadow: Canvas { get }
    /// False while a previous present is still in flight (a page flip pending).
    var canPresent: Bool { get }
    /// Where the renderer may draw a frame's damage instead of into the shadow, with what that
    /// buffer lacks besides (write only): the buffer the next present fills, when it needs no
    /// more than damage. nil when the output has none (memory) or the next present copies whole.
    /// The shadow then lags behind it; whoever draws must bring the shadow up to date before
    /// drawing without the mirror again.
    var mirror: Mirror? { get }
    /// Makes the shadow's `damage` visible; `mirrored`: the frame was drawn through `mirror`
    /// (taken just before it was drawn). False when the frame could not be shown now (the
    /// caller draws again at the next chance).
    func present(damage: [PixelRect], mirrored: Bool) throws(DisplayError) -> Bool
    /// Shows a whole frame that `write` puts (writing only) straight into what goes on screen,
    /// past the shadow; the next `present` must then cover the whole output. False when the
    /// output cannot do that now or `write` failed.
    func presentWhole(_ write: (Canvas) -> Bool) throws(DisplayError) -> Bool
    var framesPresented: Int { get }
    /// The display says when it takes the next frame (a Wayland compositor's frame callback,
    /// which makes `canPresent` true again): moving frames follow it rather than a timer.
    var pacesFrames: Bool { get }
    /// Facts for `status`: mode, CRTC, flips pending.
    var status: OutputStatus { get }
}

extension DisplayOutput {
    public var mirror: Mirror? { nil }
    public var pacesFrames: Bool { false }

    /// A present of damage drawn into the shadow only.
    public func present(damage: [PixelRect]) throws(DisplayError) -> Bool {
        try present(damage: damage, mirrored: false)
    }

    /// Through the shadow, for outputs with nothing faster.
    public func presentWhole(_ write: (Canvas) -> Bool) throws(DisplayError) -> Bool {
        guard canPresent, write(shadow) else { return false }
        return try present(damage: [shadow.bounds])
    }
}

/// All outputs of one backend, and the backend's own lifecycle.
public protocol Display: AnyObject {
    var backendName: String { get }
    var outputs: [any DisplayOutput] { get }
    /// A descriptor the event loop polls for input (DRM events), if any.
    var eventDescriptor: FileDescriptor? { get }
    /// Handles what made `eventDescriptor` readable (flip completions).
    func handleEvents() throws(DisplayError)
    /// Called by the event loop every iteration with the monotonic time; a memory display
    /// writes its snapshot here when due. Returns when it wants to be called again, if ever.
    func tick(now: Double) -> Double?
    /// Stops showing frames: restore what was on screen before (retain == false) or leave the
    /// last frame and hand the display to the next program (retain == true).
    func release(retainingPicture: Bool)
    /// Takes the display back after a retained release (a new show).
    func reacquire() throws(DisplayError)
    /// A line for `status` when something is wrong (master lost), else nil.
    var problem: String? { get }
    /// Another program took the display without a hand-over (DRM master): nothing drawn shows
    /// until it lets go.
    var heldByAnother: Bool { get }
    /// Frees everything the display holds, in reverse order of creation.
    func close()
    /// The device name the kernel's uevents carry for this display's card ("card0"), when its
    /// outputs can come and go; nil for displays whose outputs are fixed.
    var hotplugCard: String? { get }
    /// Looks at the connectors again after a hotplug event; `log` says what changed and why.
    func rescanOutputs(log: (String) -> Void) -> OutputChanges
    /// Outputs that came or went by the display's own events (a Wayland window configured to
    /// another size), since the last call.
    func takeOutputChanges() -> OutputChanges
}

extension Display {
    public var hotplugCard: String? { nil }
    public var heldByAnother: Bool { false }
    public func rescanOutputs(log: (String) -> Void) -> OutputChanges { OutputChanges() }
    public func takeOutputChanges() -> OutputChanges { OutputChanges() }
}

import SkeletonLayout

/// One control request: what to do, and the id its reply repeats.
public struct Request: Sendable, Equatable {
    public var id: JSONValue?
    public var command: Command

    public init(id: JSONValue? = nil, command: Command) {
        self.id = id
        self.command = command
    }
}

/// The commands of the control protocol.
public enum Command: Sendable, Equatable {
    case show(ShowRequest)
    case update(UpdateRequest)
    case hide(HideRequest)
    case status
    case tree
    case ping
    case reload
    case quit
    /// The real root is mounted at this absolute path and the initramfs is about to switch to
    /// it: the daemon started in the initramfs moves its root there (or, when that root has no
    /// skeletond to take over, gives the display back and exits).
    case newRoot(String)
    /// A display server is about to open the card: let the display go with the frame left on it,
    /// and take it back for nothing until `reactivate` (as `plymouth deactivate`).
    case deactivate
    case reactivate
    /// The system is going down: the shutdown layout is shown with its message, the display is
    /// taken back (from an app that lets it go), and from now on nothing hides it or stops the
    /// daemon: the frame stays until the power is off.
    case shutdown(ShutdownRequest)

    public var name: String {
        switch self {
        case .show: return "show"
        case .update: return "update"
        case .hide: return "hide"
        case .status: return "status"
        case .tree: return "tree"
        case .ping: return "ping"
        case .reload: return "reload"
        case .quit: return "quit"
        case .newRoot: return "new-root"
        case .deactivate: return "deactivate"
        case .reactivate: return "reactivate"
        case .shutdown: return "shutdown"
        }
    }
}

public struct ShowRequest: Sendable, Equatable {
    /// A layout of the layouts directory, by name without `.json`; nil keeps the current one.
    public var layout: String?
    public var delay: Double
    public var transition: TransitionSpec?
    public var overrides: PresentationOverrides
    /// Drop the overrides earlier commands left in force before applying these.
    public var reset: Bool
    /// Reply only once the show transition has finished.
    public var wait: Bool
    /// The connector whose layout `layout` sets ("HDMI-A-2"); nil: the main layout, shown on
    /// every output that has none of its own.
    public var output: String?

    public init(layout: String? = nil, delay: Double = 0, transition: TransitionSpec? = nil,
                overrides: PresentationOverrides = PresentationOverrides(), reset: Bool = false, wait: Bool = false,
                output: String? = nil) {
        self.layout = layout
        self.output = output
        self.delay = delay
        self.transition = transition
        self.overrides = overrides
        self.reset = reset
        self.wait = wait
    }
}

public struct UpdateRequest: Sendable, Equatable {
    public var layout: String?
    /// How a change that redraws everything dissolves; nil: the layout's own transition.
    public var transition: TransitionSpec?
    public var overrides: PresentationOverrides
    /// Drop the overrides earlier commands left in force before applying these.
    public var reset: Bool
    /// The connector whose layout `layout` sets; nil: the main layout.
    public var output: String?
    /// Texts and values by node id.
    public var content: LayoutContent
    /// For the label whose role is "message".
    public var message: String?
    /// For the bar whose role is "progress".
    public var progress: ProgressValue?
    /// `message` and `progress` are kept for every later layout, and taken while nothing is shown
    /// or by a layout without a node of that role (as Plymouth's and psplash's clients give them).
    public var keep: Bool

    public init(layout: String? = nil, transition: TransitionSpec? = nil, overrides: PresentationOverrides = PresentationOverrides(),
                reset: Bool = false, output: String? = nil, content: LayoutContent = LayoutContent(), message: String? = nil,
                progress: ProgressValue? = nil, keep: Bool = false) {
        self.layout = layout
        self.keep = keep
        self.output = output
        self.content = content
        self.message = message
        self.progress = progress
        self.transition = transition
        self.overrides = overrides
        self.reset = reset
    }
}

public struct HideRequest: Sendable, Equatable {
    public var transition: TransitionSpec?
    /// Leave the last frame on screen and hand the display over.
    public var retain: Bool
    public var wait: Bool
    /// Hide once the text console shows something (a getty's prompt), at most
    /// `HideRequest.consoleWaitSeconds` later; at once when it does already or cannot be read.
    public var afterConsole: Bool

    /// The longest a hide waits for the console (`afterConsole`).
    public static let consoleWaitSeconds = 10.0

    public init(transition: TransitionSpec? = nil, retain: Bool = false, wait: Bool = false, afterConsole: Bool = false) {
        self.transition = transition
        self.retain = retain
        self.wait = wait
        self.afterConsole = afterConsole
    }
}

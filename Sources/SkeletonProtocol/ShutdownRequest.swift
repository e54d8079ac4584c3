/// `shutdown`: how the system is going down, and whether the reply waits for the shutdown
/// layout's first frame on screen.
public struct ShutdownRequest: Sendable, Equatable {
    public var mode: ShutdownMode
    /// Reply only once the shutdown layout's first frame is on screen (or at once when the
    /// display cannot show it: an app still holds it). For the units stopped before the consoles'
    /// gettys, whose stop clears the console.
    public var wait: Bool

    public init(mode: ShutdownMode, wait: Bool = false) {
        self.mode = mode
        self.wait = wait
    }
}

/// A display failure that says which device, which connector and which call failed.
public struct DisplayError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// The device went away (unplugged, or simpledrm replaced by the native driver): close
    /// the display and look for a new one.
    public var deviceGone: Bool
    /// The display server the output was a client of went away (a Wayland compositor): there is
    /// no device to look for again; `display.wayland.whenGone` says what follows.
    public var displayServerGone: Bool

    public init(_ message: String, deviceGone: Bool = false, displayServerGone: Bool = false) {
        self.message = message
        self.deviceGone = deviceGone
        self.displayServerGone = displayServerGone
    }

    public var description: String { message }
}

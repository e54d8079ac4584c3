/// A display failure that says which device, which connector and which call failed.
public struct DisplayError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// The device went away (unplugged, or simpledrm replaced by the native driver): close
    /// the display and look for a new one.
    public var deviceGone: Bool

    public init(_ message: String, deviceGone: Bool = false) {
        self.message = message
        self.deviceGone = deviceGone
    }

    public var description: String { message }
}

/// A display failure that says which device, which connector and which call failed.
public struct DisplayError: Error, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

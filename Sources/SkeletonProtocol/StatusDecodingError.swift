/// A `status` reply that is not what the daemon writes: the field and what was wrong.
public struct StatusDecodingError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// Why keyboards cannot be read: libinput's context could not be made.
public struct KeyboardError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { "keyboard: \(reason)" }
}

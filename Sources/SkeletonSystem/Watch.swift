/// A descriptor to wait on with poll(2), and for what; also what poll(2) reports back.
public struct Watch: Sendable, Equatable {
    public var descriptor: FileDescriptor
    public var events: PollEvents

    public init(descriptor: FileDescriptor, events: PollEvents) {
        self.descriptor = descriptor
        self.events = events
    }
}

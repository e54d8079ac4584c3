import SkeletonSystem

/// A Plymouth request whose answer comes later: its connection and a number no other request has.
struct PlymouthTicket: Hashable, Sendable {
    let connection: FileDescriptor
    let serial: Int
}

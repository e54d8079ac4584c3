/// One request of Plymouth's boot protocol, as Plymouth's own `plymouth` client and libply-boot-client
/// send it to plymouthd: a command byte, then `\0` for no argument, or `\2`, the argument's size
/// (one byte, its NUL included) and the argument with its NUL.
public struct PlymouthRequest: Equatable, Sendable {
    public var command: Command
    /// The argument's bytes up to its NUL; nil when the request has none.
    public var argument: [UInt8]?

    /// plymouthd's abstract socket (`PLY_BOOT_PROTOCOL_TRIMMED_ABSTRACT_SOCKET_PATH`).
    public static let socketName = "/org/freedesktop/plymouthd"

    public init(command: Command, argument: [UInt8]? = nil) {
        self.command = command
        self.argument = argument
    }

    /// The commands of ply-boot-protocol.h, by the byte that names each.
    public enum Command: Equatable, Sendable {
        case ping, update, changeMode, systemUpdate, systemInitialized, deactivate, reactivate, quit
        case password, cachedPassword, question, showMessage, hideMessage, keystroke, keystrokeRemove
        case progressPause, progressUnpause, showSplash, hideSplash, newRoot, hasActiveVT, error
        /// A byte this protocol does not know (a newer client's): answered with a NAK.
        case unknown(UInt8)

        static let table: [(UInt8, Command)] = [
            (0x50, .ping), (0x55, .update), (0x43, .changeMode), (0x75, .systemUpdate), (0x53, .systemInitialized),
            (0x44, .deactivate), (0x72, .reactivate), (0x51, .quit), (0x2A, .password), (0x63, .cachedPassword),
            (0x57, .question), (0x4D, .showMessage), (0x6D, .hideMessage), (0x4B, .keystroke), (0x4C, .keystrokeRemove),
            (0x41, .progressPause), (0x61, .progressUnpause), (0x24, .showSplash), (0x48, .hideSplash), (0x52, .newRoot),
            (0x56, .hasActiveVT), (0x21, .error),
        ]

        public init(byte: UInt8) {
            self = Self.table.first { $0.0 == byte }?.1 ?? .unknown(byte)
        }

        /// The byte on the wire.
        public var byte: UInt8 {
            if case .unknown(let b) = self { return b }
            return Self.table.first { $0.1 == self }!.0
        }
    }

    /// The argument as text (invalid UTF-8 replaced), or "" without one.
    public var text: String { argument.map { String(decoding: $0, as: UTF8.self) } ?? "" }

    /// The request as the client writes it.
    public var bytes: [UInt8] {
        guard let argument else { return [command.byte, 0] }
        return [command.byte, 2, UInt8(min(argument.count + 1, 255))] + argument.prefix(254) + [0]
    }
}

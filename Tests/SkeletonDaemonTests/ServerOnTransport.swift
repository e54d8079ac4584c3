import Foundation
@testable import SkeletonDaemon
import SkeletonLayout
import SkeletonLog
import SkeletonProtocol
import SkeletonSystem

/// The control socket's server with no daemon: a `ControlServer` on a `MemoryTransport`, whose
/// `execute` answers as the daemon's does, at once: `ping` with a pong, `tree` with the resolved
/// tree of a layout (byte for byte the daemon's `tree` of that layout shown as "default" on a
/// 200×100 output), `status` and `hide` with small replies; every command it carries out is
/// kept in order (`carriedOut`).
/// `turn` is the daemon's turn as far as the server goes: its watches are gathered, polled
/// without waiting (the stepped event source asks the transport), the ready ones handed to
/// `handle`, then its queued lines run. `wakes` says whether the real loop would turn now.
final class ServerOnTransport {
    let transport = MemoryTransport()
    let server: ControlServer
    /// What the server logged.
    let lines = LogLines()
    /// What a `tree` is answered with: the daemon's tree of the layout, resolved at 200×100.
    let tree: JSONValue
    /// The commands carried out, in the order the server handed them over.
    private(set) var carriedOut: [Command] = []
    /// A `hide` was carried out.
    private(set) var hidden = false
    private let events: SteppedEventSource
    /// The daemon's clock stands still: only descriptors and queued lines wake the loop.
    private let now = 100.0

    init(layout text: String = TestLayouts.simpleText) throws {
        let layout: Layout
        switch LayoutLoader.load(text: Array(text.utf8), file: "default.json") {
        case .success(let loaded): layout = loaded
        case .failure(let error): throw HarnessError("layout: \(error)")
        }
        tree = Daemon.tree(of: SkeletonLook(layoutName: "default", layout: layout), at: Size(width: 200, height: 100))
        events = SteppedEventSource(memory: transport)
        let lines = self.lines, now = self.now
        server = ControlServer(transport: transport, logger: lines.logger(clock: { now }))
        server.execute = { [unowned self] request, client in
            carriedOut.append(request.command)
            client.reply(reply(to: request))
        }
    }

    private func reply(to request: Request) -> Reply {
        switch request.command {
        case .ping: return .ok(id: request.id, ["pong": true])
        case .tree: return .ok(id: request.id, ["tree": tree])
        case .status: return .ok(id: request.id, ["state": hidden ? "idle" : "showing", "layout": "default"])
        case .hide:
            hidden = true
            return .ok(id: request.id, ["state": "idle"])
        default: return .error(id: request.id, ProtocolError(.unknownCommand, "not served here"))
        }
    }

    /// A new connection, accepted at the next turn.
    func connect() -> MemoryClient { MemoryClient(transport.connect()) }

    /// One turn of the daemon's loop, for the server: watches, a poll that does not wait, the
    /// ready descriptors handled, the queued lines run (`Daemon.turn`, through `Inlets`).
    func turn() {
        var watches: [Watch] = []
        server.addWatches(to: &watches)
        // Lines waiting for their turn make the daemon's deadline now.
        for case .descriptor(let fd, let what) in events.wait(for: watches, until: server.hasRunnableLines ? now : nil) {
            _ = server.handle(fd, what)
        }
        server.runQueuedLines()
    }

    /// Whether the real loop, asleep in its last wait, would turn again now.
    var wakes: Bool { events.wakes(at: now) }

    /// Turns the loop, as long as it would wake, until `client` has a whole reply.
    func reply(_ client: MemoryClient, maxTurns: Int = 50) -> JSONValue? {
        for _ in 0..<maxTurns {
            if let r = client.readReply() { return r }
            guard wakes else { return nil }
            turn()
        }
        return client.readReply()
    }
}

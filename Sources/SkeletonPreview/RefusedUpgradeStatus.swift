import Hummingbird
import NIOCore
import NIOHTTPTypes

/// Hummingbird answers every upgrade its `shouldUpgrade` declines with 400 Bad Request, and lets
/// nothing else answer it; on a connection refused for its origin, this handler (one of the
/// HTTP channel's own) makes that answer 403 Forbidden.
final class RefusedUpgradeStatus: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let refused: RefusedConnections

    init(refused: RefusedConnections) {
        self.refused = refused
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        var part = unwrapOutboundIn(data)
        if case .head(var head) = part, head.status == .badRequest, refused.take(context.channel) {
            head.status = .forbidden
            part = .head(head)
        }
        context.write(wrapOutboundOut(part), promise: promise)
    }
}

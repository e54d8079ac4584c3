/// Who may open the preview's WebSocket: the preview's own page only. Any web page open in the
/// user's browser may open a WebSocket to 127.0.0.1, and the browser lets it read the answer; it
/// cannot hide where it comes from, though: browsers send `Origin` on every WebSocket upgrade.
struct PreviewOrigin: Sendable {
    /// The port the preview listens on.
    var port: Int

    /// The page's own origins, as browsers spell them.
    var allowed: [String] { ["http://127.0.0.1:\(port)", "http://localhost:\(port)"] }

    /// A request without `Origin` comes from no browser page, and the preview's page always
    /// sends one: refused too.
    func allows(_ origin: String?) -> Bool {
        guard let origin else { return false }
        return allowed.contains(origin)
    }

    /// The log line for a refused request.
    func refusal(of origin: String?) -> String {
        let who = origin.map { "origin \($0)" } ?? "a request without Origin"
        return "preview: refused the WebSocket to \(who) (403): only \(allowed.joined(separator: " and ")) may connect"
    }
}

/// A kiosk app's command line, as the session script is given it, seen as a browser's: whether
/// it is a Chromium the watch can drive, the page it opens, and the command line the watch runs
/// instead (the DevTools pipe added, the page opened by the watch, so that a failed load is
/// named and tried again).
public struct BrowserCommandLine: Sendable, Equatable {
    /// Chromium's executables by name: Debian's, Ubuntu's and Google's.
    public static let chromiumNames: Set<String> = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"]

    public let arguments: [String]

    public init(_ arguments: [String]) { self.arguments = arguments }

    /// Whether the program is a Chromium.
    public var isChromium: Bool {
        guard let program = arguments.first else { return false }
        return Self.chromiumNames.contains(String(program.split(separator: "/").last ?? ""))
    }

    /// The page to open: the last argument that is not a switch.
    public var url: String? { urlIndex.map { arguments[$0] } }

    /// The command line to run: `--remote-debugging-pipe` added and the page replaced by
    /// `about:blank` (the watch opens it).
    public var watched: [String] {
        var out = arguments
        if let urlIndex { out[urlIndex] = "about:blank" } else { out.append("about:blank") }
        if !out.contains("--remote-debugging-pipe") { out.insert("--remote-debugging-pipe", at: 1) }
        return out
    }

    private var urlIndex: Int? {
        guard arguments.count > 1 else { return nil }
        return arguments.indices.dropFirst().last { !arguments[$0].hasPrefix("-") }
    }
}

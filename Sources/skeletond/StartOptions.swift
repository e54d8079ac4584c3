import ArgumentParser
import SkeletonDaemon
import SkeletonSettings

/// What `run` and `cache` share: where the settings, the layouts and the frame cache are, and
/// which layout is shown at start.
struct StartOptions: ParsableArguments {
    @Option(help: "Settings file (default: \(Settings.defaultPath); a missing default file means built-in defaults).")
    var config: String?

    @Option(help: "Directory of layout files.")
    var layouts: String?

    @Option(help: "Layout shown at start: a name of the layouts directory or a file; \"none\" shows nothing.")
    var layout: String?

    @Option(name: .customLong("frame-cache"), help: "Directory of the frame cache (the start layout's first frame per output size), or none.")
    var frameCache: String?

    /// The options given, by long name, for `RunFlags.parse`.
    var given: [(name: String, text: String)] {
        [("config", config), ("layouts", layouts), ("layout", layout), ("frame-cache", frameCache)]
            .compactMap { name, text in text.map { (name, $0) } }
    }

    /// These options on top of `flags`.
    func apply(to flags: inout RunFlags) {
        flags.config = config
        flags.layouts = layouts
        flags.layout = layout
        flags.frameCache = frameCache
    }
}

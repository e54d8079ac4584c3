import ArgumentParser
import SkeletonBrowser
import SkeletonSystem

struct BrowserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browser",
        abstract: "Run a kiosk's Chromium and say when its page is ready: the skeleton stays until then.",
        discussion: """
            Runs the command line after -- (chromium --kiosk URL) with the DevTools protocol on a pipe (no port), \
            opens URL, and creates --ready-file once the page is ready: its load event has fired, its root element \
            has no data-skeleton-hold attribute (a page whose data comes later puts it in its markup and removes it \
            once the data is drawn), and a frame has been drawn since. A page that does not load is tried again \
            every --retry seconds; at --timeout the file is created whatever the page shows, and the journal says \
            why. Exits 1 when the browser ends (counted in --count-file), 0 on SIGTERM.
            """
    )

    @Option(name: .customLong("ready-file"), help: "The file to create once the page is ready (the recipe's /run/kiosk/drawn).")
    var readyFile: String?

    @Option(name: .customLong("count-file"), help: "A file counting the browser's ends.")
    var countFile: String?

    @Option(help: "Seconds after which the page is shown, ready or not.")
    var timeout: Double = 30

    @Option(help: "Seconds between attempts to load a page that did not load.")
    var retry: Double = 2

    @Argument(parsing: .captureForPassthrough, help: "The browser's command line: chromium --kiosk URL.")
    var command: [String] = []

    func validate() throws {
        let arguments = command.first == "--" ? Array(command.dropFirst()) : command
        guard !arguments.isEmpty else { throw ValidationError("give the browser's command line after --: skeletond browser -- chromium --kiosk URL") }
        guard BrowserCommandLine(arguments).isChromium else {
            throw ValidationError("\(arguments[0]): not a Chromium (\(BrowserCommandLine.chromiumNames.sorted().joined(separator: ", "))); "
                                  + "other apps say they have drawn by creating the ready file themselves")
        }
        guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout: \(timeout) is not between 0 and 3600 seconds") }
        guard retry > 0, retry <= timeout else { throw ValidationError("--retry: \(retry) is not between 0 and --timeout") }
    }

    func run() throws {
        var options = BrowserWatch.Options(commandLine: BrowserCommandLine(command.first == "--" ? Array(command.dropFirst()) : command))
        options.settings = PageReadiness.Settings(timeout: timeout, retryInterval: retry)
        options.readyFile = readyFile
        options.countFile = countFile
        let status = BrowserWatch(options: options) { printError(["skeletond browser: " + $0]) }.run()
        throw ExitCode(status)
    }
}

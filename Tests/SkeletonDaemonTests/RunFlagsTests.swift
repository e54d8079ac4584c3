#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import SkeletonDaemon
import SkeletonSettings
import SkeletonLayout
import Testing

/// `skeletond run`'s plain flags are read without ArgumentParser on the boot path; anything
/// unusual must fall through to ArgumentParser, which owns the texts of help and errors.
struct RunFlagsTests {
    @Test func everyFlagInBothForms() throws {
        let flags = try #require(RunFlags(bootArguments: [
            "run", "--config", "/etc/s.json", "--socket=/run/s.sock", "--layouts", "/l", "--layout", "feed",
            "--backend", "drm", "--device=/dev/dri/card1", "--size", "800x600", "--snapshot", "/tmp/s.png",
            "--display-wait", "2.5", "--max-fps=30", "--log-level", "debug", "--frame-cache", "/var/cache/x",
        ]))
        var expected = RunFlags()
        expected.config = "/etc/s.json"
        expected.socket = "/run/s.sock"
        expected.layouts = "/l"
        expected.layout = "feed"
        expected.backend = .drm
        expected.device = "/dev/dri/card1"
        expected.size = Size(width: 800, height: 600)
        expected.snapshot = "/tmp/s.png"
        expected.displayWait = 2.5
        expected.maxFPS = 30
        expected.logLevel = .debug
        expected.frameCache = "/var/cache/x"
        #expect(flags == expected)
        #expect(RunFlags(bootArguments: ["run"]) == RunFlags())
        #expect(RunFlags(bootArguments: ["run", "--socket=a=b"])?.socket == "a=b")
    }

    /// Every declared long name is one the fast path parses (a name missing from its switch
    /// would send the daemon through ArgumentParser at every boot).
    @Test(arguments: RunFlags.longNames)
    func eachFlagIsParsed(name: String) {
        let value: String
        switch name {
        case "backend": value = "memory"
        case "size": value = "640x480"
        case "display-wait", "max-fps": value = "5"
        case "rotation": value = "90"
        case "log-level": value = "debug"
        default: value = "/x"
        }
        #expect(RunFlags(bootArguments: ["run", "--\(name)", value]) != nil)
        #expect(RunFlags(bootArguments: ["run", "--\(name)", value]) != RunFlags())
    }

    @Test func theFlagsChangeTheSettings() throws {
        var settings = Settings()
        let flags = try #require(RunFlags(bootArguments: ["run", "--layout", "none", "--backend", "memory", "--size", "640x480",
                                                          "--max-fps", "20", "--display-wait", "0"]))
        flags.apply(to: &settings)
        #expect(settings.startLayout == nil)
        #expect(settings.backend == .memory)
        #expect(settings.memorySize == Size(width: 640, height: 480))
        #expect(settings.maxFPS == 20)
        #expect(settings.displayWaitSeconds == 0)
        #expect(settings.socketPath == Settings().socketPath)
        #expect(flags.configPath == Settings.defaultPath)
    }

    @Test(arguments: [
        ["render", "x.json"], [], ["run", "--help"], ["run", "-h"], ["run", "--sockett", "/s"], ["run", "socket"],
        ["run", "--socket"], ["run", "--socket", "--layout", "x"], ["run", "--socket", "-x"], ["run", "--layout", "a", "--layout", "b"],
        ["run", "--backend", "vnc"], ["run", "--size", "800"], ["run", "--max-fps", "0"], ["run", "--max-fps", "sixty"],
        ["run", "--display-wait", "601"], ["run", "--display-wait", "nan"], ["run", "--log-level", "loud"],
        ["run", "--generate-completion-script", "bash"], ["run", "--experimental-dump-help"], ["run", "--frame-cache="],
    ])
    func anythingElseIsLeftToArgumentParser(arguments: [String]) {
        #expect(RunFlags(bootArguments: arguments) == nil)
    }

    /// ArgumentParser's `run` hands the flags' texts to `RunFlags.parse`: the same values are
    /// taken, and a refusal says what the flag takes, with the settings file's ranges.
    @Test func parseTakesTheTextsOfTheCommandAndSaysWhatEachFlagTakes() throws {
        let flags = try RunFlags.parse([("max-fps", "30"), ("rotation", "90"), ("display-wait", "2.5"), ("log-level", "debug"),
                                        ("backend", "drm"), ("size", "800x600"), ("frame-cache", "none"), ("config", "/c")]).get()
        #expect(flags == RunFlags(bootArguments: ["run", "--max-fps", "30", "--rotation=90", "--display-wait", "2.5", "--log-level", "debug",
                                                  "--backend", "drm", "--size", "800x600", "--frame-cache", "none", "--config", "/c"]))
        func refusal(_ name: String, _ text: String) -> String? {
            guard case .failure(let error) = RunFlags.parse([("socket", "/s"), (name, text)]) else { return nil }
            return error.description
        }
        for text in ["0", "241", "sixty", "1.5", ""] {
            #expect(refusal("max-fps", text) == "--max-fps must be from 1 to 240, not \"\(text)\"", "\(text)")
        }
        for text in ["601", "-1", "nan", "inf", "soon"] {
            #expect(refusal("display-wait", text) == "--display-wait must be from 0 to 600 seconds, not \"\(text)\"", "\(text)")
        }
        #expect(refusal("max-fps", "240") == nil && refusal("max-fps", "1") == nil && refusal("display-wait", "600") == nil)
        #expect(refusal("rotation", "45") == "--rotation must be 0, 90, 180 or 270, not \"45\"")
        #expect(refusal("backend", "vnc") == "--backend must be auto, drm, fbdev, memory, wayland or x11, not \"vnc\"")
        #expect(refusal("log-level", "loud") == "--log-level must be error, warning, notice, info or debug, not \"loud\"")
        #expect(refusal("size", "800") == "--size must be WxH such as 1280x720, not \"800\"")
        #expect(refusal("frame-cache", "") == "--frame-cache must be a directory or none, not \"\"")
        #expect(refusal("keymap", "") == "--keymap must be a layout such as de or de:nodeadkeys, or a keymap file's path, not \"\"")
        #expect(refusal("sockett", "/s") == "unknown flag --sockett")
        // The ranges are the settings file's.
        #expect(Settings.maxFPSRange == 1...240 && Settings.displayWaitRange == 0...600)
    }

    /// The fast path knows exactly the options ArgumentParser declares for `run`.
    @Test func theFastPathKnowsEveryDeclaredOption() throws {
        let result = try runTool(builtExecutable("skeletond"), ["--experimental-dump-help"])
        #expect(result.status == 0, "\(result.err)")
        let info = try JSONValue.parse(result.out)
        guard case .object(let top) = info, case .object(let command)? = top["command"],
              case .array(let subcommands)? = command["subcommands"] else {
            Issue.record("unexpected --experimental-dump-help output")
            return
        }
        var declared: [String] = []
        for case .object(let sub) in subcommands where sub["commandName"] == .string("run") {
            guard case .array(let arguments)? = sub["arguments"] else { continue }
            for case .object(let argument) in arguments {
                guard case .array(let names)? = argument["names"] else { continue }
                for case .object(let name) in names where name["kind"] == .string("long") {
                    if case .string(let n)? = name["name"], n != "help" { declared.append(n) }
                }
            }
        }
        #expect(declared.sorted() == RunFlags.longNames.sorted())
    }

    /// A mistake on the command line still gets ArgumentParser's message and exit status.
    @Test func mistakesGetArgumentParsersErrors() throws {
        let fps = try runTool(builtExecutable("skeletond"), ["run", "--max-fps", "0", "--socket", "/tmp/unused.sock"])
        #expect(fps.status == 64)
        #expect(fps.err.contains("--max-fps must be from 1 to 240"), "\(fps.err)")
        let words = try runTool(builtExecutable("skeletond"), ["run", "--max-fps", "sixty", "--socket", "/tmp/unused.sock"])
        #expect(words.status == 64)
        #expect(words.err.contains("--max-fps must be from 1 to 240"), "\(words.err)")
        let unknown = try runTool(builtExecutable("skeletond"), ["run", "--sockett", "/tmp/unused.sock"])
        #expect(unknown.status == 64)
        #expect(unknown.err.contains("Unknown option '--sockett'"), "\(unknown.err)")
        let help = try runTool(builtExecutable("skeletond"), ["run", "--help"])
        #expect(help.status == 0)
        #expect(help.out.contains("--display-wait"), "\(help.out)")
    }
}

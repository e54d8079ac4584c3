import ArgumentParser
import SkeletonDisplay
import SkeletonLayout
import SkeletonTools

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure frame costs as ratios to a memcpy of one frame, measured in the same run."
    )

    @Argument(help: "The layout to draw.")
    var layout: String = "benchmarks/scene-1080p.json"

    @Option(help: "Output size WxH.")
    var size: Size = Size(width: 1920, height: 1080)

    @Option(help: "Frames to measure.")
    var frames: Int = 240

    @Option(help: "Also present into a framebuffer of this layout (fbdev): xrgb8888, rgb888 or rgb565.")
    var format: FramebufferFormatName?

    @Flag(help: "Exit 1 when a target is missed.")
    var check = false

    func run() throws {
        let loaded: Layout
        switch LayoutLoader.load(path: layout) {
        case .success(let l): loaded = l
        case .failure(let e):
            printError(e.lines)
            throw ExitCode(1)
        }
        let report = Benchmark.run(layout: loaded, size: size, frames: frames, format: format?.format)
        print(report.text)
        if check && !report.allTargetsMet { throw ExitCode(1) }
    }
}

/// The framebuffer layouts `bench --format` knows by name.
enum FramebufferFormatName: String, ExpressibleByArgument, CaseIterable {
    case xrgb8888, rgb888, rgb565

    var format: FramebufferFormat {
        switch self {
        case .xrgb8888: return .xrgb8888
        case .rgb888: return .rgb888
        case .rgb565: return .rgb565
        }
    }
}

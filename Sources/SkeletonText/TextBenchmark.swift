import SkeletonLayout
import SkeletonRender
import SkeletonSystem

/// The cost of a frame's labels: a title and a two-line status for a 1920x1080 frame, drawn
/// with empty caches (a new engine: faces read, glyphs rendered) and with warm ones, as ratios
/// to a memcpy of one 1920x1080 XRGB8888 frame measured in the same run.
public enum TextBenchmark {
    public struct Report: Sendable {
        public var runs: Int
        public var memcpyMilliseconds: Double
        public var coldMilliseconds: Double
        public var warmMilliseconds: Double

        public var text: String {
            func line(_ name: String, _ ms: Double) -> String {
                name.padding(toWidth: 30) + " " + ms.fixed(3) + " ms  " + (ms / memcpyMilliseconds).fixed(2) + "x memcpy"
            }
            return ["labels for a 1920x1080 frame (a title, a two-line status), \(runs) runs, medians",
                    "memcpy of one frame".padding(toWidth: 30) + " " + memcpyMilliseconds.fixed(3) + " ms  (reference)",
                    line("two labels, cold caches", coldMilliseconds),
                    line("two labels, warm caches", warmMilliseconds)].joined(separator: "\n")
        }
    }

    static let title = (text: "Setting up your device", style: TextStyle(size: 48, weight: 700, color: Color(rgb: 0x202124)),
                        width: 1200, height: 72)
    static let status = (text: "Installing updates, please do not switch off or unplug the device. This takes a few minutes.",
                         style: TextStyle(size: 24, color: Color(rgb: 0x5F6368), maxLines: 2), width: 720, height: 64)

    public static func run(runs: Int) throws(TextError) -> Report {
        let size = 1920 * 1080
        let source = PixelBuffer(width: 1920, height: 1080, fill: 0x123456), target = PixelBuffer(width: 1920, height: 1080)
        func measure(_ body: () throws(TextError) -> Void) throws(TextError) -> Double {
            let start = SystemCalls.monotonicSeconds()
            try body()
            return (SystemCalls.monotonicSeconds() - start) * 1000
        }
        func labels(_ engine: TextEngine) throws(TextError) {
            _ = try engine.render(title.text, style: title.style, width: title.width, height: title.height)
            _ = try engine.render(status.text, style: status.style, width: status.width, height: status.height)
        }
        let warm = TextEngine()
        try labels(warm)
        target.canvas.copy(target.canvas.bounds, from: source.canvas)
        var memcpyTimes: [Double] = [], coldTimes: [Double] = [], warmTimes: [Double] = []
        for _ in 0..<max(1, runs) {
            memcpyTimes.append(try measure {
                UnsafeMutableRawPointer(target.canvas.base).copyMemory(from: source.canvas.base, byteCount: size * 4)
            })
            coldTimes.append(try measure { () throws(TextError) in try labels(TextEngine()) })
            warmTimes.append(try measure { () throws(TextError) in try labels(warm) })
        }
        return Report(runs: max(1, runs), memcpyMilliseconds: median(memcpyTimes), coldMilliseconds: median(coldTimes),
                      warmMilliseconds: median(warmTimes))
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
}

private extension String {
    func padding(toWidth width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}

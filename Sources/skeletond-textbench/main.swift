#if canImport(Glibc)
import Glibc
#endif
import SkeletonText

// `skeletond-textbench [RUNS]`: the cost of a frame's two labels, cold and warm, as ratios to a
// memcpy of a 1920x1080 frame (`make bench`). Separate from `skeletond bench` because the
// static skeletond cannot link HarfBuzz.
let runs = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 200
do {
    print(try TextBenchmark.run(runs: runs).text)
} catch {
    print("skeletond-textbench: \(error)")
    exit(1)
}

/// A stretch of a line at one embedding level: its characters and whether they run right to left.
struct BidiRun: Equatable {
    var range: Range<Int>
    var rightToLeft: Bool
}

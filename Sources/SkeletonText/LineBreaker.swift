/// Greedy line breaking of one paragraph to a width: at spaces, and within a word (at a
/// cluster boundary) only when the word alone is wider than the line. Widths are measured on
/// the paragraph shaped whole.
enum LineBreaker {
    /// The spaces a line may break at (not the no-break ones: U+00A0, U+2007, U+202F).
    static func isSpace(_ c: UInt32) -> Bool {
        c == 0x20 || c == 0x09 || c == 0x1680 || (0x2000...0x200A).contains(c) && c != 0x2007 || c == 0x205F || c == 0x3000
    }

    /// The lines of `text` at `width` (1/64 pixel), each without the spaces it broke at.
    /// `advances` and `clusterStarts` are `ShapedRun`'s, for the whole of `text`.
    static func lines(_ text: [UInt32], advances: [Int], clusterStarts: [Bool], width: Int) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        var start = 0
        repeat {
            var end = start, used = 0, i = start
            var next: Int?
            while i < text.count {
                var wordEnd = i
                while wordEnd < text.count && !isSpace(text[wordEnd]) { wordEnd += 1 }
                let word = advances[i..<wordEnd].reduce(0, +)
                if used + word > width {
                    // A word that does not fit starts the next line, unless it is the line's first:
                    // then it is cut after as many clusters as fit (at least one).
                    if end == start && wordEnd > i {
                        var cut = i + 1
                        var fitted = used + advances[i]
                        while cut < wordEnd && (!clusterStarts[cut] || fitted + clusterWidth(advances, from: cut, clusterStarts, wordEnd) <= width) {
                            fitted += advances[cut]
                            cut += 1
                        }
                        end = cut
                        next = cut
                    }
                    break
                }
                used += word
                end = wordEnd
                var spaceEnd = wordEnd
                while spaceEnd < text.count && isSpace(text[spaceEnd]) { spaceEnd += 1 }
                used += advances[wordEnd..<spaceEnd].reduce(0, +)
                i = spaceEnd
                next = spaceEnd
            }
            lines.append(start..<end)
            start = next ?? i
        } while start < text.count
        return lines
    }

    /// The advance of the cluster starting at `start` (it runs to the next cluster start).
    private static func clusterWidth(_ advances: [Int], from start: Int, _ clusterStarts: [Bool], _ limit: Int) -> Int {
        var end = start + 1
        while end < limit && !clusterStarts[end] { end += 1 }
        return advances[start..<end].reduce(0, +)
    }
}

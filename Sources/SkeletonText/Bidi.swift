import CFriBidi

/// The Unicode bidirectional algorithm, by FriBidi: embedding levels per paragraph
/// (`fribidi_get_bidi_types`, `fribidi_get_bracket_types`,
/// `fribidi_get_par_embedding_levels_ex`), then each line cut into runs and reordered for
/// display (rule L2).
enum Bidi {
    /// The embedding level of each character of the paragraph `text` (odd: right to left),
    /// with the layout's direction as the paragraph's base direction.
    static func levels(_ text: [UInt32], rightToLeft: Bool) -> [Int8] {
        let base: Int8 = rightToLeft ? 1 : 0
        guard !text.isEmpty else { return [] }
        let count = FriBidiStrIndex(text.count)
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: text.count)
        var brackets = [FriBidiBracketType](repeating: 0, count: text.count)
        var levels = [FriBidiLevel](repeating: 0, count: text.count)
        var direction = rightToLeft ? skeleton_fribidi_par_rtl : skeleton_fribidi_par_ltr
        fribidi_get_bidi_types(text, count, &types)
        fribidi_get_bracket_types(text, count, types, &brackets)
        // FriBidi fails only when it cannot allocate; the text then keeps the base direction.
        guard fribidi_get_par_embedding_levels_ex(types, brackets, count, &direction, &levels) != 0 else {
            return [Int8](repeating: base, count: text.count)
        }
        return levels
    }

    /// The runs of characters `range` of a paragraph with `levels`, in display order from
    /// left to right: reversed per rule L2, from the highest level down to the lowest odd one.
    static func visualRuns(levels: [Int8], range: Range<Int>) -> [BidiRun] {
        var runs: [(range: Range<Int>, level: Int8)] = []
        var start = range.lowerBound
        for i in range where i == range.upperBound - 1 || levels[i + 1] != levels[i] {
            runs.append((start..<i + 1, levels[i]))
            start = i + 1
        }
        guard let highest = runs.map(\.level).max(), let lowestOdd = runs.map(\.level).filter({ $0 & 1 == 1 }).min() else {
            return runs.map { BidiRun(range: $0.range, rightToLeft: false) }
        }
        var level = highest
        while level >= lowestOdd {
            var i = 0
            while i < runs.count {
                guard runs[i].level >= level else { i += 1; continue }
                var end = i
                while end < runs.count && runs[end].level >= level { end += 1 }
                runs[i..<end].reverse()
                i = end
            }
            level -= 1
        }
        return runs.map { BidiRun(range: $0.range, rightToLeft: $0.level & 1 == 1) }
    }
}

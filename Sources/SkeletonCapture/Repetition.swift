import SkeletonLayout

/// Repeated siblings: consecutive elements of one tag, background and size whose leaves are the
/// same kinds at the same places (texts may differ in length), whatever their classes, and how
/// they are placed (a list: one column at a steady pitch; a grid: columns and rows filled in
/// reading order).
enum Repetition {
    /// How close two lengths must be to count as the same, in CSS pixels.
    static let tolerance = 2.0

    enum Placement: Equatable {
        case list(pitch: Double)
        case grid(columns: Int, pitchX: Double, pitchY: Double)
    }

    /// The longest run of repeated siblings starting at `start` (just that element when none).
    static func run(in elements: [ScannedElement], from start: Int) -> [ScannedElement] {
        let first = elements[start]
        guard ![.bar, .content].contains(first.kind) else { return [first] }
        var end = start + 1
        while end < elements.count, alike(first, elements[end]) { end += 1 }
        return Array(elements[start..<end])
    }

    static func alike(_ a: ScannedElement, _ b: ScannedElement) -> Bool {
        guard a.kind == b.kind, a.tag == b.tag, a.background == b.background, a.hidden == b.hidden,
              close(a.rect.width, b.rect.width), close(a.rect.height, b.rect.height) else {
            return false
        }
        let la = a.leaves, lb = b.leaves
        guard la.count == lb.count, !la.isEmpty else { return false }
        for (x, y) in zip(la, lb) {
            guard x.kind == y.kind, close(x.rect.x - a.rect.x, y.rect.x - b.rect.x) || x.kind == .text,
                  close(x.rect.y - a.rect.y, y.rect.y - b.rect.y), x.lines.count == y.lines.count else { return false }
            if x.kind != .text && !(close(x.rect.width, y.rect.width) && close(x.rect.height, y.rect.height)) { return false }
        }
        return true
    }

    /// A list or a grid for these item frames, in this order; nil when they are placed otherwise.
    static func placement(of frames: [Rect]) -> Placement? {
        guard frames.count >= 2 else { return nil }
        var columnXs: [Double] = []
        for f in frames where !columnXs.contains(where: { close($0, f.x) }) { columnXs.append(f.x) }
        if columnXs.count == 1 {
            let pitch = (frames[frames.count - 1].y - frames[0].y) / Double(frames.count - 1)
            guard pitch >= frames[0].height - tolerance else { return nil }
            for (i, f) in frames.enumerated() where !close(f.y, frames[0].y + pitch * Double(i)) { return nil }
            return .list(pitch: pitch)
        }
        let columns = columnXs.count
        let pitchX = columns > 1 ? (frames[columns - 1].x - frames[0].x) / Double(columns - 1) : 0
        let rows = (frames.count + columns - 1) / columns
        let pitchY = rows > 1 ? frames[columns].y - frames[0].y : frames[0].height
        guard pitchX >= frames[0].width - tolerance, pitchY >= frames[0].height - tolerance else { return nil }
        for (i, f) in frames.enumerated() {
            let expected = (frames[0].x + pitchX * Double(i % columns), frames[0].y + pitchY * Double(i / columns))
            guard close(f.x, expected.0), close(f.y, expected.1) else { return nil }
        }
        return .grid(columns: columns, pitchX: pitchX, pitchY: pitchY)
    }

    private static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= tolerance }
}

extension ScannedElement {
    /// The element's tag (or `::before`, `#text`): its signature without the classes.
    var tag: Substring { signature.prefix { $0 != "." } }
}

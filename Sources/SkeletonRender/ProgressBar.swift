import SkeletonLayout

/// A progress item's motion: where its fill stands at a time, with a change of value sliding
/// in from the value shown before (eased over `valueAnimation`), and the indeterminate segment
/// crossing the bar once per period from the leading edge.
struct ProgressBar {
    let item: ProgressItem
    /// A value change in flight: the value it started from and when (animation time; nil until
    /// its first frame is drawn, so that a picture that stood still for a while does not skip it).
    var slide: (from: Double, start: Double?)?

    private static let ease = TimingCurve(.easeInOut)

    init(_ item: ProgressItem) {
        self.item = item
    }

    /// The fraction shown at `time`, or nil while indeterminate.
    func shownValue(at time: Double) -> Double? {
        guard let target = item.value.fraction else { return nil }
        guard let slide, item.valueAnimation > 0 else { return target }
        guard let start = slide.start else { return slide.from }
        let p = min(1, max(0, (time - start) / item.valueAnimation))
        return slide.from + (target - slide.from) * Self.ease(p)
    }

    /// True when a frame after one drawn at `time` (nil: none drawn yet) shows another fill.
    func moves(after time: Double?) -> Bool {
        guard item.value.fraction != nil else { return true }
        guard let slide else { return false }
        guard let start = slide.start, let time else { return true }
        return time < start + item.valueAnimation
    }

    /// The fill's rectangle at `time` in output pixels (empty at zero).
    func fill(at time: Double) -> Rect {
        let r = item.rect
        if let value = shownValue(at: time) {
            let width = r.width * value
            return Rect(x: item.rightToLeft ? r.maxX - width : r.x, y: r.y, width: width, height: r.height)
        }
        let segment = r.width * ProgressSpec.indeterminateSegment
        let period = item.indeterminatePeriod
        var phase = (time / period).truncatingRemainder(dividingBy: 1)
        if phase < 0 { phase += 1 }
        let travelled = phase * (r.width + segment)
        let x = item.rightToLeft ? r.maxX - travelled : r.x - segment + travelled
        return Rect(x: x, y: r.y, width: segment, height: r.height)
    }

    /// Starts a pending slide at `time`, the first frame drawn after the change.
    mutating func startSlide(at time: Double) {
        if let s = slide, s.start == nil { slide = (s.from, time) }
    }

    /// The fill's coverage at `time`: its rounded rectangle, inside the track.
    func fillMask(at time: Double) -> CoverageMask {
        let f = fill(at: time)
        let radius = min(item.cornerRadius, min(f.width, f.height) / 2)
        return CoverageMask(rect: f, radius: max(0, radius), clip: item.clip.intersection(item.rect))
    }
}

import SkeletonLayout

/// A CSS / Core Animation cubic-bezier timing function from (0, 0) to (1, 1).
public struct TimingCurve: Sendable, Hashable {
    public let x1: Double, y1: Double, x2: Double, y2: Double

    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    public init(_ name: TimingCurveName) {
        switch name {
        case .linear: self.init(0, 0, 1, 1)
        case .easeIn: self.init(0.42, 0, 1, 1)
        case .easeOut: self.init(0, 0, 0.58, 1)
        case .easeInOut: self.init(0.42, 0, 0.58, 1)
        }
    }

    /// The eased progress for linear time `t` in 0...1.
    public func callAsFunction(_ t: Double) -> Double {
        if t <= 0 { return 0 }
        if t >= 1 { return 1 }
        if x1 == y1 && x2 == y2 { return t }
        // Solve x(s) = t: Newton steps, then bisection if they stall.
        var s = t
        for _ in 0..<8 {
            let error = bezier(s, x1, x2) - t
            if abs(error) < 1e-9 { return bezier(s, y1, y2) }
            let slope = derivative(s, x1, x2)
            if abs(slope) < 1e-9 { break }
            s -= error / slope
        }
        var low = 0.0, high = 1.0
        s = t
        for _ in 0..<60 {
            let x = bezier(s, x1, x2)
            if abs(x - t) < 1e-10 { break }
            if x < t { low = s } else { high = s }
            s = (low + high) / 2
        }
        return bezier(s, y1, y2)
    }

    private func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
    }

    private func derivative(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * p1 + 6 * u * s * (p2 - p1) + 3 * s * s * (1 - p2)
    }
}

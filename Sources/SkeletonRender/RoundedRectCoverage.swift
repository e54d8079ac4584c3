#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Exact area coverage of axis-aligned boxes by a rounded rectangle (corner arcs integrated in
/// closed form), for the anti-aliased edge pixels; interiors never come here.
struct RoundedRectCoverage {
    let x0: Double, y0: Double, x1: Double, y1: Double
    let radius: Double

    init(x0: Double, y0: Double, x1: Double, y1: Double, radius: Double) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
        self.radius = max(0, min(radius, (x1 - x0) / 2, (y1 - y0) / 2))
    }

    /// Area of the box `[bx0, bx1] x [by0, by1]` that lies inside the shape.
    func area(_ bx0: Double, _ by0: Double, _ bx1: Double, _ by1: Double) -> Double {
        let w = min(bx1, x1) - max(bx0, x0)
        let h = min(by1, y1) - max(by0, y0)
        guard w > 0, h > 0 else { return 0 }
        var area = w * h
        let r = radius
        guard r > 0 else { return area }
        // Each corner's cut-out: the part of the corner square outside the quarter disc.
        // Local coordinates measure outward from the corner's arc centre.
        let cxl = x0 + r, cxr = x1 - r, cyt = y0 + r, cyb = y1 - r
        if bx0 < cxl {
            if by0 < cyt { area -= cutout(cxl - bx1, cxl - bx0, cyt - by1, cyt - by0) }
            if by1 > cyb { area -= cutout(cxl - bx1, cxl - bx0, by0 - cyb, by1 - cyb) }
        }
        if bx1 > cxr {
            if by0 < cyt { area -= cutout(bx0 - cxr, bx1 - cxr, cyt - by1, cyt - by0) }
            if by1 > cyb { area -= cutout(bx0 - cxr, bx1 - cxr, by0 - cyb, by1 - cyb) }
        }
        return max(0, area)
    }

    /// Area of `[u0, u1] x [v0, v1]` within the corner square `[0, r]^2` but outside the disc.
    private func cutout(_ u0: Double, _ u1: Double, _ v0: Double, _ v1: Double) -> Double {
        let r = radius
        let a0 = max(u0, 0), a1 = min(u1, r), b0 = max(v0, 0), b1 = min(v1, r)
        guard a1 > a0, b1 > b0 else { return 0 }
        return (a1 - a0) * (b1 - b0) - discArea(a0, a1, b0, b1)
    }

    /// Area of `[a0, a1] x [b0, b1]` (all >= 0) inside the disc of radius r at the origin.
    private func discArea(_ a0: Double, _ a1: Double, _ b0: Double, _ b1: Double) -> Double {
        let r = radius
        guard b0 < r, a0 < r else { return 0 }
        // Where the arc leaves the top of the box (u at v = b1) and its bottom (u at v = b0).
        let full = b1 < r ? (r * r - b1 * b1).squareRoot() : 0
        let none = (r * r - b0 * b0).squareRoot()
        var area = 0.0
        let fullEnd = min(a1, full)
        if fullEnd > a0 { area += (fullEnd - a0) * (b1 - b0) }
        let arcStart = max(a0, full), arcEnd = min(a1, none)
        if arcEnd > arcStart {
            area += arcIntegral(arcEnd) - arcIntegral(arcStart) - b0 * (arcEnd - arcStart)
        }
        return area
    }

    /// The integral of sqrt(r^2 - u^2) from 0 to u.
    private func arcIntegral(_ u: Double) -> Double {
        let r = radius
        let c = min(1, max(-1, u / r))
        return 0.5 * (u * max(0, r * r - u * u).squareRoot() + r * r * asin(c))
    }
}

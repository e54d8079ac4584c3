/// Light or dark: a dark scheme changes the default tint to darkClouds.
public enum ColorScheme: String, Sendable, CaseIterable {
    case light, dark
}

/// A gradient as written in a layout: one base colour (its complement in the middle), a base
/// and a secondary colour, or an explicit list of colours, evenly spaced.
public enum GradientSpec: Sendable, Hashable {
    case base(Color)
    case baseAndSecondary(Color, Color)
    case colors([Color])

    /// The stops, evenly spaced from 0 to 1.
    public var stops: [Color] {
        switch self {
        case .base(let c): return [c, c.complement, c]
        case .baseAndSecondary(let b, let s): return [b, s, b]
        case .colors(let list): return list
        }
    }
}

/// The layout-wide appearance, the defaults of SkeletonView's `SkeletonAppearance`.
public struct Appearance: Sendable, Hashable {
    public var tint: Color?
    public var gradient: GradientSpec?
    public var textLineHeight: Double
    public var textLineSpacing: Double
    public var lastLineFillPercent: Double
    public var linesCornerRadius: Double
    public var cornerRadius: Double
    public var scheme: ColorScheme

    public init(tint: Color? = nil, gradient: GradientSpec? = nil, textLineHeight: Double = 15,
                textLineSpacing: Double = 10, lastLineFillPercent: Double = 70, linesCornerRadius: Double = 0,
                cornerRadius: Double = 0, scheme: ColorScheme = .light) {
        self.tint = tint
        self.gradient = gradient
        self.textLineHeight = textLineHeight
        self.textLineSpacing = textLineSpacing
        self.lastLineFillPercent = lastLineFillPercent
        self.linesCornerRadius = linesCornerRadius
        self.cornerRadius = cornerRadius
        self.scheme = scheme
    }

    /// The solid fill: the tint, or clouds (darkClouds in the dark scheme).
    public var resolvedTint: Color {
        tint ?? (scheme == .dark ? Color.named["darkClouds"]! : Color.named["clouds"]!)
    }

    /// The gradient stops: as given, or [tint, complement(tint), tint].
    public var resolvedGradient: [Color] {
        (gradient ?? .base(resolvedTint)).stops
    }
}

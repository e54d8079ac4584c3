import ArgumentParser
import SkeletonLayout
import SkeletonProtocol

/// The presentation overrides as command-line options, one group shared by `skeletond render`
/// and skeletonctl's `show` and `update`: the same names, values and checks in both.
public struct PresentationOptions: ParsableArguments {
    @Option(help: "Fill style: solid or gradient.")
    public var style: SkeletonStyle?

    @Flag(inversion: .prefixedNo, help: "Animate (pulse or sliding), or not.")
    public var animated: Bool?

    @Option(help: "Sliding direction: leftRight, rightLeft, topBottom, bottomTop, topLeftBottomRight, bottomRightTopLeft.")
    public var direction: SlideDirection?

    @Option(help: "Seconds per sweep (or per pulse half-cycle), more than 0, at most 600.",
            transform: { try OptionValues.value(.animationDuration, $0, of: "--duration") })
    public var duration: Double?

    @Option(help: "Easing of each sweep or pulse: linear, easeIn, easeOut or easeInOut.")
    public var timing: TimingCurveName?

    @Flag(inversion: .prefixedNo, help: "Run back after each sweep or pulse, or not.")
    public var autoreverse: Bool?

    @Option(help: "Seconds of rest between sweeps, 0 to 600.", transform: { try OptionValues.value(.animationPause, $0, of: "--pause") })
    public var pause: Double?

    @Option(help: "Measure the band in each shape (shape) or across the screen (screen).")
    public var space: SweepSpace?

    @Option(help: "Extra seconds of delay per shape, 0 to 60.", transform: { try OptionValues.value(.animationStagger, $0, of: "--stagger") })
    public var stagger: Double?

    @Option(help: "Skeleton colour: a flat colour name, #RRGGBB, #RRGGBBAA, rgb() or rgba().", transform: OptionValues.color)
    public var tint: Color?

    @Option(help: "Gradient colours C1[,C2[,C3...]]: one a base, two a base and a secondary, more the stops.",
            transform: OptionValues.gradient)
    public var gradient: GradientSpec?

    @Option(help: "Colour scheme: light or dark.")
    public var scheme: ColorScheme?

    @Flag(name: .customLong("reduced-motion"), inversion: .prefixedNo, help: "Stop all movement (or allow it again).")
    public var reducedMotion: Bool?

    public init() {}

    public var overrides: PresentationOverrides {
        PresentationOverrides(style: style, animated: animated, direction: direction, duration: duration, timing: timing,
                              autoreverse: autoreverse, pause: pause, space: space, stagger: stagger,
                              reducedMotion: reducedMotion, tint: tint, gradient: gradient, scheme: scheme)
    }
}

import ArgumentParser
import SkeletonLayout

/// Flags that override a layout's presentation, shared by the commands that draw.
struct PresentationOptions: ParsableArguments {
    @Option(help: "Fill style: solid or gradient.")
    var style: SkeletonStyle?

    @Option(help: "Animate (pulse or sliding): true or false.")
    var animated: Bool?

    @Option(help: "Sliding direction: leftRight, rightLeft, topBottom, bottomTop, topLeftBottomRight, bottomRightTopLeft.")
    var direction: SlideDirection?

    @Option(help: "Skeleton colour: a flat colour name, #RRGGBB, #RRGGBBAA, rgb() or rgba().")
    var tint: Color?

    @Option(help: "Colour scheme: light or dark.")
    var scheme: ColorScheme?

    var overrides: PresentationOverrides {
        PresentationOverrides(style: style, animated: animated, direction: direction, tint: tint, scheme: scheme)
    }
}

extension SkeletonStyle: ExpressibleByArgument {}
extension SlideDirection: ExpressibleByArgument {}
extension ColorScheme: ExpressibleByArgument {}
extension TimingCurveName: ExpressibleByArgument {}

extension Color: ExpressibleByArgument {
    public init?(argument: String) {
        guard case .success(let c) = Color.parse(argument) else { return nil }
        self = c
    }
}

extension Size: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

import ArgumentParser
import SkeletonLayout

extension SkeletonStyle: ExpressibleByArgument {}
extension SlideDirection: ExpressibleByArgument {}
extension ColorScheme: ExpressibleByArgument {}
extension TimingCurveName: ExpressibleByArgument {}
extension SweepSpace: ExpressibleByArgument {}

extension Size: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

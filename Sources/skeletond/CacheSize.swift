import ArgumentParser
import SkeletonLayout

/// A `--size` of `skeletond cache`: WxH, or the sizes of the outputs there are now.
enum CacheSize: ExpressibleByArgument {
    case size(Size)
    case auto

    init?(argument: String) {
        if argument == "auto" {
            self = .auto
        } else if let size = Size(parsing: argument) {
            self = .size(size)
        } else {
            return nil
        }
    }
}

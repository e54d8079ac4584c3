import SkeletonLayout
import SkeletonSystem

/// Where settings come from: a file (or built-in defaults) and the command-line flags on top.
public struct SettingsSource: Sendable {
    public var path: String?
    public var pathIsDefault: Bool
    public var apply: @Sendable (inout Settings) -> Void

    public init(path: String?, pathIsDefault: Bool, apply: @escaping @Sendable (inout Settings) -> Void) {
        self.path = path
        self.pathIsDefault = pathIsDefault
        self.apply = apply
    }

    /// The settings now; a missing default file means built-in defaults.
    public func load() -> Result<Settings, LayoutError> {
        var settings = Settings()
        if let path {
            if SystemCalls.fileExists(path) || !pathIsDefault {
                switch Settings.load(path: path) {
                case .success(let s): settings = s
                case .failure(let e): return .failure(e)
                }
            }
        }
        apply(&settings)
        return .success(settings)
    }
}

import SkeletonLayout
import SkeletonSystem

/// Where settings come from: a file (or built-in defaults) and the command-line flags on top.
public struct SettingsSource: Sendable {
    public var path: String?
    public var pathIsDefault: Bool
    public var apply: @Sendable (inout Settings) -> Void
    /// Where the settings file and the layouts are read.
    public var files: ConfigFiles

    public init(path: String?, pathIsDefault: Bool, files: ConfigFiles = .system, apply: @escaping @Sendable (inout Settings) -> Void) {
        self.path = path
        self.pathIsDefault = pathIsDefault
        self.files = files
        self.apply = apply
    }

    /// The settings now; a missing default file means built-in defaults.
    public func load() -> Result<Settings, LayoutError> {
        var settings = Settings()
        if let path {
            if files.exists(path) || !pathIsDefault {
                switch files.read(path) {
                case .success(let bytes):
                    switch Settings.parse(bytes, file: path) {
                    case .success(let s): settings = s
                    case .failure(let e): return .failure(e)
                    }
                case .failure:
                    return .failure(LayoutError(file: path, issues: [LayoutIssue(path: "", message: "cannot read the settings file")]))
                }
            }
        }
        apply(&settings)
        return .success(settings)
    }
}

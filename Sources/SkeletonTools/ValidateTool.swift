import SkeletonLayout

/// `skeletond validate`: every error of every file, as `FILE: PATH: message` lines.
public enum ValidateTool {
    public static func validate(paths: [String]) -> [String] {
        paths.flatMap { path -> [String] in
            switch LayoutLoader.load(path: path) {
            case .success: return []
            case .failure(let error): return error.lines
            }
        }
    }
}

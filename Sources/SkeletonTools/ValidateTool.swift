import SkeletonContent
import SkeletonLayout

/// `skeletond validate`: every error of every file, as `FILE: PATH: message` lines.
public enum ValidateTool {
    public static func validate(paths: [String]) -> [String] {
        paths.flatMap { path -> [String] in
            switch LayoutLoader.load(path: path) {
            case .success(let layout):
                // Pictures that do not load and fonts that do not open: the layout shows, with those nodes as skeletons.
                return ContentSprites().problems(in: layout).map { "\(path): \($0)" }
            case .failure(let error): return error.lines
            }
        }
    }
}

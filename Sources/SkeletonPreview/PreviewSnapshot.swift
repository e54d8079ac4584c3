import SkeletonLayout

/// What the preview shows at one moment: the layout as last saved, or why it cannot be shown
/// (every problem with its file, line and JSON path). `version` grows with each save.
enum PreviewSnapshot: Sendable {
    case layout(Layout, version: Int)
    case problems([PreviewProblem], version: Int)

    var version: Int {
        switch self {
        case .layout(_, let version), .problems(_, let version): return version
        }
    }
}

/// One thing wrong with the file, where a person finds it.
struct PreviewProblem: Sendable, Equatable {
    var file: String
    var line: Int
    var path: String
    var message: String

    var json: JSONValue {
        ["file": .string(file), "line": .number(Double(line)), "path": .string(path), "message": .string(message)]
    }

    /// A layout file's text checked: the layout, or its problems with their lines.
    static func check(_ bytes: [UInt8], file: String, version: Int) -> PreviewSnapshot {
        do {
            _ = try JSONValue.parse(bytes)
        } catch {
            return .problems([PreviewProblem(file: file, line: error.line, path: "", message: "not valid JSON: \(error)")], version: version)
        }
        switch LayoutLoader.load(text: bytes, file: file) {
        case .success(let layout): return .layout(layout, version: version)
        case .failure(let error):
            return .problems(error.issues.map { issue in
                PreviewProblem(file: file, line: JSONLocator.line(of: issue.path, in: bytes), path: issue.path, message: issue.message)
            }, version: version)
        }
    }
}

import SkeletonLayout
import SkeletonProtocol

/// Loads layouts by name from the layouts directory and keeps the last good copy of each, so
/// that a reload with a broken file reports it and leaves the old one in force.
public final class LayoutStore {
    public private(set) var directory: String
    private var cache: [String: Layout] = [:]

    public init(directory: String) { self.directory = directory }

    /// A name of the directory, or a file path (containing '/' or ending in .json).
    public func load(_ reference: String) -> Result<(name: String, layout: Layout), ProtocolError> {
        if reference == BuiltinLayout.name { return .success((BuiltinLayout.name, BuiltinLayout.layout)) }
        let isPath = reference.contains("/") || reference.hasSuffix(".json")
        let path: String
        let name: String
        if isPath {
            path = reference
            name = LayoutLoader.stem(of: reference)
        } else {
            if let problem = RequestDecoder.validateLayoutName(reference) { return .failure(ProtocolError(.badLayoutName, problem)) }
            path = directory + "/" + reference + ".json"
            name = reference
        }
        if let cached = cache[path] { return .success((name, cached)) }
        guard SystemCalls.fileExists(path) else {
            return .failure(ProtocolError(.unknownLayout, isPath ? "no layout file \(path)" : "no layout named \"\(reference)\" in \(directory) (looked for \(path))"))
        }
        switch LayoutLoader.load(path: path) {
        case .success(let layout):
            cache[path] = layout
            return .success((name, layout))
        case .failure(let error):
            return .failure(ProtocolError(.invalidLayout, error.lines.joined(separator: "; ")))
        }
    }

    /// Re-reads every cached layout (and switches directory); returns the errors of broken
    /// files, whose previous versions stay in force.
    public func reload(directory newDirectory: String) -> [String] {
        if newDirectory != directory {
            directory = newDirectory
        }
        var problems: [String] = []
        for path in cache.keys.sorted() {
            switch LayoutLoader.load(path: path) {
            case .success(let layout): cache[path] = layout
            case .failure(let error): problems += error.lines
            }
        }
        return problems
    }

    public static var builtin: (name: String, layout: Layout) { (BuiltinLayout.name, BuiltinLayout.layout) }
}

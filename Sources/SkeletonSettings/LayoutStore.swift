import SkeletonBoot
import SkeletonLayout
import SkeletonProtocol
import SkeletonSystem

/// Loads layouts by name from the layouts directory and keeps the last good copy of each, so
/// that a reload with a broken file reports it and leaves the old one in force.
public final class LayoutStore {
    public private(set) var directory: String
    private let files: ConfigFiles
    private var cache: [String: Layout] = [:]

    public init(directory: String, files: ConfigFiles = .system) {
        self.directory = directory
        self.files = files
    }

    /// A name of the directory, or a file path (containing '/' or ending in .json).
    public func load(_ reference: String) -> Result<(name: String, layout: Layout), ProtocolError> {
        if reference == BuiltinLayout.name { return .success((BuiltinLayout.name, BuiltinLayout.layout)) }
        let isPath = isFilePath(reference)
        let name: String
        let path: String
        switch location(of: reference) {
        case .success(let l): (name, path) = l
        case .failure(let e): return .failure(e)
        }
        if let cached = cache[path] { return .success((name, cached)) }
        guard files.exists(path) else {
            return .failure(ProtocolError(.unknownLayout, isPath ? "no layout file \(path)" : "no layout named \"\(reference)\" in \(directory) (looked for \(path))"))
        }
        switch read(path) {
        case .success(let layout):
            cache[path] = layout
            return .success((name, layout))
        case .failure(let error):
            return .failure(ProtocolError(.invalidLayout, error.lines.joined(separator: "; ")))
        }
    }

    /// The name and the file bytes `reference` stands for, unparsed (the frame cache keys on
    /// them); nil when there is no such file.
    public func source(of reference: String) -> StartSource? {
        if reference == BuiltinLayout.name { return StartSource(name: BuiltinLayout.name, text: Array(BuiltinLayout.text.utf8), path: nil) }
        guard case .success(let (name, path)) = location(of: reference),
              case .success(let text) = files.read(path, limit: LayoutLimits.fileBytes) else { return nil }
        return StartSource(name: name, text: text, path: path)
    }

    /// The file `reference` stands for, read or not; nil for the built-in layout and a bad name.
    public func filePath(of reference: String) -> String? {
        guard reference != BuiltinLayout.name, case .success(let (_, path)) = location(of: reference) else { return nil }
        return path
    }

    private func isFilePath(_ reference: String) -> Bool {
        reference.utf8.contains(UInt8(ascii: "/")) || reference.utf8.reversed().starts(with: "nosj.".utf8)
    }

    private func location(of reference: String) -> Result<(name: String, path: String), ProtocolError> {
        if isFilePath(reference) { return .success((LayoutLoader.stem(of: reference), reference)) }
        if let problem = RequestDecoder.validateLayoutName(reference) { return .failure(ProtocolError(.badLayoutName, problem)) }
        return .success((reference, directory + "/" + reference + ".json"))
    }

    /// Re-reads every cached layout (and switches directory); returns the errors of broken
    /// files, whose previous versions stay in force.
    public func reload(directory newDirectory: String) -> [String] {
        if newDirectory != directory {
            directory = newDirectory
        }
        var problems: [String] = []
        for path in cache.keys.sorted() {
            switch read(path) {
            case .success(let layout): cache[path] = layout
            case .failure(let error): problems += error.lines
            }
        }
        return problems
    }

    private func read(_ path: String) -> Result<Layout, LayoutError> {
        switch files.read(path, limit: LayoutLimits.fileBytes) {
        case .success(let bytes): return LayoutLoader.load(text: bytes, file: path)
        case .failure(let error):
            return .failure(LayoutError(file: path, issues: [LayoutIssue(path: "", message: "cannot read the file: \(error)")]))
        }
    }

    public static var builtin: (name: String, layout: Layout) { (BuiltinLayout.name, BuiltinLayout.layout) }
}

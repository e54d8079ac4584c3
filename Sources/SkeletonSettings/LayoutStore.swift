import SkeletonBoot
import SkeletonLayout
import SkeletonProtocol
import SkeletonSystem

/// Loads layouts by name from the layouts directory and keeps the last good copy of each, so
/// that a reload with a broken file reports it and leaves the old one in force. The daemon reads
/// a file not loaded yet off its loop (`fileToLoad`, `loader`, `loaded`), then `load` finds it.
public final class LayoutStore {
    public private(set) var directory: String
    private let files: ConfigFiles
    private var cache: [String: Layout] = [:]
    /// Files read off the loop that could not be loaded: told once, to the command that waited.
    private var refused: [String: ProtocolError] = [:]
    private var loading: Set<String> = []
    /// The kept layouts' files read again off the loop for the next `reload`, and whether that
    /// reading is under way.
    private var reread: [String: Result<Layout, LayoutError>]? = [:]
    public private(set) var isRereading = false

    public init(directory: String, files: ConfigFiles = .system) {
        self.directory = directory
        self.files = files
    }

    /// A name of the directory, or a file path (containing '/' or ending in .json).
    public func load(_ reference: String) -> Result<(name: String, layout: Layout), ProtocolError> {
        if reference == BuiltinLayout.name { return .success((BuiltinLayout.name, BuiltinLayout.layout)) }
        let name: String
        let path: String
        switch location(of: reference) {
        case .success(let l): (name, path) = l
        case .failure(let e): return .failure(e)
        }
        if let cached = cache[path] { return .success((name, cached)) }
        if let refusal = refused.removeValue(forKey: path) { return .failure(refusal) }
        return Self.read(path, files: files, missing: missingText(reference, path: path)).map { layout in
            cache[path] = layout
            return (name, layout)
        }
    }

    /// The file `reference` stands for when it is still to be read: not kept, not being read,
    /// no result waiting. Nil for the built-in layout, a bad name, or a file that is ready.
    public func fileToLoad(_ reference: String) -> String? {
        guard reference != BuiltinLayout.name, case .success(let (_, path)) = location(of: reference),
              cache[path] == nil, refused[path] == nil, !loading.contains(path) else { return nil }
        return path
    }

    /// Whether `reference`'s file is being read off the loop.
    public func isLoading(_ reference: String) -> Bool {
        guard case .success(let (_, path)) = location(of: reference) else { return false }
        return loading.contains(path)
    }

    /// Reads and checks `reference`'s file `path` on any thread; `loaded` takes the result.
    public func loader(for reference: String, path: String) -> @Sendable () -> Result<Layout, ProtocolError> {
        loading.insert(path)
        let files = self.files, missing = missingText(reference, path: path)
        return { Self.read(path, files: files, missing: missing) }
    }

    /// What a `loader` made: the layout is kept, or its refusal told to the next `load`.
    public func loaded(path: String, _ result: Result<Layout, ProtocolError>) {
        loading.remove(path)
        switch result {
        case .success(let layout): cache[path] = layout
        case .failure(let error): refused[path] = error
        }
    }

    private func missingText(_ reference: String, path: String) -> String {
        isFilePath(reference) ? "no layout file \(path)" : "no layout named \"\(reference)\" in \(directory) (looked for \(path))"
    }

    private static func read(_ path: String, files: ConfigFiles, missing: String) -> Result<Layout, ProtocolError> {
        switch files.read(path, limit: LayoutLimits.fileBytes) {
        case .success(let bytes):
            return LayoutLoader.load(text: bytes, file: path).mapError { ProtocolError(.invalidLayout, $0.lines.joined(separator: "; ")) }
        case .failure(.failed(let errno)) where SystemCalls.isNoSuchFile(errno.rawValue):
            return .failure(ProtocolError(.unknownLayout, missing))
        case .failure(let error):
            return .failure(ProtocolError(.invalidLayout, "\(path): cannot read the file: \(error)"))
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

    /// Reads every kept layout's file again, on any thread; `rereadDone` takes the result for
    /// the next `reload`.
    public func rereader() -> @Sendable () -> [String: Result<Layout, LayoutError>] {
        isRereading = true
        let paths = cache.keys.sorted(), files = self.files
        return {
            var results: [String: Result<Layout, LayoutError>] = [:]
            for path in paths { results[path] = Self.read(path, files: files) }
            return results
        }
    }

    /// What `rereader` read; nil when it was given up (the next `reload` keeps every layout).
    public func rereadDone(_ results: [String: Result<Layout, LayoutError>]?) {
        reread = results
        isRereading = false
    }

    /// Re-reads every cached layout (and switches directory), or takes what `rereader` read;
    /// returns the errors of broken files, whose previous versions stay in force.
    public func reload(directory newDirectory: String) -> [String] {
        if newDirectory != directory {
            directory = newDirectory
        }
        var problems: [String] = []
        guard let readBefore = reread else {
            reread = [:]
            return ["the layouts were not read again in time; the previous versions stay in force"]
        }
        reread = [:]
        for path in cache.keys.sorted() {
            switch readBefore[path] ?? read(path) {
            case .success(let layout): cache[path] = layout
            case .failure(let error): problems += error.lines
            }
        }
        return problems
    }

    private func read(_ path: String) -> Result<Layout, LayoutError> { Self.read(path, files: files) }

    private static func read(_ path: String, files: ConfigFiles) -> Result<Layout, LayoutError> {
        switch files.read(path, limit: LayoutLimits.fileBytes) {
        case .success(let bytes): return LayoutLoader.load(text: bytes, file: path)
        case .failure(let error):
            return .failure(LayoutError(file: path, issues: [LayoutIssue(path: "", message: "cannot read the file: \(error)")]))
        }
    }

    public static var builtin: (name: String, layout: Layout) { (BuiltinLayout.name, BuiltinLayout.layout) }
}

import SkeletonSystem

/// Reads and validates layout files; every error names the file, the JSON path and the reason.
public enum LayoutLoader {
    /// Parses and validates layout text. `file` is only used in errors.
    public static func load(text: [UInt8], file: String) -> Result<Layout, LayoutError> {
        let document: JSONValue
        do {
            document = try JSONValue.parse(text)
        } catch {
            return .failure(LayoutError(file: file, issues: [LayoutIssue(path: "", message: "not valid JSON: \(error)")]))
        }
        let directory = file.lastIndex(of: "/").map { String(file[..<$0]) }
        var decoder = LayoutDecoder(baseDirectory: directory.map { $0.isEmpty ? "/" : $0 })
        guard let layout = decoder.decodeLayout(document, defaultName: stem(of: file)) else {
            return .failure(LayoutError(file: file, issues: decoder.issues))
        }
        // Counted before anything is placed: a small file can ask for hundreds of millions of shapes.
        let excess = LayoutCensus.issues(of: layout)
        if !excess.isEmpty { return .failure(LayoutError(file: file, issues: excess)) }
        let geometry = LayoutResolver.geometryIssues(of: layout)
        if !geometry.isEmpty { return .failure(LayoutError(file: file, issues: geometry)) }
        return .success(layout)
    }

    /// Reads a file and validates it.
    public static func load(path: String) -> Result<Layout, LayoutError> {
        switch SystemCalls.readRegularFile(path, limit: LayoutLimits.fileBytes) {
        case .success(let bytes): return load(text: bytes, file: path)
        case .failure(let error):
            return .failure(LayoutError(file: path, issues: [LayoutIssue(path: "", message: "cannot read the file: \(error)")]))
        }
    }

    /// The file name without directories and without `.json`.
    public static func stem(of path: String) -> String {
        var name = path.split(separator: "/").last.map(String.init) ?? path
        if name.hasSuffix(".json") { name.removeLast(5) }
        return name
    }
}

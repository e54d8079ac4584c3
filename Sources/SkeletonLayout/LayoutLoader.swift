#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads and validates layout files; every error names the file, the JSON path and the reason.
public enum LayoutLoader {
    /// Parses and validates layout text. `file` is only used in errors.
    public static func load(text: some Collection<UInt8>, file: String) -> Result<Layout, LayoutError> {
        let document: JSONValue
        do {
            document = try JSONValue.parse(text)
        } catch {
            return .failure(LayoutError(file: file, issues: [LayoutIssue(path: "", message: "not valid JSON: \(error)")]))
        }
        var decoder = LayoutDecoder()
        guard let layout = decoder.decodeLayout(document, defaultName: stem(of: file)) else {
            return .failure(LayoutError(file: file, issues: decoder.issues))
        }
        let geometry = LayoutResolver.geometryIssues(of: layout)
        if !geometry.isEmpty { return .failure(LayoutError(file: file, issues: geometry)) }
        return .success(layout)
    }

    /// Reads a file and validates it.
    public static func load(path: String) -> Result<Layout, LayoutError> {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            return .failure(LayoutError(file: path, issues: [LayoutIssue(path: "", message: "cannot read the file: \(describe(error))")]))
        }
        return load(text: data, file: path)
    }

    /// The file name without directories and without `.json`.
    public static func stem(of path: String) -> String {
        var name = path.split(separator: "/").last.map(String.init) ?? path
        if name.hasSuffix(".json") { name.removeLast(5) }
        return name
    }

    private static func describe(_ error: any Error) -> String {
        let text = "\(error)"
        // Foundation's errors differ by platform and version (NSError texts on Darwin, a
        // CocoaError with the POSIX code inside on Linux): look for either form.
        if text.contains("NoSuchFile") || text.contains("No such file") || text.contains("ENOENT") {
            return "no such file"
        }
        if text.contains("NoPermission") || text.contains("Permission denied") || text.contains("EACCES") {
            return "permission denied"
        }
        if text.contains("IsADirectory") || text.contains("Is a directory") || text.contains("EISDIR") { return "it is a directory" }
        return text
    }
}

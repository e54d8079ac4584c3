import Foundation

/// A fresh directory under the system's temporary directory, for picture files.
struct TemporaryDirectory {
    let path: String

    init(_ name: String) {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes `bytes` to `name` in the directory and returns its path.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) -> String {
        let file = path + "/" + name
        precondition(FileManager.default.createFile(atPath: file, contents: Data(bytes)), "cannot write \(file)")
        return file
    }

    @discardableResult
    func write(_ name: String, text: String) -> String { write(name, Array(text.utf8)) }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

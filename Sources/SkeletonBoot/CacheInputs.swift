import SkeletonSystem

/// What `skeletond cache` prepares the next boot from: the settings file, the files of the
/// layouts directory (hidden ones aside: editors' swap files) and this executable, as one
/// fingerprint. skeletond-cache.path lets changes pass while the run it started goes on (the
/// initramfs made again takes minutes), so a run writes the fingerprint of what it read first
/// into the frame cache directory, and `skeletond cache --check-unchanged`, the run's last
/// step, compares it with the inputs then.
public struct CacheInputs: Equatable, Sendable {
    /// The fingerprint's file in the frame cache directory: hidden, so the hooks' `*` leaves it out.
    public static let fileName = ".inputs"

    /// 16 hex digits.
    public let fingerprint: String

    /// The inputs as they are now; a file that is missing or cannot be read counts as such.
    public init(settingsPath: String, layoutsDirectory: String) {
        var hash = FNV1a()
        hash.add(string: "skeletond cache inputs 1")
        hash.add(SystemCalls.buildID() ?? [])
        Self.add(file: settingsPath, to: &hash)
        for name in SystemCalls.directoryEntries(layoutsDirectory).sorted() where !name.hasPrefix(".") {
            hash.add(Array(name.utf8))
            Self.add(file: layoutsDirectory + "/" + name, to: &hash)
        }
        fingerprint = hash.hex
    }

    private init(fingerprint: String) {
        self.fingerprint = fingerprint
    }

    private static func add(file path: String, to hash: inout FNV1a) {
        if let bytes = SystemCalls.readFile(path) {
            hash.add(string: "file")
            hash.add(bytes)
        } else {
            hash.add(string: "no file")
        }
    }

    /// The fingerprint a run wrote into `directory`; nil when there is none.
    public static func recorded(in directory: String) -> CacheInputs? {
        guard let bytes = SystemCalls.readFile(directory + "/" + fileName, limit: 64) else { return nil }
        return CacheInputs(fingerprint: String(decoding: bytes, as: UTF8.self))
    }

    /// Writes the fingerprint into `directory`, for the run's check.
    public func record(in directory: String) throws(Errno) {
        let written = Array(fingerprint.utf8).withUnsafeBytes { bytes in
            Result { () throws(Errno) in try SystemCalls.writeFileAtomically(directory + "/" + Self.fileName, [bytes]) }
        }
        try written.get()
    }
}

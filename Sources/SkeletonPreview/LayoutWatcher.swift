import SkeletonLayout
import SkeletonSystem

/// The layout file as last saved: read again every `interval` (an editor may write it in
/// place or rename a new file over it; both show), checked, and kept as a `PreviewSnapshot`.
actor LayoutWatcher {
    let path: String
    private(set) var snapshot: PreviewSnapshot
    private var bytes: [UInt8]?
    static let interval: Duration = .milliseconds(50)

    init(path: String) {
        self.path = path
        snapshot = .problems([PreviewProblem(file: path, line: 1, path: "", message: "not read yet")], version: 0)
    }

    /// Reads the file; a change makes a new snapshot.
    func poll() {
        let read = SystemCalls.readRegularFile(path, limit: LayoutLimits.fileBytes)
        let now: [UInt8]?
        switch read {
        case .success(let b): now = b
        case .failure: now = nil
        }
        guard now != bytes || snapshot.version == 0 else { return }
        bytes = now
        let version = snapshot.version + 1
        switch read {
        case .failure(let error):
            snapshot = .problems([PreviewProblem(file: path, line: 1, path: "", message: "cannot read the file: \(error)")], version: version)
        case .success(let text):
            snapshot = PreviewProblem.check(text, file: path, version: version)
        }
    }

    /// Polls until cancelled.
    func run() async {
        while !Task.isCancelled {
            poll()
            try? await Task.sleep(for: Self.interval)
        }
    }
}

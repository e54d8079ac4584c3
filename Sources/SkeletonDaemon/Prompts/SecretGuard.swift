import Synchronization
import SkeletonSystem

/// Keeps the process from being dumped (no core file, no ptrace by others: PR_SET_DUMPABLE 0)
/// while any prompt holds a secret, counted across every holder in the process.
enum SecretGuard {
    private static let holders = Mutex(0)

    static func hold() {
        holders.withLock { count in
            if count == 0 { SystemCalls.setDumpable(false) }
            count += 1
        }
    }

    static func release() {
        holders.withLock { count in
            guard count > 0 else { return }
            count -= 1
            if count == 0 { SystemCalls.setDumpable(true) }
        }
    }
}

#if DEBUG
import Synchronization
import SkeletonSystem

/// The `DRMDouble`s tests stand in for devices with, by path and descriptor. Debug builds only:
/// a release build asks the kernel, with no look-up in between.
package enum DRMDoubles {
    private static let registered = Mutex<[any DRMDouble]>([])

    package static func register(_ double: any DRMDouble) {
        registered.withLock { $0.append(double) }
    }

    package static func unregister(_ double: any DRMDouble) {
        registered.withLock { list in list.removeAll { $0 === double } }
    }

    static func device(at path: String) -> (any DRMDouble)? {
        registered.withLock { list in list.first { $0.path == path } }
    }

    static func device(for fd: FileDescriptor) -> (any DRMDouble)? {
        registered.withLock { list in list.first { $0.descriptor == fd } }
    }
}
#endif

import SkeletonSettings
import SkeletonLayout
import SkeletonProtocol
import SkeletonSystem

/// The initramfs hands over to the real root (`new-root`, sent by the initramfs-tools init-bottom
/// script and the dracut pre-pivot hook; Plymouth's `update-root-fs --new-root-dir`). The
/// initramfs moves /dev, /proc, /sys and /run into the real root and deletes its own files, so a
/// daemon left in the initramfs's root could neither open the card again after a hide nor
/// write its marks: it moves its root there first, as plymouthd does. When the real root has no
/// skeletond (removed since the initramfs was made), nothing there would take the skeleton over
/// or hide it: the daemon gives the display back and exits before the switch rather than leave
/// a frozen picture.
extension Daemon {
    enum NewRootOutcome: Equatable {
        /// The daemon's root is the real root now.
        case moved
        /// The display is given back and the daemon stops.
        case handedBack(String)
        case refused(ProtocolError)
    }

    /// `new-root PATH`. `uid`: the asking process's user (only root may move the daemon's root).
    func enterNewRoot(_ root: String, uid: UInt32?) -> NewRootOutcome {
        guard config.initramfs else {
            return .refused(ProtocolError(.badRequest, "this daemon was not started from the initramfs (SKELETOND_INITRAMFS=1): its root is the real one already"))
        }
        guard uid == 0 else {
            logger.warning("new-root: refused for uid \(uid.map(String.init) ?? "unknown"): only root may move the daemon's root")
            return .refused(ProtocolError(.permissionDenied, "permission denied: only root may move the daemon's root"))
        }
        let executable = config.rootSwitch.executable(under: root)
        guard SystemCalls.isExecutable(executable) else {
            let reason = "the real root at \(root) has no \(executable): nothing there would take the skeleton over or hide it"
            logger.warning("new-root: \(reason); giving the display back before the switch")
            loop.running = false
            return .handedBack(reason)
        }
        do { try config.rootSwitch.changeRoot(root) } catch {
            let reason = "cannot move into the real root at \(root): \(error)"
            logger.error("new-root: \(reason); giving the display back before the switch")
            loop.running = false
            return .handedBack(reason)
        }
        logger.notice("new-root: moved into the real root at \(root); skeletond.service and .socket there are skipped while this daemon lives")
        return .moved
    }

    /// The control protocol's reply to `new-root`.
    func newRootReply(_ root: String, id: JSONValue?, uid: UInt32?) -> Reply {
        switch enterNewRoot(root, uid: uid) {
        case .moved: return .ok(id: id, ["root": .string(root)])
        case .handedBack(let reason): return .ok(id: id, ["quitting": true, "reason": .string(reason)])
        case .refused(let error): return .error(id: id, error)
        }
    }
}

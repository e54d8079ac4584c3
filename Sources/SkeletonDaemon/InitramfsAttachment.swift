import SkeletonSettings
import SkeletonLayout
import SkeletonSystem

/// `skeletond run` in the real root while the daemon started from the initramfs still shows the
/// skeleton: instead of a second daemon (which would fight it over DRM master and the socket),
/// this process stands in for it in `skeletond.service`. It tells systemd it is ready, keeps a
/// connection to the daemon's control socket and lives as long as that daemon does; stopping the
/// service (SIGTERM, shutdown) sends the daemon `quit`, so the console comes back as it would
/// from the service's own daemon. `status` from the daemon says it came from the initramfs.
enum InitramfsAttachment {
    /// The daemon from the initramfs answering on `socketPath`: a connection to it, or nil
    /// when there is none (a stale marker: that daemon is gone).
    static func connect(socketPath: String) -> FileDescriptor? {
        guard SystemCalls.fileExists(InitramfsStart.markerPath(socketPath: socketPath)),
              let fd = try? SystemCalls.unixConnect(socketPath) else { return nil }
        fd.writeAll(Array("{\"id\": \"attach\", \"command\": \"status\"}\n".utf8))
        var line: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = SystemCalls.monotonicSeconds() + 5
        while !line.contains(0x0A) {
            let left = Int32(max(0, (deadline - SystemCalls.monotonicSeconds()) * 1000))
            guard left > 0, !SystemCalls.pollReady([Watch(descriptor: fd, events: .readable)], timeoutMilliseconds: left).isEmpty,
                  let n = try? buffer.withUnsafeMutableBytes({ try fd.read(into: $0) }), n > 0 else {
                fd.close()
                return nil
            }
            line += buffer[0..<n]
        }
        guard let reply = try? JSONValue.parse(Array(line.prefix { $0 != 0x0A })), reply["initramfs"] == true else {
            fd.close()
            return nil
        }
        return fd
    }

    /// Stands in for the daemon on `connection` until it exits; the exit status of this process.
    static func run(connection: FileDescriptor, socketPath: String, logger: Logger) -> Int32 {
        let signals: FileDescriptor
        do { signals = try SystemCalls.signalDescriptor() } catch {
            logger.error("cannot set up signals: \(error)")
            return 1
        }
        let pid = (SystemCalls.readFile(InitramfsStart.markerPath(socketPath: socketPath)).map { String(decoding: $0, as: UTF8.self) } ?? "")
            .split(separator: "\n").first.map(String.init) ?? "?"
        logger.notice("the daemon started in the initramfs (pid \(pid)) shows the skeleton; standing in for it in this service")
        logger.releaseHeldLines()
        SystemdNotifier().notify(["READY": "1", "STATUS": "attached to the daemon from the initramfs (pid \(pid))"], logger: logger)
        var quitSent = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let ready = SystemCalls.pollReady([Watch(descriptor: connection, events: .readable), Watch(descriptor: signals, events: .readable)],
                                              timeoutMilliseconds: quitSent ? 5000 : -1)
            if ready.isEmpty && quitSent {
                logger.warning("the daemon from the initramfs did not stop within 5 s of quit")
                return 1
            }
            for watch in ready {
                if watch.descriptor == signals {
                    while let signal = SystemCalls.readSignal(signals) {
                        guard signal != SystemCalls.hangUpSignal, !quitSent else { continue }
                        connection.writeAll(Array("{\"command\": \"quit\"}\n".utf8))
                        quitSent = true
                    }
                } else {
                    // The end of the stream is the daemon's exit (a failed read is the end too). The
                    // one reply read is the refusal of quit while the system goes down: the daemon
                    // stays until the power is off, and so this stand-in's work is done.
                    let n = (try? buffer.withUnsafeMutableBytes { try connection.read(into: $0) }) ?? 0
                    if quitSent, n > 0, String(decoding: buffer[0..<n], as: UTF8.self).contains("\"going_down\"") {
                        logger.notice("the system is going down: the daemon from the initramfs stays until the power is off")
                        return 0
                    }
                    if n == 0 {
                        if quitSent { return 0 }
                        logger.warning("the daemon from the initramfs went away")
                        return 1
                    }
                }
            }
        }
    }
}

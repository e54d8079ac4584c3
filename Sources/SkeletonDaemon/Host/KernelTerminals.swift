import SkeletonSystem

/// The real VTs: /dev/tty0 to ask which is shown, /dev/ttyN (opened once, O_NOCTTY) for the
/// rest; every call through `SystemCalls`.
final class KernelTerminals: VirtualTerminals {
    private var consoles: [Int: FileDescriptor] = [:]

    deinit { for fd in consoles.values { fd.close() } }

    func active() -> Int? {
        guard let fd = try? SystemCalls.openConsole("/dev/tty0") else { return nil }
        defer { fd.close() }
        return try? SystemCalls.activeVT(fd)
    }

    private func console(_ number: Int) throws(Errno) -> FileDescriptor {
        if let fd = consoles[number] { return fd }
        let fd = try SystemCalls.openConsole("/dev/tty\(number)")
        consoles[number] = fd
        return fd
    }

    func setProcessMode(_ number: Int) throws(Errno) { try SystemCalls.setVTProcessMode(try console(number)) }
    func setAutoMode(_ number: Int) { if let fd = try? console(number) { try? SystemCalls.setVTAutoMode(fd) } }
    func release(_ number: Int) { if let fd = try? console(number) { try? SystemCalls.releaseVT(fd) } }
    func acknowledgeAcquire(_ number: Int) { if let fd = try? console(number) { try? SystemCalls.acknowledgeVTAcquire(fd) } }
    func isGraphics(_ number: Int) -> Bool? { (try? console(number)).flatMap(SystemCalls.consoleIsGraphics) }
    func setGraphics(_ number: Int, _ graphics: Bool) { if let fd = try? console(number) { try? SystemCalls.setConsoleGraphics(fd, graphics) } }
}

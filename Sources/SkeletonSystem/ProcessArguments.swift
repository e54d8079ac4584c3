/// The process's own arguments, read as C bytes where start-up is racing to its first frame:
/// nothing of Swift's collections runs before a boot record's frame.
package enum ProcessArguments {
    /// The arguments after the executable's name. `CommandLine.arguments` makes the same
    /// array through the standard library's unspecialised code, several thousand instructions
    /// run for the first time at each start (`scripts/qemu/footprint.py` ends the boot path here).
    @inline(never)
    package static func argumentStrings() -> [String] {
        var arguments: [String] = []
        for i in 1..<max(1, Int(CommandLine.argc)) {
            if let argument = CommandLine.unsafeArgv[i] { arguments.append(String(cString: argument)) }
        }
        return arguments
    }

    /// argv[1...] as C strings, for the boot path.
    package static var cArguments: UnsafeBufferPointer<UnsafeMutablePointer<CChar>?> {
        UnsafeBufferPointer(start: CommandLine.unsafeArgv + 1, count: max(0, Int(CommandLine.argc) - 1))
    }

    /// Whether argv[0]'s last path component is `name` (`skeletonctl`, `plymouth`: links to
    /// the one executable).
    package static func calledAs(_ name: StaticString) -> Bool {
        guard let argv0 = CommandLine.unsafeArgv[0] else { return false }
        var start = argv0
        var p = argv0
        while p.pointee != 0 {
            if p.pointee == 0x2F { start = p + 1 }
            p += 1
        }
        return equals(start, name)
    }

    /// Whether argv[1] is `name`.
    package static func firstArgumentIs(_ name: StaticString) -> Bool {
        guard CommandLine.argc > 1, let argument = CommandLine.unsafeArgv[1] else { return false }
        return equals(argument, name)
    }

    private static func equals(_ string: UnsafeMutablePointer<CChar>, _ name: StaticString) -> Bool {
        let bytes = name.utf8Start
        for i in 0..<name.utf8CodeUnitCount where UInt8(bitPattern: string[i]) != bytes[i] { return false }
        return string[name.utf8CodeUnitCount] == 0
    }
}

import SkeletonLayout

/// Parses one request line. Errors name the field and say what was expected.
public enum RequestDecoder {
    /// Decodes a line (without its newline). On failure, the id is returned when it could be read.
    public static func decode(line: some Collection<UInt8>) -> Result<Request, RequestFailure> {
        let document: JSONValue
        do {
            document = try JSONValue.parse(line)
        } catch {
            return .failure(RequestFailure(id: nil, error: ProtocolError(.badJSON, "the request is not valid JSON: \(error)")))
        }
        return decode(document)
    }

    public static func decode(_ document: JSONValue) -> Result<Request, RequestFailure> {
        guard case .object(let members) = document else {
            return .failure(RequestFailure(id: nil, error: ProtocolError(.badRequest,
                "a request must be a JSON object, found \(document.typeDescription)")))
        }
        let id = members["id"]
        func fail(_ code: ProtocolError.Code, _ message: String) -> Result<Request, RequestFailure> {
            .failure(RequestFailure(id: id, error: ProtocolError(code, message)))
        }
        guard let commandValue = members["command"] else { return fail(.badRequest, "missing field \"command\"") }
        guard case .string(let name) = commandValue else {
            return fail(.badRequest, "field \"command\": expected a string, found \(commandValue.typeDescription)")
        }
        var reader = ValueReader()
        var object = ObjectReader(members: members, path: .document)
        _ = object.member("id")
        _ = object.member("command")
        let command: Command
        switch name {
        case "show":
            var show = ShowRequest()
            show.layout = layoutName(&object, &reader)
            if let m = object.member("delay"), let v = WireNumber.showDelay.read(m.value, m.path, &reader) { show.delay = v }
            show.transition = transition(&object, &reader)
            show.overrides = overrides(&object, &reader)
            if let m = object.member("reset"), let v = reader.bool(m.value, m.path) { show.reset = v }
            if let m = object.member("wait"), let v = reader.bool(m.value, m.path) { show.wait = v }
            show.output = outputName(&object, &reader, layout: show.layout)
            command = .show(show)
        case "update":
            var update = UpdateRequest()
            update.layout = layoutName(&object, &reader)
            update.transition = transition(&object, &reader)
            update.overrides = overrides(&object, &reader)
            if let m = object.member("reset"), let v = reader.bool(m.value, m.path) { update.reset = v }
            update.output = outputName(&object, &reader, layout: update.layout)
            if let m = object.member("content") { update.content = LayoutContent.read(m.value, m.path, &reader) }
            if let m = object.member("message"), let v = reader.string(m.value, m.path) { update.message = v }
            if let m = object.member("progress") { update.progress = ProgressValue.read(m.value, m.path, &reader) }
            if let m = object.member("keep"), let v = reader.bool(m.value, m.path) { update.keep = v }
            command = .update(update)
        case "hide":
            var hide = HideRequest()
            hide.transition = transition(&object, &reader)
            if let m = object.member("retain"), let v = reader.bool(m.value, m.path) { hide.retain = v }
            if let m = object.member("wait"), let v = reader.bool(m.value, m.path) { hide.wait = v }
            if let m = object.member("afterConsole"), let v = reader.bool(m.value, m.path) { hide.afterConsole = v }
            command = .hide(hide)
        case "status": command = .status
        case "tree": command = .tree
        case "ping": command = .ping
        case "reload": command = .reload
        case "quit": command = .quit
        case "deactivate": command = .deactivate
        case "reactivate": command = .reactivate
        case "new-root":
            guard let m = object.member("path") else { return fail(.badRequest, "missing field \"path\" for command \"new-root\"") }
            let path = reader.string(m.value, m.path)
            if let path, !path.hasPrefix("/") || path.utf8.count > 4096 || path.utf8.contains(0) {
                reader.fail(m.path, "expected an absolute path (the mounted real root, such as \"/root\"), found \"\(path)\"")
            }
            command = .newRoot(path ?? "")
        case "shutdown":
            guard let m = object.member("mode") else { return fail(.badRequest, "missing field \"mode\" for command \"shutdown\"") }
            var shutdown = ShutdownRequest(mode: reader.enumeration(m.value, m.path, ShutdownMode.self) ?? .poweroff)
            if let m = object.member("wait"), let v = reader.bool(m.value, m.path) { shutdown.wait = v }
            command = .shutdown(shutdown)
        default:
            return fail(.unknownCommand, "unknown command \"\(name)\": expected one of show, update, hide, status, tree, ping, reload, quit, new-root, deactivate, reactivate, shutdown")
        }
        reader.issues += object.unknownKeyIssues().map {
            LayoutIssue(path: $0.path, message: $0.message + " for command \"\(name)\"")
        }
        if let first = reader.issues.first {
            let code: ProtocolError.Code = first.message.hasPrefix("bad layout name") ? .badLayoutName : .badRequest
            return fail(code, message(listing: reader.issues))
        }
        return .success(Request(id: id, command: command))
    }

    /// How many problems an error reply names; with an object's unknown keys (five and a count) it fits.
    static let listedIssues = 8

    /// The first `listedIssues` issues and how many more: a reply stays far below the output
    /// limit whatever the line held (30,000 bad gradient colours, 5,000 unknown keys).
    private static func message(listing issues: [LayoutIssue]) -> String {
        var parts = issues.prefix(listedIssues).map { $0.path.isEmpty ? $0.message : "field \"\($0.path)\": \($0.message)" }
        if issues.count > listedIssues { parts.append("and \(issues.count - listedIssues) more problems") }
        return parts.joined(separator: "; ")
    }

    /// A layout name: letters, digits, '-', '_' and '.', no slash, no "..".
    public static func validateLayoutName(_ name: String) -> String? {
        if name.isEmpty { return "bad layout name \"\": a name must not be empty" }
        if hasSlashOrDots(name) {
            return "bad layout name \"\(name)\": a layout is named by its file in the layouts directory, without a slash or \"..\""
        }
        let allowed = name.unicodeScalars.allSatisfy { s in
            (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9") || s == "-" || s == "_" || s == "."
        }
        // Allowed names are ASCII: their UTF-8 count is their length.
        if !allowed || name.utf8.count > 128 {
            return "bad layout name \"\(name)\": use letters, digits, '-', '_' and '.' (at most 128)"
        }
        return nil
    }

    /// A slash, "..", or a leading dot, scanned as bytes: a substring search is a large share
    /// of the code a start runs before its first frame.
    private static func hasSlashOrDots(_ name: String) -> Bool {
        var previous = UInt8(ascii: ".")
        for byte in name.utf8 {
            if byte == UInt8(ascii: "/") || (byte == UInt8(ascii: ".") && previous == UInt8(ascii: ".")) { return true }
            previous = byte
        }
        return false
    }

    private static func layoutName(_ object: inout ObjectReader, _ reader: inout ValueReader) -> String? {
        guard let m = object.member("layout"), let name = reader.string(m.value, m.path) else { return nil }
        if let problem = validateLayoutName(name) {
            reader.fail(m.path, problem)
            return nil
        }
        return name
    }

    /// A connector name as the kernel writes it ("HDMI-A-1", "DP-2", "Virtual-1"): letters,
    /// digits and '-', at most 32. It names whose layout `layout` sets, so it needs one.
    private static func outputName(_ object: inout ObjectReader, _ reader: inout ValueReader, layout: String?) -> String? {
        guard let m = object.member("output"), let name = reader.string(m.value, m.path) else { return nil }
        let allowed = name.unicodeScalars.allSatisfy { s in
            (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9") || s == "-"
        }
        guard !name.isEmpty, allowed, name.count <= 32 else {
            reader.fail(m.path, "bad output name \"\(name)\": a connector name such as \"HDMI-A-1\" (letters, digits and '-', at most 32)")
            return nil
        }
        guard layout != nil else {
            reader.fail(m.path, "an output is named only with the layout it is to show (\"layout\")")
            return nil
        }
        return name
    }

    private static func transition(_ object: inout ObjectReader, _ reader: inout ValueReader) -> TransitionSpec? {
        guard let m = object.member("transition") else { return nil }
        var decoder = LayoutDecoder()
        let t = decoder.decodeTransition(m.value, m.path)
        reader.issues += decoder.issues
        return t
    }

    private static func overrides(_ object: inout ObjectReader, _ reader: inout ValueReader) -> PresentationOverrides {
        var o = PresentationOverrides()
        if let m = object.member("style") { o.style = reader.enumeration(m.value, m.path, SkeletonStyle.self) }
        if let m = object.member("animated") { o.animated = reader.bool(m.value, m.path) }
        if let m = object.member("reducedMotion") { o.reducedMotion = reader.bool(m.value, m.path) }
        if let m = object.member("tint") { o.tint = reader.color(m.value, m.path) }
        if let m = object.member("gradient") { o.gradient = reader.gradient(m.value, m.path) }
        if let m = object.member("scheme") { o.scheme = reader.enumeration(m.value, m.path, ColorScheme.self) }
        if let m = object.member("animation") {
            var decoder = LayoutDecoder()
            o = o.merged(with: decoder.decodeAnimation(m.value, m.path))
            reader.issues += decoder.issues
        }
        return o
    }
}

/// A request that could not be decoded, with its id when one was readable.
public struct RequestFailure: Error, Sendable, Equatable {
    public var id: JSONValue?
    public var error: ProtocolError
}

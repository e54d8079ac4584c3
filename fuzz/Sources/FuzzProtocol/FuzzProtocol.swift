import SkeletonLayout
import SkeletonProtocol

/// A client's byte stream through the line framer, each line through the request decoder, and
/// the reply the daemon would start from through the encoder. A reply must be one line of JSON
/// that reads back to itself, whatever the id and the error message hold.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProtocol(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // A small limit, so that overlong lines and what follows them are reached in short inputs.
    var framer = LineFramer(limit: 256)
    for event in framer.append(UnsafeBufferPointer(start: data, count: size)) {
        let reply: Reply
        switch event {
        case .overlong:
            reply = .error(id: nil, ProtocolError(.lineTooLong, "a request line is longer than 256 bytes"))
        case .line(let line):
            switch RequestDecoder.decode(line: line) {
            case .success(let request): reply = .ok(id: request.id, ["command": .string(request.command.name)])
            case .failure(let failure): reply = .error(id: failure.id, failure.error)
            }
        }
        checkReadsBack(reply)
    }
    return 0
}

private func checkReadsBack(_ reply: Reply) {
    let line = reply.line
    guard line.last == UInt8(ascii: "\n"), line.firstIndex(of: UInt8(ascii: "\n")) == line.count - 1 else {
        fatalError("a reply is not one line: \(reply.json.jsonText)")
    }
    let text = String(decoding: line.dropLast(), as: UTF8.self)
    guard let again = try? JSONValue.parse(line.dropLast()) else { fatalError("a reply is not valid JSON: \(text)") }
    // Numbers are written with at most 6 decimals, so the text, not the value, must come back.
    guard again.jsonText == text else { fatalError("a reply reads back as another: \(text) -> \(again.jsonText)") }
}

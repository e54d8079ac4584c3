import SkeletonLayout
import SkeletonProtocol
import Testing

@Suite("Requests encoded as the decoder reads them")
struct RequestEncoderTests {
    static let red = Color(red: 255, green: 0, blue: 0)
    static let translucent = Color(red: 0x10, green: 0x20, blue: 0x30, alpha: 0x80)

    /// Every command, and every field of every command at least once.
    static let requests: [Request] = [
        Request(command: .show(ShowRequest())),
        Request(id: 1, command: .show(ShowRequest(layout: "feed", delay: 2.5, transition: .crossDissolve(duration: 0.4),
                                                  overrides: PresentationOverrides(style: .gradient, animated: true),
                                                  reset: true, wait: true))),
        Request(id: "a", command: .show(ShowRequest(transition: TransitionSpec.none, overrides: PresentationOverrides(
            direction: .bottomRightTopLeft, duration: 1.25, timing: .easeOut, autoreverse: false, pause: 0.5, space: .screen,
            stagger: 0.05)))),
        Request(command: .show(ShowRequest(overrides: PresentationOverrides(reducedMotion: true, tint: red, scheme: .dark)))),
        Request(command: .show(ShowRequest(overrides: PresentationOverrides(gradient: .base(translucent))))),
        Request(command: .show(ShowRequest(overrides: PresentationOverrides(gradient: .baseAndSecondary(red, translucent))))),
        Request(command: .show(ShowRequest(overrides: PresentationOverrides(gradient: .colors([red, translucent, red]))))),
        Request(command: .show(ShowRequest(delay: 3600, transition: .crossDissolve(duration: 0)))),
        Request(command: .update(UpdateRequest())),
        Request(id: .null, command: .update(UpdateRequest(layout: "kiosk-menu", transition: .crossDissolve(duration: 60),
                                                          overrides: PresentationOverrides(style: .solid, tint: translucent),
                                                          reset: true))),
        Request(command: .update(UpdateRequest(transition: TransitionSpec.none, reset: true))),
        Request(command: .update(UpdateRequest(overrides: PresentationOverrides(
            animated: false, direction: .topBottom, duration: 600, timing: .linear, autoreverse: true, pause: 0, space: .shape,
            stagger: 60, reducedMotion: false, gradient: .colors([red, red]), scheme: .light)))),
        Request(command: .hide(HideRequest())),
        Request(id: ["nested": [1, "two"]], command: .hide(HideRequest(transition: .crossDissolve(duration: 0.3), retain: true, wait: true))),
        Request(command: .hide(HideRequest(transition: TransitionSpec.none))),
        Request(command: .status),
        Request(id: 7, command: .tree),
        Request(command: .ping),
        Request(command: .reload),
        Request(command: .quit),
        Request(id: "switch", command: .newRoot("/root")),
        Request(command: .shutdown(ShutdownRequest(mode: .reboot))),
        Request(command: .shutdown(ShutdownRequest(mode: .poweroff, wait: true))),
    ]

    @Test("decode(encode(r)) == r", arguments: requests)
    func roundTrip(_ request: Request) {
        #expect(decoded(RequestEncoder.line(request)) == request)
    }

    @Test func manySeededRandomRequestsRoundTrip() {
        var random = RandomRequests(generator: SeededGenerator(seed: 13))
        for n in 0..<5000 {
            let request = random.request()
            let line = RequestEncoder.line(request)
            guard decoded(line) == request else {
                Issue.record("request \(n): \(String(decoding: line, as: UTF8.self)) reads back as \(String(describing: decoded(line)))")
                return
            }
        }
    }

    @Test func aLineIsOneCompactObjectWithSortedKeysAndNoDefaults() {
        let request = Request(id: 3, command: .show(ShowRequest(layout: "feed", transition: .crossDissolve(duration: 0.2),
                                                                overrides: PresentationOverrides(duration: 0.8, tint: Self.red),
                                                                reset: true)))
        #expect(String(decoding: RequestEncoder.line(request), as: UTF8.self) ==
            ##"{"animation":{"duration":0.8},"command":"show","id":3,"layout":"feed","reset":true,"tint":"#FF0000","transition":{"duration":0.2,"kind":"crossDissolve"}}"## + "\n")
        #expect(String(decoding: RequestEncoder.line(Request(command: .ping)), as: UTF8.self) == "{\"command\":\"ping\"}\n")
        #expect(String(decoding: RequestEncoder.line(Request(command: .show(ShowRequest()))), as: UTF8.self) == "{\"command\":\"show\"}\n")
    }

    @Test func numbersAreWrittenExactly() {
        for duration in [1.0 / 3, 1e-7, 0.1 + 0.2, 599.999_999_999, 456.789_012_345_678] {
            let request = Request(command: .update(UpdateRequest(overrides: PresentationOverrides(duration: duration))))
            #expect(decoded(RequestEncoder.line(request)) == request, "duration \(duration)")
        }
    }

    /// The other way round: a line naming every field the decoder knows is written back key for key.
    @Test("encode(decode(line)) == line", arguments: [
        ##"{"id":9,"command":"show","layout":"feed","delay":1.5,"transition":{"kind":"crossDissolve","duration":0.3},"style":"gradient","animated":true,"reducedMotion":false,"tint":"#ECF0F1","gradient":{"base":"#112233","secondary":"#44556677"},"scheme":"dark","animation":{"direction":"rightLeft","duration":2,"timing":"easeInOut","autoreverse":true,"pause":0.25,"space":"screen","stagger":0.1},"reset":true,"wait":true}"##,
        ##"{"command":"update","layout":"a","transition":{"kind":"none"},"gradient":["#010203","#040506","#070809"],"reset":true}"##,
        ##"{"command":"update","gradient":"#ABCDEF"}"##,
        #"{"id":"x","command":"hide","transition":{"kind":"crossDissolve","duration":0},"retain":true,"wait":true}"#,
    ])
    func everyDecodedFieldIsEncoded(_ line: String) throws {
        guard case .success(let request) = RequestDecoder.decode(line: Array(line.utf8)) else {
            Issue.record("the line does not decode"); return
        }
        #expect(try JSONValue.parse(RequestEncoder.line(request)) == JSONValue.parse(line))
    }

    private func decoded(_ line: [UInt8]) -> Request? {
        guard line.last == UInt8(ascii: "\n"), !line.dropLast().contains(UInt8(ascii: "\n")) else { return nil }
        guard case .success(let request) = RequestDecoder.decode(line: line.dropLast()) else { return nil }
        return request
    }
}

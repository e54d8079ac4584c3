import SkeletonProtocol

/// What one attack needs and does: the layouts and files of the daemon's directory, and the
/// steps of its hostile input.
struct AttackPlan {
    /// Layouts by name; the daemon starts with "attack".
    var layouts: [String: String]
    /// Files by name, written into the daemon's directory.
    var files: [String: [UInt8]] = [:]
    var steps: [AttackStep]

    static let startLayout = "attack"
    /// The texts of the combining-label attack: a letter and 10,000 combining acute accents.
    static let combiningTexts = ["a", "e", "o"].map { $0 + String(repeating: "\u{0301}", count: 10_000) }
    /// The last psplash message, which must be on screen afterwards.
    static let finalMessage = "final"
    /// The picture attacks' colours: what the picture shows where it is drawn.
    static let bombColor: UInt32 = 0x27AE60
    static let hugePictureColor: UInt32 = 0x8E44AD

    /// The plan of `attack` against a daemon whose directory is `directory`.
    static func of(_ attack: Attack, directory: String) -> AttackPlan {
        let base = [startLayout: AttackLayouts.base(name: startLayout)]
        let final = Array("MSG \(finalMessage)\0".utf8)
        switch attack {
        case .plymouthPairs:
            let pair = PlymouthRequest(command: .quit, argument: [0]).bytes + PlymouthRequest(command: .showSplash).bytes
            return AttackPlan(layouts: base, steps: [.write(.plymouth, Array([[UInt8]](repeating: pair, count: 1000).joined())),
                                                     .awaitBytes(.plymouth, count: 2000)])
        case .psplashWriter:
            return AttackPlan(layouts: base, steps: [.keepWriting(.fifo, line: Array("MSG the writer keeps writing\n".utf8), seconds: 2),
                                                     .write(.fifo, final)])
        case .psplashLines:
            let line = Array(("MSG a flood of lines " + String(repeating: "x", count: 78) + "\n").utf8)
            return AttackPlan(layouts: base, steps: [.write(.fifo, Array([[UInt8]](repeating: line, count: 10_000_000 / line.count).joined())),
                                                     .write(.fifo, final)])
        case .psplashNoNewline:
            return AttackPlan(layouts: base, steps: [.write(.fifo, [UInt8](repeating: UInt8(ascii: "x"), count: 10_000_000)),
                                                     .write(.fifo, [0x0A] + final)])
        case .pngBomb, .hugePicture:
            let name = attack == .pngBomb ? "bomb.png" : "huge.png"
            let png = attack == .pngBomb
                ? AttackPNG.file(width: 16, height: 16, color: bombColor, inflatedBytes: 4 << 30)
                : AttackPNG.file(width: 8192, height: 8192, color: hugePictureColor)
            return AttackPlan(layouts: base.merging(["picture": AttackLayouts.base(name: "picture", picture: directory + "/" + name)]) { $1 },
                              files: [name: png], steps: request(#"{"command":"show","layout":"picture"}"#))
        case .combiningLabel:
            let updates = combiningTexts.map { #"{"command":"update","content":{"message":{"text":\#(AttackLayouts.jsonString($0))}}}"# }
            return AttackPlan(layouts: base, steps: updates.enumerated().flatMap { i, line in
                [AttackStep.write(.control, Array((line + "\n").utf8)), .awaitLines(.control, count: i + 1)]
            })
        case .limitsLayout:
            return AttackPlan(layouts: base.merging(["limits": AttackLayouts.limits]) { $1 },
                              steps: request(#"{"command":"show","layout":"limits"}"#) + [.soak(seconds: 2)])
        case .pipelinedHideShow:
            let pairs = (0..<500).map { i in #"{"id":\#(2 * i),"command":"hide"}"# + "\n" + #"{"id":\#(2 * i + 1),"command":"show"}"# + "\n" }
            return AttackPlan(layouts: base, steps: [.write(.control, Array(pairs.joined().utf8)), .awaitLines(.control, count: 1000)])
        case .hugeLayout, .oversizedLayout:
            let name = attack == .hugeLayout ? "huge" : "oversized"
            return AttackPlan(layouts: base.merging([name: AttackLayouts.huge(name: name, indented: attack == .oversizedLayout)]) { $1 },
                              steps: request(#"{"command":"show","layout":"\#(name)"}"#))
        }
    }

    /// One control request and its reply.
    private static func request(_ line: String) -> [AttackStep] {
        [.write(.control, Array((line + "\n").utf8)), .awaitLines(.control, count: 1)]
    }
}

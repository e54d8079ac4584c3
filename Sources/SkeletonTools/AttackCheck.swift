import SkeletonLayout
import SkeletonPicture

/// Whether an attack's work was applied afterwards, from the daemon's `status`, its snapshot,
/// its log and the replies the attack got: the verdict, and what was found.
struct AttackCheck {
    let attack: Attack
    let daemon: AttackDaemon
    /// The replies on the attack's control connection and on Plymouth's socket.
    let control: AttackChannel
    let plymouth: AttackChannel?

    func evaluate(status: JSONValue) -> (applied: Bool, detail: String) {
        switch attack {
        case .plymouthPairs:
            let replies = plymouth?.received ?? []
            let acks = replies.filter { $0 == 6 }.count
            let state = status["state"]?.stringValue ?? "?"
            return (acks == 2000 && replies.count == 2000 && state == "showing",
                    "\(acks) of 2000 requests acknowledged (\(replies.count) reply bytes), state \(state)")
        case .psplashWriter, .psplashLines, .psplashNoNewline:
            let text = status["content"]?["message"]?["text"]?.stringValue
            return (text == AttackPlan.finalMessage, "message \(text.map { "\"\($0.prefix(40))\"" } ?? "none")")
        case .pngBomb:
            let refusal = daemon.log.split(separator: "\n").first { $0.contains("bomb.png") && $0.contains("skeleton") }
            guard let centre = pixel(AttackLayouts.pictureCentre) else { return (false, "no snapshot") }
            // A skeleton there: neither the bomb's colour nor the white of the layout before.
            let drawn = Self.near(centre, AttackPlan.bombColor), skeleton = !drawn && !Self.near(centre, 0xFFFFFF)
            return (refusal != nil && skeleton, "\(refusal.map { "log: \($0.suffix(120))" } ?? "no refusal in the log"); "
                    + "picture centre \(hex(centre))\(drawn ? " (the bomb drawn)" : skeleton ? " (a skeleton)" : "")")
        case .hugePicture:
            guard let centre = pixel(AttackLayouts.pictureCentre) else { return (false, "no snapshot") }
            return (Self.near(centre, AttackPlan.hugePictureColor), "picture centre \(hex(centre)), the picture's colour \(hex(AttackPlan.hugePictureColor))")
        case .combiningLabel:
            let text = status["content"]?["message"]?["text"]?.stringValue
            let last = text == AttackPlan.combiningTexts.last
            let inked = labelPixels()
            return (last && inked > 0, "\(last ? "the last text in force" : "text \(text.map { "\($0.unicodeScalars.count) scalars" } ?? "none")"), "
                    + "\(inked) pixels of the label's colour in its frame")
        case .limitsLayout, .hugeLayout:
            let wanted = attack == .limitsLayout ? "limits" : "huge"
            let layout = status["layout"]?.stringValue ?? "none"
            let reply = control.allLines.first?["ok"]?.boolValue == true ? "" : "; reply: \(control.allLines.first?.jsonText.prefix(160) ?? "none")"
            return (layout == wanted, "layout \(layout)\(reply)")
        case .oversizedLayout:
            // Shown, or refused with its size in the error: either is a result.
            let layout = status["layout"]?.stringValue ?? "none"
            let message = control.allLines.first?["error"]?["message"]?.stringValue
            let refused = message.map { $0.contains("bytes") } ?? false
            return (layout == "oversized" || refused, message.map { "refused: \($0.suffix(120))" } ?? "layout \(layout)")
        case .pipelinedHideShow:
            let replies = control.allLines
            let inOrder = replies.enumerated().allSatisfy { i, reply in reply["id"]?.numberValue == Double(i) }
            let ok = replies.filter { $0["ok"]?.boolValue == true }.count
            let state = status["state"]?.stringValue ?? "?"
            return (replies.count == 1000 && inOrder && ok == 1000 && state == "showing",
                    "\(replies.count) of 1000 replies, \(inOrder ? "in order" : "OUT OF ORDER"), \(ok) ok, state \(state)")
        }
    }

    /// The snapshot's pixel at a point (0xRRGGBB); nil when there is no snapshot to read.
    private func pixel(_ point: (x: Int, y: Int)) -> UInt32? {
        guard let image = try? ImageFile.readPNG(daemon.snapshotPath), point.x < image.width, point.y < image.height else { return nil }
        return image[point.x, point.y] & 0xFF_FFFF
    }

    /// Pixels of the label's text colour within its frame in the snapshot.
    private func labelPixels() -> Int {
        guard let image = try? ImageFile.readPNG(daemon.snapshotPath) else { return 0 }
        let f = AttackLayouts.labelFrame
        var count = 0
        for y in f.y..<min(image.height, f.y + f.height) {
            for x in f.x..<min(image.width, f.x + f.width) where Self.near(image[x, y], AttackLayouts.labelColor) { count += 1 }
        }
        return count
    }

    /// Whether two colours differ by at most 8 in each channel.
    static func near(_ a: UInt32, _ b: UInt32) -> Bool {
        [16, 8, 0].allSatisfy { shift in abs(Int(a >> UInt32(shift) & 0xFF) - Int(b >> UInt32(shift) & 0xFF)) <= 8 }
    }

    private func hex(_ color: UInt32) -> String {
        let digits = String(color & 0xFF_FFFF, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }
}

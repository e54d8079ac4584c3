import SkeletonLayout
import SkeletonProtocol

/// Requests of every command with fields chosen at random within what the protocol accepts.
struct RandomRequests {
    var generator: SeededGenerator

    mutating func request() -> Request {
        let command: Command
        switch Int.random(in: 0..<11, using: &generator) {
        case 0:
            let layout = chance() ? layoutName() : nil
            command = .show(ShowRequest(layout: layout, delay: chance() ? number(0...3600) : 0,
                                        transition: (chance() ? transition() : nil), overrides: overrides(), reset: chance(), wait: chance(),
                                        output: layout != nil && chance() ? outputName() : nil))
        case 1:
            let layout = chance() ? layoutName() : nil
            command = .update(UpdateRequest(layout: layout, transition: (chance() ? transition() : nil),
                                            overrides: overrides(), reset: chance(), output: layout != nil && chance() ? outputName() : nil,
                                            message: chance() ? pick(["Starting", "é ✓"]) : nil,
                                            progress: chance() ? (chance() ? .indeterminate : .fraction(number(0...1))) : nil, keep: chance()))
        case 2: command = .hide(HideRequest(transition: (chance() ? transition() : nil), retain: chance(), wait: chance()))
        case 3: command = .status
        case 4: command = .tree
        case 5: command = .ping
        case 6: command = .reload
        case 7: command = .newRoot(pick(["/root", "/sysroot", "/mnt/real root/é"]))
        case 8: command = .deactivate
        case 9: command = .reactivate
        default: command = .quit
        }
        return Request(id: (chance() ? id() : nil), command: command)
    }

    mutating func overrides() -> PresentationOverrides {
        PresentationOverrides(
            style: (chance() ? pick(SkeletonStyle.allCases) : nil), animated: (chance() ? chance() : nil),
            direction: (chance() ? pick(SlideDirection.allCases) : nil), duration: (chance() ? number(0.000_001...600) : nil),
            timing: (chance() ? pick(TimingCurveName.allCases) : nil), autoreverse: (chance() ? chance() : nil), pause: (chance() ? number(0...600) : nil),
            space: (chance() ? pick(SweepSpace.allCases) : nil), stagger: (chance() ? number(0...60) : nil), reducedMotion: (chance() ? chance() : nil),
            tint: (chance() ? color() : nil), gradient: (chance() ? gradient() : nil), scheme: (chance() ? pick(ColorScheme.allCases) : nil))
    }

    mutating func gradient() -> GradientSpec {
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: return .base(color())
        case 1: return .baseAndSecondary(color(), color())
        default: return .colors((0..<Int.random(in: 2...6, using: &generator)).map { _ in color() })
        }
    }

    mutating func color() -> Color {
        Color(red: .random(in: 0...255, using: &generator), green: .random(in: 0...255, using: &generator),
              blue: .random(in: 0...255, using: &generator), alpha: chance() ? 255 : .random(in: 0...255, using: &generator))
    }

    mutating func transition() -> TransitionSpec {
        chance() ? .none : .crossDissolve(duration: number(0...60))
    }

    mutating func outputName() -> String {
        pick(["HDMI-A-1", "DP-2", "Virtual-2", "eDP-1", "DSI-1", String(repeating: "X", count: 32)])
    }

    mutating func layoutName() -> String {
        pick(["default", "feed", "kiosk-menu", "a", "v2.1_final", String(repeating: "x", count: 128)])
    }

    mutating func id() -> JSONValue {
        pick([.number(number(-1e9...1e9)), .number(Double(Int.random(in: 0...1000, using: &generator))),
              .string("req-\(Int.random(in: 0...99, using: &generator)) \"quoted\" é"), .null, .bool(chance()),
              ["nested": [1, "two", .null]]])
    }

    /// A number with every bit of its fraction in use now and then, to catch rounding.
    mutating func number(_ range: ClosedRange<Double>) -> Double {
        chance() ? Double.random(in: range, using: &generator) : (Double.random(in: range, using: &generator) * 4).rounded() / 4
    }

    mutating func chance() -> Bool { Bool.random(using: &generator) }

    mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &generator)] }
}

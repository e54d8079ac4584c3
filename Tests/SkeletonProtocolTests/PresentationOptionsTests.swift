import ArgumentParser
import SkeletonCLI
import SkeletonLayout
import SkeletonProtocol
import Testing

@Suite("Presentation options, shared by skeletond render and skeletonctl")
struct PresentationOptionsTests {
    @Test func everyOptionBecomesItsOverride() throws {
        let options = try PresentationOptions.parse([
            "--style", "gradient", "--animated", "--direction", "topBottom", "--duration", "0.8", "--timing", "easeOut",
            "--no-autoreverse", "--pause", "0.5", "--space", "screen", "--stagger", "0.05", "--tint", "rgba(16, 32, 48, 0.5)",
            "--gradient", "clouds,#102030", "--scheme", "dark", "--reduced-motion",
        ])
        #expect(options.overrides == PresentationOverrides(
            style: .gradient, animated: true, direction: .topBottom, duration: 0.8, timing: .easeOut, autoreverse: false,
            pause: 0.5, space: .screen, stagger: 0.05, reducedMotion: true, tint: Color(red: 16, green: 32, blue: 48, alpha: 128),
            gradient: .baseAndSecondary(Color.named["clouds"]!, Color(rgb: 0x102030)), scheme: .dark))
        #expect(try PresentationOptions.parse(["--no-animated", "--no-reduced-motion", "--autoreverse"]).overrides ==
            PresentationOverrides(animated: false, autoreverse: true, reducedMotion: false))
        #expect(try PresentationOptions.parse([]).overrides.isEmpty)
    }

    @Test func gradientsAsInALayoutFile() throws {
        func gradient(_ text: String) throws -> GradientSpec? { try PresentationOptions.parse(["--gradient", text]).gradient }
        #expect(try gradient("peterRiver") == .base(Color(rgb: 0x3498DB)))
        #expect(try gradient("rgb(1, 2, 3),rgba(4,5,6,1)") == .baseAndSecondary(Color(rgb: 0x010203), Color(rgb: 0x040506)))
        #expect(try gradient("#000000, #808080 ,#FFFFFF") == .colors([Color(rgb: 0), Color(rgb: 0x808080), Color(rgb: 0xFFFFFF)]))
    }

    /// Refused with the message the layout files' colour parser and the daemon's range checks give.
    @Test("bad values are refused with the reason", arguments: [
        (["--tint", "cloudz"], "unknown colour \"cloudz\""),
        (["--gradient", "clouds,rgb(1,2)"], "rgb takes 3 values, found 2"),
        (["--gradient", "clouds,"], "unknown colour \"\""),
        (["--duration", "0"], "0 is out of range: expected a number greater than 0, at most 600"),
        (["--pause", "601"], "601 is out of range: expected a number from 0 to 600"),
        (["--stagger=-1"], "-1 is out of range: expected a number from 0 to 60"),
        (["--style", "shiny"], "shiny"),
        (["--space", "world"], "world"),
    ])
    func badValues(arguments: [String], reason: String) {
        do {
            _ = try PresentationOptions.parse(arguments)
            Issue.record("\(arguments) was accepted")
        } catch {
            let message = PresentationOptions.message(for: error)
            #expect(message.contains(reason), "\(arguments): \(message)")
        }
    }

    @Test func transitions() throws {
        #expect(try OptionValues.transition("none") == TransitionSpec.none)
        #expect(try OptionValues.transition("crossDissolve") == .default)
        #expect(try OptionValues.transition("crossDissolve:0.5") == .crossDissolve(duration: 0.5))
        for (text, reason) in [("sideways", "expected none or crossDissolve[:SECONDS]"), ("crossDissolve:soon", "expected a number, found \"soon\""),
                               ("crossDissolve:61", "61 is out of range: expected a number from 0 to 60"),
                               ("crossDissolve:-1", "-1 is out of range")] {
            #expect(throws: ValidationError.self, "\(text)") { try OptionValues.transition(text) }
            do { _ = try OptionValues.transition(text) } catch let error as ValidationError {
                #expect(error.message.contains(reason), "\(text): \(error.message)")
            } catch {}
        }
    }
}

/// One codec per value: a layout, a request and an option refuse the same value in the same words.
@Suite struct WireValueTests {
    func requestRefusal(_ json: String) -> String? {
        guard case .failure(let failure) = RequestDecoder.decode(line: Array(json.utf8)) else { return nil }
        return failure.error.message
    }

    @Test func aProgressValueIsReadAlikeEverywhere() throws {
        let words = "1.5 is out of range: expected a number from 0 to 1"
        #expect(requestRefusal(#"{"command": "update", "progress": 1.5}"#)?.contains(words) == true)
        #expect(requestRefusal(#"{"command": "update", "content": {"bar": {"value": 1.5}}}"#)?.contains(words) == true)
        var reader = ValueReader()
        #expect(ProgressValue.read(.number(1.5), .document, &reader) == nil)
        #expect(reader.issues.first?.message == words)
        do { _ = try OptionValues.progress("bar=1.5"); Issue.record("accepted") } catch let error as ValidationError {
            #expect(error.message.contains(words), "\(error.message)")
        }
        #expect(try OptionValues.progress("indeterminate").value == .indeterminate)
        #expect(try OptionValues.progress("bar=0.25").value == .fraction(0.25))
        let word = "expected a number from 0 to 1 or \"indeterminate\""
        #expect(requestRefusal(#"{"command": "update", "progress": "half"}"#)?.contains(word) == true)
        #expect(throws: ValidationError.self) { try OptionValues.progress("half") }
    }

    /// A request's `animation` and a layout's `presentation.animation` are one object, read by
    /// one decoder: the same values and the same refusals.
    @Test(arguments: [
        #"{"direction": "rightLeft", "duration": 2, "timing": "easeInOut", "autoreverse": true, "pause": 0.25, "space": "screen", "stagger": 0.1}"#,
        #"{"duration": 0.5}"#, #"{}"#, #"{"duration": 0}"#, #"{"stagger": 61, "pause": -1}"#, #"{"direction": "leftToRight"}"#,
        #"{"autoreverse": "yes"}"#, #"{"speed": 2}"#, #"[]"#,
    ])
    func anAnimationObjectIsReadAlikeInRequestsAndLayouts(animation: String) throws {
        let request = RequestDecoder.decode(line: Array(#"{"command": "update", "animation": \#(animation)}"#.utf8))
        let layout = LayoutLoader.load(text: Array(#"""
            {"canvas": {"width": 10, "height": 10}, "presentation": {"animation": \#(animation)}, "root": {"kind": "view"}}
            """#.utf8), file: "a.json")
        switch (request, layout) {
        case (.success(let request), .success(let layout)):
            guard case .update(let update) = request.command else {
                Issue.record("\(request)")
                return
            }
            #expect(update.overrides.applied(to: Presentation()) == layout.presentation)
        case (.failure(let failure), .failure(let error)):
            let messages = error.issues.map(\.message)
            #expect(!messages.isEmpty && messages.allSatisfy { failure.error.message.contains($0) },
                    "\(failure.error.message) against \(messages)")
        default:
            Issue.record("the request gave \(request), the layout \(layout)")
        }
    }

    @Test func animationRangesAreReadAlikeEverywhere() throws {
        #expect(requestRefusal(#"{"command": "update", "animation": {"duration": 601}}"#)?.contains("601 is out of range: expected a number greater than 0, at most 600") == true)
        do { _ = try PresentationOptions.parse(["--duration", "601"]); Issue.record("accepted") } catch {
            #expect(PresentationOptions.message(for: error).contains("601 is out of range: expected a number greater than 0, at most 600"))
        }
        do { _ = try PresentationOptions.parse(["--stagger", "61"]); Issue.record("accepted") } catch {
            #expect(PresentationOptions.message(for: error).contains("61 is out of range: expected a number from 0 to 60"))
        }
        #expect(try PresentationOptions.parse(["--pause", "600"]).pause == 600)
    }

    /// An output is named as the kernel names connectors: nothing that could be a path.
    @Test func anOutputNameThatIsNotAConnectorNameIsRefused() {
        let words = "bad output name \"DP 2/..\": a connector name such as \"HDMI-A-1\" (letters, digits and '-', at most 32)"
        #expect(requestRefusal(#"{"command": "show", "layout": "logo", "output": "DP 2/.."}"#)?.contains(words) == true)
        #expect(requestRefusal(#"{"command": "update", "layout": "logo", "output": "DP 2/.."}"#)?.contains(words) == true)
        #expect(requestRefusal(#"{"command": "show", "layout": "logo", "output": "DP-2"}"#) == nil)
    }
}

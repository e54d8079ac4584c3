import ArgumentParser
import SkeletonLayout
import SkeletonProtocol

/// Option values read with the parsers the layout files and the protocol use.
public enum OptionValues {
    /// A colour as a layout file writes it.
    @Sendable public static func color(_ text: String) throws -> Color {
        switch Color.parse(text) {
        case .success(let color): return color
        case .failure(let error): throw ValidationError(error.message)
        }
    }

    /// `C1[,C2[,C3...]]`: one colour is a base, two a base and a secondary, more the stops. Commas
    /// inside `rgb(...)` belong to the colour.
    @Sendable public static func gradient(_ text: String) throws -> GradientSpec {
        let colors = try splitColors(text).map(color)
        switch colors.count {
        case 1: return .base(colors[0])
        case 2: return .baseAndSecondary(colors[0], colors[1])
        default: return .colors(colors)
        }
    }

    /// `none` or `crossDissolve[:SECONDS]`, SECONDS as the protocol allows them.
    @Sendable public static func transition(_ text: String) throws -> TransitionSpec {
        if text == "none" { return .none }
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts[0] == "crossDissolve" else { throw ValidationError("expected none or crossDissolve[:SECONDS]") }
        guard parts.count == 2 else { return .default }
        guard let seconds = Double(parts[1]) else {
            throw ValidationError("crossDissolve:SECONDS needs a number of seconds, not \"\(parts[1])\"")
        }
        let transition = TransitionSpec.crossDissolve(duration: seconds)
        if let problem = refusal(of: Request(command: .hide(HideRequest(transition: transition)))) {
            throw ValidationError(problem)
        }
        return transition
    }

    /// Why the daemon would refuse the request, read back by the decoder it uses; nil if it would not.
    static func refusal(of request: Request) -> String? {
        guard case .failure(let failure) = RequestDecoder.decode(line: RequestEncoder.line(request).dropLast()) else { return nil }
        return failure.error.message
    }

    private static func splitColors(_ text: String) -> [String] {
        var parts: [String] = [], current = "", depth = 0
        for character in text {
            switch character {
            case "(": depth += 1
            case ")": depth -= 1
            case "," where depth == 0:
                parts.append(current)
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        parts.append(current)
        return parts
    }
}

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

    /// `ID=TEXT`: a label's text by its id (the text may hold '=' and be empty).
    @Sendable public static func labelText(_ text: String) throws -> ContentEntry<String> {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw ValidationError("expected ID=TEXT (a label's id, '=', its text), found \"\(text)\"")
        }
        return ContentEntry(id: String(text[..<equals]), value: String(text[text.index(after: equals)...]))
    }

    /// `[ID=]VALUE`: a number from 0 to 1 or `indeterminate`, for a bar by id or for the layout's bar.
    @Sendable public static func progress(_ text: String) throws -> ContentEntry<ProgressValue> {
        var id: String?
        var valueText = Substring(text)
        if let equals = text.firstIndex(of: "=") {
            guard equals != text.startIndex else { throw ValidationError("expected [ID=]VALUE, found \"\(text)\"") }
            id = String(text[..<equals])
            valueText = text[text.index(after: equals)...]
        }
        if valueText == "indeterminate" { return ContentEntry(id: id, value: .indeterminate) }
        guard let number = Double(valueText), number >= 0, number <= 1 else {
            throw ValidationError("expected a progress value from 0 to 1 or indeterminate, found \"\(valueText)\"")
        }
        return ContentEntry(id: id, value: .fraction(number))
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

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
        switch ProgressValue.parse(String(valueText)) {
        case .success(let value): return ContentEntry(id: id, value: value)
        case .failure(let error): throw ValidationError("\(error) (\"\(valueText)\")")
        }
    }

    /// `none` or `crossDissolve[:SECONDS]`, SECONDS as the protocol allows them.
    @Sendable public static func transition(_ text: String) throws -> TransitionSpec {
        if text == "none" { return .none }
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts[0] == "crossDissolve" else { throw ValidationError("expected none or crossDissolve[:SECONDS]") }
        guard parts.count == 2 else { return .default }
        return .crossDissolve(duration: try value(WireNumber.transitionDuration, String(parts[1]), of: "crossDissolve:SECONDS"))
    }

    /// A number option in the range the layout and the protocol give it.
    @Sendable public static func value(_ number: WireNumber, _ text: String, of option: String) throws -> Double {
        switch number.parse(text) {
        case .success(let value): return value
        case .failure(let error): throw ValidationError("\(option): \(error)")
        }
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

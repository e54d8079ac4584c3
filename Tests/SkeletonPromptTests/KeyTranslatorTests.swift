import Foundation
import SkeletonInput
import SkeletonPrompt
import Testing

/// Keys as xkbcommon reads them with Debian's XKB data: evdev codes in, what they mean out.
@Suite struct KeyTranslatorTests {
    // linux/input-event-codes.h
    static let shift: UInt32 = 42, altGr: UInt32 = 100, q: UInt32 = 16, e: UInt32 = 18, y: UInt32 = 21, z: UInt32 = 44
    static let apostrophe: UInt32 = 40, minus: UInt32 = 12, equal: UInt32 = 13, b: UInt32 = 48, f: UInt32 = 33, u: UInt32 = 22
    static let enter: UInt32 = 28, backspace: UInt32 = 14, escape: UInt32 = 1, leftBrace: UInt32 = 26, two: UInt32 = 3

    /// What a sequence of presses (with modifiers held) types: characters joined, others named.
    func typed(_ translator: KeyTranslator, _ strokes: [[UInt32]]) -> [String] {
        var out: [String] = []
        for stroke in strokes {
            for code in stroke {
                translator.key(code, pressed: true) { action in
                    switch action {
                    case .character(let bytes): out.append(String(decoding: bytes, as: UTF8.self))
                    case .backspace: out.append("<BS>")
                    case .enter: out.append("<Enter>")
                    case .escape: out.append("<Esc>")
                    }
                }
            }
            for code in stroke.reversed() { translator.key(code, pressed: false) { _ in } }
        }
        return out
    }

    @Test func germanLayoutTypesUmlautsAltGrAndSharpS() throws {
        let t = try KeyTranslator(KeymapChoice(layout: "de"))
        // "Bär@Fuß": Shift+b, ä on the apostrophe key, r, AltGr+q, Shift+f, u, ß on the minus key.
        let r: UInt32 = 19
        #expect(typed(t, [[Self.shift, Self.b], [Self.apostrophe], [r], [Self.altGr, Self.q], [Self.shift, Self.f], [Self.u], [Self.minus]])
                .joined() == "Bär@Fuß")
        // y and z are swapped on a German keyboard.
        #expect(typed(t, [[Self.y], [Self.z]]) == ["z", "y"])
        #expect(typed(t, [[Self.enter], [Self.backspace], [Self.escape]]) == ["<Enter>", "<BS>", "<Esc>"])
    }

    @Test func deadKeysComposeAsOnTheConsole() throws {
        let t = try KeyTranslator(KeymapChoice(layout: "de"))
        #expect(t.composes)
        // The key right of ß is dead_acute on a German keyboard: ´ then e is é.
        #expect(typed(t, [[Self.equal], [Self.e]]) == ["é"])
        // French: the key right of p is dead_circumflex; ^ then e is ê.
        let french = try KeyTranslator(KeymapChoice(layout: "fr"))
        #expect(typed(french, [[Self.leftBrace], [Self.e]]) == ["ê"])
        // nodeadkeys: the same key types the accent itself.
        let plain = try KeyTranslator(KeymapChoice(layout: "de", variant: "nodeadkeys"))
        #expect(typed(plain, [[Self.equal], [Self.e]]) == ["´", "e"])
    }

    @Test func usLayoutByDefaultAndShiftLevels() throws {
        let t = try KeyTranslator(KeymapChoice())
        #expect(typed(t, [[Self.shift, Self.two], [Self.y], [Self.apostrophe]]) == ["@", "y", "'"])
        #expect(t.repeats(Self.q) && !t.repeats(Self.shift))
    }

    @Test func aCompiledKeymapLoadsWithoutXKBData() throws {
        let compiled = try #require(try KeyTranslator(KeymapChoice(layout: "de")).compiledText)
        let file = "/tmp/skeletond-keymap-\(getpid()).xkb"
        try compiled.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        // An empty XKB root: only the compiled file can give the keymap.
        let t = try KeyTranslator(KeymapChoice(file: file), xkbRoot: "/nonexistent")
        #expect(typed(t, [[Self.altGr, Self.q], [Self.apostrophe]]) == ["@", "ä"])
    }

    @Test func unknownLayoutsAndBadFilesSayWhy() {
        #expect(throws: KeymapError(keymap: "xx(nope)", reason: "XKB cannot compile it (an unknown layout, variant or option, or no XKB data in /usr/share/X11/xkb)")) {
            _ = try KeyTranslator(KeymapChoice(layout: "xx", variant: "nope"))
        }
        #expect(throws: KeymapError(keymap: "/nonexistent.xkb", reason: "no such file")) {
            _ = try KeyTranslator(KeymapChoice(file: "/nonexistent.xkb"))
        }
    }

    @Test func keymapChoiceReadsTheConsolesConfiguration() {
        let text = """
        # KEYBOARD CONFIGURATION FILE
        XKBMODEL="pc105"
        XKBLAYOUT="de"
        XKBVARIANT="nodeadkeys"
        XKBOPTIONS=""

        BACKSPACE="guess"
        """
        #expect(KeymapChoice(defaultKeyboard: text) == KeymapChoice(model: "pc105", layout: "de", variant: "nodeadkeys"))
        #expect(KeymapChoice(option: "fr:oss") == KeymapChoice(layout: "fr", variant: "oss"))
        #expect(KeymapChoice(option: "/etc/skeletond/keymap.xkb")?.file == "/etc/skeletond/keymap.xkb")
        #expect(KeymapChoice(option: "") == nil)
    }
}

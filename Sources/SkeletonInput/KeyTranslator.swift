import CXKBCommon
import Glibc
import SkeletonPrompt
import SkeletonSystem

/// Turns evdev key codes into what they mean at a prompt, with xkbcommon: the keymap's levels
/// (Shift, AltGr), its modifiers' state across keys, and dead keys composed through the
/// locale's Compose table, so that a passphrase is typed as on the console.
public final class KeyTranslator {
    public let keymap: KeymapChoice
    private let context: OpaquePointer
    private let map: OpaquePointer
    private let state: OpaquePointer
    private let compose: OpaquePointer?

    /// evdev codes are XKB's minus 8 (the X11 offset).
    static let evdevOffset: UInt32 = 8
    /// Where the Compose tables for dead keys come from; en_US.UTF-8's has every sequence the
    /// European layouts' dead keys use.
    public static let composeLocale = "en_US.UTF-8"

    /// `xkbRoot`: XKB's data directory (nil: xkbcommon's default, /usr/share/X11/xkb).
    public init(_ keymap: KeymapChoice, xkbRoot: String? = nil) throws(KeymapError) {
        self.keymap = keymap
        // A compiled keymap needs no XKB data: without the default include path, the context is
        // made where there is none (the initramfs).
        let flags = xkbRoot == nil && keymap.file == nil ? XKB_CONTEXT_NO_FLAGS : XKB_CONTEXT_NO_DEFAULT_INCLUDES
        guard let context = xkb_context_new(flags) else {
            throw KeymapError(keymap: keymap.description, reason: "xkbcommon cannot make a context")
        }
        if let xkbRoot { xkb_context_include_path_append(context, xkbRoot) }
        xkb_context_set_log_level(context, XKB_LOG_LEVEL_CRITICAL)
        let made: OpaquePointer?
        if let file = keymap.file {
            switch SystemCalls.readRegularFile(file, limit: 4 << 20) {
            case .failure(let error):
                xkb_context_unref(context)
                throw KeymapError(keymap: file, reason: "\(error)")
            case .success(var bytes):
                bytes.append(0)
                made = bytes.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { xkb_keymap_new_from_string(context, $0.baseAddress, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS) }
                }
            }
        } else {
            made = Self.compile(keymap, context: context)
        }
        guard let made else {
            xkb_context_unref(context)
            throw KeymapError(keymap: keymap.description, reason: keymap.file == nil
                ? "XKB cannot compile it (an unknown layout, variant or option, or no XKB data in \(xkbRoot ?? "/usr/share/X11/xkb"))"
                : "it is not a keymap in XKB's text format")
        }
        guard let state = xkb_state_new(made) else {
            xkb_keymap_unref(made)
            xkb_context_unref(context)
            throw KeymapError(keymap: keymap.description, reason: "xkbcommon cannot make a state")
        }
        self.context = context
        self.map = made
        self.state = state
        let table = xkb_compose_table_new_from_locale(context, Self.composeLocale, XKB_COMPOSE_COMPILE_NO_FLAGS)
        compose = table.flatMap { xkb_compose_state_new($0, XKB_COMPOSE_STATE_NO_FLAGS) }
        if let table { xkb_compose_table_unref(table) }
    }

    deinit {
        if let compose { xkb_compose_state_unref(compose) }
        xkb_state_unref(state)
        xkb_keymap_unref(map)
        xkb_context_unref(context)
    }

    /// Dead keys compose (a Compose table was found).
    public var composes: Bool { compose != nil }

    static func compile(_ keymap: KeymapChoice, context: OpaquePointer) -> OpaquePointer? {
        "evdev".withCString { rules in
            keymap.model.withCString { model in
                keymap.layout.withCString { layout in
                    keymap.variant.withCString { variant in
                        keymap.options.withCString { options in
                            var names = xkb_rule_names(rules: rules, model: model, layout: layout, variant: variant, options: options)
                            return xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS)
                        }
                    }
                }
            }
        }
    }

    /// The keymap in XKB's text format, for a file the initramfs carries (`KeymapChoice.file`).
    public var compiledText: String? {
        guard let text = xkb_keymap_get_as_string(map, XKB_KEYMAP_FORMAT_TEXT_V1) else { return nil }
        defer { free(text) }
        return String(cString: text)
    }

    /// A key went down (`pressed`) or up; `handle` gets what a press means, if anything.
    /// Modifiers and dead keys mean nothing by themselves.
    public func key(_ code: UInt32, pressed: Bool, _ handle: (KeyAction) -> Void) {
        let keycode = code + Self.evdevOffset
        defer { xkb_state_update_key(state, keycode, pressed ? XKB_KEY_DOWN : XKB_KEY_UP) }
        if pressed { meaning(of: keycode, handle) }
    }

    /// A key held down repeats (the modifiers as they are now); false for keys that do not
    /// repeat (modifiers).
    public func repeats(_ code: UInt32) -> Bool { xkb_keymap_key_repeats(map, code + Self.evdevOffset) != 0 }

    /// Another press of a key held down, without changing the modifiers' state.
    public func repeatKey(_ code: UInt32, _ handle: (KeyAction) -> Void) { meaning(of: code + Self.evdevOffset, handle) }

    private func meaning(of keycode: UInt32, _ handle: (KeyAction) -> Void) {
        let symbol = xkb_state_key_get_one_sym(state, keycode)
        if let compose, xkb_compose_state_feed(compose, symbol) == XKB_COMPOSE_FEED_ACCEPTED {
            switch xkb_compose_state_get_status(compose) {
            case XKB_COMPOSE_COMPOSING:
                return
            case XKB_COMPOSE_COMPOSED:
                emit { buffer, size in xkb_compose_state_get_utf8(compose, buffer, size) }
                xkb_compose_state_reset(compose)
                return
            case XKB_COMPOSE_CANCELLED:
                xkb_compose_state_reset(compose)
                return
            default:
                break
            }
        }
        switch Int32(bitPattern: symbol) {
        case XKB_KEY_Return, XKB_KEY_KP_Enter, XKB_KEY_ISO_Enter: handle(.enter)
        case XKB_KEY_BackSpace: handle(.backspace)
        case XKB_KEY_Escape: handle(.escape)
        default: emit { buffer, size in xkb_state_key_get_utf8(state, keycode, buffer, size) }
        }

        /// The key's text, lent from a stack buffer that is wiped afterwards; control
        /// characters are not text.
        func emit(_ text: (UnsafeMutablePointer<CChar>, Int) -> Int32) {
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
                defer { SystemCalls.zero(UnsafeMutableRawBufferPointer(buffer)) }
                let n = Int(text(buffer.baseAddress!, buffer.count))
                guard n > 0, n < buffer.count, UInt8(bitPattern: buffer[0]) >= 0x20, buffer[0] != 0x7F else { return }
                handle(.character(UnsafeRawBufferPointer(start: buffer.baseAddress, count: n)))
            }
        }
    }

    /// Forgets modifiers held and a dead key begun (a keyboard went away, a new prompt).
    public func reset() {
        compose.map { xkb_compose_state_reset($0) }
        xkb_state_update_mask(state, 0, 0, 0, 0, 0, 0)
    }
}

import CLibInput
import CSkeletonInput
import SkeletonPrompt
import SkeletonSystem

/// The keyboards, read through libinput's path backend while a prompt is up: every evdev device
/// of `directory` that libinput says is a keyboard, and those plugged in later (an inotify watch
/// on the directory: a node appears, then udev gives it its properties). A device udev has not
/// recorded yet (no /run/udev/data entry) is tried again every `retryInterval` rather than
/// handed to libinput, which would wait for udev for up to two seconds in the loop. Keys held
/// down repeat after `repeatDelay`, every `repeatInterval`, on the caller's clock.
public final class Keyboard {
    public let translator: KeyTranslator
    public let directory: String
    private let input: OpaquePointer
    private let inputDescriptor: FileDescriptor
    private let watch: FileDescriptor?
    /// Keyboards by device path.
    private var keyboards: [String: OpaquePointer] = [:]
    /// Devices that are not keyboards, not tried again.
    private var others: Set<String> = []
    /// Devices udev has not recorded yet, and when they are tried again.
    private var unrecorded: Set<String> = []
    private var retryAt: Double?
    public var retryInterval = 0.25
    /// udev's database of the devices it has processed.
    public var udevData = "/run/udev/data"
    private var now = 0.0
    private var held: (code: UInt32, next: Double)?
    /// The kernel's time of the last key pressed (CLOCK_MONOTONIC seconds).
    public private(set) var lastKeyTime: Double?
    public var repeatDelay = 0.5
    public var repeatInterval = 1.0 / 30
    /// Says what happened to devices (never a key).
    public var log: (String) -> Void = { _ in }

    public init(translator: KeyTranslator, directory: String = "/dev/input") throws(KeyboardError) {
        self.translator = translator
        self.directory = directory
        guard let input = sk_input_path_context() else { throw KeyboardError("libinput cannot make a context") }
        self.input = input
        inputDescriptor = FileDescriptor(rawValue: libinput_get_fd(input))
        watch = SystemCalls.watchDirectory(directory)
        addDevices()
    }

    deinit { close() }

    private var closed = false
    /// Keys are being handed out of libinput's event queue: a close asked for meanwhile (the
    /// key answered the last question) waits until the queue is let go.
    private var dispatching = false
    private var closeRequested = false

    /// Lets go of every device and of libinput (after the event being handled, when called
    /// from a key's action).
    public func close() {
        guard !closed else { return }
        held = nil
        if dispatching {
            closeRequested = true
            return
        }
        closed = true
        watch?.close()
        keyboards = [:]
        libinput_unref(input)
        translator.reset()
    }

    public var count: Int { keyboards.count }

    public var watches: [Watch] {
        [Watch(descriptor: inputDescriptor, events: .readable)] + (watch.map { [Watch(descriptor: $0, events: .readable)] } ?? [])
    }

    /// When a held key repeats next, or a device udev had not recorded is tried again.
    public var repeatDue: Double? {
        guard let next = held?.next else { return retryAt }
        return min(next, retryAt ?? next)
    }

    /// Handles a ready descriptor of `watches`; false when it is not one of them.
    public func handle(_ fd: FileDescriptor, now: Double, _ action: (KeyAction) -> Void) -> Bool {
        guard !closed else { return false }
        self.now = now
        if fd == watch {
            SystemCalls.drainDirectoryWatch(fd)
            addDevices()
            dispatch(now: now, action)
            return true
        }
        guard fd == inputDescriptor else { return false }
        dispatch(now: now, action)
        return true
    }

    /// A held key's repeats that are due by `now`.
    public func repeatIfDue(now: Double, _ action: (KeyAction) -> Void) {
        if let at = retryAt, at <= now, !closed {
            self.now = now
            retryAt = nil
            addDevices()
            dispatch(now: now, action)
        }
        while !closed, let h = held, h.next <= now {
            held = (h.code, h.next + repeatInterval)
            translator.repeatKey(h.code, action)
        }
    }

    /// Adds the directory's event devices not added yet; those that fail (udev has not given
    /// them their properties yet) are tried again at the watch's next event.
    private func addDevices() {
        let paths = SystemCalls.directoryEntries(directory).filter { $0.hasPrefix("event") }.map { directory + "/" + $0 }
        unrecorded = []
        for path in paths.sorted() where keyboards[path] == nil && !others.contains(path) {
            guard isRecordedByUdev(path) else {
                unrecorded.insert(path)
                continue
            }
            guard let device = libinput_path_add_device(input, path) else { continue }
            if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_KEYBOARD) != 0 {
                keyboards[path] = device
                log("keyboard: \(String(cString: libinput_device_get_name(device))) (\(path))")
            } else {
                others.insert(path)
                libinput_path_remove_device(device)
            }
        }
        let line = String(cString: sk_input_take_log_line())
        if !line.isEmpty { log("libinput: \(line)") }
        retryAt = unrecorded.isEmpty ? nil : now + retryInterval
    }

    /// udev has processed the device (libinput's path backend needs its properties). Without
    /// udev's database at all (no udevd), libinput cannot tell keyboards apart: nothing is
    /// recorded and nothing added.
    private func isRecordedByUdev(_ path: String) -> Bool {
        guard let number = SystemCalls.characterDeviceNumber(path) else { return false }
        return SystemCalls.fileExists("\(udevData)/c\(number.major):\(number.minor)")
    }

    private func dispatch(now: Double, _ action: (KeyAction) -> Void) {
        guard !closed, libinput_dispatch(input) == 0 else { return }
        dispatching = true
        defer {
            dispatching = false
            if closeRequested {
                closeRequested = false
                close()
            }
        }
        while !closeRequested, let event = libinput_get_event(input) {
            defer { libinput_event_destroy(event) }
            switch libinput_event_get_type(event) {
            case LIBINPUT_EVENT_DEVICE_REMOVED:
                let device = libinput_event_get_device(event)
                if let gone = keyboards.first(where: { $0.value == device })?.key {
                    keyboards[gone] = nil
                    log("keyboard gone: \(gone)")
                    held = nil
                }
            case LIBINPUT_EVENT_KEYBOARD_KEY:
                guard let key = libinput_event_get_keyboard_event(event) else { continue }
                let code = libinput_event_keyboard_get_key(key)
                let pressed = libinput_event_keyboard_get_key_state(key) == LIBINPUT_KEY_STATE_PRESSED
                // The seat's count: a key down on two keyboards is one press.
                let seatCount = libinput_event_keyboard_get_seat_key_count(key)
                guard (pressed && seatCount == 1) || (!pressed && seatCount == 0) else { continue }
                if pressed { lastKeyTime = Double(libinput_event_keyboard_get_time_usec(key)) / 1_000_000 }
                if pressed, translator.repeats(code) {
                    held = (code, now + repeatDelay)
                } else if !pressed, held?.code == code {
                    held = nil
                }
                translator.key(code, pressed: pressed, action)
            default:
                continue
            }
        }
    }
}

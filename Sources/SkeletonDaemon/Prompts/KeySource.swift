import SkeletonInput
import SkeletonPrompt
import SkeletonSystem

/// Where a prompt's keys come from: the keyboards through libinput (`Keyboard`), or in tests
/// keys given by hand.
protocol KeySource: AnyObject {
    /// Keyboards present.
    var count: Int { get }
    var watches: [Watch] { get }
    /// Handles a ready descriptor of `watches`; false when it is not one of them.
    func handle(_ fd: FileDescriptor, now: Double, _ action: (KeyAction) -> Void) -> Bool
    /// When a held key repeats next.
    var repeatDue: Double? { get }
    func repeatIfDue(now: Double, _ action: (KeyAction) -> Void)
    /// When the last key went down, on CLOCK_MONOTONIC (the kernel's time of the event); nil
    /// when not known.
    var lastKeyTime: Double? { get }
    func close()
}

extension Keyboard: KeySource {}

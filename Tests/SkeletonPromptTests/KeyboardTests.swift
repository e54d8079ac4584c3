import Foundation
import SkeletonInput
import SkeletonPrompt
import SkeletonSystem
import Testing

/// The keyboard's devices (libinput's path backend) as far as a machine with no input devices
/// lets them be tested: the directory watched, a device node udev has not recorded tried again
/// later instead of being handed to libinput (which would wait up to 2 s for udev in the loop),
/// and forgotten when it goes. Typing on real keyboards is the boot test's (`luks`).
@Suite struct KeyboardTests {
    let base = FileManager.default.temporaryDirectory.path + "/keyboard-\(UUID().uuidString.prefix(8))"

    func keyboard() throws -> Keyboard {
        try FileManager.default.createDirectory(atPath: base + "/input", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: base + "/udev", withIntermediateDirectories: true)
        let k = try Keyboard(translator: try KeyTranslator(KeymapChoice()), directory: base + "/input")
        k.udevData = base + "/udev"
        return k
    }

    @Test func aDeviceUdevHasNotRecordedIsTriedAgainLater() throws {
        let k = try keyboard()
        defer { k.close(); try? FileManager.default.removeItem(atPath: base) }
        #expect(k.count == 0)
        #expect(k.watches.count == 2, "libinput's descriptor and the directory's watch")
        #expect(k.repeatDue == nil)
        // A character device appears (as /dev/input/eventN does), not recorded by udev yet.
        try FileManager.default.createSymbolicLink(atPath: base + "/input/event7", withDestinationPath: "/dev/null")
        let watch = try #require(k.watches.last?.descriptor)
        #expect(SystemCalls.pollReady([Watch(descriptor: watch, events: .readable)], timeoutMilliseconds: 1000).count == 1)
        #expect(k.handle(watch, now: 10) { _ in Issue.record("no key") })
        #expect(k.count == 0, "not handed to libinput (which would wait for udev) before udev recorded it")
        #expect(k.repeatDue == 10 + k.retryInterval)
        // Still not recorded at the retry: tried again; gone: nothing more to try.
        k.repeatIfDue(now: 10.3) { _ in Issue.record("no key") }
        #expect(k.repeatDue == 10.3 + k.retryInterval)
        try FileManager.default.removeItem(atPath: base + "/input/event7")
        k.repeatIfDue(now: 10.6) { _ in Issue.record("no key") }
        #expect(k.repeatDue == nil)
        #expect(k.count == 0)
    }

    @Test func notAHandledDescriptorIsNotTaken() throws {
        let k = try keyboard()
        defer { k.close(); try? FileManager.default.removeItem(atPath: base) }
        #expect(!k.handle(FileDescriptor(rawValue: 999), now: 0) { _ in })
    }
}

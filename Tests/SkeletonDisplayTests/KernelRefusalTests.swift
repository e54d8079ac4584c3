#if canImport(Glibc)
import Glibc
#endif
import SkeletonDisplay
import SkeletonDisplayDoubles
import SkeletonLayout
import SkeletonRender
import Testing

/// What the DRM output does when the kernel says no (issue 48, item 4), on a card in memory
/// whose calls fail as the kernel's do.
@Suite("DRM: the kernel says no")
struct KernelRefusalTests {
    private let red: UInt32 = 0xFF_0000, green: UInt32 = 0x00_FF00, blue: UInt32 = 0x00_00FF

    /// Fills the output's picture with `colour` and presents it whole.
    private func show(_ colour: UInt32, on output: DRMOutput) throws -> Bool {
        output.shadow.fill(output.shadow.bounds, with: colour)
        return try output.present(damage: [output.shadow.bounds], mirrored: false)
    }

    private func open(_ card: FakeDRMDevice, saying lines: LogLines) throws -> DRMDisplay {
        let display = try #require(try DRMDisplay.open(path: card.path, options: DRMDisplay.Options(), log: { lines.append($0) }))
        display.log = { lines.append($0) }
        return display
    }

    @Test func aBusyFlipIsQueuedAgainAtTheNextFrameNeverOverAPendingOneAndSaidOnce() throws {
        let card = try FakeDRMDevice(path: "/fake/busy-flip", connectors: [.init(id: 1, modes: [FakeDRMDevice.mode(64, 48, preferred: true)])])
        let lines = LogLines()
        let display = try open(card, saying: lines)
        let output = try #require(display.drmOutputs.first)
        #expect(try show(red, on: output))
        #expect(try show(green, on: output))
        #expect(card.pixel(x: 5, y: 5) == green)
        card.fail(.pageFlip, with: EBUSY, times: 3)
        for colour: UInt32 in [0x11, 0x22, 0x33] {
            #expect(try show(colour, on: output) == false, "a busy flip shows nothing")
            #expect(output.canPresent, "nothing is pending: the next frame flips again")
        }
        #expect(card.pixel(x: 5, y: 5) == green)
        #expect(try show(blue, on: output))
        #expect(card.pixel(x: 5, y: 5) == blue)
        #expect(card.calls.filter { $0.hasPrefix("pageFlip") }.count == 5)
        #expect(card.flipsOverPending == 0)
        #expect(lines.matching("drmModePageFlip busy").count == 1, "said once, not at each busy frame: \(lines.all)")
    }

    @Test func noMemoryForABufferAtThePreferredModeTakesASmallerModeThenOneBuffer() throws {
        let card = try FakeDRMDevice(path: "/fake/no-memory", connectors: [.init(id: 1, modes: [
            FakeDRMDevice.mode(128, 96, preferred: true), FakeDRMDevice.mode(64, 48), FakeDRMDevice.mode(32, 24),
        ])])
        // Room for one 64x48 buffer (12,288 bytes), not for two nor for one at 128x96.
        card.memoryLimit = 20_000
        let lines = LogLines()
        let display = try open(card, saying: lines)
        let output = try #require(display.drmOutputs.first)
        #expect(output.size == Size(width: 64, height: 48))
        #expect(lines.matching("Cannot allocate memory at 128x96; trying 64x48").count == 1, "\(lines.all)")
        #expect(try show(red, on: output))
        #expect(card.modeSizes[31] == Size(width: 64, height: 48))
        for colour in [green, blue, red, green] {
            #expect(try show(colour, on: output))
            #expect(card.pixel(x: 63, y: 47) == colour, "drawn into the buffer on screen")
        }
        #expect(!card.calls.contains { $0.hasPrefix("pageFlip") })
        #expect(lines.matching("one buffer").count == 1, "said once, not at each frame: \(lines.all)")
        #expect(output.status.singleBuffered != nil)
    }

    @Test func aRefusedModeSetMovesTheConnectorToItsNextMode() throws {
        let card = try FakeDRMDevice(path: "/fake/refused-mode", connectors: [.init(id: 1, modes: [
            FakeDRMDevice.mode(128, 96, preferred: true), FakeDRMDevice.mode(64, 48),
        ])])
        card.refusedSizes = [Size(width: 128, height: 96)]
        let lines = LogLines()
        let display = try open(card, saying: lines)
        let refused = try #require(display.drmOutputs.first)
        #expect(throws: DisplayError.self) { try show(red, on: refused) }
        #expect(!refused.canPresent, "a refused mode is not set again at each frame")
        let changes = display.takeOutputChanges()
        #expect(changes.removed.count == 1 && changes.added.count == 1)
        let output = try #require(display.drmOutputs.first)
        #expect(display.drmOutputs.count == 1 && output.size == Size(width: 64, height: 48))
        #expect(try show(green, on: output))
        #expect(card.pixel(x: 63, y: 47) == green)
        #expect(card.calls.filter { $0.hasPrefix("setCrtc 128x96") }.count == 1)
        #expect(display.takeOutputChanges().isEmpty)
        #expect(lines.matching("refused the mode 128x96").count == 1, "\(lines.all)")
    }

    @Test func aConnectorWhoseEveryModeIsRefusedGivesItsCRTCToTheNextConnector() throws {
        let card = try FakeDRMDevice(path: "/fake/refused-connector", connectors: [
            .init(id: 1, modes: [FakeDRMDevice.mode(128, 96, preferred: true)]),
            .init(id: 2, modes: [FakeDRMDevice.mode(64, 48, preferred: true)]),
        ], crtcs: [31])
        card.refusedSizes = [Size(width: 128, height: 96)]
        let lines = LogLines()
        let display = try open(card, saying: lines)
        #expect(display.drmOutputs.map(\.name) == ["Virtual-1"], "one CRTC: the second connector waits")
        #expect(throws: DisplayError.self) { try show(red, on: display.drmOutputs[0]) }
        let changes = display.takeOutputChanges()
        #expect(changes.removed.map(\.name) == ["Virtual-1"] && changes.added.map(\.name) == ["Virtual-2"])
        #expect(try show(blue, on: display.drmOutputs[0]))
        #expect(card.pixel(x: 10, y: 10) == blue)
        #expect(lines.matching("Virtual-1: the kernel refused every mode tried (128x96); connector given up").count == 1, "\(lines.all)")
        _ = display.rescanOutputs { lines.append($0) }
        #expect(display.drmOutputs.map(\.name) == ["Virtual-2"], "a rescan leaves the given-up connector alone")
    }

    @Test func aConnectedConnectorWithoutModesIsSkippedAndSaidOnce() throws {
        let card = try FakeDRMDevice(path: "/fake/no-modes", connectors: [
            .init(id: 1, modes: []),
            .init(id: 2, modes: [FakeDRMDevice.mode(64, 48, preferred: true)]),
        ], crtcs: [31, 32])
        let lines = LogLines()
        let display = try open(card, saying: lines)
        #expect(display.drmOutputs.map(\.name) == ["Virtual-2"])
        for _ in 0..<3 { _ = display.rescanOutputs { lines.append($0) } }
        #expect(lines.matching("Virtual-1: connected but offers no mode").count == 1, "\(lines.all)")
        #expect(display.drmOutputs.map(\.name) == ["Virtual-2"])
    }
}

/// Lines a display said, for the tests to count.
final class LogLines {
    private(set) var all: [String] = []
    func append(_ line: String) { all.append(line) }
    func matching(_ text: String) -> [String] { all.filter { $0.contains(text) } }
}

import SkeletonDaemon
import SkeletonSettings
import SkeletonLayout
import SkeletonRender
import Testing

@Suite("display.rotation: every output, by connector, and --rotation")
struct RotationSettingsTests {
    func parse(_ text: String) -> Result<Settings, LayoutError> { Settings.parse(Array(text.utf8), file: "s.json") }

    @Test func aNumberTurnsEveryOutputAndAnObjectTurnsNamedOnes() throws {
        let all = try parse(#"{"display": {"rotation": 90}}"#).get()
        #expect(all.rotation == .clockwise90 && all.rotations.isEmpty)
        let named = try parse(#"{"display": {"rotation": {"DSI-1": 270, "HDMI-A-1": 0}}}"#).get()
        #expect(named.rotation == nil && named.rotations == ["DSI-1": .clockwise270, "HDMI-A-1": .upright])
        #expect(try parse(#"{"display": {"rotation": null}}"#).get().rotation == nil)
        #expect(try parse("{}").get().rotation == nil, "by default each panel's orientation decides")
    }

    @Test func otherAnglesAreRefusedWithTheirPath() {
        guard case .failure(let e) = parse(#"{"display": {"rotation": 45}}"#) else { Issue.record("45 accepted"); return }
        #expect(e.lines.joined().contains("display.rotation") && e.lines.joined().contains("expected 0, 90, 180 or 270, found 45"), "\(e.lines)")
        guard case .failure(let e2) = parse(#"{"display": {"rotation": {"DSI-1": 100}}}"#) else { Issue.record("100 accepted"); return }
        #expect(e2.lines.joined().contains("DSI-1") && e2.lines.joined().contains("found 100"), "\(e2.lines)")
    }

    @Test func theFlagTurnsEveryOutputOverTheFile() throws {
        var settings = try parse(#"{"display": {"rotation": {"DSI-1": 270}}}"#).get()
        let flags = try #require(RunFlags(bootArguments: ["run", "--rotation", "180"]))
        flags.apply(to: &settings)
        #expect(settings.rotation == .upsideDown && settings.rotations.isEmpty)
        #expect(RunFlags(bootArguments: ["run", "--rotation", "45"]) == nil, "left to ArgumentParser, which reports it")
    }
}

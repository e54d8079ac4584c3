import Testing

/// A page of Tests/capture/pages as it is captured: its viewport, and the selector to wait for
/// when its content arrives after its load event.
struct SamplePage: Sendable, CustomTestStringConvertible {
    var name: String
    var width = 800
    var height = 600
    var waitFor: String?

    var testDescription: String { "\(name) \(width)x\(height)" }

    static let all: [SamplePage] = [
        SamplePage(name: "feed"), SamplePage(name: "dashboard"), SamplePage(name: "kiosk-menu"), SamplePage(name: "form"),
        SamplePage(name: "rtl"), SamplePage(name: "fixed-header"), SamplePage(name: "rtl-news"), SamplePage(name: "css-shapes"),
        SamplePage(name: "table"), SamplePage(name: "cards"), SamplePage(name: "late-content", waitFor: "#orders[data-loaded]"),
        SamplePage(name: "responsive"), SamplePage(name: "responsive", width: 1280, height: 720),
    ]
}

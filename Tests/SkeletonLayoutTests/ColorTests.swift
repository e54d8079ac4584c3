import Testing
@testable import SkeletonLayout

@Suite("Colours")
struct ColorTests {
    static let flatColours: [(String, String)] = [
        ("greenSea", "#16A085"), ("turquoise", "#1ABC9C"), ("emerald", "#2ECC71"), ("peterRiver", "#3498DB"),
        ("amethyst", "#9B59B6"), ("wetAsphalt", "#34495E"), ("nephritis", "#27AE60"), ("belizeHole", "#2980B9"),
        ("wisteria", "#8E44AD"), ("midnightBlue", "#2C3E50"), ("sunFlower", "#F1C40F"), ("carrot", "#E67E22"),
        ("alizarin", "#E74C3C"), ("clouds", "#ECF0F1"), ("concrete", "#95A5A6"), ("flatOrange", "#F39C12"),
        ("pumpkin", "#D35400"), ("pomegranate", "#C0392B"), ("silver", "#BDC3C7"), ("asbestos", "#7F8C8D"),
        ("darkClouds", "#1C2325"),
    ]

    @Test("every named colour parses to its hex", arguments: flatColours)
    func namedColour(name: String, hex: String) throws {
        let colour = try Color.parse(name).get()
        #expect(colour.hex == hex)
        #expect(colour.alpha == 255)
        #expect(Color.named[name] == colour)
    }

    @Test func exactlyTwentyOneNames() {
        #expect(Color.named.count == 21)
        #expect(Set(Color.named.keys) == Set(Self.flatColours.map(\.0)))
    }

    @Test func hexForms() throws {
        #expect(try Color.parse("#3498DB").get() == Color(red: 0x34, green: 0x98, blue: 0xDB))
        #expect(try Color.parse("#3498db").get() == Color(red: 0x34, green: 0x98, blue: 0xDB))
        let translucent = try Color.parse("#11223344").get()
        #expect(translucent == Color(red: 0x11, green: 0x22, blue: 0x33, alpha: 0x44))
        #expect(translucent.hex == "#11223344")
        #expect(try Color.parse("#102030FF").get().hex == "#102030")
        #expect(try Color.parse("  clouds ").get().hex == "#ECF0F1")
    }

    @Test func functionForms() throws {
        #expect(try Color.parse("rgb(1, 2, 3)").get() == Color(red: 1, green: 2, blue: 3))
        #expect(try Color.parse("rgb(255,0,128)").get() == Color(red: 255, green: 0, blue: 128))
        #expect(try Color.parse("rgba(10, 20, 30, 0.5)").get() == Color(red: 10, green: 20, blue: 30, alpha: 128))
        #expect(try Color.parse("rgba(10, 20, 30, 1)").get().alpha == 255)
        #expect(try Color.parse("rgba(10, 20, 30, 0)").get().alpha == 0)
    }

    static let rejections: [(String, String)] = [
        ("#12345", "bad colour \"#12345\": expected #RRGGBB or #RRGGBBAA"),
        ("#1234567", "bad colour \"#1234567\": expected #RRGGBB or #RRGGBBAA"),
        ("#GG0000", "bad colour \"#GG0000\": \"#GG0000\" has a character that is not a hex digit"),
        ("rgb(1, 2)", "bad colour \"rgb(1, 2)\": rgb takes 3 values, found 2"),
        ("rgba(1, 2, 3)", "bad colour \"rgba(1, 2, 3)\": rgba takes 4 values, found 3"),
        ("rgb(256, 0, 0)", "bad colour \"rgb(256, 0, 0)\": channel \"256\" is not an integer from 0 to 255"),
        ("rgb(1.5, 0, 0)", "bad colour \"rgb(1.5, 0, 0)\": channel \"1.5\" is not an integer from 0 to 255"),
        ("rgba(0, 0, 0, 2)", "bad colour \"rgba(0, 0, 0, 2)\": alpha \"2\" is not a number from 0 to 1"),
        ("rgb(1, 2, 3", "bad colour \"rgb(1, 2, 3\": expected rgb(r, g, b) or rgba(r, g, b, a)"),
    ]

    @Test("malformed colours are rejected with a message", arguments: rejections)
    func rejected(text: String, message: String) {
        switch Color.parse(text) {
        case .success(let c): Issue.record("\(text) parsed as \(c)")
        case .failure(let e): #expect(e.message == message)
        }
    }

    @Test("unknown names are rejected naming the value", arguments: ["cloudz", "Clouds", "hsl(0, 0%, 0%)", "", "white"])
    func unknownName(text: String) {
        switch Color.parse(text) {
        case .success(let c): Issue.record("\(text) parsed as \(c)")
        case .failure(let e):
            #expect(e.message.hasPrefix("unknown colour \"\(text)\": expected one of the flat colour names"))
            #expect(e.message.contains("#RRGGBB"))
        }
    }

    @Test("complements from the behaviour reference", arguments: [
        ("clouds", "#DEE2E3"), ("darkClouds", "#262F32"), ("peterRiver", "#318FCE"), ("midnightBlue", "#3B546C"),
    ])
    func referenceComplement(name: String, hex: String) throws {
        #expect(try Color.parse(name).get().complement.hex == hex)
    }

    @Test func lightDarkRule() {
        // (299 R + 587 G + 114 B) / 1000 >= 0.5 with channels in 0...1.
        #expect(Color(rgb: 0x808080).isLight)      // 128/255 = 0.502
        #expect(!Color(rgb: 0x7F7F7F).isLight)     // 127/255 = 0.498
        #expect(Color(rgb: 0x3498DB).isLight)      // peterRiver: 0.5088
        #expect(!Color(rgb: 0x2C3E50).isLight)
        #expect(!Color(rgb: 0x0000FF).isLight)     // blue weighs 0.114
        #expect(Color(rgb: 0x00FF00).isLight)      // green weighs 0.587
        #expect(!Color(rgb: 0xFF0000).isLight)     // red weighs 0.299
        // Light colours get 0.94 times the brightness, dark ones 1.35 times.
        #expect(Color(rgb: 0x808080).complement.hex == "#787878")
        #expect(Color(rgb: 0x7F7F7F).complement.hex == "#ABABAB")
        #expect(Color(rgb: 0xFFFFFF).complement.hex == "#F0F0F0")
    }

    @Test func complementClampsAndKeepsHueSaturationAlpha() {
        // Dark, brightness 192/255 * 1.35 > 1: clamped to full brightness, saturation kept.
        #expect(Color(rgb: 0xC00000).complement.hex == "#FF0000")
        #expect(Color(rgb: 0x0000FF).complement.hex == "#0000FF")
        #expect(Color(rgb: 0x604020).complement.hex == "#82562B")
        #expect(Color.black.complement == Color.black)
        #expect(Color(red: 0xEC, green: 0xF0, blue: 0xF1, alpha: 0x80).complement.hex == "#DEE2E380")
    }

    @Test func mixing() {
        let a = Color(rgb: 0xECF0F1), b = Color(rgb: 0xDEE2E3)
        #expect(a.mixed(with: b, 0) == a)
        #expect(a.mixed(with: b, 1) == b)
        #expect(a.mixed(with: b, 0.5).hex == "#E5E9EA")
        #expect(a.xrgb == 0x00EC_F0F1)
    }

    @Test func appearanceDefaults() {
        let light = Appearance()
        #expect(light.resolvedTint.hex == "#ECF0F1")
        #expect(light.resolvedGradient.map(\.hex) == ["#ECF0F1", "#DEE2E3", "#ECF0F1"])
        #expect(light.textLineHeight == 15)
        #expect(light.textLineSpacing == 10)
        #expect(light.lastLineFillPercent == 70)
        #expect(light.linesCornerRadius == 0)
        #expect(light.cornerRadius == 0)
        let dark = Appearance(scheme: .dark)
        #expect(dark.resolvedTint.hex == "#1C2325")
        #expect(dark.resolvedGradient.map(\.hex) == ["#1C2325", "#262F32", "#1C2325"])
        let secondary = GradientSpec.baseAndSecondary(Color(rgb: 0x111111), Color(rgb: 0x222222))
        #expect(secondary.stops.map(\.hex) == ["#111111", "#222222", "#111111"])
    }
}

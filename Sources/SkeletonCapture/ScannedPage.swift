import SkeletonLayout

/// What `PageScanScript` found in a page: its viewport, background and direction, and the tree
/// of elements a skeleton is made from.
struct ScannedPage: Sendable, Equatable {
    var width: Int
    var height: Int
    var background: String
    var rightToLeft: Bool
    var elements: [ScannedElement]

    init(_ value: JSONValue) throws(CaptureError) {
        guard let width = value["width"]?.numberValue, let height = value["height"]?.numberValue,
              case .array(let nodes)? = value["nodes"] else {
            throw CaptureError("the page scan returned no page: \(value.jsonText.prefix(200))")
        }
        self.width = Int(width)
        self.height = Int(height)
        background = value["background"]?.stringValue ?? "#FFFFFF"
        rightToLeft = value["direction"]?.stringValue == "rtl"
        elements = nodes.compactMap(ScannedElement.init)
    }
}

/// One element of a scanned page (see `PageScanScript` for the kinds).
struct ScannedElement: Sendable, Equatable {
    enum Kind: String, Sendable {
        case text, image, control, bar, content, shape, box
    }

    var kind: Kind
    var rect: Rect
    var signature: String
    var id: String?
    var radius: Double
    var background: String?
    var lines: [Rect]
    var align: String?
    var linesAttribute: Int?
    var hidden: Bool
    var children: [ScannedElement]

    init?(_ value: JSONValue) {
        guard let kind = value["kind"]?.stringValue.flatMap(Kind.init), let rect = Self.rect(value["rect"]) else { return nil }
        self.kind = kind
        self.rect = rect
        signature = value["signature"]?.stringValue ?? ""
        id = value["id"]?.stringValue
        radius = value["radius"]?.numberValue ?? 0
        background = value["background"]?.stringValue
        if case .array(let lines)? = value["lines"] { self.lines = lines.compactMap(Self.rect) } else { lines = [] }
        align = value["align"]?.stringValue
        linesAttribute = value["linesAttribute"]?.numberValue.map { Int($0) }
        hidden = value["hidden"]?.boolValue ?? false
        if case .array(let children)? = value["children"] { self.children = children.compactMap(ScannedElement.init) } else { children = [] }
    }

    private static func rect(_ value: JSONValue?) -> Rect? {
        guard case .array(let v)? = value, v.count == 4 else { return nil }
        let n = v.compactMap(\.numberValue)
        guard n.count == 4 else { return nil }
        return Rect(x: n[0], y: n[1], width: n[2], height: n[3])
    }

    /// The leaves under this element, in order (itself when it is one).
    var leaves: [ScannedElement] { kind == .box ? children.flatMap(\.leaves) : [self] }
}

extension Rect {
    /// The smallest rectangle holding both.
    func union(_ other: Rect) -> Rect {
        let x0 = min(x, other.x), y0 = min(y, other.y)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }
}

/// How the design canvas maps onto an output of another size.
public enum ScaleMode: String, Sendable, CaseIterable {
    /// Uniform, centred, letterboxed in the background colour.
    case fit
    /// Uniform, centred, cropped.
    case fill
    /// Each axis on its own.
    case stretch
    /// 1:1, centred.
    case none
}

/// Reading direction: it sets the default sliding direction and `natural` alignment.
public enum LayoutDirection: String, Sendable, CaseIterable {
    case ltr, rtl
}

/// The design size and what lies under the skeleton.
public struct CanvasSpec: Sendable, Hashable {
    public var width: Int
    public var height: Int
    public var background: Color
    public var scale: ScaleMode
    public var direction: LayoutDirection

    public init(width: Int, height: Int, background: Color = .white, scale: ScaleMode = .fit,
                direction: LayoutDirection = .ltr) {
        self.width = width
        self.height = height
        self.background = background
        self.scale = scale
        self.direction = direction
    }

    public var size: Size { Size(width: width, height: height) }
}

/// A whole layout file: an app's first screen.
public struct Layout: Sendable, Hashable {
    public var name: String
    public var canvas: CanvasSpec
    public var appearance: Appearance
    public var presentation: Presentation
    public var root: Node

    public init(name: String, canvas: CanvasSpec, appearance: Appearance = Appearance(),
                presentation: Presentation = Presentation(), root: Node) {
        self.name = name
        self.canvas = canvas
        self.appearance = appearance
        self.presentation = presentation
        self.root = root
    }
}

extension Layout {
    /// The id of the view with the `prompt` role, where the boot's questions are drawn; nil:
    /// they are drawn over the dimmed screen.
    public var promptNodeID: String? { Self.promptID(in: root) }

    private static func promptID(in node: Node) -> String? {
        if node.role == .prompt, let id = node.id { return id }
        for child in node.children { if let found = promptID(in: child) { return found } }
        return nil
    }
}

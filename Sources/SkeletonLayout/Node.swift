/// The kinds of node a layout can hold.
public enum NodeKind: String, Sendable, CaseIterable {
    case view, text, image, label, progress, list, grid

    /// Kinds drawn as one skeleton shape (or text bars) rather than through children.
    public var isLeaf: Bool { self == .text || self == .image || self == .label || self == .progress }
}

/// A skeleton shape's outline: a rounded rectangle, or a circle (corner radius half the side).
public enum NodeShape: String, Sendable, CaseIterable {
    case rectangle, circle
}

/// Horizontal alignment of a text node's last bar.
public enum LastLineAlignment: String, Sendable, CaseIterable {
    case left, center, right, natural
}

/// Vertical placement of a text node's bars: centred as a block (a label) or from the top (a text view).
public enum VerticalAlignment: String, Sendable, CaseIterable {
    case center, top
}

/// Appearance values a node may override; they apply to it and to its descendants.
public struct NodeAppearance: Sendable, Hashable {
    public var tint: Color?
    public var gradient: GradientSpec?
    public var textLineHeight: Double?
    public var textLineSpacing: Double?
    public var lastLineFillPercent: Double?
    public var linesCornerRadius: Double?

    public init(tint: Color? = nil, gradient: GradientSpec? = nil, textLineHeight: Double? = nil,
                textLineSpacing: Double? = nil, lastLineFillPercent: Double? = nil, linesCornerRadius: Double? = nil) {
        self.tint = tint
        self.gradient = gradient
        self.textLineHeight = textLineHeight
        self.textLineSpacing = textLineSpacing
        self.lastLineFillPercent = lastLineFillPercent
        self.linesCornerRadius = linesCornerRadius
    }
}

/// Text bars: how many, their padding and alignment.
public struct TextSpec: Sendable, Hashable {
    public var lines: RepeatCount
    public var padding: EdgeInsets
    public var lastLineAlignment: LastLineAlignment
    public var verticalAlignment: VerticalAlignment

    public init(lines: RepeatCount = .count(1), padding: EdgeInsets = .zero,
                lastLineAlignment: LastLineAlignment = .left, verticalAlignment: VerticalAlignment = .center) {
        self.lines = lines
        self.padding = padding
        self.lastLineAlignment = lastLineAlignment
        self.verticalAlignment = verticalAlignment
    }
}

/// A list section: optional header and footer templates around its rows.
public struct ListSection: Sendable, Hashable {
    public var header: Node?
    public var headerHeight: Double
    public var rows: RepeatCount
    public var footer: Node?
    public var footerHeight: Double

    public init(header: Node? = nil, headerHeight: Double = 0, rows: RepeatCount = .auto,
                footer: Node? = nil, footerHeight: Double = 0) {
        self.header = header
        self.headerHeight = headerHeight
        self.rows = rows
        self.footer = footer
        self.footerHeight = footerHeight
    }
}

/// Rows of a fixed height from a row template; without sections, one section of `rows`.
public struct ListSpec: Sendable, Hashable {
    public var rowHeight: Double
    public var row: Node
    public var sections: [ListSection]

    public init(rowHeight: Double, row: Node, sections: [ListSection]) {
        self.rowHeight = rowHeight
        self.row = row
        self.sections = sections
    }
}

/// Items of a fixed size with spacing, from an item template or as plain blocks.
public struct GridSpec: Sendable, Hashable {
    public var itemWidth: Double
    public var itemHeight: Double
    public var spacingX: Double
    public var spacingY: Double
    public var items: RepeatCount
    public var item: Node?

    public init(itemWidth: Double, itemHeight: Double, spacingX: Double = 0, spacingY: Double = 0,
                items: RepeatCount = .auto, item: Node? = nil) {
        self.itemWidth = itemWidth
        self.itemHeight = itemHeight
        self.spacingX = spacingX
        self.spacingY = spacingY
        self.items = items
        self.item = item
    }
}

/// One node of a layout's tree, as written in the file.
public final class Node: Sendable, Hashable {
    public let kind: NodeKind
    public let id: String?
    public let frame: FrameSpec
    public let skeletonable: Bool
    public let hiddenWhenSkeletonActive: Bool
    public let background: Color?
    public let cornerRadius: Double?
    public let shape: NodeShape
    public let appearance: NodeAppearance
    /// Seconds this node's animation runs behind the others.
    public let animationDelay: Double
    public let children: [Node]
    public let text: TextSpec?
    public let list: ListSpec?
    public let grid: GridSpec?
    /// An image node's picture, shown when the node is not a skeleton.
    public let picture: PictureSpec?
    public let label: LabelSpec?
    public let progress: ProgressSpec?
    public let role: NodeRole?
    /// Where the node stands in its file, for error messages.
    public let path: String

    public init(kind: NodeKind, id: String? = nil, frame: FrameSpec = .fullParent, skeletonable: Bool = true,
                hiddenWhenSkeletonActive: Bool = false, background: Color? = nil, cornerRadius: Double? = nil,
                shape: NodeShape = .rectangle, appearance: NodeAppearance = NodeAppearance(),
                animationDelay: Double = 0, children: [Node] = [], text: TextSpec? = nil,
                list: ListSpec? = nil, grid: GridSpec? = nil, picture: PictureSpec? = nil, label: LabelSpec? = nil,
                progress: ProgressSpec? = nil, role: NodeRole? = nil, path: String = "root") {
        self.kind = kind
        self.id = id
        self.frame = frame
        self.skeletonable = skeletonable
        self.hiddenWhenSkeletonActive = hiddenWhenSkeletonActive
        self.background = background
        self.cornerRadius = cornerRadius
        self.shape = shape
        self.appearance = appearance
        self.animationDelay = animationDelay
        self.children = children
        self.text = text
        self.list = list
        self.grid = grid
        self.picture = picture
        self.label = label
        self.progress = progress
        self.role = role
        self.path = path
    }

    /// The text bars this node shows as a skeleton: a text node's own, or a label's lines.
    public var barSpec: TextSpec? {
        switch kind {
        case .text: return text ?? TextSpec()
        case .label: return TextSpec(lines: label?.lines.map { .count($0) } ?? .auto)
        default: return nil
        }
    }

    /// Whether the node has content of its own to show when it is not a skeleton.
    public var drawsContent: Bool { picture != nil || label != nil || progress != nil }

    public static func == (lhs: Node, rhs: Node) -> Bool {
        lhs === rhs || (lhs.kind == rhs.kind && lhs.id == rhs.id && lhs.frame == rhs.frame
            && lhs.skeletonable == rhs.skeletonable && lhs.hiddenWhenSkeletonActive == rhs.hiddenWhenSkeletonActive
            && lhs.background == rhs.background && lhs.cornerRadius == rhs.cornerRadius && lhs.shape == rhs.shape
            && lhs.appearance == rhs.appearance && lhs.animationDelay == rhs.animationDelay
            && lhs.children == rhs.children && lhs.text == rhs.text && lhs.list == rhs.list && lhs.grid == rhs.grid
            && lhs.picture == rhs.picture && lhs.label == rhs.label && lhs.progress == rhs.progress && lhs.role == rhs.role)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(id)
        hasher.combine(frame)
        hasher.combine(children.count)
    }
}

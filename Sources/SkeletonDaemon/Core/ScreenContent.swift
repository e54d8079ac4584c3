import SkeletonLayout
import SkeletonProtocol

/// What the screen shows besides the session's state: the overrides commands left in force, the
/// texts and values they set, the message and progress kept for the nodes of those roles (from
/// Plymouth, psplash and `keep` updates), and the outputs that show a layout of their own. One
/// value with the operations that change it; the daemon holds one, tests hold their own.
struct ScreenContent: Equatable {
    /// The command overrides on top of the layout shown; `reset` clears them.
    private(set) var overrides = PresentationOverrides()
    /// Texts and values by node id, carried to later looks wherever their nodes exist.
    private(set) var content = LayoutContent()
    /// For the nodes of the message and progress roles of whatever layout shows, now or later.
    private(set) var message: String?
    private(set) var progress: ProgressValue?
    /// Outputs that show a layout of their own instead of the session's.
    var outputLayouts = OutputLayouts()

    /// `base` (a layout just loaded, or the look in force) as a command asks for it: the
    /// command's overrides on top of those in force (with `reset`, on the layout's own look), and
    /// the content in force that the layout has nodes for.
    func look(_ base: SkeletonLook, adding commandOverrides: PresentationOverrides, reset: Bool) -> SkeletonLook {
        var look = base
        look.overrides = reset ? commandOverrides : overrides.merged(with: commandOverrides)
        let targets = ContentTargets(look.layout)
        look.content = targets.roleContent(message: message, progress: progress).merging(targets.accepted(content))
        return look
    }

    /// An update's texts and values for `layout`, `message` and `progress` given to the nodes of
    /// those roles; an error naming the node when one is unknown or of the wrong kind, or when a
    /// role has no node (unless the update keeps them for later layouts).
    static func change(_ update: UpdateRequest, for layout: Layout) -> Result<LayoutContent, ProtocolError> {
        let targets = ContentTargets(layout)
        var change = update.content
        if let message = update.message {
            let ids = targets.roles[.message]
            if ids == nil && !update.keep {
                return .failure(ProtocolError(.badRequest, "\"message\": the layout has no label with \"role\": \"message\""))
            }
            for id in ids ?? [] { change.texts[id] = message }
        }
        if let progress = update.progress {
            let ids = targets.roles[.progress]
            if ids == nil && !update.keep {
                return .failure(ProtocolError(.badRequest, "\"progress\": the layout has no bar with \"role\": \"progress\" and not exactly one bar"))
            }
            for id in ids ?? [] { change.values[id] = progress }
        }
        if let problem = targets.problem(with: change) { return .failure(ProtocolError(.badRequest, "\"content\": " + problem)) }
        return .success(change)
    }

    /// `look` is shown: its overrides are those in force.
    mutating func shows(_ look: SkeletonLook) { overrides = look.overrides }

    /// `look` is shown by an update: its overrides are those in force, its content is carried
    /// to later looks.
    mutating func updates(_ look: SkeletonLook) {
        overrides = look.overrides
        content = content.merging(look.content)
    }

    /// An update with `keep`: its message and progress go to the nodes of those roles in every
    /// later layout.
    mutating func keep(_ update: UpdateRequest) {
        guard update.keep else { return }
        if let m = update.message { message = m }
        if let p = update.progress { progress = p }
    }
}

import SkeletonSettings
import SkeletonDisplay
import SkeletonLayout
import SkeletonRender

/// Draws session frames into one output's shadow canvas: the steady case redraws only what
/// the animation changed; dissolves (show, hide, style or layout changes) compose whole frames.
public final class OutputCompositor {
    public let output: any DisplayOutput
    /// What was on screen before the skeleton: the show dissolves over it, the hide back to it.
    public let beneath: PixelBuffer
    private var renderers: [SkeletonLook: FrameRenderer] = [:]
    private var latest: FrameRenderer?
    /// The last look asked for and its renderer. Asked for again at every frame, it is compared
    /// first (its arrays by identity before their elements): the dictionary would hash the whole
    /// layout tree each time.
    private var lastAsked: (look: SkeletonLook, renderer: FrameRenderer)?
    private var current: PixelBuffer?
    private var previous: PixelBuffer?
    /// The renderer whose last frame the shadow holds, so that the next steady frame can be partial.
    private var shadowOwner: FrameRenderer?
    /// Steady frames went straight into the output's back buffer (`mirror`) since the shadow
    /// last held a whole frame: it holds that renderer's last frame only where nothing changed
    /// since, until it is drawn whole again.
    private var shadowLags = false
    public private(set) var framesDrawn = 0
    /// Draws prompts on this output; made with the first prompt.
    private var overlay: PromptOverlay?
    /// The prompt the shadow shows, if any.
    private var shownPrompt: PromptPicture?

    /// Makes the pixels of pictures and texts; nil: they show as skeletons.
    private let sprites: SpriteSource?

    public init(output: any DisplayOutput, sprites: SpriteSource? = nil) {
        self.output = output
        self.sprites = sprites
        self.beneath = PixelBuffer(size: output.size, fill: 0)
    }

    /// The frame left on screen by `hide --retain` becomes what a later show dissolves from.
    public func keepShadowAsBeneath() {
        if shadowLags, let shadowOwner { shadowOwner.redrawLastFrame(into: output.shadow) }
        shadowLags = false
        beneath.canvas.copy(beneath.canvas.bounds, from: output.shadow)
    }

    /// What lies beneath is black again (the console comes back when the display is handed back).
    public func clearBeneath() { beneath.canvas.fill(beneath.canvas.bounds, with: 0) }

    /// Forgets what the shadow holds: the next frame is drawn whole (after the display was
    /// taken back, its buffers must be filled again).
    public func invalidate() { shadowOwner = nil }

    /// Content still moves on this output: a bar slides to a new value, or is indeterminate.
    public var contentMoves: Bool { shadowOwner?.contentMoves ?? false }

    public func renderer(for look: SkeletonLook) -> FrameRenderer {
        if let lastAsked, lastAsked.look == look { return lastAsked.renderer }
        if let r = renderers[look] {
            lastAsked = (look, r)
            return r
        }
        let r = FrameRenderer(layout: look.layout, outputSize: output.size, overrides: look.overrides, content: look.content,
                              reusing: latest, sprites: sprites)
        renderers[look] = r
        latest = r
        lastAsked = (look, r)
        return r
    }

    /// Renderers that showed pictures or texts as skeletons while they were made are made again
    /// (their sprites have arrived).
    public func dropRenderersAwaitingSprites() {
        if overlay?.awaitsSprites == true { shownPrompt = nil }
        for (look, r) in renderers where r.awaitsSprites { renderers[look] = nil }
        if lastAsked?.renderer.awaitsSprites == true { lastAsked = nil }
        if latest?.awaitsSprites == true { latest = nil }
    }

    /// Draws `frame` (nil: what lies beneath) and returns the damaged rectangles.
    @discardableResult
    public func draw(_ frame: SessionFrame?) -> [PixelRect] { draw(frame, mirror: nil).damage }

    /// Draws `frame` and presents it. A steady frame's damage, and what the output's back
    /// buffer lacks besides, are drawn straight into that buffer (`mirror`), so the present
    /// copies nothing and the pixels are written once.
    public func present(_ frame: SessionFrame?) throws(DisplayError) -> Bool {
        let (damage, mirrored) = draw(frame, mirror: output.mirror)
        return try output.present(damage: damage, mirrored: mirrored)
    }

    private func draw(_ frame: SessionFrame?, mirror: Mirror?) -> (damage: [PixelRect], mirrored: Bool) {
        let shadow = output.shadow
        guard let frame else {
            shadow.copy(shadow.bounds, from: beneath.canvas)
            shadowOwner = nil
            shadowLags = false
            shownPrompt = nil
            framesDrawn += 1
            return ([shadow.bounds], false)
        }
        let main = renderer(for: frame.look)
        dropUnused(keeping: frame.look, frame.previous)
        framesDrawn += 1
        if frame.isSteady {
            if shadowOwner !== main {
                // A change of content alone redraws only the nodes whose content changed.
                if shadowOwner.map({ !main.continueFrom($0) }) ?? true { main.invalidate() }
                shadowOwner = main
            }
            let drawnIntoMirror = mirror != nil && frame.prompt == nil && shownPrompt == nil
            // Anything but another frame into the back buffer starts from a whole shadow.
            if shadowLags && !drawnIntoMirror { main.invalidate() }
            shadowLags = drawnIntoMirror
            guard frame.prompt != nil || shownPrompt != nil else {
                return (main.render(at: frame.animationTime, into: shadow, mirror: mirror), mirror != nil)
            }
            return (drawWithPrompt(frame, main), false)
        }
        shadowOwner = nil
        shadowLags = false
        defer {
            if let prompt = frame.prompt { promptOverlay(for: frame.look, main).draw(prompt, region: shadow.bounds, into: shadow) }
            shownPrompt = frame.prompt
        }
        let skeleton = scratch(&current)
        main.renderFull(at: frame.animationTime, into: skeleton.canvas)
        if let old = frame.previous {
            let other = scratch(&previous)
            renderer(for: old).renderFull(at: frame.animationTime, into: other.canvas)
            skeleton.canvas.dissolve(skeleton.canvas.bounds, under: other.canvas, over: skeleton.canvas,
                                     alpha: UInt32((frame.crossfade * 255).rounded()))
        }
        shadow.dissolve(shadow.bounds, under: beneath.canvas, over: skeleton.canvas,
                        alpha: UInt32((min(1, max(0, frame.opacity)) * 255).rounded()))
        return ([shadow.bounds], false)
    }

    /// A steady frame with a prompt over it, or the first without one after it: the skeleton's
    /// damage, and the panel when the prompt changed, are redrawn and the prompt drawn over them.
    /// A prompt that comes or goes redraws the whole output (the dimming covers it all).
    private func drawWithPrompt(_ frame: SessionFrame, _ main: FrameRenderer) -> [PixelRect] {
        let shadow = output.shadow
        let overlay = promptOverlay(for: frame.look, main)
        defer { shownPrompt = frame.prompt }
        if frame.prompt == nil || shownPrompt == nil || (overlay.coversOutput && frame.prompt?.differsOnlyInEntry(from: shownPrompt!) != true) {
            main.renderFull(at: frame.animationTime, into: shadow)
            if let prompt = frame.prompt { overlay.draw(prompt, region: shadow.bounds, into: shadow) }
            return [shadow.bounds]
        }
        var damage = main.render(at: frame.animationTime, into: shadow)
        if frame.prompt != shownPrompt { damage.append(overlay.panel) }
        // One rectangle around all of it: dimming is not idempotent, so no pixel may be drawn twice.
        let region = damage.reduce(PixelRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) }.intersection(shadow.bounds)
        guard !region.isEmpty else { return [] }
        main.draw(region, at: frame.animationTime, into: shadow)
        overlay.draw(frame.prompt!, region: region, into: shadow)
        return [region]
    }

    /// The overlay for `look`: in its layout's `prompt` view where it has one, else centred.
    private func promptOverlay(for look: SkeletonLook, _ renderer: FrameRenderer) -> PromptOverlay {
        let place = look.layout.promptNodeID.flatMap { renderer.layout.root.frame(ofNodeWithID: $0) }
        if let overlay, overlay.place == place { return overlay }
        let made = PromptOverlay(outputSize: output.size, place: place, sprites: sprites)
        overlay = made
        return made
    }

    private func scratch(_ slot: inout PixelBuffer?) -> PixelBuffer {
        if let b = slot { return b }
        let b = PixelBuffer(size: output.size)
        slot = b
        return b
    }

    private func dropUnused(keeping look: SkeletonLook, _ previous: SkeletonLook?) {
        guard renderers.count > (previous == nil ? 1 : 2) else { return }
        for key in renderers.keys where key != look && key != previous { renderers[key] = nil }
        if let lastAsked, lastAsked.look != look && lastAsked.look != previous { self.lastAsked = nil }
    }
}

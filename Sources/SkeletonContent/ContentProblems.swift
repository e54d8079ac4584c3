import SkeletonLayout
import SkeletonRender

extension ContentSprites {
    /// What in `layout` cannot be shown at its design size: pictures that do not load, fonts
    /// that do not open, each with its node's JSON path (for `skeletond validate`).
    public func problems(in layout: Layout) -> [SpriteError] {
        var resolver = LayoutResolver(layout: layout)
        let resolved = resolver.resolve()
        return resolved.items.compactMap { item in
            guard case .sprite(let sprite) = item, case .failure(let error) = made(for: sprite, outputSize: resolved.outputSize)
            else { return nil }
            return error
        }
    }
}

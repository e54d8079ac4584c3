import SkeletonLayout

/// One scaled placement of a picture that `PictureLoader` keeps.
struct RenderKey: Hashable {
    let source: PictureSource
    let mode: ContentMode
    let width: Int
    let height: Int
}

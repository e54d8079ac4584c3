import SkeletonContent
import SkeletonSystem

/// Where pictures, texts, snapshots and layout files are made and read, off the loop, and the
/// outputs' pictures and texts made there.
struct OffLoop {
    let work: any OffLoopWork
    let sprites: BackgroundSprites
}

/// A new look whose pictures or texts are still being made, and since when: the frame on screen
/// stays until they are ready, at most `Screen.spriteHold` seconds.
struct HeldLook: Equatable, Sendable {
    var look: SkeletonLook
    var since: Double
    /// The last frame due was held.
    var holding = false
}

/// How a picture fills its node's frame (UIKit's `UIView.ContentMode`, the four that matter).
public enum ContentMode: String, Sendable, CaseIterable {
    /// Stretched to the frame on each axis.
    case scaleToFill
    /// Scaled uniformly to fit inside the frame, centred.
    case scaleAspectFit
    /// Scaled uniformly to cover the frame, centred and cropped.
    case scaleAspectFill
    /// Unscaled, centred.
    case center
}

import SkeletonLayout

/// What the settings say that a start's first frame depends on: where frames and records are
/// kept, the hidden mark, and the display choices a plan repeats at boot.
public struct BootChoices: Equatable, Sendable {
    /// nil: no frame cache (and no record).
    public var frameCacheDirectory: String?
    public var hiddenMarkPath: String
    /// nil: the first card with an output to drive.
    public var device: String?
    /// Connector names to drive; nil: every connected one.
    public var connectors: [String]?
    public var modes: [String: Size]
    /// Some outputs show a layout of their own (`display.layouts`): the start layout's frame is
    /// not the whole picture, so no boot record replays it.
    public var outputsHaveOwnLayouts: Bool

    public init(frameCacheDirectory: String?, hiddenMarkPath: String, device: String?, connectors: [String]?, modes: [String: Size],
                outputsHaveOwnLayouts: Bool = false) {
        self.outputsHaveOwnLayouts = outputsHaveOwnLayouts
        self.frameCacheDirectory = frameCacheDirectory
        self.hiddenMarkPath = hiddenMarkPath
        self.device = device
        self.connectors = connectors
        self.modes = modes
    }
}

import SkeletonBoot

extension Settings {
    /// What the start's first frame depends on, for `StartFrames`.
    public var bootChoices: BootChoices {
        BootChoices(frameCacheDirectory: frameCacheDirectory, hiddenMarkPath: hiddenMark.path, device: device, connectors: outputs,
                    modes: modes, outputsHaveOwnLayouts: !outputLayouts.isEmpty)
    }
}

import SkeletonDisplay

/// The boot record: written once a start has its first frame on a DRM display and the frame
/// cache holds that frame for every output, so that the next start shows it first thing.
extension Daemon {
    /// Notes what the record says as soon as the first frame is up (by hide, the display may
    /// be closed), and writes it once the frame cache entries it names exist.
    func settleBootRecord() {
        guard let location = bootRecordLocation else { return }
        if pendingBootRecord == nil {
            guard let record = bootRecord(for: location) else {
                bootRecordLocation = nil
                return
            }
            pendingBootRecord = record
        }
        guard frameCacheWrites.isEmpty, let record = pendingBootRecord else { return }
        bootRecordLocation = nil
        pendingBootRecord = nil
        guard record.outputs.allSatisfy({ FrameCache.openEntry($0.framePath) != nil }) else {
            logger.debug("boot record: not written, a frame cache entry is missing")
            return
        }
        do {
            try record.write(to: location)
            logger.info("boot record: wrote \(location.path)")
        } catch {
            logger.warning("boot record: cannot write \(location.path): \(error)")
        }
    }

    /// nil when this start cannot be replayed from a record: another cache directory than the
    /// one looked in before the settings were read, no start layout from a file (or the
    /// built-in one), or no DRM display.
    private func bootRecord(for location: BootRecord.Location) -> BootRecord? {
        guard settings.frameCacheDirectory == location.directory, let cache = frameCache,
              startLook != nil, let source = startSource, let drm = display as? DRMDisplay else { return nil }
        let outputs = drm.drmOutputs.map { output in
            let facts = output.bootRecord
            return BootRecord.Output(connectorID: facts.connectorID, crtcID: facts.crtcID, modeIsPreferred: facts.modeIsPreferred,
                                     modeBytes: facts.modeBytes,
                                     framePath: cache.path(layoutName: source.name, layoutText: source.text, size: output.size))
        }
        return BootRecord(hiddenMarkerPath: hiddenMarkerPath, layoutPath: source.path,
                          layoutHash: BootRecord.layoutHash(source.text), devicePath: drm.path, outputs: outputs)
    }
}

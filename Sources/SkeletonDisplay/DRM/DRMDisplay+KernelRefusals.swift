import CLibDRM
import SkeletonSystem
import SkeletonLayout
import SkeletonRender

/// What the display does when the kernel will not make a buffer at a connector's mode, or
/// will not set that mode: the connector is driven at another of its modes, or given up for
/// the next connector.
extension DRMDisplay {
    /// An output on connector `name` at `mode`; when no buffer can be made at that size (the
    /// driver's memory), at the largest smaller mode of the connector where one can, skipping
    /// `refused`. nil when none can, each step said through `log`.
    static func makeOutput(device: String, fd: FileDescriptor, connectorID: UInt32, crtcID: UInt32, name: String,
                           mode: drmModeModeInfo, modeIsPreferred: Bool, rotation: Rotation,
                           adopting: (buffer: DumbBuffer, saved: drmModeCrtcPtr?)? = nil,
                           skipping refused: [drmModeModeInfo] = [], log: (String) -> Void) -> DRMOutput? {
        var mode = mode
        var modeIsPreferred = modeIsPreferred
        while true {
            do throws(DisplayError) {
                return try DRMOutput(device: device, fd: fd, connectorID: connectorID, crtcID: crtcID, name: name, mode: mode,
                                     modeIsPreferred: modeIsPreferred, rotation: rotation, adopting: adopting)
            } catch {
                let area = Int(mode.hdisplay) * Int(mode.vdisplay)
                let smaller = OutputChoice.modes(fd, connector: connectorID).filter { candidate in
                    Int(candidate.hdisplay) * Int(candidate.vdisplay) < area && !refused.contains { DRMCalls.sameMode($0, candidate) }
                }.max { Int($0.hdisplay) * Int($0.vdisplay) < Int($1.hdisplay) * Int($1.vdisplay) }
                guard !error.deviceGone, let smaller else {
                    log("\(error); connector skipped")
                    return nil
                }
                log("\(error) at \(mode.hdisplay)x\(mode.vdisplay); trying \(smaller.hdisplay)x\(smaller.vdisplay)")
                mode = smaller
                modeIsPreferred = false
            }
        }
    }

    /// Outputs whose mode the kernel refused are replaced by one at the connector's next mode
    /// not refused yet; a connector with none left is given up, and a connector that had no
    /// free CRTC may take its CRTC.
    public func takeOutputChanges() -> OutputChanges {
        guard drmOutputs.contains(where: \.modeRefused) else { return OutputChanges() }
        var changes = OutputChanges()
        var outputs: [DRMOutput] = []
        for output in drmOutputs {
            guard output.modeRefused else {
                outputs.append(output)
                continue
            }
            changes.removed.append(output)
            output.destroy()
            refusedModes[output.connectorID, default: []].append(output.mode)
            let refused = refusedModes[output.connectorID] ?? []
            let next = OutputChoice.modes(fd, connector: output.connectorID).first { mode in !refused.contains { DRMCalls.sameMode($0, mode) } }
            if let next, let replacement = Self.makeOutput(device: path, fd: fd, connectorID: output.connectorID, crtcID: output.crtcID,
                                                           name: output.name, mode: next, modeIsPreferred: false, rotation: output.rotation,
                                                           skipping: refused, log: log) {
                log("\(path), connector \(output.name): the kernel refused the mode \(output.modeDescription); trying \(replacement.modeDescription)")
                outputs.append(replacement)
                changes.added.append(replacement)
            } else {
                log("\(path), connector \(output.name): the kernel refused every mode tried (\(refused.map { "\($0.hdisplay)x\($0.vdisplay)" }.joined(separator: ", "))); connector given up")
                givenUp.insert(output.connectorID)
            }
        }
        if changes.added.count < changes.removed.count, let resources = DRMCalls.resources(fd) {
            defer { DRMCalls.free(resources) }
            let next = addConnectors(besides: outputs, resources: resources.pointee, log: log)
            outputs += next
            changes.added += next
        }
        drmOutputs = outputs
        return changes
    }
}

/// VT switches while the skeleton holds a DRM card (as Plymouth's ply-terminal does): the VT it
/// shows on is in VT_PROCESS mode while the display is held, so that a switch away (Ctrl+Alt+F2,
/// `chvt 2`) asks first: DRM master is dropped, then the switch allowed (VT_RELDISP 1), and the
/// kernel's console sets its mode; a switch back is acknowledged (VT_ACKACQ) and the host takes
/// master again and draws the whole frame. Whenever the display is let go for good (hide,
/// `deactivate`, exit) the VT is put back to VT_AUTO: a hidden or dead daemon never holds a switch.
///
/// The VT goes into KD_GRAPHICS mode at the first switch away, as Plymouth's is: only a switch
/// from a graphics VT to a text one makes the kernel's console set its own mode (fbcon's unblank
/// forces drm_fb_helper_set_par, master or not); between two text VTs it would draw the other
/// VT's text into its own buffer, off screen, under our frame. Switched back, the graphics VT
/// keeps the console from drawing: the other VT's picture stays until the skeleton's whole frame
/// replaces it. Not before a switch: whatever resets the VT to KD_TEXT (systemd does, when it
/// stops a getty at the way down) would make the console set its mode over the skeleton. KD_TEXT
/// comes back when the display is let go without its frame (a retained frame would be replaced by
/// the console's mode set), and only when it was text before.
///
/// DRM only: a Wayland window's compositor owns the VTs; the fbdev backend has no master to hand
/// over (the console and the skeleton share one framebuffer) and is left to VT_AUTO.
final class VTSwitch {
    let terminals: any VirtualTerminals
    /// The VT the skeleton shows on: the one active when the display was first held.
    private(set) var home: Int?
    /// In VT_PROCESS mode now.
    private(set) var engaged = false
    /// Another VT is shown: nothing is drawn, and the display waits for the switch back.
    private(set) var away = false
    /// The home VT was in KD_TEXT mode before it was put into graphics.
    private var wasText = false

    init(terminals: any VirtualTerminals) {
        self.terminals = terminals
    }

    /// The display is held (or about to be): the home VT is put into VT_PROCESS mode. False
    /// while another VT is shown (the display must not be taken: the switch back says when).
    func engage(log: (String) -> Void) -> Bool {
        if home == nil { home = terminals.active() }
        guard let home else { return true }
        if away, terminals.active() == home { away = false }
        if !engaged {
            do {
                try terminals.setProcessMode(home)
                engaged = true
            } catch {
                log("VT switches: cannot put tty\(home) into VT_PROCESS mode (\(error)); a switch to another VT may not show its console")
            }
        }
        return !away
    }

    /// The display is let go for good: the home VT goes back to VT_AUTO, and to KD_TEXT when it
    /// was text and no frame is kept (`keepingPicture`: the console's mode set would replace it).
    func disengage(keepingPicture: Bool) {
        guard engaged, let home else { return }
        terminals.setAutoMode(home)
        engaged = false
        if wasText, !keepingPicture {
            terminals.setGraphics(home, false)
            wasText = false
        }
    }

    /// SIGUSR1: another VT is asked for. True when the display must be let go now, after which
    /// `allowSwitch` lets the switch go on; false for a signal that is not ours to answer.
    func switchAwayAsked() -> Bool {
        guard engaged, !away, home != nil else { return false }
        away = true
        return true
    }

    /// After the display was let go (DRM master dropped): the home VT into graphics mode, so the
    /// other VT's console sets its mode, then VT_RELDISP 1.
    func allowSwitch() {
        guard let home else { return }
        if !wasText, terminals.isGraphics(home) == false {
            wasText = true
            terminals.setGraphics(home, true)
        }
        terminals.release(home)
    }

    /// SIGUSR2: the home VT is shown again. True when the display is to be taken back.
    func switchedBack() -> Bool {
        guard engaged, let home else { return false }
        terminals.acknowledgeAcquire(home)
        let wasAway = away
        away = false
        return wasAway
    }

    /// For `status`: which VT is shown instead of the skeleton's, while it is.
    var awayReason: String? {
        guard away, let home else { return nil }
        let shown = terminals.active().map { "tty\($0)" } ?? "another"
        return "another VT (\(shown)) is shown; the skeleton comes back when tty\(home) is"
    }
}

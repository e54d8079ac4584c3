import SkeletonSystem

/// The kernel's virtual terminals, as `VTSwitch` uses them: the seam process tests replace
/// (real VT ioctls would switch the test machine's own console).
protocol VirtualTerminals: AnyObject {
    /// The number of the VT shown now (VT_GETSTATE on /dev/tty0); nil without VTs.
    func active() -> Int?
    /// VT_SETMODE VT_PROCESS on VT `number`: a switch away sends SIGUSR1 and waits for
    /// `release`; a switch back sends SIGUSR2.
    func setProcessMode(_ number: Int) throws(Errno)
    /// VT_SETMODE VT_AUTO on VT `number`: the kernel switches without asking.
    func setAutoMode(_ number: Int)
    /// VT_RELDISP 1: the switch away goes on.
    func release(_ number: Int)
    /// VT_RELDISP VT_ACKACQ: the switch back is acknowledged.
    func acknowledgeAcquire(_ number: Int)
    /// KDGETMODE on VT `number`: whether it leaves the screen to graphics; nil when it cannot tell.
    func isGraphics(_ number: Int) -> Bool?
    /// KDSETMODE KD_GRAPHICS or KD_TEXT on VT `number`.
    func setGraphics(_ number: Int, _ graphics: Bool)
}

import SkeletonLayout
import SkeletonProtocol
import SkeletonSettings

/// What a command to the screen looks up outside the value as it runs: the layouts it names (as
/// read and checked: a command runs once the files it names are read), the settings it follows,
/// whether the display is let go to an app, and the text console a hide may wait for. The daemon
/// gives its own; tests give theirs.
struct CommandWorld {
    /// A layout by name (`LayoutStore.load`).
    var layout: (String) -> Result<(name: String, layout: Layout), ProtocolError>
    /// The settings' start layout: what a show naming none starts from while nothing is shown.
    var startLayout: String?
    var shutdown: ShutdownSettings
    /// `deactivate` let the display go to an app, and no `reactivate` came since.
    var deactivated: Bool
    /// The console's cells for `hide --after-console`, or why the hide cannot wait for it.
    var consoleToWaitOn: () -> Result<[UInt8], ConsoleWait.Unwaitable>
}

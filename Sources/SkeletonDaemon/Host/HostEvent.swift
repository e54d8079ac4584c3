/// What the display host tells the daemon, as it happens (`DisplayHost.report`).
enum HostEvent: Equatable {
    /// A display is attached, or taken back: its first frame is owed.
    case attached
    /// A hotplug event added or removed outputs, by connector name.
    case outputsPlugged(added: [String], removed: [String])
    /// The display server the output was a client of went away and the settings say to exit
    /// (`display.wayland.whenGone`), with why.
    case ended(reason: String)
}

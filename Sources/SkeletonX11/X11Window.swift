import CXCB
import Glibc
import SkeletonDisplay
import SkeletonLayout

/// The skeleton's window over the whole screen: override-redirect (no window manager frames or
/// moves it), no background (mapping it leaves the screen as it was until the first frame is
/// put), and the stacking that keeps it on top (`stayOnTop`).
///
/// On top: where no window manager runs (a kiosk's Xorg), the window's client takes the root's
/// SubstructureRedirect and is the kiosk's window manager, as cage is a kiosk's compositor: every
/// window that maps is made the screen's size and mapped *under* the skeleton's, so nothing
/// shows over the skeleton, not even for a frame, and the app's first visible frame is full
/// size. A window under it is redirected (Composite, automatic): the X server counts it as
/// unobscured, so the app goes on drawing (Chromium draws no frame for a window it sees covered),
/// and the server shows its last frame the moment the skeleton's window goes. Where a window
/// manager has the redirect already, the window is raised again each time another window maps
/// or is raised over it.
final class X11Window {
    let id: xcb_window_t
    private let connection: X11Connection
    private let gc: xcb_gcontext_t
    private(set) var size: Size
    private(set) var mapped = false
    /// The settings' `stayOnTop`.
    let stayOnTopAsked: Bool
    /// Other windows are kept under this one (`stayOnTop`), until `stopKeepingOnTop`.
    private(set) var keepsOnTop: Bool
    /// The root's SubstructureRedirect is this client's: windows map through it.
    private(set) var redirects = false
    /// Windows mapped or raised over this one since the last call (`takeCoverings`).
    private var coverings = 0
    /// The server has Composite (0.2 or later): windows under the skeleton's can be redirected.
    private(set) var composites = false
    /// Windows this client redirected (automatic), until it stops keeping on top.
    private var redirected: Set<xcb_window_t> = []

    /// xcb_create_window(3) at the root's size, and the root's events selected.
    init(connection: X11Connection, stayOnTop: Bool) throws(DisplayError) {
        guard let c = connection.connection else { throw DisplayError("x11: not connected") }
        self.connection = connection
        keepsOnTop = stayOnTop
        stayOnTopAsked = stayOnTop
        size = connection.screenSize
        id = xcb_generate_id(c)
        let events = XCB_EVENT_MASK_EXPOSURE.rawValue | XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue
        // In the order of their bits: background pixmap None, override-redirect, event mask.
        let values: [UInt32] = [0, 1, events]
        xcb_create_window(c, UInt8(XCB_COPY_FROM_PARENT), id, connection.root, 0, 0, UInt16(size.width), UInt16(size.height), 0,
                          UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), connection.rootVisual,
                          XCB_CW_BACK_PIXMAP.rawValue | XCB_CW_OVERRIDE_REDIRECT.rawValue | XCB_CW_EVENT_MASK.rawValue, values)
        gc = xcb_generate_id(c)
        setText(property: XCB_ATOM_WM_NAME, "skeletond")
        setText(property: XCB_ATOM_WM_CLASS, "skeletond\u{0}skeletond\u{0}")
        let exposures: [UInt32] = [0]
        xcb_create_gc(c, gc, id, XCB_GC_GRAPHICS_EXPOSURES.rawValue, exposures)
        let rootEvents = XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY.rawValue | XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue
        if stayOnTop {
            let asked: [UInt32] = [rootEvents | XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT.rawValue]
            redirects = connection.errorCode(of: xcb_change_window_attributes_checked(c, connection.root, XCB_CW_EVENT_MASK.rawValue, asked)) == nil
        }
        if !redirects {
            let asked: [UInt32] = [rootEvents]
            xcb_change_window_attributes(c, connection.root, XCB_CW_EVENT_MASK.rawValue, asked)
        }
        if redirects, let present = xcb_query_extension_reply(c, xcb_query_extension(c, 9, "Composite"), nil) {
            defer { free(present) }
            if present.pointee.present != 0, let reply = xcb_composite_query_version_reply(c, xcb_composite_query_version(c, 0, 4), nil) {
                composites = reply.pointee.major_version > 0 || reply.pointee.minor_version >= 2
                free(reply)
            }
        }
    }

    var gcontext: xcb_gcontext_t { gc }

    private func setText(property: xcb_atom_enum_t, _ text: String) {
        guard let c = connection.connection else { return }
        var bytes = Array(text.utf8)
        xcb_change_property(c, UInt8(XCB_PROP_MODE_REPLACE.rawValue), id, property.rawValue, XCB_ATOM_STRING.rawValue, 8,
                            UInt32(bytes.count), &bytes)
    }

    /// xcb_map_window(3), on top of its siblings.
    func map() {
        guard let c = connection.connection, !mapped else { return }
        raise()
        xcb_map_window(c, id)
        mapped = true
    }

    /// xcb_unmap_window(3): what is under it is exposed, and its clients draw it again.
    func unmap() {
        guard let c = connection.connection, mapped else { return }
        xcb_unmap_window(c, id)
        mapped = false
    }

    /// Other windows stack as they ask from now on, drawn by the server as usual (unredirected).
    func stopKeepingOnTop() {
        keepsOnTop = false
        guard let c = connection.connection else { return }
        for window in redirected { xcb_composite_unredirect_window(c, window, UInt8(XCB_COMPOSITE_REDIRECT_AUTOMATIC.rawValue)) }
        redirected = []
    }

    /// Shown again (`reacquire`): kept on top again, as the settings ask.
    func keepOnTopAgain() { keepsOnTop = stayOnTopAsked }

    /// xcb_configure_window(3): above every sibling.
    func raise() {
        guard let c = connection.connection else { return }
        let above: [UInt32] = [XCB_STACK_MODE_ABOVE.rawValue]
        xcb_configure_window(c, id, UInt16(XCB_CONFIG_WINDOW_STACK_MODE.rawValue), above)
    }

    /// The window at a new size (the screen's changed: RandR).
    func resize(to new: Size) {
        guard let c = connection.connection else { return }
        size = new
        let values: [UInt32] = [0, 0, UInt32(new.width), UInt32(new.height)]
        let mask = XCB_CONFIG_WINDOW_X.rawValue | XCB_CONFIG_WINDOW_Y.rawValue | XCB_CONFIG_WINDOW_WIDTH.rawValue | XCB_CONFIG_WINDOW_HEIGHT.rawValue
        xcb_configure_window(c, id, UInt16(mask), values)
    }

    /// Another client asked to map `window` (we hold the redirect): made the screen's size, and
    /// while the skeleton is kept on top, redirected and mapped under it.
    func mapRequested(_ window: xcb_window_t) {
        guard let c = connection.connection else { return }
        fillScreen(window)
        if keepsOnTop && mapped {
            let below: [UInt32] = [id, XCB_STACK_MODE_BELOW.rawValue]
            xcb_configure_window(c, window, UInt16(XCB_CONFIG_WINDOW_SIBLING.rawValue | XCB_CONFIG_WINDOW_STACK_MODE.rawValue), below)
            if composites, redirected.insert(window).inserted {
                xcb_composite_redirect_window(c, window, UInt8(XCB_COMPOSITE_REDIRECT_AUTOMATIC.rawValue))
            }
            coverings += 1
        }
        xcb_map_window(c, window)
    }

    /// At 0,0 at the screen's size, with no border: a kiosk's window, as cage makes every window.
    private func fillScreen(_ window: xcb_window_t) {
        guard let c = connection.connection else { return }
        let values: [UInt32] = [0, 0, UInt32(size.width), UInt32(size.height), 0]
        let mask = XCB_CONFIG_WINDOW_X.rawValue | XCB_CONFIG_WINDOW_Y.rawValue | XCB_CONFIG_WINDOW_WIDTH.rawValue
            | XCB_CONFIG_WINDOW_HEIGHT.rawValue | XCB_CONFIG_WINDOW_BORDER_WIDTH.rawValue
        xcb_configure_window(c, window, UInt16(mask), values)
    }

    /// A redirected window went away: nothing to undo for it.
    func forget(_ window: xcb_window_t) { redirected.remove(window) }

    /// Another client asked to move, size or restack `window` (we hold the redirect): the window
    /// stays the screen's size, and a raise while the skeleton's is kept on top goes under it.
    func configureRequested(_ request: xcb_configure_request_event_t) {
        guard let c = connection.connection else { return }
        let geometry = XCB_CONFIG_WINDOW_X.rawValue | XCB_CONFIG_WINDOW_Y.rawValue | XCB_CONFIG_WINDOW_WIDTH.rawValue
            | XCB_CONFIG_WINDOW_HEIGHT.rawValue | XCB_CONFIG_WINDOW_BORDER_WIDTH.rawValue
        if UInt32(request.value_mask) & geometry != 0 { fillScreen(request.window) }
        var mask = UInt32(request.value_mask) & ~geometry
        var values: [UInt32] = []
        func add(_ bit: xcb_config_window_t, _ value: UInt32) {
            if mask & bit.rawValue != 0 { values.append(value) }
        }
        var stackMode = UInt32(request.stack_mode)
        var sibling = request.sibling
        if keepsOnTop && mapped && mask & XCB_CONFIG_WINDOW_STACK_MODE.rawValue != 0 && stackMode == XCB_STACK_MODE_ABOVE.rawValue {
            mask |= XCB_CONFIG_WINDOW_SIBLING.rawValue
            sibling = id
            stackMode = XCB_STACK_MODE_BELOW.rawValue
            coverings += 1
        }
        add(XCB_CONFIG_WINDOW_SIBLING, sibling)
        add(XCB_CONFIG_WINDOW_STACK_MODE, stackMode)
        if mask != 0 { xcb_configure_window(c, request.window, UInt16(mask), values) }
    }

    /// Another client asked to put `window` on top of or under its siblings (we hold the
    /// redirect): done, and the skeleton's raised over it again while it is kept on top.
    func circulateRequested(_ request: xcb_circulate_request_event_t) {
        guard let c = connection.connection else { return }
        let onTop = request.place == UInt8(XCB_PLACE_ON_TOP.rawValue)
        let mode: [UInt32] = [onTop ? XCB_STACK_MODE_ABOVE.rawValue : XCB_STACK_MODE_BELOW.rawValue]
        xcb_configure_window(c, request.window, UInt16(XCB_CONFIG_WINDOW_STACK_MODE.rawValue), mode)
        if keepsOnTop && mapped && onTop {
            raise()
            coverings += 1
        }
    }

    /// Without the redirect (a window manager has it): `window` mapped, or was stacked right
    /// above the skeleton's; the skeleton's is raised over it again.
    func covered(by window: xcb_window_t) {
        guard window != id, keepsOnTop, mapped, !redirects else { return }
        raise()
        coverings += 1
    }

    /// How many windows were put under the skeleton's, or it was raised over, since the last call.
    func takeCoverings() -> Int {
        defer { coverings = 0 }
        return coverings
    }

    /// xcb_destroy_window(3) and the GC; the redirect goes with the connection.
    func destroy() {
        guard let c = connection.connection else { return }
        xcb_free_gc(c, gc)
        xcb_destroy_window(c, id)
        mapped = false
    }
}

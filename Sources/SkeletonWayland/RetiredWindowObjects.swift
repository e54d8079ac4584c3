import CSkeletonWayland

/// A window's objects taken from it: kept on screen after the window was made anew
/// (`WaylandWindow.map`) until the new one has drawn, so the old picture stays until the new one
/// covers it, or destroyed at once. Their events no longer reach the window (user data cleared).
struct RetiredWindowObjects {
    let surface: OpaquePointer?
    let xdgSurface: OpaquePointer?
    let toplevel: OpaquePointer?
    let viewport: OpaquePointer?
    let fractional: OpaquePointer?
    let frameCallback: OpaquePointer?

    init(surface: OpaquePointer?, xdgSurface: OpaquePointer?, toplevel: OpaquePointer?, viewport: OpaquePointer?,
         fractional: OpaquePointer?, frameCallback: OpaquePointer?) {
        self.surface = surface
        self.xdgSurface = xdgSurface
        self.toplevel = toplevel
        self.viewport = viewport
        self.fractional = fractional
        self.frameCallback = frameCallback
        if let surface { wl_surface_set_user_data(surface, nil) }
        if let xdgSurface { xdg_surface_set_user_data(xdgSurface, nil) }
        if let toplevel { xdg_toplevel_set_user_data(toplevel, nil) }
        if let fractional { wp_fractional_scale_v1_set_user_data(fractional, nil) }
        if let frameCallback { wl_callback_set_user_data(frameCallback, nil) }
    }

    /// Destroys them, children first: the compositor unmaps the old window.
    func destroy() {
        if let frameCallback { wl_callback_destroy(frameCallback) }
        if let fractional { wp_fractional_scale_v1_destroy(fractional) }
        if let viewport { wp_viewport_destroy(viewport) }
        if let toplevel { xdg_toplevel_destroy(toplevel) }
        if let xdgSurface { xdg_surface_destroy(xdgSurface) }
        if let surface { wl_surface_destroy(surface) }
    }
}

#ifndef SKELETON_WAYLAND_H
#define SKELETON_WAYLAND_H

// The core protocol (libwayland-client) and the protocols' client code that wayland-scanner
// generates at build time (Plugins/WaylandScanner).
#include <wayland-client.h>
#include "xdg-shell-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "fractional-scale-v1-client-protocol.h"

// wl_registry_bind(3) for each global the output uses. The interface tables are C constants
// whose addresses the new proxies keep; Swift sees them only as values.
struct wl_compositor *skeleton_bind_compositor(struct wl_registry *registry, uint32_t name, uint32_t version);
struct wl_shm *skeleton_bind_shm(struct wl_registry *registry, uint32_t name, uint32_t version);
struct wl_output *skeleton_bind_output(struct wl_registry *registry, uint32_t name, uint32_t version);
struct xdg_wm_base *skeleton_bind_wm_base(struct wl_registry *registry, uint32_t name, uint32_t version);
struct wp_viewporter *skeleton_bind_viewporter(struct wl_registry *registry, uint32_t name, uint32_t version);
struct wp_fractional_scale_manager_v1 *skeleton_bind_fractional_scale(struct wl_registry *registry, uint32_t name,
                                                                       uint32_t version);

/// The compositor's process: SO_PEERCRED on the connection's socket (getsockopt(2)); 0 when
/// the kernel does not say.
int skeleton_wayland_peer_pid(struct wl_display *display);

#endif

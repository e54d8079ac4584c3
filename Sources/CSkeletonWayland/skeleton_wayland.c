#define _GNU_SOURCE
#include "skeleton_wayland.h"
#include <sys/socket.h>

struct wl_compositor *skeleton_bind_compositor(struct wl_registry *registry, uint32_t name, uint32_t version) {
    return wl_registry_bind(registry, name, &wl_compositor_interface, version);
}

struct wl_shm *skeleton_bind_shm(struct wl_registry *registry, uint32_t name, uint32_t version) {
    return wl_registry_bind(registry, name, &wl_shm_interface, version);
}

struct wl_output *skeleton_bind_output(struct wl_registry *registry, uint32_t name, uint32_t version) {
    return wl_registry_bind(registry, name, &wl_output_interface, version);
}

struct xdg_wm_base *skeleton_bind_wm_base(struct wl_registry *registry, uint32_t name, uint32_t version) {
    return wl_registry_bind(registry, name, &xdg_wm_base_interface, version);
}

struct wp_viewporter *skeleton_bind_viewporter(struct wl_registry *registry, uint32_t name, uint32_t version) {
    return wl_registry_bind(registry, name, &wp_viewporter_interface, version);
}

struct wp_fractional_scale_manager_v1 *skeleton_bind_fractional_scale(struct wl_registry *registry, uint32_t name,
                                                                       uint32_t version) {
    return wl_registry_bind(registry, name, &wp_fractional_scale_manager_v1_interface, version);
}

int skeleton_wayland_peer_pid(struct wl_display *display) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(wl_display_get_fd(display), SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return 0;
    return credentials.pid;
}

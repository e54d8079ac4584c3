#include "skeleton_drm.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

struct flip_collection {
    uint32_t *crtcs;
    int capacity;
    int count;
};

static struct flip_collection *current_collection;

static void page_flip_done(int fd, unsigned int sequence, unsigned int seconds, unsigned int microseconds,
                           void *user_data) {
    (void)fd; (void)sequence; (void)seconds; (void)microseconds;
    struct flip_collection *c = current_collection;
    if (c && c->count < c->capacity) c->crtcs[c->count++] = (uint32_t)(uintptr_t)user_data;
}

int skdrm_collect_flips(int fd, uint32_t *crtcs, int capacity) {
    struct flip_collection collection = { crtcs, capacity, 0 };
    drmEventContext context;
    memset(&context, 0, sizeof(context));
    context.version = 2;
    context.page_flip_handler = page_flip_done;
    current_collection = &collection;
    int result = drmHandleEvent(fd, &context);
    current_collection = NULL;
    if (result != 0) return -1;
    return collection.count;
}

/* The value of the object's property called `name`. One DRM_IOCTL_MODE_OBJ_GETPROPERTIES into
 * arrays on the stack (drmModeObjectGetProperties makes two and allocates), then, per property,
 * one DRM_IOCTL_MODE_GETPROPERTY for its name alone: given no room for values or enums, the
 * kernel copies none (drmModeGetProperty makes two and allocates them). This runs on the boot
 * path, for every connector a boot plan walks. */
static int64_t named_value(int fd, const uint32_t *ids, const uint64_t *values, uint32_t count, const char *name, int *found) {
    for (uint32_t i = 0; i < count; i++) {
        struct drm_mode_get_property property;
        memset(&property, 0, sizeof(property));
        property.prop_id = ids[i];
        if (drmIoctl(fd, DRM_IOCTL_MODE_GETPROPERTY, &property) != 0) continue;
        if (strncmp(property.name, name, DRM_PROP_NAME_LEN) == 0) {
            *found = 1;
            return (int64_t)values[i];
        }
    }
    return 0;
}

static int64_t property_value(int fd, uint32_t connector_id, const char *name, int *found) {
    enum { most = 64 };
    uint32_t ids[most];
    uint64_t values[most];
    struct drm_mode_obj_get_properties request;
    *found = 0;
    memset(&request, 0, sizeof(request));
    request.obj_id = connector_id;
    request.obj_type = DRM_MODE_OBJECT_CONNECTOR;
    request.count_props = most;
    request.props_ptr = (uint64_t)(uintptr_t)ids;
    request.prop_values_ptr = (uint64_t)(uintptr_t)values;
    if (drmIoctl(fd, DRM_IOCTL_MODE_OBJ_GETPROPERTIES, &request) != 0) return 0;
    if (request.count_props <= most) return named_value(fd, ids, values, request.count_props, name, found);
    /* More than fit on the stack: libdrm's allocating call. */
    drmModeObjectPropertiesPtr properties = drmModeObjectGetProperties(fd, connector_id, DRM_MODE_OBJECT_CONNECTOR);
    if (!properties) return 0;
    int64_t value = named_value(fd, properties->props, properties->prop_values, properties->count_props, name, found);
    drmModeFreeObjectProperties(properties);
    return value;
}

int skdrm_connector_is_non_desktop(int fd, uint32_t connector_id) {
    int found;
    int64_t value = property_value(fd, connector_id, "non-desktop", &found);
    return found && value != 0;
}

int skdrm_connector_panel_orientation(int fd, uint32_t connector_id) {
    int found;
    int64_t value = property_value(fd, connector_id, "panel orientation", &found);
    return found ? (int)value : -1;
}

uint32_t skdrm_mode_refresh_millihertz(const void *mode_info) {
    const drmModeModeInfo *mode = mode_info;
    if (mode->htotal == 0 || mode->vtotal == 0) return mode->vrefresh * 1000;
    uint64_t numerator = (uint64_t)mode->clock * 1000000ull;
    uint64_t denominator = (uint64_t)mode->htotal * mode->vtotal;
    if (mode->flags & DRM_MODE_FLAG_INTERLACE) numerator *= 2;
    if (mode->flags & DRM_MODE_FLAG_DBLSCAN) denominator *= 2;
    if (mode->vscan > 1) denominator *= mode->vscan;
    return (uint32_t)((numerator + denominator / 2) / denominator);
}

struct skdrm_closefb {
    uint32_t fb_id;
    uint32_t pad;
};

#ifndef DRM_IOCTL_MODE_CLOSEFB
#define DRM_IOCTL_MODE_CLOSEFB DRM_IOWR(0xD0, struct skdrm_closefb)
#endif

int skdrm_close_framebuffer(int fd, uint32_t fb_id) {
    struct skdrm_closefb request = { fb_id, 0 };
    return drmIoctl(fd, DRM_IOCTL_MODE_CLOSEFB, &request);
}

int64_t skdrm_crtc_framebuffer(int fd, uint32_t crtc_id) {
    struct drm_mode_crtc crtc;
    memset(&crtc, 0, sizeof(crtc));
    crtc.crtc_id = crtc_id;
    if (drmIoctl(fd, DRM_IOCTL_MODE_GETCRTC, &crtc) != 0) return -1;
    return crtc.fb_id;
}

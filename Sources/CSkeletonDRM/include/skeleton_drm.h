#ifndef SKELETON_DRM_H
#define SKELETON_DRM_H

#include <stdint.h>

/* Helpers for the parts of libdrm that take C callbacks or walk property lists. */

/* Reads pending DRM events with drmHandleEvent and stores the CRTC ids (passed as user data
   to drmModePageFlip) of completed page flips; returns how many, or -1 with errno set. */
int skdrm_collect_flips(int fd, uint32_t *crtcs, int capacity);

/* 1 when the connector's "non-desktop" property is set (a VR headset), else 0. */
int skdrm_connector_is_non_desktop(int fd, uint32_t connector_id);

/* The "panel orientation" property: 0 normal, 1 upside down, 2 left side up, 3 right side up; -1 when absent. */
int skdrm_connector_panel_orientation(int fd, uint32_t connector_id);

/* The refresh rate of a mode in millihertz. */
uint32_t skdrm_mode_refresh_millihertz(const void *mode_info);

/* DRM_IOCTL_MODE_CLOSEFB (Linux 6.8), defined here for older headers; -1 with errno on failure. */
int skdrm_close_framebuffer(int fd, uint32_t fb_id);

/* The framebuffer the CRTC scans out (0: none), by one DRM_IOCTL_MODE_GETCRTC into the stack
   (drmModeGetCrtc allocates); -1 with errno on failure. */
int64_t skdrm_crtc_framebuffer(int fd, uint32_t crtc_id);

#endif

/*
 * minimal-modeset: the smallest correct DRM/KMS dumb-buffer client, used as a reference
 * for the QEMU end-to-end tests (Tests/e2e/test_harness_minimal_c.py).
 *
 *   minimal-modeset [--device /dev/dri/card0] [--color 0xRRGGBB] [--exit-after-frame]
 *                   [--no-dirty] [--draw-before-modeset]
 *
 * The last two flags reproduce the driver quirks on purpose (negative controls for the
 * tests): without DIRTYFB virtio-gpu keeps showing the old contents; drawing before the first
 * mode set can be lost on bochs.
 *
 * Opens the card, picks the first connected connector, its preferred mode (else the first)
 * and a CRTC, creates one XRGB8888 dumb buffer, adds a framebuffer, maps it, sets the mode
 * and only then fills the buffer (bochs may wipe a buffer drawn before the first modeset),
 * then calls drmModeDirtyFB (virtio-gpu and cirrus show nothing without it; bochs answers
 * ENOSYS, which is ignored). Prints
 *
 *   @@MODE <w>x<h> <refresh>Hz connector=<id> crtc=<id> pitch=<bytes>
 *   @@FIRST_FRAME_US <microseconds since main() started>            (CLOCK_MONOTONIC)
 *   @@FIRST_FRAME_SINCE_EXEC_US <microseconds since the process started>
 *                                      (CLOCK_BOOTTIME - /proc/self/stat starttime; 10 ms grain)
 *   @@FIRST_FRAME_UPTIME_US <CLOCK_BOOTTIME at the first frame>         (boot to first frame)
 *
 * then waits for SIGTERM/SIGINT, restores the saved CRTC, frees everything and prints
 * "@@RESTORED". Exit status 0 on success.
 *
 * Build (static, as the initramfs has no libraries):
 *   gcc -O2 -static -o minimal-modeset minimal-modeset.c $(pkg-config --cflags libdrm) -ldrm
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>
#include <xf86drmMode.h>
#include <virtgpu_drm.h>

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig) { (void)sig; stop_requested = 1; }

static int64_t clock_us(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Process start time in microseconds of CLOCK_BOOTTIME, from /proc/self/stat field 22. */
static int64_t process_start_us(void) {
    char buf[1024];
    int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return -1;
    buf[n] = 0;
    char *p = strrchr(buf, ')'); /* comm may contain spaces */
    if (!p) return -1;
    p++;
    /* after ')' comes field 3 (state); starttime is field 22 */
    for (int field = 3; field < 22; field++) {
        p = strchr(p + 1, ' ');
        if (!p) return -1;
    }
    unsigned long long ticks = strtoull(p + 1, NULL, 10);
    long hz = sysconf(_SC_CLK_TCK);
    if (hz <= 0) hz = 100;
    return (int64_t)(ticks * 1000000ULL / (unsigned long long)hz);
}

static uint32_t pick_crtc(int fd, drmModeRes *res, drmModeConnector *conn) {
    if (conn->encoder_id) {
        drmModeEncoder *enc = drmModeGetEncoder(fd, conn->encoder_id);
        if (enc) {
            uint32_t crtc = enc->crtc_id;
            drmModeFreeEncoder(enc);
            if (crtc) return crtc;
        }
    }
    for (int i = 0; i < conn->count_encoders; i++) {
        drmModeEncoder *enc = drmModeGetEncoder(fd, conn->encoders[i]);
        if (!enc) continue;
        for (int j = 0; j < res->count_crtcs; j++) {
            if (enc->possible_crtcs & (1u << j)) {
                uint32_t crtc = res->crtcs[j];
                drmModeFreeEncoder(enc);
                return crtc;
            }
        }
        drmModeFreeEncoder(enc);
    }
    return 0;
}

/* Fill in an ordinary row buffer and copy row by row honouring the pitch; never read the
   (write-combined) mapping. */
static void fill(uint8_t *map, uint32_t pitch, uint32_t w, uint32_t h, uint32_t color) {
    uint32_t *row = malloc((size_t)w * 4);
    if (!row) return;
    for (uint32_t x = 0; x < w; x++) row[x] = color & 0xFFFFFF;
    for (uint32_t y = 0; y < h; y++) memcpy(map + (size_t)y * pitch, row, (size_t)w * 4);
    free(row);
}

int main(int argc, char **argv) {
    int64_t t_main = clock_us(CLOCK_MONOTONIC);
    const char *device = "/dev/dri/card0";
    uint32_t color = 0x3498DB;
    int exit_after_frame = 0, no_dirty = 0, draw_first = 0;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--device") && i + 1 < argc) device = argv[++i];
        else if (!strcmp(argv[i], "--color") && i + 1 < argc) color = (uint32_t)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--exit-after-frame")) exit_after_frame = 1;
        else if (!strcmp(argv[i], "--no-dirty")) no_dirty = 1;
        else if (!strcmp(argv[i], "--draw-before-modeset")) draw_first = 1;
        else {
            fprintf(stderr, "usage: %s [--device PATH] [--color 0xRRGGBB] [--exit-after-frame]"
                            " [--no-dirty] [--draw-before-modeset]\n", argv[0]);
            return 2;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    int fd = open(device, O_RDWR | O_CLOEXEC);
    if (fd < 0) { fprintf(stderr, "open %s: %s\n", device, strerror(errno)); return 1; }

    uint64_t has_dumb = 0;
    if (drmGetCap(fd, DRM_CAP_DUMB_BUFFER, &has_dumb) < 0 || !has_dumb) {
        fprintf(stderr, "%s: no dumb buffer support\n", device);
        return 1;
    }

    drmModeRes *res = drmModeGetResources(fd);
    if (!res) { fprintf(stderr, "drmModeGetResources: %s\n", strerror(errno)); return 1; }

    drmModeConnector *conn = NULL;
    for (int i = 0; i < res->count_connectors && !conn; i++) {
        drmModeConnector *c = drmModeGetConnector(fd, res->connectors[i]);
        if (c && c->connection == DRM_MODE_CONNECTED && c->count_modes > 0) conn = c;
        else if (c) drmModeFreeConnector(c);
    }
    if (!conn) { fprintf(stderr, "no connected connector with modes\n"); return 1; }

    drmModeModeInfo mode = conn->modes[0];
    for (int i = 0; i < conn->count_modes; i++) {
        if (conn->modes[i].type & DRM_MODE_TYPE_PREFERRED) { mode = conn->modes[i]; break; }
    }
    uint32_t crtc_id = pick_crtc(fd, res, conn);
    if (!crtc_id) { fprintf(stderr, "no usable CRTC\n"); return 1; }

    struct drm_mode_create_dumb creq = { .width = mode.hdisplay, .height = mode.vdisplay, .bpp = 32 };
    if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &creq) < 0) {
        fprintf(stderr, "CREATE_DUMB: %s\n", strerror(errno));
        return 1;
    }
    uint32_t fb_id = 0;
    if (drmModeAddFB(fd, mode.hdisplay, mode.vdisplay, 24, 32, creq.pitch, creq.handle, &fb_id) < 0) {
        fprintf(stderr, "AddFB: %s\n", strerror(errno));
        return 1;
    }
    struct drm_mode_map_dumb mreq = { .handle = creq.handle };
    if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &mreq) < 0) {
        fprintf(stderr, "MAP_DUMB: %s\n", strerror(errno));
        return 1;
    }
    uint8_t *map = mmap(NULL, creq.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)mreq.offset);
    if (map == MAP_FAILED) { fprintf(stderr, "mmap: %s\n", strerror(errno)); return 1; }

    drmModeCrtc *saved = drmModeGetCrtc(fd, crtc_id);

    if (draw_first) fill(map, creq.pitch, mode.hdisplay, mode.vdisplay, color);
    drmVersionPtr ver = drmGetVersion(fd);
    int is_virtio = ver && ver->name && !strcmp(ver->name, "virtio_gpu");
    if (ver) drmFreeVersion(ver);

    /* Mode set first, then draw (bochs can wipe a buffer drawn before the first modeset). */
    if (drmModeSetCrtc(fd, crtc_id, fb_id, 0, 0, &conn->connector_id, 1, &mode) < 0) {
        fprintf(stderr, "SetCrtc: %s\n", strerror(errno));
        return 1;
    }

    if (no_dirty) {
        /* Negative control: make sure the host has taken the modeset's own transfer of the
           (still empty) buffer before we draw, or a slow host could copy our drawing with it
           (virtio-gpu waits only 50 ms for that transfer inside SetCrtc). */
        if (is_virtio) {
            struct drm_virtgpu_3d_wait w = { .handle = creq.handle, .flags = 0 };
            int r = drmIoctl(fd, DRM_IOCTL_VIRTGPU_WAIT, &w);
            printf("@@SETTLE virtgpu-wait %s\n", r == 0 ? "ok" : strerror(errno));
        } else {
            usleep(200000);
        }
    }
    if (!draw_first) fill(map, creq.pitch, mode.hdisplay, mode.vdisplay, color);

    int dirty = 0, dirty_errno = ENOSYS;
    if (!no_dirty) {
        drmModeClip clip = { 0, 0, mode.hdisplay, mode.vdisplay };
        dirty = drmModeDirtyFB(fd, fb_id, &clip, 1);
        dirty_errno = dirty < 0 ? errno : 0;
    } else {
        dirty = -1;
    }

    int64_t t_frame = clock_us(CLOCK_MONOTONIC);
    int64_t t_boot = clock_us(CLOCK_BOOTTIME);
    int64_t t_start = process_start_us();

    printf("@@MODE %ux%u %uHz connector=%u crtc=%u pitch=%u\n", mode.hdisplay, mode.vdisplay,
           mode.vrefresh, conn->connector_id, crtc_id, creq.pitch);
    printf("@@DIRTYFB %s\n", no_dirty ? "skipped" : dirty == 0 ? "ok" : strerror(dirty_errno));
    printf("@@FIRST_FRAME_US %" PRId64 "\n", t_frame - t_main);
    if (t_start >= 0) printf("@@FIRST_FRAME_SINCE_EXEC_US %" PRId64 "\n", t_boot - t_start);
    printf("@@FIRST_FRAME_UPTIME_US %" PRId64 "\n", t_boot);
    fflush(stdout);

    while (!stop_requested && !exit_after_frame) pause();

    int rc = 0;
    if (saved) {
        int r;
        if (saved->buffer_id && saved->mode_valid)
            r = drmModeSetCrtc(fd, saved->crtc_id, saved->buffer_id, saved->x, saved->y,
                               &conn->connector_id, 1, &saved->mode);
        else /* nothing was shown before us: switch the CRTC off */
            r = drmModeSetCrtc(fd, saved->crtc_id, 0, 0, 0, NULL, 0, NULL);
        if (r < 0) {
            fprintf(stderr, "restore CRTC: %s\n", strerror(errno));
            rc = 1;
        }
        drmModeFreeCrtc(saved);
    }
    munmap(map, creq.size);
    drmModeRmFB(fd, fb_id);
    struct drm_mode_destroy_dumb dreq = { .handle = creq.handle };
    drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &dreq);
    drmModeFreeConnector(conn);
    drmModeFreeResources(res);
    close(fd);
    printf("@@RESTORED rc=%d\n", rc);
    return rc;
}

#define _GNU_SOURCE
#include "skeleton_system.h"

#include <elf.h>
#include <errno.h>
#include <link.h>
#include <linux/fb.h>
#include <linux/kd.h>
#include <linux/vt.h>
#include <linux/netlink.h>
#include <sys/ioctl.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/sysmacros.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static int fill_address(struct sockaddr_un *address, socklen_t *length, const char *path) {
    memset(address, 0, sizeof(*address));
    address->sun_family = AF_UNIX;
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof(address->sun_path)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(address->sun_path, path, n);
    if (path[0] == '@') {
        address->sun_path[0] = '\0';
        *length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n);
    } else {
        *length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + 1);
    }
    return 0;
}

/* One datagram to the Unix socket at `path` from a socket of its own, with `flags` besides
   MSG_NOSIGNAL. */
static int send_datagram(const char *path, const uint8_t *bytes, size_t count, int flags) {
    struct sockaddr_un address;
    socklen_t length;
    if (fill_address(&address, &length, path) < 0) return -1;
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    ssize_t sent;
    do {
        sent = sendto(fd, bytes, count, flags | MSG_NOSIGNAL, (struct sockaddr *)&address, length);
    } while (sent < 0 && errno == EINTR);
    int saved = errno;
    close(fd);
    errno = saved;
    return sent < 0 ? -1 : 0;
}

int sk_unix_listen(const char *path, int backlog) {
    struct sockaddr_un address;
    socklen_t length;
    if (fill_address(&address, &length, path) < 0) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (bind(fd, (struct sockaddr *)&address, length) < 0 || listen(fd, backlog) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int sk_unix_connect(const char *path) {
    struct sockaddr_un address;
    socklen_t length;
    if (fill_address(&address, &length, path) < 0) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int r;
    do { r = connect(fd, (struct sockaddr *)&address, length); } while (r < 0 && errno == EINTR);
    if (r < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int sk_accept(int listen_fd) {
    int fd;
    do { fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); } while (fd < 0 && errno == EINTR);
    return fd;
}

int sk_peer_credentials(int fd, uint32_t *uid, uint32_t *gid, int32_t *pid) {
    struct ucred credentials;
    socklen_t length = sizeof(credentials);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) < 0) return -1;
    *uid = credentials.uid;
    *gid = credentials.gid;
    *pid = credentials.pid;
    return 0;
}

int sk_is_unix_listener(int fd) {
    int type = 0, listening = 0;
    socklen_t length = sizeof(type);
    if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) < 0) return 0;
    length = sizeof(listening);
    if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) < 0) return 0;
    struct sockaddr_un address;
    socklen_t address_length = sizeof(address);
    if (getsockname(fd, (struct sockaddr *)&address, &address_length) < 0) return 0;
    return type == SOCK_STREAM && listening && address.sun_family == AF_UNIX;
}

int sk_notify(const char *socket_path, const char *message) {
    return send_datagram(socket_path, (const uint8_t *)message, strlen(message), 0);
}

int sk_unix_datagram_bind(const char *path) {
    struct sockaddr_un address;
    socklen_t length;
    if (fill_address(&address, &length, path) < 0) return -1;
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (bind(fd, (struct sockaddr *)&address, length) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int sk_signalfd(int vt_signals) {
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGINT);
    sigaddset(&mask, SIGHUP);
    if (vt_signals) {
        sigaddset(&mask, SIGUSR1);
        sigaddset(&mask, SIGUSR2);
    }
    if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0) return -1;
    signal(SIGPIPE, SIG_IGN);
    return signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
}

int sk_read_signal(int fd) {
    struct signalfd_siginfo info;
    ssize_t n;
    do { n = read(fd, &info, sizeof(info)); } while (n < 0 && errno == EINTR);
    if (n < 0) return errno == EAGAIN ? 0 : -1;
    if (n != sizeof(info)) return 0;
    return (int)info.ssi_signo;
}

int sk_shared_memory(const char *name, int64_t size) {
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0) return -1;
    int result;
    do { result = ftruncate(fd, (off_t)size); } while (result < 0 && errno == EINTR);
    if (result < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int sk_eventfd(int blocking) {
    return eventfd(0, EFD_CLOEXEC | (blocking ? 0 : EFD_NONBLOCK));
}

int sk_set_thread_niceness(int niceness) {
    return setpriority(PRIO_PROCESS, (id_t)gettid(), niceness);
}

void sk_block_thread_signals(void) {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
}

int sk_thread_blocks_signal(int signal_number) {
    sigset_t current;
    pthread_sigmask(SIG_BLOCK, NULL, &current);
    return sigismember(&current, signal_number);
}

int sk_poll_until(struct pollfd *fds, nfds_t count, double deadline) {
    if (deadline < 0) return ppoll(fds, count, NULL, NULL);
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double left = deadline - ((double)now.tv_sec + (double)now.tv_nsec / 1e9);
    struct timespec timeout = {0, 0};
    if (left > 0) {
        timeout.tv_sec = (time_t)left;
        timeout.tv_nsec = (long)((left - (double)timeout.tv_sec) * 1e9);
    }
    return ppoll(fds, count, &timeout, NULL);
}

double sk_monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

double sk_process_cpu_seconds(void) {
    struct timespec used;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &used);
    return (double)used.tv_sec + (double)used.tv_nsec / 1e9;
}

double sk_process_age_seconds(void) {
    FILE *file = fopen("/proc/self/stat", "r");
    if (!file) return -1;
    char buffer[1024];
    size_t n = fread(buffer, 1, sizeof(buffer) - 1, file);
    fclose(file);
    buffer[n] = '\0';
    char *end = strrchr(buffer, ')');
    if (!end) return -1;
    /* Field 22 (starttime) counted from the state field (3) after the command name. */
    unsigned long long start = 0;
    char *p = end + 2;
    for (int field = 3; field < 22 && p; field++) {
        p = strchr(p, ' ');
        if (p) p++;
    }
    if (!p || sscanf(p, "%llu", &start) != 1) return -1;
    struct timespec boot;
    clock_gettime(CLOCK_BOOTTIME, &boot);
    double since_boot = (double)boot.tv_sec + (double)boot.tv_nsec / 1e9;
    return since_boot - (double)start / (double)sysconf(_SC_CLK_TCK);
}

int sk_inotify_directory(const char *path) {
    int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd < 0) return -1;
    if (inotify_add_watch(fd, path, IN_CREATE | IN_MOVED_TO | IN_ATTRIB) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int sk_inotify_directory_changes(const char *path) {
    int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd < 0) return -1;
    if (inotify_add_watch(fd, path, IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int sk_send_datagram(const char *path, const uint8_t *bytes, size_t count) {
    return send_datagram(path, bytes, count, MSG_DONTWAIT);
}

int sk_set_dumpable(int dumpable) { return prctl(PR_SET_DUMPABLE, dumpable ? 1 : 0, 0, 0, 0); }

int sk_get_dumpable(void) { return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0); }

void sk_zero(void *pointer, size_t count) { explicit_bzero(pointer, count); }

int sk_char_device_number(const char *path, uint32_t *major_out, uint32_t *minor_out) {
    struct stat info;
    if (stat(path, &info) < 0) return -1;
    if (!S_ISCHR(info.st_mode)) {
        errno = ENODEV;
        return -1;
    }
    *major_out = major(info.st_rdev);
    *minor_out = minor(info.st_rdev);
    return 0;
}

void sk_inotify_drain(int fd) {
    char buffer[4096];
    ssize_t n;
    do { n = read(fd, buffer, sizeof(buffer)); } while (n > 0 || (n < 0 && errno == EINTR));
}

int sk_uevent_socket(void) {
    int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
    if (fd < 0) return -1;
    int size = 1 << 20;
    (void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    struct sockaddr_nl address;
    memset(&address, 0, sizeof address);
    address.nl_family = AF_NETLINK;
    address.nl_groups = 1;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int sk_uevent_receive(int fd, uint8_t *buffer, int capacity) {
    for (;;) {
        struct sockaddr_nl sender;
        socklen_t length = sizeof sender;
        memset(&sender, 0, sizeof sender);
        ssize_t n = recvfrom(fd, buffer, (size_t)capacity, 0, (struct sockaddr *)&sender, &length);
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
            return -1;
        }
        if (sender.nl_pid == 0 && n > 0) return (int)n;
    }
}

struct build_id_search {
    uint8_t *out;
    int capacity;
    int length;
};

static int find_build_id(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct build_id_search *search = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[i];
        if (header->p_type != PT_NOTE) continue;
        const uint8_t *note = (const uint8_t *)(info->dlpi_addr + header->p_vaddr);
        const uint8_t *end = note + header->p_memsz;
        while (note + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)note;
            const uint8_t *name = note + sizeof(ElfW(Nhdr));
            const uint8_t *desc = name + ((n->n_namesz + 3) & ~3u);
            if (desc + n->n_descsz > end) break;
            if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
                int length = (int)n->n_descsz < search->capacity ? (int)n->n_descsz : search->capacity;
                memcpy(search->out, desc, (size_t)length);
                search->length = length;
                return 1;
            }
            note = desc + ((n->n_descsz + 3) & ~3u);
        }
    }
    return 1; /* only the first object: the executable itself */
}

int sk_build_id(uint8_t *out, int capacity) {
    struct build_id_search search = { out, capacity, -1 };
    dl_iterate_phdr(find_build_id, &search);
    return search.length;
}

int sk_fb_info(int fd, struct sk_fb_info *out) {
    struct fb_var_screeninfo var;
    struct fb_fix_screeninfo fix;
    if (ioctl(fd, FBIOGET_VSCREENINFO, &var) < 0) return -1;
    if (ioctl(fd, FBIOGET_FSCREENINFO, &fix) < 0) return -1;
    memset(out, 0, sizeof(*out));
    out->xres = var.xres;
    out->yres = var.yres;
    out->xres_virtual = var.xres_virtual;
    out->yres_virtual = var.yres_virtual;
    out->xoffset = var.xoffset;
    out->yoffset = var.yoffset;
    out->bits_per_pixel = var.bits_per_pixel;
    out->red_offset = var.red.offset;
    out->red_length = var.red.length;
    out->green_offset = var.green.offset;
    out->green_length = var.green.length;
    out->blue_offset = var.blue.offset;
    out->blue_length = var.blue.length;
    out->transp_offset = var.transp.offset;
    out->transp_length = var.transp.length;
    out->line_length = fix.line_length;
    out->smem_len = fix.smem_len;
    out->type = fix.type;
    out->visual = fix.visual;
    out->ypanstep = fix.ypanstep;
    memcpy(out->id, fix.id, sizeof(fix.id));
    out->id[16] = 0;
    return 0;
}

int sk_fb_pan(int fd, uint32_t xoffset, uint32_t yoffset) {
    struct fb_var_screeninfo var;
    if (ioctl(fd, FBIOGET_VSCREENINFO, &var) < 0) return -1;
    var.xoffset = xoffset;
    var.yoffset = yoffset;
    return ioctl(fd, FBIOPAN_DISPLAY, &var);
}

int sk_kd_is_graphics(int fd) {
    int mode = 0;
    if (ioctl(fd, KDGETMODE, &mode) < 0) return -1;
    return mode == KD_GRAPHICS;
}

int sk_kd_set_graphics(int fd, int graphics) {
    return ioctl(fd, KDSETMODE, (unsigned long)(graphics ? KD_GRAPHICS : KD_TEXT));
}

int sk_vt_active(int fd) {
    struct vt_stat state;
    memset(&state, 0, sizeof state);
    if (ioctl(fd, VT_GETSTATE, &state) < 0) return -1;
    return (int)state.v_active;
}

static int set_vt_mode(int fd, char mode) {
    struct vt_mode vt;
    memset(&vt, 0, sizeof vt);
    vt.mode = mode;
    if (mode == VT_PROCESS) {
        vt.relsig = SIGUSR1;
        vt.acqsig = SIGUSR2;
    }
    return ioctl(fd, VT_SETMODE, &vt);
}

int sk_vt_set_process_mode(int fd) { return set_vt_mode(fd, VT_PROCESS); }

int sk_vt_set_auto_mode(int fd) { return set_vt_mode(fd, VT_AUTO); }

int sk_vt_release(int fd) { return ioctl(fd, VT_RELDISP, 1); }

int sk_vt_acknowledge_acquire(int fd) { return ioctl(fd, VT_RELDISP, VT_ACKACQ); }

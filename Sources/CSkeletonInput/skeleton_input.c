#define _GNU_SOURCE
#include "skeleton_input.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <sys/ioctl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char last_line[512];

static int open_restricted(const char *path, int flags, void *user_data) {
    (void)user_data;
    int fd;
    do { fd = open(path, (flags & ~O_ACCMODE) | O_RDONLY | O_NONBLOCK | O_CLOEXEC); } while (fd < 0 && errno == EINTR);
    if (fd < 0) return -errno;
    /* Grabbed: what is typed at the prompt reaches no one else, not the console's keyboard
       handler either (a passphrase left in the console's input would be read by the next
       program there, a getty's login prompt). Closing the device lets it go. */
    (void)ioctl(fd, EVIOCGRAB, 1);
    return fd;
}

static void close_restricted(int fd, void *user_data) {
    (void)user_data;
    close(fd);
}

static const struct libinput_interface interface = {
    .open_restricted = open_restricted,
    .close_restricted = close_restricted,
};

static void log_handler(struct libinput *li, enum libinput_log_priority priority, const char *format, va_list args) {
    (void)li;
    (void)priority;
    vsnprintf(last_line, sizeof last_line, format, args);
    size_t n = strlen(last_line);
    if (n > 0 && last_line[n - 1] == '\n') last_line[n - 1] = 0;
}

struct libinput *sk_input_path_context(void) {
    struct libinput *li = libinput_path_create_context(&interface, NULL);
    if (li == NULL) return NULL;
    libinput_log_set_handler(li, log_handler);
    libinput_log_set_priority(li, LIBINPUT_LOG_PRIORITY_ERROR);
    return li;
}

const char *sk_input_take_log_line(void) {
    static char taken[512];
    memcpy(taken, last_line, sizeof taken);
    last_line[0] = 0;
    return taken;
}

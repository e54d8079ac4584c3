#ifndef SKELETON_SYSTEM_H
#define SKELETON_SYSTEM_H

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <poll.h>

/* Small C helpers for what Swift cannot express directly: sockaddr_un, SO_PEERCRED, signal
   masks, ppoll with a monotonic deadline and inotify. Each returns -1 and leaves errno set on failure. */

/* socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC) + bind + listen. */
int sk_unix_listen(const char *path, int backlog);
/* A blocking connect to a Unix stream socket, with SOCK_CLOEXEC. */
int sk_unix_connect(const char *path);
/* accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC. */
int sk_accept(int listen_fd);
/* getsockopt(SO_PEERCRED). */
int sk_peer_credentials(int fd, uint32_t *uid, uint32_t *gid, int32_t *pid);
/* True when fd is a listening Unix stream socket (for socket activation). */
int sk_is_unix_listener(int fd);
/* Sends one datagram to $NOTIFY_SOCKET's address (a path, or "@name" for the abstract namespace). */
int sk_notify(const char *socket_path, const char *message);

/* A bound, nonblocking Unix datagram socket (to receive sd_notify messages in tests). */
int sk_unix_datagram_bind(const char *path);

/* Blocks SIGTERM, SIGINT, SIGHUP (and ignores SIGPIPE), then returns a nonblocking signalfd for the three;
   with `vt_signals`, SIGUSR1 and SIGUSR2 too (a VT in VT_PROCESS mode asks with them: sk_vt_set_process_mode). */
int sk_signalfd(int vt_signals);
/* Reads one signal from a signalfd: its number, 0 when none is queued, -1 on error. */
int sk_read_signal(int fd);

/* Anonymous shared memory of `size` bytes (memfd_create, close-on-exec, then ftruncate), for
 * buffers handed to another process; -1 with errno on failure. */
int sk_shared_memory(const char *name, int64_t size);
/* A close-on-exec eventfd counter, nonblocking unless `blocking`. */
int sk_eventfd(int blocking);
/* Sets the calling thread's nice value (setpriority on its own thread id). */
int sk_set_thread_niceness(int niceness);
/* Blocks every signal in the calling thread (pthread_sigmask): the process's signals go to the
   thread that takes them (the daemon's loop, through its signalfd), never to a worker. */
void sk_block_thread_signals(void);
/* Whether the calling thread blocks `signal_number`. */
int sk_thread_blocks_signal(int signal_number);

/* ppoll(2) until `deadline`, CLOCK_MONOTONIC in seconds (negative: no time limit); the
   timeout is worked out from the clock at the call, to the nanosecond. */
int sk_poll_until(struct pollfd *fds, nfds_t count, double deadline);

/* CLOCK_MONOTONIC in seconds. */
double sk_monotonic_seconds(void);
/* Seconds since this process started, from /proc/self/stat and the boot clock. */
double sk_process_age_seconds(void);
/* CLOCK_PROCESS_CPUTIME_ID in seconds: the CPU time of all the process's threads. */
double sk_process_cpu_seconds(void);

/* inotify on a directory for created files (IN_CREATE | IN_MOVED_TO), nonblocking. */
int sk_inotify_directory(const char *path);
/* Discards queued inotify events. */
void sk_inotify_drain(int fd);
/* inotify on a directory for files written, moved in, moved out or deleted (a password agent's
   watch: IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE), nonblocking. */
int sk_inotify_directory_changes(const char *path);

/* Sends one datagram of `count` bytes to a Unix datagram socket at `path` without waiting
   (MSG_DONTWAIT | MSG_NOSIGNAL): a password agent's answer. */
int sk_send_datagram(const char *path, const uint8_t *bytes, size_t count);
/* prctl(PR_SET_DUMPABLE): no core file and no ptrace by others while a secret is held. */
int sk_set_dumpable(int dumpable);
/* prctl(PR_GET_DUMPABLE). */
int sk_get_dumpable(void);
/* The device number of a character device node (stat(2) st_rdev), split; -1 when it is not one. */
int sk_char_device_number(const char *path, uint32_t *major_out, uint32_t *minor_out);
/* explicit_bzero(3): zeroes memory in a way the compiler may not drop. */
void sk_zero(void *pointer, size_t count);

/* A nonblocking NETLINK_KOBJECT_UEVENT socket bound to the kernel's uevent multicast group,
   with a receive buffer large enough for a storm of hotplug events. */
int sk_uevent_socket(void);
/* Receives one uevent message sent by the kernel into `buffer` (messages from any other
   sender are dropped): its length, 0 when none is queued, -1 on error (ENOBUFS: some were lost). */
int sk_uevent_receive(int fd, uint8_t *buffer, int capacity);

/* The GNU build id of the running executable (its .note.gnu.build-id, found with
   dl_iterate_phdr): copies up to `capacity` bytes and returns its length, or -1 without one. */
int sk_build_id(uint8_t *out, int capacity);

/* A framebuffer device as FBIOGET_VSCREENINFO and FBIOGET_FSCREENINFO describe it. */
struct sk_fb_info {
    uint32_t xres, yres, xres_virtual, yres_virtual, xoffset, yoffset, bits_per_pixel;
    uint32_t red_offset, red_length, green_offset, green_length, blue_offset, blue_length;
    uint32_t transp_offset, transp_length;
    uint32_t line_length, smem_len, type, visual, ypanstep;
    char id[17];
};
/* Both ioctls on an fbdev descriptor. */
int sk_fb_info(int fd, struct sk_fb_info *out);
/* FBIOPAN_DISPLAY to (xoffset, yoffset), the rest of the mode as FBIOGET_VSCREENINFO reports it. */
int sk_fb_pan(int fd, uint32_t xoffset, uint32_t yoffset);
/* KDGETMODE on a console descriptor: 1 for KD_GRAPHICS, 0 for KD_TEXT, -1 on error. */
int sk_kd_is_graphics(int fd);
/* KDSETMODE KD_GRAPHICS (graphics != 0) or KD_TEXT. */
int sk_kd_set_graphics(int fd, int graphics);


/* VT_GETSTATE on a console descriptor (/dev/tty0): the active VT's number (1 for tty1), -1 on error. */
int sk_vt_active(int fd);
/* VT_SETMODE VT_PROCESS on the VT `fd` is open on: a switch away asks this process with
   SIGUSR1 (answered by sk_vt_release), a switch back tells it with SIGUSR2 (sk_vt_acknowledge_acquire). */
int sk_vt_set_process_mode(int fd);
/* VT_SETMODE VT_AUTO: the kernel switches away from this VT without asking anyone. */
int sk_vt_set_auto_mode(int fd);
/* VT_RELDISP 1: the switch away asked for may go on. */
int sk_vt_release(int fd);
/* VT_RELDISP VT_ACKACQ: the switch back to this VT is acknowledged. */
int sk_vt_acknowledge_acquire(int fd);

#endif

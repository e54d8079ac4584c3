/* The boot benchmark's initramfs helper (Tests/boot/bench_boot.py), started by an init-top
 * script in every image's initramfs: opens every program and shared library of the initramfs
 * and keeps them open, asleep, for the rest of the boot.
 *
 * Why: under QEMU TCG a guest page that held code QEMU has translated is slow to write until
 * every translation from it is dropped. At the switch to the real root the initramfs's files are
 * deleted and their pages freed; the real root's first programs get them back, and the kernel
 * zeroes each page it hands out (Debian's init_on_alloc). With the programs every initramfs
 * process ran (busybox, udev, kmod, libc) freed, that zeroing took 1.2 s of the one CPU in the
 * real root's first second of units; with them held, 0.03 s. Plymouth's daemon keeps the
 * libraries it runs from mapped and so was mostly spared; the image with neither splash and
 * skeletond's static daemon were not. Held in every image, no image pays for the emulator; on
 * hardware the cost does not exist.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* An ELF file that is not a kernel module: a program or a shared library. */
static int hold(const char *path, const struct stat *status, int type, struct FTW *where) {
    (void)status;
    (void)where;
    if (type != FTW_F) return 0;
    size_t length = strlen(path);
    if (length > 3 && strcmp(path + length - 3, ".ko") == 0) return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char magic[4];
    if (read(fd, magic, sizeof magic) != sizeof magic || memcmp(magic, "\177ELF", 4) != 0) close(fd);
    return 0;
}

int main(void) {
    struct rlimit files;
    if (getrlimit(RLIMIT_NOFILE, &files) == 0) {
        files.rlim_cur = files.rlim_max;
        setrlimit(RLIMIT_NOFILE, &files);
    }
    const char *roots[] = {"/usr", "/bin", "/sbin", "/lib", "/lib64"};
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) nftw(roots[i], hold, 16, FTW_PHYS);
    for (;;) pause();
}

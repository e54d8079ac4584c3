/*
 * exec-timed: runs a program after writing the moment it is started, to the microsecond.
 *
 *   exec-timed PROGRAM [ARG...]
 *
 * Writes "@@EXEC_BOOTTIME_US <CLOCK_BOOTTIME in microseconds>" to standard output, then
 * execv(PROGRAM, ARGS) in the same process. scripts/qemu/startup-figures.py times a start from
 * this line to the program's first frame: /proc/PID/stat's start time has the 10 ms grain of
 * clock ticks, a third to a half of the C reference's whole start under QEMU.
 *
 * Build (static, as the guest has no libraries):
 *   gcc -O2 -static -o exec-timed exec-timed.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: exec-timed PROGRAM [ARG...]\n");
        return 64;
    }
    struct timespec now;
    clock_gettime(CLOCK_BOOTTIME, &now);
    char line[64];
    int n = snprintf(line, sizeof line, "@@EXEC_BOOTTIME_US %" PRId64 "\n",
                     (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000);
    if (write(STDOUT_FILENO, line, (size_t)n) != n) return 70;
    execv(argv[1], argv + 1);
    fprintf(stderr, "exec-timed: %s: %s\n", argv[1], strerror(errno));
    return 127;
}

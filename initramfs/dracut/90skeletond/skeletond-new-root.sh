#!/bin/sh
# dracut pre-pivot hook: the real root is mounted at $NEWROOT; skeletond moves its root there
# before the switch, or gives the display back and exits when that root has no skeletond.
[ -e /run/skeletond/initramfs.pid ] || return 0
SWIFT_DETERMINISTIC_HASHING=1 /usr/bin/skeletonctl --timeout 5 new-root "${NEWROOT:-/sysroot}" >/dev/null ||
    warn "skeletond: new-root ${NEWROOT:-/sysroot} failed; see /run/skeletond/initramfs.log"

#!/bin/sh
# dracut pre-udev hook: starts skeletond; it waits for the DRM card udev brings up.
getargbool 1 skeletond.enable || return 0
mkdir -p /run/skeletond
SKELETOND_INITRAMFS=1 SWIFT_DETERMINISTIC_HASHING=1 /usr/bin/skeletond run </dev/null >>/run/skeletond/initramfs.log 2>&1 &

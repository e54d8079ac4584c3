#!/bin/bash
# dracut module: skeletond in the initramfs, started as early as udev runs (the hook below), kept
# through the switch to the real root (its argv[0] begins with '@'), where skeletond.service
# attaches to it.

check() {
    require_binaries /usr/bin/skeletond || return 1
    return 0
}

depends() {
    echo drm
    return 0
}

install() {
    inst_binary /usr/bin/skeletond /bin/skeletond
    inst_binary /usr/bin/skeletonctl /bin/skeletonctl
    local file
    for file in /etc/skeletond/skeletond.json /etc/skeletond/layouts/*.json /var/cache/skeletond/*; do
        [ -f "$file" ] && inst_simple "$file"
    done
    inst_hook pre-udev 90 "$moddir/skeletond-start.sh"
}

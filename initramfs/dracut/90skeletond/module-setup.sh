#!/bin/bash
# dracut module: skeletond in the initramfs, started as early as udev runs (the pre-udev hook),
# moved into the real root before the switch (the pre-pivot hook: `skeletonctl new-root`) and
# kept through it (its argv[0] begins with '@'); skeletond.service there attaches to it.

check() {
    require_binaries /usr/bin/skeletond || return 1
    return 0
}

depends() {
    echo drm
    return 0
}

install() {
    # At the paths they have in the real root: at the switch, the daemon checks that the real
    # root has its executable.
    inst_binary /usr/bin/skeletond
    inst_binary /usr/bin/skeletonctl
    local file
    for file in /etc/skeletond/skeletond.json /etc/skeletond/layouts/* /var/cache/skeletond/* \
            /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf; do
        [ -f "$file" ] && inst_simple "$file"
    done
    inst_hook pre-udev 90 "$moddir/skeletond-start.sh"
    inst_hook pre-pivot 90 "$moddir/skeletond-new-root.sh"
}

#!/bin/bash
# dracut module: skeletond in the initramfs, started as early as udev runs (the pre-udev hook),
# moved into the real root before the switch (the pre-pivot hook: `skeletonctl new-root`) and
# kept through it (its argv[0] begins with '@'); skeletond.service there attaches to it.

# /etc/skeletond/initramfs, as the initramfs-tools hook reads it: SKELETOND_INITRAMFS=no leaves
# skeletond out, SKELETOND_MODULES are DRM drivers added whatever else is chosen.
skeletond_settings() {
    SKELETOND_INITRAMFS=yes
    SKELETOND_MODULES=""
    # shellcheck disable=SC1091
    [ -r "$dracutsysrootdir/etc/skeletond/initramfs" ] && . "$dracutsysrootdir/etc/skeletond/initramfs"
}

check() {
    require_binaries /usr/bin/skeletond || return 1
    skeletond_settings
    [ "$SKELETOND_INITRAMFS" = no ] && return 1
    return 0
}

# The DRM drivers come from dracut's drm module, which follows hostonly as Debian's plymouth hook
# follows MODULES: without hostonly every driver that can modeset; with it, this machine's cards.
depends() {
    echo drm
    return 0
}

installkernel() {
    skeletond_settings
    # The prompts read keyboards through evdev, which the console alone does not need.
    hostonly='' instmods evdev
    # shellcheck disable=SC2086 # one name per word
    [ -n "$SKELETOND_MODULES" ] && hostonly='' instmods $SKELETOND_MODULES
    if [[ $hostonly ]] && ! compgen -G "/sys/class/drm/card[0-9]*" > /dev/null && [ -z "$SKELETOND_MODULES" ]; then
        dwarn "skeletond: hostonly and no DRM card to be seen (a chroot?): no DRM driver in the initramfs, the skeleton shows once the real root loads one (hostonly=no, or SKELETOND_MODULES in /etc/skeletond/initramfs)"
    fi
    return 0
}

install() {
    # At the paths they have in the real root: at the switch, the daemon checks that the real
    # root has its executable. The executable is the package's initramfs build (the daemon and
    # the requests the hooks make, without the tools' command line).
    if [ -x "$dracutsysrootdir/usr/libexec/skeletond/skeletond-initramfs" ]; then
        inst_binary /usr/libexec/skeletond/skeletond-initramfs /usr/bin/skeletond
    else
        inst_binary /usr/bin/skeletond
    fi
    # skeletonctl is skeletond by another name (the pre-pivot hook calls it).
    ln_r /usr/bin/skeletond /usr/bin/skeletonctl
    local file
    for file in /etc/skeletond/skeletond.json /etc/skeletond/layouts/* /var/cache/skeletond/* \
            /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf; do
        [ -f "$file" ] && inst_simple "$file"
    done
    # What a prompt needs before the root is mounted: the console's keymap compiled into one
    # file (no XKB data in the initramfs) and the Compose table its dead keys go through.
    local keymap
    keymap=$(mktemp) && /usr/bin/skeletond keymap --output "$keymap" >/dev/null && inst_simple "$keymap" /etc/skeletond/keymap.xkb \
        || dwarn "skeletond: the console's keymap (/etc/default/keyboard) does not compile: prompts in the initramfs read keys as US English"
    rm -f "$keymap"
    # libinput takes only devices udev has marked as input devices (input_id).
    inst_rules 60-input-id.rules
    for file in /usr/share/X11/locale/compose.dir /usr/share/X11/locale/locale.alias /usr/share/X11/locale/en_US.UTF-8/Compose; do
        [ -f "$file" ] && inst_simple "$file"
    done
    inst_hook pre-udev 90 "$moddir/skeletond-start.sh"
    inst_hook pre-pivot 90 "$moddir/skeletond-new-root.sh"
}

#!/bin/sh
# dracut pre-udev hook: starts skeletond, which waits for the DRM card, and loads the card's driver.
getargbool 1 skeletond.enable || return 0
mkdir -p /run/skeletond
SKELETOND_INITRAMFS=1 SWIFT_DETERMINISTIC_HASHING=1 /usr/bin/skeletond run </dev/null >>/run/skeletond/initramfs.log 2>&1 &
# The display's driver now rather than when udev's coldplug comes to it (as the initramfs-tools
# script does): PCI display controllers, then virtio's GPU once virtio_pci has bound its device.
(
    # Not over a firmware's framebuffer (efifb): the skeleton is on it at once, and the daemon
    # must put the console in graphics mode before the driver's console takes the screen over.
    if [ ! -e /dev/fb0 ]; then
        # Shell built-ins (read), not cat: each fork and exec costs the boot's CPU.
        for device in /sys/bus/pci/devices/*; do
            read -r class < "$device/class" || continue
            case "$class" in 0x03*) read -r alias < "$device/modalias" && modprobe -q -b "$alias" ;; esac
        done
        for device in /sys/bus/virtio/devices/*; do
            read -r alias < "$device/modalias" || continue
            case "$alias" in virtio:d00000010v*) modprobe -q -b "$alias" ;; esac
        done
    fi
) </dev/null >/dev/null 2>&1 &

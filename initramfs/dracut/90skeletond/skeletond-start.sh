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
        for device in /sys/bus/pci/devices/*; do
            case "$(cat "$device/class" 2>/dev/null)" in 0x03*) modprobe -q -b "$(cat "$device/modalias")" ;; esac
        done
        for device in /sys/bus/virtio/devices/*; do
            case "$(cat "$device/modalias" 2>/dev/null)" in virtio:d00000010v*) modprobe -q -b "$(cat "$device/modalias")" ;; esac
        done
    fi
) </dev/null >/dev/null 2>&1 &

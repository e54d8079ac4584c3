#!/bin/sh
# Install what the QEMU end-to-end tests need and cache a Debian kernel + GPU modules.
#
#   scripts/qemu/fetch-deps.sh            # as root on Debian 12 (bookworm)
#
# Idempotent: packages already installed are not reinstalled, apt-get update runs at most
# once (only when a package has no install candidate or an install fails), and the kernel is
# not downloaded again when the cache already holds it.
#
# Environment:
#   QEMU_CACHE       cache directory (default: <repo>/build/qemu-cache)
#   KERNEL_VERSION   kernel ABI to fetch, e.g. 6.1.0-56-amd64 (default: whatever Debian's
#                    linux-image-amd64 currently depends on; falls back to the newest cached
#                    kernel when apt cannot tell)
#   SKIP_PACKAGES=1  do not touch apt packages, only fetch the kernel
#
# Cache layout:
#   $QEMU_CACHE/kernels/<version>/vmlinuz
#   $QEMU_CACHE/kernels/<version>/lib/modules/<version>/kernel/drivers/{gpu/drm,virtio}/...
#   $QEMU_CACHE/kernels/<version>/.complete
#   $QEMU_CACHE/current -> kernels/<version>      (what make-initramfs.py uses by default)
set -eu

log() { printf 'fetch-deps: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${QEMU_CACHE:-$repo/build/qemu-cache}
packages="qemu-system-x86 busybox-static libdrm-dev gcc libc6-dev pkg-config"

if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then
    SUDO=sudo
else
    SUDO=
fi
export DEBIAN_FRONTEND=noninteractive

updated=0
apt_update_once() {
    if [ "$updated" -eq 0 ]; then
        log "running apt-get update"
        $SUDO apt-get update -q >&2
        updated=1
    fi
}

is_installed() {
    dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null | grep -qx installed
}

has_candidate() {
    c=$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2}')
    [ -n "$c" ] && [ "$c" != "(none)" ]
}

# ---- packages --------------------------------------------------------------------------
if [ "${SKIP_PACKAGES:-0}" != 1 ]; then
    missing=
    for p in $packages; do
        if is_installed "$p"; then
            log "package $p: already installed"
        else
            missing="$missing $p"
        fi
    done
    if [ -n "$missing" ]; then
        for p in $missing; do
            has_candidate "$p" || { apt_update_once; break; }
        done
        log "installing:$missing (--no-install-recommends)"
        # shellcheck disable=SC2086
        if ! $SUDO apt-get install -y -q --no-install-recommends $missing >&2; then
            [ "$updated" -eq 0 ] || die "apt-get install failed"
            apt_update_once
            # shellcheck disable=SC2086
            $SUDO apt-get install -y -q --no-install-recommends $missing >&2 \
                || die "apt-get install failed"
        fi
    fi
fi

# ---- kernel ----------------------------------------------------------------------------
mkdir -p "$cache/kernels"

kver=${KERNEL_VERSION:-}
if [ -z "$kver" ]; then
    kpkg=$(apt-cache depends linux-image-amd64 2>/dev/null \
        | sed -n 's/^ *Depends: linux-image-\([0-9][^ ]*-amd64\)$/\1/p' | head -n 1)
    if [ -z "$kpkg" ] && [ "$updated" -eq 0 ]; then
        apt_update_once
        kpkg=$(apt-cache depends linux-image-amd64 2>/dev/null \
            | sed -n 's/^ *Depends: linux-image-\([0-9][^ ]*-amd64\)$/\1/p' | head -n 1)
    fi
    kver=$kpkg
    if [ -z "$kver" ]; then
        # apt does not know; use the newest complete cached kernel if any.
        kver=$(ls -1 "$cache/kernels" 2>/dev/null | sort -V | while read -r v; do
            [ -f "$cache/kernels/$v/.complete" ] && echo "$v"; done | tail -n 1)
        [ -n "$kver" ] || die "cannot find the kernel version linux-image-amd64 depends on"
        log "apt does not know linux-image-amd64; using cached kernel $kver"
    else
        log "linux-image-amd64 depends on linux-image-$kver"
    fi
fi

kdir=$cache/kernels/$kver
if [ -f "$kdir/.complete" ] && [ -f "$kdir/vmlinuz" ]; then
    log "kernel $kver already cached in $kdir (skipping download)"
else
    rm -rf "$kdir" "$kdir.tmp"
    mkdir -p "$kdir.tmp"
    log "downloading linux-image-$kver"
    # apt-get download writes into the current directory; as root it warns that the
    # download is unsandboxed, which is harmless.
    (cd "$kdir.tmp" && apt-get download -q "linux-image-$kver" >&2) || {
        apt_update_once
        (cd "$kdir.tmp" && apt-get download -q "linux-image-$kver" >&2) \
            || die "apt-get download linux-image-$kver failed"
    }
    deb=$(ls "$kdir.tmp"/linux-image-*.deb | head -n 1)
    log "unpacking vmlinuz and drm/virtio modules from $(basename "$deb")"
    mkdir -p "$kdir.tmp/root"
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$kdir.tmp/root" --wildcards \
        './boot/vmlinuz-*' \
        './lib/modules/*/kernel/drivers/gpu/drm/*' \
        './lib/modules/*/kernel/drivers/virtio/*'
    mkdir -p "$kdir"
    mv "$kdir.tmp/root/boot/vmlinuz-$kver" "$kdir/vmlinuz"
    mkdir -p "$kdir/lib"
    mv "$kdir.tmp/root/lib/modules" "$kdir/lib/modules"
    rm -rf "$kdir.tmp"
    echo "$kver" > "$kdir/.complete"
    log "cached kernel $kver in $kdir ($(du -sh "$kdir" | cut -f1))"
fi

ln -sfn "kernels/$kver" "$cache/current"
log "current kernel: $cache/current -> kernels/$kver"
# An uncompressed vmlinux boots through QEMU's PVH entry, ~3 s faster under TCG. The
# harness extracts it on first use anyway; doing it here keeps the first test run fast.
if [ ! -f "$kdir/vmlinux" ] && command -v python3 >/dev/null 2>&1; then
    log "extracting vmlinux for PVH boot"
    QEMU_CACHE=$cache python3 "$here/make-initramfs.py" --cache "$cache" --extract-vmlinux >/dev/null \
        || log "warning: could not extract vmlinux (the harness will boot vmlinuz)"
fi
for tool in qemu-system-x86_64 busybox; do
    p=$(command -v "$tool" 2>/dev/null || true)
    [ -n "$p" ] || [ ! -x "/bin/$tool" ] || p=/bin/$tool
    log "$tool: ${p:-NOT FOUND}"
done
echo "$kdir"

#!/usr/bin/env bash
# The boot stage of `make test`: installs mmdebstrap, QEMU, e2fsprogs, cryptsetup and OVMF when missing
# (make-deb.sh installs debhelper and lintian), builds the package (its executables are the static
# ones the QEMU stage built already), then boots Debian 12 with it under QEMU
# (Tests/boot/test_debian_boot.py); with --bench, the boot benchmark instead.
set -euo pipefail
cd "$(dirname "$0")/../.."
# `--bench`: the boot benchmark (Tests/boot/bench_boot.py, `make bench-boot`) instead of the test.
script=Tests/boot/test_debian_boot.py
if [ "${1:-}" = --bench ]; then
    shift
    script=Tests/boot/bench_boot.py
fi
# Not root: nothing to install or build for a test that cannot run (chroot, root-owned files).
# The test says why and exits 77, which scripts/test-all.sh counts as skipped, not passed.
if [ "$(id -u)" -ne 0 ]; then
    exec python3 "$script" "$@"
fi
missing=()
command -v mmdebstrap >/dev/null || missing+=(mmdebstrap)
command -v qemu-system-x86_64 >/dev/null || missing+=(qemu-system-x86)
command -v mke2fs >/dev/null || missing+=(e2fsprogs)
# The luks cases encrypt the root's image on the host (cryptsetup reencrypt --encrypt).
command -v cryptsetup >/dev/null || missing+=(cryptsetup-bin)
[ -e /usr/share/ovmf/OVMF.fd ] || missing+=(ovmf)
# The benchmark compares screenshots with numpy, and compiles its initramfs helper
# (Tests/boot/guest/bench-hold-programs.c) static: gcc and glibc's static library.
if [ "$script" = Tests/boot/bench_boot.py ]; then
    python3 -c 'import numpy' 2>/dev/null || missing+=(python3-numpy)
    command -v gcc >/dev/null || missing+=(gcc)
    [ -e /usr/lib/x86_64-linux-gnu/libc.a ] || missing+=(libc6-dev)
fi
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
python3 "$script" "$@"

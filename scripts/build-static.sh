#!/usr/bin/env bash
# Builds skeletond and skeletond-initramfs as static executables (no shared library, not even
# glibc's), stripped, into build/static/, with skeletonctl as a symlink to it (it runs
# skeletonctl when called by that name). The unwind tables (.eh_frame) are dropped:
# Swift code does not unwind, so only a crash backtrace would lose detail, and they are 1.9 MB.
# Debian ships no static HarfBuzz (libharfbuzz-dev has no libharfbuzz.a), so Debian's HarfBuzz
# source is compiled into build/harfbuzz/libharfbuzz.a first (scripts/build-harfbuzz.sh) and
# found before the shared one; FreeType (libfreetype.a, with the libraries SKELETOND_STATIC adds
# after it, see Package.swift) and FriBidi (libfribidi.a) are Debian's own archives. Nor does it
# ship a static libwayland-client: scripts/build-wayland.sh compiles Debian's source into
# build/wayland/libwayland-client.a the same way (libffi.a is Debian's). The prompts' keyboard
# stack (libinput, mtdev, libudev, xkbcommon) comes from scripts/build-input.sh into build/input
# (libevdev.a is Debian's).
export SKELETOND_STATIC=1
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-harfbuzz.sh
scripts/build-wayland.sh
scripts/build-input.sh
out=build/static
mkdir -p "$out"
# skeletond-initramfs is the initramfs's: the daemon's boot path and the scripts' requests, without
# the tools' command line (ArgumentParser and Foundation's essentials); it shares the modules
# compiled for skeletond, so only its link is extra. It gets skeletond's build id: the frame
# cache and the boot plans are keyed on it, and those that skeletond prepares (`skeletond cache`)
# are for the initramfs's executable to find. One build, one renderer, one key.
build_id=""
for product in skeletond skeletond-initramfs; do
    id_flags=()
    [ -n "$build_id" ] && id_flags=(-Xlinker "--build-id=0x$build_id")
    swift build -c release --scratch-path .build-static --product "$product" -Xswiftc -static-executable -Xlinker -s \
        -Xlinker -L"$PWD/build/harfbuzz" -Xlinker -L"$PWD/build/wayland" -Xlinker -L"$PWD/build/input" "${id_flags[@]}" \
        2> >(grep -v -E "statically linked applications requires|mktemp' is dangerous|_ThreadLocal.swift.o" >&2)
    objcopy --remove-section .eh_frame --remove-section .eh_frame_hdr ".build-static/release/$product" "$out/$product"
    echo "$out/$product: $(stat -c %s "$out/$product") bytes"
    [ -n "$build_id" ] || build_id=$(readelf -n "$out/$product" | sed -n 's/^ *Build ID: *//p')
done
[ "$(readelf -n "$out/skeletond-initramfs" | sed -n 's/^ *Build ID: *//p')" = "$build_id" ] \
    || { echo "build-static.sh: skeletond-initramfs did not get skeletond's build id $build_id" >&2; exit 1; }
# skeletonctl is the same executable under its own name: a second static build would carry the
# Swift runtime and Foundation's essentials (most of its 13.8 MB) twice in the initramfs.
rm -f "$out/skeletonctl"
ln -s skeletond "$out/skeletonctl"

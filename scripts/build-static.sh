#!/usr/bin/env bash
# Builds skeletond and skeletonctl as static executables for an initramfs (no shared library,
# not even glibc's), stripped, into build/static/. The unwind tables (.eh_frame) are dropped:
# Swift code does not unwind, so only a crash backtrace would lose detail, and they are 1.9 MB.
# Debian ships no static HarfBuzz (libharfbuzz-dev has no libharfbuzz.a), so Debian's HarfBuzz
# source is compiled into build/harfbuzz/libharfbuzz.a first (scripts/build-harfbuzz.sh) and
# found before the shared one; FreeType (libfreetype.a, with the libraries SKELETOND_STATIC adds
# after it, see Package.swift) and FriBidi (libfribidi.a) are Debian's own archives.
export SKELETOND_STATIC=1
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-harfbuzz.sh
out=build/static
mkdir -p "$out"
for tool in skeletond skeletonctl; do
    swift build -c release --scratch-path .build-static --product "$tool" -Xswiftc -static-executable -Xlinker -s \
        -Xlinker -L"$PWD/build/harfbuzz" \
        2> >(grep -v -E "statically linked applications requires|mktemp' is dangerous|_ThreadLocal.swift.o" >&2)
done
for tool in skeletond skeletonctl; do
    objcopy --remove-section .eh_frame --remove-section .eh_frame_hdr ".build-static/release/$tool" "$out/$tool"
    echo "$out/$tool: $(stat -c %s "$out/$tool") bytes"
done

#!/usr/bin/env bash
# Builds skeletond and skeletonctl as static executables for an initramfs (no shared library,
# not even glibc's), stripped, into build/static/. The unwind tables (.eh_frame) are dropped:
# Swift code does not unwind, so only a crash backtrace would lose detail, and they are 1.9 MB.
# Debian ships no static HarfBuzz (libharfbuzz-dev has no libharfbuzz.a, libgraphite2-dev no
# libgraphite2.a), so this build leaves text out (SKELETOND_STATIC, see Package.swift): labels
# show as their skeletons. FreeType (libfreetype.a, then libpng16, zlib, brotlidec,
# brotlicommon, bz2) and FriBidi (libfribidi.a) would link.
export SKELETOND_STATIC=1
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/static
mkdir -p "$out"
for tool in skeletond skeletonctl; do
    swift build -c release --scratch-path .build-static --product "$tool" -Xswiftc -static-executable -Xlinker -s \
        2> >(grep -v -E "statically linked applications requires|mktemp' is dangerous|_ThreadLocal.swift.o" >&2)
done
for tool in skeletond skeletonctl; do
    objcopy --remove-section .eh_frame --remove-section .eh_frame_hdr ".build-static/release/$tool" "$out/$tool"
    echo "$out/$tool: $(stat -c %s "$out/$tool") bytes"
done

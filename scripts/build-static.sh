#!/usr/bin/env bash
# Builds skeletond and skeletonctl as static executables for an initramfs (no shared library,
# not even glibc's), stripped, into build/static/. The unwind tables (.eh_frame) are dropped:
# Swift code does not unwind, so only a crash backtrace would lose detail, and they are 1.9 MB.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/static
mkdir -p "$out"
swift build -c release --scratch-path .build-static -Xswiftc -static-executable -Xlinker -s \
    2> >(grep -v -E "statically linked applications requires|mktemp' is dangerous|_ThreadLocal.swift.o" >&2)
for tool in skeletond skeletonctl; do
    objcopy --remove-section .eh_frame --remove-section .eh_frame_hdr ".build-static/release/$tool" "$out/$tool"
    echo "$out/$tool: $(stat -c %s "$out/$tool") bytes"
done

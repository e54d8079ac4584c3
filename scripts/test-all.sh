#!/usr/bin/env bash
# Runs every test stage, prints what each found, and ends with one summary line.
set -uo pipefail
cd "$(dirname "$0")/.."
passed=0; failed=0; failures=()

stage() {
    local name=$1; shift
    echo "== $name"
    local began=$SECONDS
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); failures+=("$name"); fi
    echo "== $name: $((SECONDS - began)) s"
}

stage "swift build" swift build
stage "swift test" swift test
stage "layout schema" python3 Tests/schema/validate_layouts.py --decoder .build/debug/skeletond
stage "module table" python3 scripts/module-table.py --check
stage "systemd units" Tests/systemd/verify_units.sh .build/debug
stage "fuzz (short)" scripts/fuzz.sh short
stage "Plymouth's client" python3 Tests/plymouth/test_plymouth_client.py
if [ -x Tests/e2e/run.sh ]; then
    stage "DRM under QEMU" Tests/e2e/run.sh
fi
stage "Debian boot under QEMU" Tests/boot/run.sh

echo
if [ $failed -gt 0 ]; then echo "failed stages: ${failures[*]}"; fi
echo "stages: $passed passed, $failed failed"
[ $failed -eq 0 ]

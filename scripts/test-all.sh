#!/usr/bin/env bash
# Runs every test stage, prints what each found, and ends with a summary: the stages that
# failed, the stages that were skipped and why, and one line `stages: N passed, M failed,
# K skipped`.
#
# A stage is skipped (neither passed nor failed) when it exits 77 and has printed a line
# `SKIPPED: <reason>` (the tests that need root do so when not run as root); exit 77 without
# such a line counts as a failure. Tests that Swift Testing skips inside a stage that ran
# (`.enabled(if:)`, e.g. the socket-access tests when not root) are listed with their reasons
# too, under the stage's name.
set -uo pipefail
cd "$(dirname "$0")/.."
SKIP_STATUS=77
passed=0; failed=0; skipped=0; failures=(); skips=(); inner_skips=()

stage() {
    local name=$1; shift
    echo "== $name"
    local began=$SECONDS output rc reason line
    output=$(mktemp)
    "$@" 2>&1 | tee "$output"
    rc=${PIPESTATUS[0]}
    reason=$(grep -m1 -o 'SKIPPED: .*' "$output" | sed 's/^SKIPPED: //')
    if [ "$rc" -eq 0 ]; then
        passed=$((passed + 1))
    elif [ "$rc" -eq "$SKIP_STATUS" ] && [ -n "$reason" ]; then
        skipped=$((skipped + 1)); skips+=("$name: $reason")
    else
        failed=$((failed + 1)); failures+=("$name")
    fi
    # Swift Testing: `<symbol> Test NAME skipped: "REASON"` (or `Suite NAME skipped.`).
    while IFS= read -r line; do
        inner_skips+=("$name: $line")
    done < <(grep -E '^[^ ]* ?(Test|Suite) .+ skipped(: "|\.$)' "$output" | sed -E 's/^[^ ]* ?((Test|Suite) )/\1/')
    rm -f "$output"
    echo "== $name: $((SECONDS - began)) s$([ "$rc" -eq 0 ] || echo ", exit $rc")"
}

# The boot stages build Debian roots, disk images and initramfs images under build/ (about 7 GiB
# on a clean clone, and room for /tmp besides); a disk that fills up half-way fails them in ways
# that do not say so.
NEEDED_GIB=${SKELETOND_TEST_FREE_GIB:-12}
free_gib=$(( $(df -Pk . | awk 'NR == 2 { print $4 }') / 1024 / 1024 ))
if [ "$free_gib" -lt "$NEEDED_GIB" ]; then
    echo "make test: $free_gib GiB free on $(df -P . | awk 'NR == 2 { print $6 }') (where $(pwd) is); the boot stages need $NEEDED_GIB GiB for their Debian roots and disk images under build/: free some and run again" >&2
    exit 1
fi

stage "swift build" swift build
stage "swift test" swift test
stage "layout schema" python3 Tests/schema/validate_layouts.py --decoder .build/debug/skeletond
stage "module table" python3 scripts/module-table.py --check
stage "docs' sizes" python3 scripts/doc-sizes.py
stage "systemd units" Tests/systemd/verify_units.sh .build/debug
stage "fuzz (short)" scripts/fuzz.sh short
stage "Plymouth's client" python3 Tests/plymouth/test_plymouth_client.py
stage "web kiosk on cage and Xorg (no QEMU)" python3 Tests/kiosk/test_browser_kiosk.py
stage "attacks on the release daemon" scripts/attack-tests.sh
stage "bounded memory on the release daemon (short)" scripts/memory-tests.sh
if [ -x Tests/e2e/run.sh ]; then
    stage "DRM under QEMU" Tests/e2e/run.sh
fi
stage "Debian boot under QEMU" Tests/boot/run.sh
# `make bench-boot` in short (one BIOS boot of each image), with the package the boot stage made.
stage "boot benchmark (short)" Tests/boot/run.sh --bench --short --made-deb

echo
for s in "${failures[@]}"; do echo "failed stage: $s"; done
for s in "${skips[@]}"; do echo "skipped stage: $s"; done
for s in "${inner_skips[@]}"; do echo "skipped test: $s"; done
echo "stages: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]

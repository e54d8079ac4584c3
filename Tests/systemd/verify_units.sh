#!/usr/bin/env bash
# Runs `systemd-analyze verify` on the units of systemd/ after substituting @BINDIR@ the way
# `make install` does, and `systemd-analyze security --offline` on the daemon's unit (its
# exposure must be at most 2.0).
#
#   Tests/systemd/verify_units.sh [BINDIR]
#
# It also checks that skeletond-cache.service prepares the command line skeletond.service runs and
# looks for changes made during its run, and that skeletond-cache.path watches what that
# preparation depends on.
#
# BINDIR holds the skeletond and skeletonctl executables that ExecStart= names (verify checks
# that they exist): $1, else $SKELETOND_BINDIR, else .build/debug of the repository.
# A unit fails when verify exits non-zero or prints anything about it. Ends with "N passed, M failed".
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
bindir=${1:-${SKELETOND_BINDIR:-$root/.build/debug}}
units=(skeletond.service skeletond.socket skeletond-hide.service skeletond-down.service skeletond-cache.path skeletond-cache.service
       skeletond-initramfs.path skeletond-poweroff.service skeletond-reboot.service skeletond-halt.service skeletond-kexec.service)
# The checks after the per-unit ones: exposure, sandbox directives, cache command line, cache watches.
extra_checks=4

if ! command -v systemd-analyze >/dev/null; then
    echo "systemd-analyze is not installed (Debian: apt-get install systemd)" >&2
    echo "0 passed, $((${#units[@]} + extra_checks)) failed"
    exit 1
fi
bindir=$(cd "$bindir" 2>/dev/null && pwd) || { echo "no such directory: ${1:-${SKELETOND_BINDIR:-$root/.build/debug}}" >&2; echo "0 passed, $((${#units[@]} + extra_checks)) failed"; exit 1; }
for exe in skeletond skeletonctl; do
    if [ ! -x "$bindir/$exe" ]; then
        echo "$bindir/$exe is missing: build first (swift build) or pass the directory holding it" >&2
        echo "0 passed, $((${#units[@]} + extra_checks)) failed"
        exit 1
    fi
done
case $bindir in *[[:space:]]*) echo "BINDIR must not contain white space: $bindir" >&2; echo "0 passed, $((${#units[@]} + extra_checks)) failed"; exit 1 ;; esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# All units in one directory: verify resolves their references to each other from there.
for unit in "${units[@]}"; do
    sed "s|@BINDIR@|$bindir|g" "$root/systemd/$unit" > "$work/$unit"
done

passed=0
failed=0
for unit in "${units[@]}"; do
    problems=()
    if grep -n '@[A-Z_]*@' "$work/$unit" >/dev/null; then
        problems+=("unsubstituted placeholder: $(grep -n '@[A-Z_]*@' "$work/$unit" | head -1)")
    fi
    output=$(cd "$work" && SYSTEMD_LOG_COLOR=0 systemd-analyze verify "$work/$unit" 2>&1)
    status=$?
    # Lines about our units (by name or by their temporary path); other installed units' noise
    # is not ours to fix.
    ours=$(printf '%s\n' "$output" | grep -E "skeletond|$work" || true)
    [ $status -ne 0 ] && problems+=("systemd-analyze verify exited with status $status")
    [ -n "$ours" ] && problems+=("$ours")
    if [ ${#problems[@]} -eq 0 ]; then
        echo "ok   $unit"
        passed=$((passed + 1))
    else
        echo "FAIL $unit"
        printf '%s\n' "${problems[@]}" | sed 's/^/     /'
        if [ -n "$output" ] && [ "$output" != "$ours" ]; then
            printf '%s\n' "$output" | sed 's/^/     verify: /'
        fi
        failed=$((failed + 1))
    fi
done

# The sandbox: the offline exposure score must stay at or below the threshold (on systemd 252's
# scale, Debian 12; 0 is fully sandboxed, 10 not at all), and the directives this unit promises
# must really be in force.
threshold=2.0
report=$(cd "$work" && SYSTEMD_LOG_COLOR=0 systemd-analyze security --offline=yes --no-pager "$work/skeletond.service" 2>&1)
score=$(printf '%s\n' "$report" | sed -n 's/.*Overall exposure level for skeletond.service: \([0-9.]*\).*/\1/p')
if [ -z "$score" ]; then
    echo "FAIL skeletond.service: no exposure score from systemd-analyze security --offline=yes"
    printf '%s\n' "$report" | tail -5 | sed 's/^/     security: /'
    failed=$((failed + 1))
elif awk -v s="$score" -v t="$threshold" 'BEGIN { exit !(s <= t) }'; then
    echo "ok   skeletond.service exposure $score (at most $threshold)"
    passed=$((passed + 1))
else
    echo "FAIL skeletond.service exposure $score, above $threshold:"
    printf '%s\n' "$report" | grep -E '^✗' | sed 's/^/     /'
    failed=$((failed + 1))
fi
missing=()
for directive in Type=notify DefaultDependencies=no ConditionKernelCommandLine=!skeletond.enable=0 \
        ProtectSystem=strict ProtectHome=yes NoNewPrivileges=yes IPAddressDeny=any \
        'RestrictAddressFamilies=AF_UNIX AF_NETLINK' DevicePolicy=closed 'DeviceAllow=char-drm rw' RuntimeDirectory=skeletond; do
    grep -qxF "$directive" "$work/skeletond.service" || missing+=("$directive")
done
# The boot never waits for the splash: nothing of the boot's own is ordered after it.
grep -qE '^Before=.*(sysinit|basic|local-fs)\.target' "$work/skeletond.service" && missing+=("no Before= of a boot target")
if [ ${#missing[@]} -eq 0 ]; then
    echo "ok   skeletond.service has its sandbox and boot directives"
    passed=$((passed + 1))
else
    echo "FAIL skeletond.service lacks: ${missing[*]}"
    failed=$((failed + 1))
fi

# The boot plan skeletond-cache.service writes is found at boot only under the name of the
# command line skeletond.service runs: the words after `--` must be that ExecStart's arguments.
daemon_arguments=$(sed -n "s|^ExecStart=$bindir/skeletond ||p" "$work/skeletond.service")
plan_arguments=$(sed -n "s|^ExecStart=$bindir/skeletond cache .* -- ||p" "$work/skeletond-cache.service")
if [ -n "$daemon_arguments" ] && [ "$daemon_arguments" = "$plan_arguments" ]; then
    echo "ok   skeletond-cache.service prepares the command line skeletond.service runs ($daemon_arguments)"
    passed=$((passed + 1))
else
    echo "FAIL skeletond-cache.service prepares \"$plan_arguments\", skeletond.service runs \"$daemon_arguments\""
    failed=$((failed + 1))
fi
# And it watches what the plan depends on: the settings, the layouts and the executable.
watched=$(sed -n 's|^PathChanged=||p' "$work/skeletond-cache.path" | paste -sd ' ')
if [ "$watched" = "/etc/skeletond/skeletond.json /etc/skeletond/layouts $bindir/skeletond" ]; then
    echo "ok   skeletond-cache.path watches $watched"
    passed=$((passed + 1))
else
    echo "FAIL skeletond-cache.path watches: $watched"
    failed=$((failed + 1))
fi
# A change made while the service runs passes the path units by: its last step must look for one
# (and leave skeletond-initramfs.path's mark), after the initramfs is made again.
last_step=$(grep -E '^Exec(Start|StartPost)=' "$work/skeletond-cache.service" | tail -1)
if [ "$last_step" = "ExecStartPost=$bindir/skeletond cache --check-unchanged" ] \
    && grep -q '^PathExists=/var/cache/skeletond/.initramfs-outdated$' "$work/skeletond-initramfs.path"; then
    echo "ok   skeletond-cache.service's last step looks for changes made during its run"
    passed=$((passed + 1))
else
    echo "FAIL skeletond-cache.service's last step: $last_step"
    failed=$((failed + 1))
fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]

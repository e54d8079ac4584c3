#!/usr/bin/env python3
"""VT switches while the skeleton shows (issue 48, item 3): bochs (VGA) under QEMU.

    python3 Tests/e2e/test_skeletond_vt.py

tty1 and tty2 get a line of text each. First the kernel alone (no skeletond): `chvt 2` and
`chvt 1`, then ctrl-alt-f2 and ctrl-alt-f1, a burst of screenshots after each, for the time the
kernel's own switch (its console's mode set) takes here by each means. Then skeletond shows a static layout on tty1, and the guest switches away
and back with `chvt 2` / `chvt 1`, then with QMP `send-key` ctrl-alt-f2 / ctrl-alt-f1 (the
keyboard, as a person would). After each switch a burst of screenshots; each is classified as
the skeleton, tty2's console, tty1's console, black or other. Checked: every switch away shows
tty2's console (as the kernel alone showed it) and every switch back the skeleton; the time to
the first such screenshot is no longer than the kernel's own switch by the same means plus one
screenshot; no
black screenshot after a switch back, nor one at all longer than the kernel's switch; `status`
says which VT is shown while away; after SIGTERM `chvt 2` still works (VT_AUTO again). The
figures (ms from the switch to the first screenshot showing its result, host clock) are printed
as `@@VT_FIGURES`. Screenshots go to build/e2e/vt/.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True

import png  # noqa: E402
import qemu_harness  # noqa: E402
from console import text_pixels  # noqa: E402
from test_harness_minimal_c import Checker  # noqa: E402
from test_skeletond_drm import case_files, static_tools_missing  # noqa: E402

OUT = HERE.parents[1] / "build" / "e2e" / "vt"
BURST = 6
TTY1_TEXT = "skeletond e2e: tty1, the skeleton's VT"
TTY2_TEXT = "skeletond e2e: tty2, another VT's console"

GUEST = r"""
ctl() { /bin/skeletonctl --socket /run/skeletond/control.sock "$@"; }
sendkey() {
    _n=$1; shift
    e2e_ctl "@@SENDKEY $_n $*"
    while IFS= read -r -t 30 _line <&9; do
        case "$_line" in "@@ACK $_n") return 0 ;; "@@NAK $_n "*) return 1 ;; esac
    done
    return 1
}
burst() { _i=1; while [ $_i -le @BURST@ ]; do shot "$1-$_i"; _i=$((_i + 1)); done; }
switch() { mark "$1"; timeout 10 chvt "$2" || fail "chvt $2 did not return"; burst "$1"; }
press() { mark "$1"; shift; sendkey "$@" || fail "send-key $*"; }
printf '\n@TTY1@\n' > /dev/tty1 || fail "cannot write to tty1"
printf '\n@TTY2@\n' > /dev/tty2 || fail "cannot write to tty2"
usleep 300000
shot tty1
switch kernel-away 2
switch kernel-back 1
press kernel-key-away kernel-away ctrl alt f2
burst kernel-key-away
press kernel-key-back kernel-back ctrl alt f1
burst kernel-key-back
export SWIFT_DETERMINISTIC_HASHING=1
spawn /tmp/d.log /bin/skeletond run --config /etc/skeletond.json --layouts /layouts --layout solid \
    --backend drm --log-level debug --frame-cache none
sd=$SPAWNED_PID
wait_for_line /tmp/d.log 'first frame on drm' 30 || fail "no first frame"
ctl show --wait || fail "show --wait failed"
usleep 300000
shot shown
switch chvt-away 2
echo "@@AWAY_STATUS $(ctl status --json)"
switch chvt-back 1
press key-away away ctrl alt f2
burst key-away
echo "@@ACTIVE_AFTER_KEY $(cat /sys/class/tty/tty0/active)"
press key-back back ctrl alt f1
burst key-back
echo "@@ACTIVE_AFTER_KEY_BACK $(cat /sys/class/tty/tty0/active)"
kill -TERM "$sd"; wait "$sd"; echo "@@SKELETOND_EXIT $?"
usleep 300000
switch after-exit 2
"""


def classify(img: png.Image, refs: dict[str, png.Image]) -> str:
    for name, ref in refs.items():
        if png.compare(img, ref).ok:
            return name
    rgb = img.rgb()
    if all(b == 0 for y in range(rgb.height) for b in rgb.row(y)):
        return "black"
    return "other"


def main() -> int:
    if static_tools_missing():
        return 1
    c = Checker()
    _, _, files = case_files("vt", OUT.parent)
    guest = (GUEST.replace("@BURST@", str(BURST)).replace("@TTY1@", TTY1_TEXT).replace("@TTY2@", TTY2_TEXT))
    print("== VT switches on bochs: chvt and ctrl-alt-f2 / ctrl-alt-f1 while the skeleton shows")
    r = qemu_harness.run(device="VGA", extra_device_args="xres=1024,yres=768", guest_files=files, guest_script=guest,
                         out_dir=OUT, name="vt", timeout=300, append="vt.global_cursor_default=0")
    log = r["serial_log"]
    (OUT / "serial.txt").write_text(log)
    shots, timings = r["screenshots"], r["timings"]
    c.check("VT: guest script ran to the end", r["ok"], "; ".join(r.get("errors", [])) + f" (log {OUT}/serial.txt)")
    if not {"tty1", "shown", f"kernel-away-{BURST}"} <= shots.keys():
        print(f"{c.passed} passed, {c.failed} failed")
        return 1
    refs = {"skeleton": png.read(shots["shown"]), "tty2": png.read(shots[f"kernel-away-{BURST}"]),
            "tty1": png.read(shots["tty1"])}
    c.check("VT: tty2's console shows its text (the kernel alone)", text_pixels(refs["tty2"]) > 0)
    c.check("VT: tty2's console is not tty1's", not png.compare(refs["tty2"], refs["tty1"]).ok)
    figures: dict[str, dict] = {}
    for switch, want in (("kernel-away", "tty2"), ("kernel-back", "tty1"), ("kernel-key-away", "tty2"), ("kernel-key-back", "tty1"),
                         ("chvt-away", "tty2"), ("chvt-back", "skeleton"),
                         ("key-away", "tty2"), ("key-back", "skeleton"), ("after-exit", "tty2")):
        start = timings["marks"].get(switch)
        seen = []
        for i in range(1, BURST + 1):
            name = f"{switch}-{i}"
            if name in shots:
                seen.append((name, round((timings["shots"][name] - start) * 1000), classify(png.read(shots[name]), refs)))
        first = next((ms for _, ms, kind in seen if kind == want), None)
        interval = round((seen[-1][1] - seen[0][1]) / max(1, len(seen) - 1)) if seen else None
        figures[switch] = {"want": want, "first_ms": first, "shot_interval_ms": interval, "shots": [(ms, k) for _, ms, k in seen]}
        print(f"  {switch}: {want} first seen {first} ms after the switch; shots every ~{interval} ms: "
              + ", ".join(f"{ms} {k}" for _, ms, k in seen))
        c.check(f"VT {switch}: {want} is shown", first is not None, json.dumps(seen))
        after = [k for _, _, k in seen[[k for _, _, k in seen].index(want) + 1:]] if first is not None else []
        c.check(f"VT {switch}: {want} stays once shown", all(k == want for k in after), json.dumps(seen))
        blacks = [(ms, k) for _, ms, k in seen if k == "black"]
        c.check(f"VT {switch}: no black screenshot", not blacks, json.dumps(blacks))
    # The kernel's own switch, by the same means (chvt's VT_ACTIVATE, or the keyboard's interrupt
    # and the console's keymap), is the bound: plus one screenshot, the figures' resolution.
    slack = max(f["shot_interval_ms"] or 0 for f in figures.values())
    for switch, kernel_switches in (("chvt-away", ("kernel-away", "kernel-back")), ("chvt-back", ("kernel-away", "kernel-back")),
                                    ("key-away", ("kernel-key-away", "kernel-key-back")),
                                    ("key-back", ("kernel-key-away", "kernel-key-back"))):
        kernel = max(figures[k]["first_ms"] or 0 for k in kernel_switches)
        first = figures[switch]["first_ms"]
        c.check(f"VT {switch}: within the kernel's own switch ({kernel} ms) and one screenshot ({slack} ms)",
                first is not None and first <= kernel + slack, f"{first} ms")
    status = re.search(r"@@AWAY_STATUS (\{.*\})", log)
    problem = json.loads(status.group(1)).get("problem") if status else None
    c.check("VT: status says another VT is shown", problem == "another VT (tty2) is shown; the skeleton comes back when tty1 is",
            str(problem))
    c.check("VT: ctrl-alt-f2 switched to tty2", "@@ACTIVE_AFTER_KEY tty2" in log)
    c.check("VT: ctrl-alt-f1 switched back to tty1", "@@ACTIVE_AFTER_KEY_BACK tty1" in log)
    exit_line = re.search(r"@@SKELETOND_EXIT (\d+)", log)
    c.check("VT: skeletond exited 0 on SIGTERM", exit_line is not None and exit_line.group(1) == "0")
    errors = [line for line in log.splitlines() if line.startswith("<3>")]
    c.check("VT: no error in the daemon's log", not errors, "; ".join(errors[:3]))
    print("@@VT_FIGURES " + json.dumps({k: {"first_ms": v["first_ms"], "shot_interval_ms": v["shot_interval_ms"]}
                                        for k, v in figures.items()}))
    print(f"{c.passed} passed, {c.failed} failed")
    return 0 if c.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

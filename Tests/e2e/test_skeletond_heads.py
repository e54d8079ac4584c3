#!/usr/bin/env python3
"""skeletond on two monitors of different sizes: virtio-gpu with two heads under QEMU.

    python3 Tests/e2e/test_skeletond_heads.py

virtio-gpu with `max_outputs=2`: the first head comes up at 1024x768; the guest forces the
second connector on (`/sys/class/drm/card0-Virtual-2/status`), and the settings give it 800x600
(it has no EDID). Each head must equal `skeletond render` at its own size, pixel for pixel;
`hide` must give both back to the text console as it was before the start (the kernel may
choose another console mode for the head without EDID), `hide --retain` must leave both
frames, and SIGTERM must give both back again. Screenshots go to build/e2e/heads/.
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
from test_harness_minimal_c import Checker  # noqa: E402
from test_skeletond_drm import case_files, host_render, static_tools_missing  # noqa: E402

OUT = HERE.parents[1] / "build" / "e2e" / "heads"
SECOND = (800, 600)

GUEST = r"""
ctl() { /bin/skeletonctl --socket /run/skeletond/control.sock "$@"; }
both() { shot "$1-0" device=display0 head=0; shot "$1-1" device=display0 head=1; }
echo on > /sys/class/drm/card0-Virtual-2/status || fail "cannot force the second connector on"
usleep 500000
both console
export SWIFT_DETERMINISTIC_HASHING=1
spawn /tmp/d.log /bin/skeletond run --config /etc/skeletond.json --layouts /layouts --layout solid \
    --backend drm --log-level debug --frame-cache none
sd=$SPAWNED_PID
wait_for_line /tmp/d.log 'first frame on drm' 30 || fail "no first frame"
ctl show --wait || fail "show --wait failed"
echo "@@STATUS $(ctl status --json)"
both shown
ctl hide --transition none --wait || fail "hide failed"
usleep 300000
both hidden
ctl show --transition none --wait || fail "show again failed"
usleep 300000
ctl hide --retain || fail "hide --retain failed"
usleep 300000
both retained
ctl show --transition none --wait || fail "show after retain failed"
usleep 300000
kill -TERM "$sd"; wait "$sd"; echo "@@SKELETOND_EXIT $?"
usleep 300000
both after-term
"""


def main() -> int:
    if static_tools_missing():
        return 1
    c = Checker()
    settings = {"display": {"modes": {"Virtual-2": f"{SECOND[0]}x{SECOND[1]}"}}}
    _, layouts, files = case_files("heads", OUT.parent, settings=json.dumps(settings).encode())
    print(f"== two heads: -device virtio-gpu-pci,max_outputs=2, the second forced on at {SECOND[0]}x{SECOND[1]}")
    r = qemu_harness.run(device="virtio-gpu-pci", extra_device_args="max_outputs=2,xres=1024,yres=768", guest_files=files,
                         guest_script=GUEST, out_dir=OUT, name="heads", timeout=300, append="vt.global_cursor_default=0")
    log = r["serial_log"]
    (OUT / "serial.txt").write_text(log)
    shots = r["screenshots"]
    c.check("two heads: guest script ran to the end", r["ok"], "; ".join(r.get("errors", [])) + f" (log {OUT}/serial.txt)")
    status = re.search(r"@@STATUS (\{.*\})", log)
    outputs = json.loads(status.group(1)).get("outputs", []) if status else []
    c.check("two heads: status lists both outputs", len(outputs) == 2, json.dumps(outputs)[:300])
    for head in (0, 1):
        label = f"head {head}"
        if f"shown-{head}" not in shots:
            c.check(f"{label}: screenshots taken", False)
            continue
        shown = png.read(shots[f"shown-{head}"])
        size = (shown.width, shown.height)
        if head == 1:
            c.check(f"{label}: driven at the configured {SECOND[0]}x{SECOND[1]}", size == SECOND, f"{size}")
        expected = host_render(layouts / "solid.json", size, OUT / f"expected-{head}.png")
        d = png.compare(shown, expected, diff_path=OUT / f"diff-shown-{head}.png")
        print(f"  {label} at {size[0]}x{size[1]} vs render: {d}")
        c.check(f"{label}: equals `skeletond render` at its size", d.ok, str(d))
        console = png.read(shots[f"console-{head}"]) if f"console-{head}" in shots else None
        for name in ("hidden", "after-term"):
            if f"{name}-{head}" not in shots or console is None:
                c.check(f"{label}: {name} screenshot taken", False)
                continue
            after = png.read(shots[f"{name}-{head}"])
            back = png.compare(after, console, diff_path=OUT / f"diff-{name}-{head}.png")
            print(f"  {label} {name} vs before the start: {back}")
            if (after.width, after.height) == (console.width, console.height):
                c.check(f"{label}: {name}: as it was before the start", back.ok, str(back))
            else:
                # The kernel's fbdev helper sets its console mode again when the display is
                # given back, and may pick another mode for a connector without EDID: the
                # console must be back all the same, in its own colours only.
                colours = {colour for _, colour in console.histogram(64)}
                seen = {colour for _, colour in after.histogram(64)}
                c.check(f"{label}: {name}: the text console is back (at {after.width}x{after.height})", seen <= colours,
                        f"colours {sorted(seen - colours)[:4]} not in the console's {sorted(colours)}")
        if f"retained-{head}" in shots:
            kept = png.compare(png.read(shots[f"retained-{head}"]), expected, diff_path=OUT / f"diff-retained-{head}.png")
            c.check(f"{label}: hide --retain leaves the frame", kept.ok, str(kept))
    exit_line = re.search(r"@@SKELETOND_EXIT (\d+)", log)
    c.check("two heads: skeletond exited 0 on SIGTERM", exit_line is not None and exit_line.group(1) == "0")
    errors = [line for line in log.splitlines() if line.startswith("<3>")]
    c.check("two heads: no error in the daemon's log", not errors, "; ".join(errors[:3]))
    print(f"{c.passed} passed, {c.failed} failed")
    return 0 if c.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""skeletond on two monitors of different sizes: virtio-gpu with two heads under QEMU.

    python3 Tests/e2e/test_skeletond_heads.py

virtio-gpu with `max_outputs=2`: the first head comes up at 1024x768; the guest forces the
second connector on (`video=Virtual-2:e` on the kernel command line, so that the console is on
both heads from boot, and `/sys/class/drm/card0-Virtual-2/status`), and the settings give it 800x600
(it has no EDID). Each head must equal `skeletond render` at its own size, pixel for pixel;
`hide` must give both back to the text console as it was before the start, a line of text
written to it included, pixel for pixel (if the kernel chose another console mode for the head
without EDID: equal where both pictures lie, all of the text in there, background elsewhere),
`hide --retain` must leave both
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
from console import CONSOLE_TEXT, console_is_back, text_pixels, background  # noqa: E402
from test_harness_minimal_c import Checker  # noqa: E402
from test_skeletond_drm import case_files, host_render, static_tools_missing  # noqa: E402

OUT = HERE.parents[1] / "build" / "e2e" / "heads"
SECOND = (800, 600)
# The second connector enabled from boot (`video=...:e`), so that the kernel's fbdev console is
# on both heads before the start (a connector only forced on later through sysfs gets no CRTC
# from the console on Linux 6.1: QEMU then shows its own "Guest has not initialized the display").
KERNEL_ARGS = "vt.global_cursor_default=0 video=Virtual-2:e"

GUEST = r"""
ctl() { /bin/skeletonctl --socket /run/skeletond/control.sock "$@"; }
both() { shot "$1-0" device=display0 head=0; shot "$1-1" device=display0 head=1; }
echo on > /sys/class/drm/card0-Virtual-2/status || fail "cannot force the second connector on"
printf '\n@CONSOLE_TEXT@\n' > /dev/tty1 || fail "cannot write to the console"
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
                         guest_script=GUEST.replace("@CONSOLE_TEXT@", CONSOLE_TEXT), out_dir=OUT, name="heads", timeout=300,
                         append=KERNEL_ARGS)
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
        if console is not None:
            text = text_pixels(console)
            c.check(f"{label}: before the start, the console shows the text written to it", text > 0,
                    f"{text} pixels off the background {background(console)}")
        for name in ("hidden", "after-term"):
            if f"{name}-{head}" not in shots or console is None:
                c.check(f"{label}: {name} screenshot taken", False)
                continue
            after = png.read(shots[f"{name}-{head}"])
            ok, detail = console_is_back(after, console, OUT / f"diff-{name}-{head}.png")
            print(f"  {label} {name} vs the console before the start: {detail}")
            c.check(f"{label}: {name}: the text console is back as it was before the start", ok, detail)
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

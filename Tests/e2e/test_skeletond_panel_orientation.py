#!/usr/bin/env python3
"""A portrait panel turned by its connector's own "panel orientation", with no rotation set.

    python3 Tests/e2e/test_skeletond_panel_orientation.py

The kernel's `video=CONNECTOR:panel_orientation=...` option gives a connector the "panel
orientation" property that a tablet's or a kiosk's panel mounted on its side has. One boot
(bochs at 1024x768, whose connector is Virtual-1) with `panel_orientation=right_side_up` (3:
the picture turned by 270 degrees clockwise) runs the daemon without `--rotation` and without
`display.rotation`: the screen must equal `skeletond render` at the portrait size (768x1024)
turned by that quarter turn, pixel for pixel, and `status` must report the rotation. Then the
settings' `display.rotation` for that connector (0) must win over the panel's. Screenshots go to
build/e2e/panel-orientation/ (never committed).
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True

import png  # noqa: E402
import qemu_harness  # noqa: E402
from test_harness_minimal_c import Checker  # noqa: E402
from test_skeletond_drm import case_files, host_render, static_tools_missing  # noqa: E402
from test_skeletond_rotation import turned  # noqa: E402

OUT = HERE.parents[1] / "build" / "e2e" / "panel-orientation"
MODE = (1024, 768)
CONNECTOR = "Virtual-1"
# The kernel's name for the orientation, its property value, and the clockwise turn it means.
ORIENTATION, PROPERTY, DEGREES = "right_side_up", 3, 270

GUEST = r"""
ctl() { /bin/skeletonctl --socket /run/skeletond/control.sock "$@"; }
export SWIFT_DETERMINISTIC_HASHING=1
echo "@@CONNECTORS $(ls /sys/class/drm | tr '\n' ' ')"
spawn /tmp/panel.log /bin/skeletond run --config /etc/skeletond.json --layouts /layouts --layout solid \
    --backend drm --log-level debug --frame-cache none
sd=$SPAWNED_PID
wait_for_line /tmp/panel.log 'first frame on drm' 30 || fail "no frame on the turned panel"
ctl show --wait || fail "show --wait failed"
echo "@@STATUS_PANEL $(ctl status --json)"
shot panel
kill -TERM "$sd"; wait "$sd"; echo "@@EXIT_PANEL $?"
spawn /tmp/upright.log /bin/skeletond run --config /etc/upright.json --layouts /layouts --layout solid \
    --backend drm --log-level debug --frame-cache none
sd=$SPAWNED_PID
wait_for_line /tmp/upright.log 'first frame on drm' 30 || fail "no frame with the settings' rotation"
ctl show --wait || fail "show --wait failed"
echo "@@STATUS_UPRIGHT $(ctl status --json)"
shot upright
kill -TERM "$sd"; wait "$sd"; echo "@@EXIT_UPRIGHT $?"
"""


def reported_rotation(log: str, name: str) -> int | None:
    status = re.search(rf"@@STATUS_{name} (\{{.*\}})", log)
    outputs = json.loads(status.group(1)).get("outputs", []) if status else []
    return outputs[0].get("rotation") if outputs else None


def main() -> int:
    if static_tools_missing():
        return 1
    c = Checker()
    began = time.monotonic()
    _, layouts, files = case_files("panel-orientation", OUT.parent)
    files["/etc/upright.json"] = json.dumps({"display": {"rotation": {CONNECTOR: 0}}}).encode()
    print(f"== panel orientation: -device VGA,xres={MODE[0]},yres={MODE[1]}, video={CONNECTOR}:panel_orientation={ORIENTATION}")
    r = qemu_harness.run(device="VGA", extra_device_args=f"xres={MODE[0]},yres={MODE[1]}", guest_files=files,
                         guest_script=GUEST, out_dir=OUT, name="panel-orientation", timeout=240,
                         append=f"vt.global_cursor_default=0 video={CONNECTOR}:panel_orientation={ORIENTATION}")
    log = r["serial_log"]
    (OUT / "serial.txt").write_text(log)
    c.check("panel orientation: guest script ran to the end", r["ok"], "; ".join(r.get("errors", [])) + f" (log {OUT}/serial.txt)")
    connectors = re.search(r"@@CONNECTORS (.*)", log)
    c.check(f"panel orientation: the card's connector is {CONNECTOR}", bool(connectors) and f"card0-{CONNECTOR}" in connectors.group(1),
            connectors.group(1) if connectors else "no @@CONNECTORS line")
    c.check(f"panel orientation: status reports the panel's turn ({DEGREES})", reported_rotation(log, "PANEL") == DEGREES,
            str(reported_rotation(log, "PANEL")))
    portrait = (MODE[1], MODE[0])
    if "panel" in r["screenshots"]:
        expected = turned(host_render(layouts / "solid.json", portrait, OUT / "expected-panel.png"), DEGREES)
        d = png.compare(png.read(r["screenshots"]["panel"]), expected, diff_path=OUT / "diff-panel.png")
        print(f"  panel vs render at {portrait[0]}x{portrait[1]} turned by {DEGREES}: {d}")
        c.check(f"panel orientation: the screen equals the portrait render turned by {DEGREES}", d.ok, str(d))
    else:
        c.check("panel orientation: screenshot panel taken", False)
    c.check("panel orientation: display.rotation 0 for the connector wins over the panel's", reported_rotation(log, "UPRIGHT") == 0,
            str(reported_rotation(log, "UPRIGHT")))
    if "upright" in r["screenshots"]:
        expected = host_render(layouts / "solid.json", MODE, OUT / "expected-upright.png")
        d = png.compare(png.read(r["screenshots"]["upright"]), expected, diff_path=OUT / "diff-upright.png")
        c.check("panel orientation: with rotation 0 set, the screen equals the landscape render", d.ok, str(d))
    else:
        c.check("panel orientation: screenshot upright taken", False)
    for name in ("PANEL", "UPRIGHT"):
        exit_line = re.search(rf"@@EXIT_{name} (\d+)", log)
        c.check(f"panel orientation: skeletond exited 0 on SIGTERM ({name.lower()})", exit_line is not None and exit_line.group(1) == "0")
    print(f"  panel orientation: {time.monotonic() - began:.0f} s")
    print(f"{c.passed} passed, {c.failed} failed")
    return 0 if c.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

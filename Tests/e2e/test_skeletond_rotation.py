#!/usr/bin/env python3
"""skeletond on a panel mounted on its side: `--rotation 90 | 180 | 270` on bochs under QEMU.

    python3 Tests/e2e/test_skeletond_rotation.py

One boot (bochs at 1024x768) runs the daemon three times, turned by 90, 180 and 270 degrees.
Each time the layout is laid out at the turned size (768x1024 for a quarter turn) and the
screen must equal `skeletond render` at that size, turned clockwise by the rotation, pixel for
pixel; then a tint is sent and the screen must equal the turned render with that tint (the
damage turned with the picture). Screenshots go to build/e2e/rotation/ (never committed).
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
from test_skeletond_drm import TINT, case_files, host_render, static_tools_missing  # noqa: E402

OUT = HERE.parents[1] / "build" / "e2e" / "rotation"
MODE = (1024, 768)
ROTATIONS = (90, 180, 270)

ONE_ROTATION = r"""
spawn /tmp/d@DEG@.log /bin/skeletond run --config /etc/skeletond.json --layouts /layouts --layout solid \
    --backend drm --log-level debug --frame-cache none --rotation @DEG@
sd=$SPAWNED_PID
wait_for_line /tmp/d@DEG@.log 'first frame on drm' 30 || fail "no frame at rotation @DEG@"
ctl show --wait || fail "show --wait failed"
echo "@@STATUS@DEG@ $(ctl status --json)"
shot turned@DEG@
ctl update --tint '@TINT@' || fail "update failed"
ctl ping
usleep 300000
shot tinted@DEG@
kill -TERM "$sd"; wait "$sd"; echo "@@EXIT@DEG@ $?"
"""

GUEST = r"""
ctl() { /bin/skeletonctl --socket /run/skeletond/control.sock "$@"; }
export SWIFT_DETERMINISTIC_HASHING=1
""" + "".join(ONE_ROTATION.replace("@DEG@", str(d)) for d in ROTATIONS)


def turned(img: png.Image, degrees: int) -> png.Image:
    """`img` turned clockwise by `degrees`, as the scanout buffer holds it."""
    rgb = img.rgb()
    if degrees == 0:
        return rgb
    w, h = rgb.width, rgb.height
    src = rgb.data
    if degrees == 180:
        rows = [rgb.row(h - 1 - y) for y in range(h)]
        out = b"".join(bytes(b"".join(r[i:i + 3] for i in range(len(r) - 3, -1, -3))) for r in rows)
        return png.Image(w, h, 3, out)
    # Quarter turns: the new picture is h wide and w high.
    out = bytearray(w * h * 3)
    for y in range(h):
        for x in range(w):
            if degrees == 90:
                nx, ny = h - 1 - y, x
            else:
                nx, ny = y, w - 1 - x
            o = (ny * h + nx) * 3
            i = (y * w + x) * 3
            out[o:o + 3] = src[i:i + 3]
    return png.Image(h, w, 3, bytes(out))


def main() -> int:
    if static_tools_missing():
        return 1
    c = Checker()
    _, layouts, files = case_files("rotation", OUT.parent)
    print(f"== rotation: -device VGA,xres={MODE[0]},yres={MODE[1]}, --rotation {', '.join(map(str, ROTATIONS))}")
    r = qemu_harness.run(device="VGA", extra_device_args=f"xres={MODE[0]},yres={MODE[1]}", guest_files=files,
                         guest_script=GUEST.replace("@TINT@", TINT), out_dir=OUT, name="rotation", timeout=300,
                         append="vt.global_cursor_default=0")
    log = r["serial_log"]
    (OUT / "serial.txt").write_text(log)
    c.check("rotation: guest script ran to the end", r["ok"], "; ".join(r.get("errors", [])) + f" (log {OUT}/serial.txt)")
    for degrees in ROTATIONS:
        logical = (MODE[1], MODE[0]) if degrees in (90, 270) else MODE
        status = re.search(rf"@@STATUS{degrees} (\{{.*\}})", log)
        outputs = json.loads(status.group(1)).get("outputs", []) if status else []
        reported = outputs[0].get("rotation") if outputs else None
        c.check(f"rotation {degrees}: status reports it", reported == degrees, f"{reported}")
        for shot, extra in ((f"turned{degrees}", ()), (f"tinted{degrees}", ("--tint", TINT))):
            if shot not in r["screenshots"]:
                c.check(f"rotation {degrees}: screenshot {shot} taken", False)
                continue
            expected = turned(host_render(layouts / "solid.json", logical, OUT / f"expected-{shot}.png", *extra), degrees)
            d = png.compare(png.read(r["screenshots"][shot]), expected, diff_path=OUT / f"diff-{shot}.png")
            print(f"  {shot} vs render at {logical[0]}x{logical[1]} turned by {degrees}: {d}")
            c.check(f"rotation {degrees}: {shot} equals the turned render", d.ok, str(d))
        exit_line = re.search(rf"@@EXIT{degrees} (\d+)", log)
        c.check(f"rotation {degrees}: skeletond exited 0 on SIGTERM", exit_line is not None and exit_line.group(1) == "0")
    errors = [line for line in log.splitlines() if line.startswith("<3>")]
    c.check("rotation: no error in the daemon's log", not errors, "; ".join(errors[:3]))
    print(f"{c.passed} passed, {c.failed} failed")
    return 0 if c.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

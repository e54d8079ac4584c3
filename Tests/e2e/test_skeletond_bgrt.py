#!/usr/bin/env python3
"""The firmware's logo (`"source": "bgrt"`) stays exactly where the firmware drew it.

    python3 Tests/e2e/test_skeletond_bgrt.py

One boot with UEFI firmware (Debian's OVMF, `ovmf`, installed when missing): OVMF draws its
logo on the screen and publishes it in the ACPI BGRT table, which Linux exposes in
/sys/firmware/acpi/bgrt (the BMP and its offsets). The guest takes a screenshot of the screen as
the firmware left it (the DRM driver not loaded yet: efifb), then loads bochs and starts the
daemon with a layout whose only picture is an image node with `"source": "bgrt"` on a black
canvas, and takes another. Inside the logo's box (the BGRT offsets, the BMP's size) the two
screenshots must be equal, pixel for pixel, and the box must hold the logo (not one flat
colour); the status must show the mode the firmware used, so that "where the firmware drew it"
is the same place. Screenshots go to build/e2e/bgrt/ (never committed).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True

import png  # noqa: E402
import qemu_harness  # noqa: E402
from test_harness_minimal_c import Checker  # noqa: E402
from test_skeletond_drm import case_files, static_tools_missing  # noqa: E402

OUT = HERE.parents[1] / "build" / "e2e" / "bgrt"
FIRMWARE = Path("/usr/share/ovmf/OVMF.fd")
MODE = (1024, 768)

LOGO = {
    "name": "logo",
    "canvas": {"width": MODE[0], "height": MODE[1], "background": "#000000", "scale": "none"},
    "presentation": {"style": "solid", "animated": False, "transition": {"kind": "none"}},
    "root": {"kind": "view", "children": [
        {"kind": "image", "frame": [0, 0, 10, 10], "skeletonable": False, "source": "bgrt"},
        {"kind": "text", "frame": [100, 650, 824, 60], "lines": 2},
    ]},
}

GUEST = r"""
# OVMF writes terminal sequences to the second serial port too: end its line first.
e2e_ctl ""
ctl() { /bin/skeletonctl --socket /run/skeletond/control.sock "$@"; }
export SWIFT_DETERMINISTIC_HASHING=1
b=/sys/firmware/acpi/bgrt
echo "@@BGRT $(cat $b/xoffset) $(cat $b/yoffset) $(cat $b/status) $(od -A n -t d4 -j 18 -N 8 $b/image | tr -s ' ' | sed 's/^ //')"
shot firmware
load_modules bochs || fail "bochs did not load"
i=0; while [ ! -e /dev/dri/card0 ] && [ $i -lt 750 ]; do usleep 20000; i=$((i + 1)); done
spawn /tmp/d.log /bin/skeletond run --config /etc/skeletond.json --layouts /layouts --layout logo \
    --backend drm --log-level debug --frame-cache none
sd=$SPAWNED_PID
wait_for_line /tmp/d.log 'first frame on drm' 30 || fail "skeletond drew no frame"
ctl show --wait || fail "show --wait failed"
echo "@@STATUS $(ctl status --json)"
shot skeleton
kill -TERM "$sd"; wait "$sd"; echo "@@EXIT $?"
# The same files copied to a regular directory over sysfs' (whose attributes all report a size
# of 4096 bytes): tells a reading problem from a placement problem.
mkdir -p /tmp/bgrt && cp $b/* /tmp/bgrt/ && mount --bind /tmp/bgrt $b || fail "could not bind-mount a copy of $b"
spawn /tmp/d2.log /bin/skeletond run --config /etc/skeletond.json --layouts /layouts --layout logo \
    --backend drm --log-level debug --frame-cache none
sd=$SPAWNED_PID
wait_for_line /tmp/d2.log 'first frame on drm' 30 || fail "skeletond drew no frame"
ctl show --wait || fail "show --wait failed"
shot copied
kill -TERM "$sd"; wait "$sd"; echo "@@EXIT_COPIED $?"
"""


def crop(image: png.Image, x: int, y: int, width: int, height: int) -> png.Image:
    rgb = image.rgb()
    rows = [rgb.row(row)[x * 3:(x + width) * 3] for row in range(y, y + height)]
    return png.Image(width, height, 3, b"".join(rows))


def firmware_present() -> bool:
    if FIRMWARE.exists():
        return True
    print(f"installing ovmf ({FIRMWARE} is missing)")
    subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "ovmf"], stdout=subprocess.DEVNULL,
                   env={"DEBIAN_FRONTEND": "noninteractive", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"})
    return FIRMWARE.exists()


def main() -> int:
    if static_tools_missing():
        return 1
    c = Checker()
    if not firmware_present():
        c.check(f"UEFI firmware {FIRMWARE} (Debian's ovmf)", False, "not installed and could not be")
        print(f"{c.passed} passed, {c.failed} failed")
        return 1
    began = time.monotonic()
    out, layouts, files = case_files("bgrt", OUT.parent)
    (layouts / "logo.json").write_text(json.dumps(LOGO))
    files["/layouts/logo.json"] = layouts / "logo.json"
    # The firmware's variables are written at boot: a copy of its image per run.
    firmware = OUT / "OVMF.fd"
    shutil.copy(FIRMWARE, firmware)
    print(f"== bgrt: OVMF, -device VGA,xres={MODE[0]},yres={MODE[1]}, the firmware's logo, then the skeleton's")
    r = qemu_harness.run(device="VGA", extra_device_args=f"xres={MODE[0]},yres={MODE[1]}", guest_files=files,
                         guest_script=GUEST, out_dir=OUT, name="bgrt", timeout=300, pvh=False,
                         append="vt.global_cursor_default=0 video=efifb:off", extra_qemu_args=["-bios", str(firmware)],
                         guest_config={"E2E_DEFER_MODULES": "bochs", "E2E_WAIT_CARD": "0"})
    log = r["serial_log"]
    (OUT / "serial.txt").write_text(log)
    c.check("bgrt: guest script ran to the end", r["ok"], "; ".join(r.get("errors", [])) + f" (log {OUT}/serial.txt)")
    bgrt = re.search(r"@@BGRT (\d+) (\d+) (\d+) (-?\d+) (-?\d+)", log)
    c.check("bgrt: the firmware published its logo (BGRT, status valid, not rotated)", bool(bgrt) and bgrt.group(3) == "1",
            bgrt.group(0) if bgrt else "no @@BGRT line")
    status = re.search(r"@@STATUS (\{.*\})", log)
    outputs = json.loads(status.group(1)).get("outputs", []) if status else []
    # The firmware's mode is the size of its screen (efifb is off: nothing set another).
    shot = r["screenshots"].get("firmware")
    firmware_mode = (png.read(shot).width, png.read(shot).height) if shot else None
    c.check("bgrt: the daemon's mode is the firmware's", bool(outputs) and firmware_mode is not None
            and outputs[0].get("size") == f"{firmware_mode[0]}x{firmware_mode[1]}",
            f"firmware {firmware_mode}, outputs {json.dumps(outputs)[:200]}")
    if bgrt and "firmware" in r["screenshots"] and "skeleton" in r["screenshots"]:
        x, y, width, height = int(bgrt.group(1)), int(bgrt.group(2)), int(bgrt.group(4)), abs(int(bgrt.group(5)))
        before = crop(png.read(r["screenshots"]["firmware"]), x, y, width, height)
        after = crop(png.read(r["screenshots"]["skeleton"]), x, y, width, height)
        png.write(OUT / "logo-firmware.png", before)
        png.write(OUT / "logo-skeleton.png", after)
        colours = before.histogram(4)
        c.check(f"bgrt: the firmware's screen holds a logo in the box ({width}x{height} at {x},{y})", len(colours) > 1, str(colours))
        d = png.compare(after, before, diff_path=OUT / "diff-logo.png")
        print(f"  logo box, skeleton vs firmware: {d}")
        c.check("bgrt: inside the logo's box the skeleton equals what the firmware drew", d.ok, str(d))
        if "copied" in r["screenshots"]:
            copied = crop(png.read(r["screenshots"]["copied"]), x, y, width, height)
            d = png.compare(copied, before, diff_path=OUT / "diff-logo-copied.png")
            c.check("bgrt: the same, the BGRT files copied to a regular directory", d.ok, str(d))
        else:
            c.check("bgrt: screenshot copied taken", False)
    else:
        c.check("bgrt: both screenshots taken", False, str(sorted(r["screenshots"])))
    exit_line = re.search(r"@@EXIT (\d+)", log)
    c.check("bgrt: skeletond exited 0 on SIGTERM", exit_line is not None and exit_line.group(1) == "0")
    errors = [line for line in log.splitlines() if line.startswith("<3>")]
    c.check("bgrt: no error in the daemon's log", not errors, "; ".join(errors[:3]))
    print(f"  bgrt: {time.monotonic() - began:.0f} s")
    print(f"{c.passed} passed, {c.failed} failed")
    return 0 if c.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

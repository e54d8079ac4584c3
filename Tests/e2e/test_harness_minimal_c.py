#!/usr/bin/env python3
"""End-to-end check of the QEMU display harness with the C reference client.

    python3 Tests/e2e/test_harness_minimal_c.py [--device VGA] [--device virtio-gpu-pci] [--keep-going]

Builds scripts/qemu/minimal-modeset.c statically, boots it under each display device, takes a
screenshot after its first frame and checks that the whole screen is 0x3498DB at the mode
size; then sends SIGTERM, checks that the saved CRTC was restored (the screen no longer shows
the blue buffer) and that the program exited cleanly. Needs scripts/qemu/fetch-deps.sh.
Screenshots and logs go to build/e2e/minimal-c/<device>/.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree

import png  # noqa: E402
import qemu_harness  # noqa: E402

COLOR = 0x3498DB

RED = 0xE74C3C
OUT = REPO / "build" / "e2e" / "minimal-c"

# name: (device, device args, expected mode size, needs DIRTYFB to show a front-buffer draw)
CASES = {
    "VGA": ("VGA", "xres=1024,yres=768", (1024, 768), False),
    "virtio-gpu-pci": ("virtio-gpu-pci", "xres=1024,yres=768", (1024, 768), True),
    # Extra cases, run with --device NAME:
    "VGA-default": ("VGA", "", (1280, 800), False),
    "bochs-display": ("bochs-display", "xres=800,yres=600", (800, 600), False),
    "virtio-vga": ("virtio-vga", "xres=1024,yres=768", (1024, 768), True),
}

GUEST_SCRIPT = f"""
spawn /tmp/mm.log /bin/minimal-modeset --color {COLOR:#08x}
mm=$SPAWNED_PID
wait_for_line /tmp/mm.log '^@@FIRST_FRAME_US' 30 || fail "minimal-modeset drew no frame"
shot filled
kill -TERM "$mm"
wait "$mm"
echo "@@MM_EXIT $?"
wait_for_line /tmp/mm.log '^@@RESTORED' 10 || fail "minimal-modeset did not restore the CRTC"
shot restored
# Negative control: draw red after the mode set but skip DIRTYFB. Drivers that scan out the
# dumb buffer directly (bochs) show it anyway; virtio-gpu must not (nothing is transferred to
# the host for it), which proves the screenshots follow the guest and are not stale or guessed.
spawn /tmp/nd.log /bin/minimal-modeset --no-dirty --color {RED:#08x}
nd=$SPAWNED_PID
wait_for_line /tmp/nd.log '^@@FIRST_FRAME_US' 30 || fail "minimal-modeset --no-dirty drew no frame"
shot nodirty
kill -TERM "$nd"
wait "$nd"
"""


def build_c_program(name: str = "minimal-modeset", libdrm: bool = True) -> Path:
    """scripts/qemu/NAME.c built static into build/e2e/NAME."""
    out = REPO / "build" / "e2e" / name
    out.parent.mkdir(parents=True, exist_ok=True)
    src = REPO / "scripts" / "qemu" / f"{name}.c"
    drm: list[str] = []
    if libdrm:
        drm = subprocess.run(["pkg-config", "--cflags", "libdrm"], capture_output=True,
                             text=True).stdout.split() or ["-I/usr/include/libdrm"]
        drm.append("-ldrm")
    cmd = ["gcc", "-O2", "-Wall", "-Wextra", "-static", "-o", str(out), str(src), *drm]
    subprocess.run(cmd, check=True)
    return out


class Checker:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def check(self, name: str, cond: bool, detail: str = "") -> bool:
        if cond:
            self.passed += 1
            print(f"  PASS {name}")
        else:
            self.failed += 1
            print(f"  FAIL {name}{': ' + detail if detail else ''}")
        return cond


def run_case(case: str, binary: Path, c: Checker) -> dict:
    device, args, expected, needs_dirty = CASES[case]
    out = OUT / case
    if out.exists():
        shutil.rmtree(out)
    print(f"== {case}: -device {device}{',' + args if args else ''}")
    r = qemu_harness.run(device=device, extra_device_args=args,
                         guest_files={"/bin/minimal-modeset": binary},
                         guest_script=GUEST_SCRIPT, out_dir=out, name=case, timeout=60)
    log = r["serial_log"]
    ok = c.check(f"{case}: guest script finished", r["ok"],
                 f"errors={r['errors']} exit={r['guest_exit']} (log {r['serial_log_path']})")
    if not ok:
        print("  --- last console lines ---")
        for line in log.splitlines()[-25:]:
            print("  | " + line)
    m = re.search(r"^@@MODE (\d+)x(\d+)", log, re.M)
    mode = (int(m.group(1)), int(m.group(2))) if m else None
    c.check(f"{case}: mode is {expected[0]}x{expected[1]}", mode == expected, f"got {mode}")

    shot = r["screenshots"].get("filled")
    if c.check(f"{case}: screenshot after the first frame", shot is not None):
        img = png.read(shot)
        d = png.check_solid(img, COLOR, size=mode or expected,
                            diff_path=out / "filled-diff.png")
        c.check(f"{case}: screen entirely #{COLOR:06X} at {img.width}x{img.height}", d.ok, str(d))
    shot = r["screenshots"].get("restored")
    if c.check(f"{case}: screenshot after SIGTERM", shot is not None):
        img = png.read(shot)
        d = png.check_solid(img, COLOR)
        c.check(f"{case}: saved CRTC restored (blue buffer gone)", d.count > 0,
                "screen still shows the program's buffer")
    shot = r["screenshots"].get("nodirty")
    if c.check(f"{case}: screenshot of the no-DIRTYFB run", shot is not None):
        d = png.check_solid(png.read(shot), RED)
        if needs_dirty:
            # Mostly nothing; once in a while a transfer for something else (it was rows 0 to
            # 243) carries part of the buffer along: never the whole frame.
            c.check(f"{case}: without DIRTYFB the red frame is not shown whole", d.count >= d.total // 4, str(d))
        else:
            c.check(f"{case}: scans out directly, red frame shown without DIRTYFB", d.ok, str(d))
    m = re.search(r"^@@MM_EXIT (\d+)", log, re.M)
    c.check(f"{case}: minimal-modeset exited 0 and restored", m is not None and m.group(1) == "0"
            and "@@RESTORED rc=0" in log, m.group(0) if m else "no @@MM_EXIT")

    t = r["timings"]
    g = {k: v for k, v in re.findall(r"^@@(FIRST_FRAME\w*) (\d+)", log, re.M)}
    print(f"  timings (host s since QEMU start): init {t.get('init_start')}, card {t.get('card_ready')}, "
          f"first screenshot {t['shots'].get('filled')}, done {t.get('done')}, total {t.get('total')}; "
          f"guest: card ready at uptime {r['guest_uptime'].get('card_ready')} s, "
          f"first frame {g.get('FIRST_FRAME_US')} us after main() "
          f"({g.get('FIRST_FRAME_SINCE_EXEC_US')} us after exec, uptime {g.get('FIRST_FRAME_UPTIME_US')} us)")
    return r


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--device", action="append", choices=sorted(CASES),
                    help="cases to run (default: VGA and virtio-gpu-pci)")
    a = ap.parse_args()
    cases = a.device or ["VGA", "virtio-gpu-pci"]
    c = Checker()
    t0 = time.monotonic()
    try:
        qemu_harness.make_initramfs.kernel_dir()
    except FileNotFoundError as e:
        print(f"  FAIL a kernel is cached: {e}")
        print("0 passed, 1 failed")
        return 1
    binary = build_c_program()
    c.check("minimal-modeset.c builds statically", binary.exists())
    for case in cases:
        run_case(case, binary, c)
    print(f"total {time.monotonic() - t0:.1f} s")
    print(f"{c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""skeletond on the firmware's framebuffer (vesafb) under QEMU, and its hand-over to DRM.

    python3 Tests/e2e/test_skeletond_fbdev.py

Debian's kernel has vesafb built in: booted the classic way (not PVH) with `vga=MODE` and the
bochs driver held back, the only display is /dev/fb0 ("VESA VGA") at the mode the VESA BIOS
set. Per depth (32 bpp: vga=0x344, 24 bpp packed: 0x318, 16 bpp RGB565: 0x317, all 1024x768,
and RGB565 once more with the picture turned by 90 degrees, laid out at 768x1024):
  1. `skeletond run --backend fbdev`: the screenshot equals `skeletond render` at 1024x768
     (at 16 bpp, the render quantised to RGB565 as the framebuffer holds it), with no console
     text or cursor over it;
  2. `skeletonctl update --tint`: the next screenshot equals the render with that tint;
  3. `skeletonctl hide`: the text console is back: the screen equals, pixel for pixel, the
     console as captured before the start (a line of text written to it, the cursor not
     blinking: `/sys/class/graphics/fbcon/cursor_blink` 0).
Then the hand-over (24 bpp): `--backend auto` takes /dev/fb0 since there is no DRM card; a tint
is sent; bochs is loaded (it removes vesafb) and the daemon moves to /dev/dri/card0 by itself,
without a present failing first: the screen equals the render with the tint at bochs's mode.
Then vesafb going under `--backend fbdev` (bochs loaded, its fbdev emulation a new /dev/fb0): the
next frame finds the device gone, the daemon says so and draws on the new /dev/fb0.
Then the boot record on the firmware's framebuffer (32 bpp), started as the initramfs starts it
(`SKELETOND_INITRAMFS=1`, a frame cache directory):
  1. a first boot: the daemon draws on vesafb with nothing prepared, bochs takes over, and at
     `hide` the entries and the record are written (with the mark that asks for the initramfs
     to be made again): the record names vesafb ("VESA VGA", 1024x768) beside bochs's outputs;
  2. a second boot with that record and its entries: the frame is on vesafb from the record
     before the settings are read (`from the boot record`; both boots' times from the process's
     start to the first frame are printed), the screen equals the render, nothing is written
     again, and at SIGTERM the console is back as it was before the start (the console the
     boot path quieted, adopted with the framebuffer);
  3. a boot with the record at another mode (vga=0x343, 800x600 at 32 bpp): the record is
     not shown there; the daemon draws at the new size.
Screenshots and logs go to build/e2e/fbdev/ (never committed).
"""

from __future__ import annotations

import base64
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
from console import CONSOLE_TEXT, console_is_back  # noqa: E402
from test_skeletond_rotation import turned  # noqa: E402

OUT = HERE.parents[1] / "build" / "e2e" / "fbdev"

# name: (vga= mode, bits per pixel the kernel reports, rotation)
DEPTHS = {"32bpp": ("0x344", 32, 0), "24bpp": ("0x318", 24, 0), "16bpp": ("0x317", 16, 0), "16bpp-turned": ("0x317", 16, 90)}
SIZE = (1024, 768)

RUN = ("/bin/skeletond run --config /etc/skeletond.json --layouts /layouts --layout solid "
       "--backend @BACKEND@ --log-level debug --frame-cache none --rotation @ROTATION@")

FBDEV_GUEST = r"""
ctl() { /bin/skeletonctl --socket /run/skeletond/control.sock "$@"; }
[ -e /dev/dri/card0 ] && fail "a DRM card exists: vesafb is not alone"
echo "@@FB $(cat /sys/class/graphics/fb0/name) $(cat /sys/class/graphics/fb0/bits_per_pixel)"
# Something on the console, and a cursor that does not blink: the console shot is then the one
# picture the screen must show again after the hide, pixel for pixel.
echo 0 > /sys/class/graphics/fbcon/cursor_blink || fail "cannot stop the cursor blinking"
printf '\n@CONSOLE_TEXT@\n' > /dev/tty1 || fail "cannot write to the console"
usleep 300000
shot console
export SWIFT_DETERMINISTIC_HASHING=1
spawn /tmp/d.log @RUN@
sd=$SPAWNED_PID
wait_for_line /tmp/d.log 'first frame on fbdev' 30 || fail "skeletond drew no frame on fbdev"
ctl show --wait || fail "show --wait failed"
usleep 700000
shot solid
ctl update --tint '@TINT@' || fail "update failed"
ctl ping
usleep 300000
shot tinted
ctl hide --transition none --wait || fail "hide failed"
usleep 500000
shot hidden
kill -TERM "$sd"; wait "$sd"; echo "@@SKELETOND_EXIT $?"
"""

HANDOVER_GUEST = r"""
ctl() { /bin/skeletonctl --socket /run/skeletond/control.sock "$@"; }
export SWIFT_DETERMINISTIC_HASHING=1
spawn /tmp/d.log @RUN@
sd=$SPAWNED_PID
wait_for_line /tmp/d.log 'first frame on fbdev' 30 || fail "skeletond drew no frame on fbdev"
usleep 500000
shot before
ctl update --tint '@TINT@' || fail "update failed"
usleep 300000
load_modules bochs
wait_for_line /tmp/d.log 'drm takes over from fbdev' 30 || fail "skeletond did not move to the DRM card"
ctl ping || fail "no ping after the hand-over"
usleep 700000
shot after
echo "@@STATUS $(ctl status --json)"
kill -TERM "$sd"; wait "$sd"; echo "@@SKELETOND_EXIT $?"
"""

# `--backend fbdev` on vesafb, then bochs loaded: vesafb is unregistered under the daemon, and
# bochs brings its own /dev/fb0 (the DRM driver's fbdev emulation). The next frame finds the
# device gone, and the daemon opens the framebuffer that is there now.
GONE_GUEST = r"""
ctl() { /bin/skeletonctl --socket /run/skeletond/control.sock "$@"; }
export SWIFT_DETERMINISTIC_HASHING=1
spawn /tmp/d.log @RUN@
sd=$SPAWNED_PID
wait_for_line /tmp/d.log 'first frame on fbdev' 30 || fail "skeletond drew no frame on fbdev"
usleep 500000
shot before
load_modules bochs
i=0
until [ -e /dev/dri/card0 ] && [ -e /dev/fb0 ] && [ "$(cat /sys/class/graphics/fb0/name)" != "VESA VGA" ]; do
    i=$((i + 1)); [ "$i" -gt 300 ] && fail "bochs brought no framebuffer of its own"; usleep 100000
done
echo "@@FB $(cat /sys/class/graphics/fb0/name)"
ctl update --tint '@TINT@' || fail "update failed"
wait_for_line /tmp/d.log 'the framebuffer went away' 30 || fail "skeletond did not see vesafb go"
ctl ping || fail "no ping after vesafb went"
usleep 700000
shot after
echo "@@STATUS $(ctl status --json)"
kill -TERM "$sd"; wait "$sd"; echo "@@SKELETOND_EXIT $?"
"""

RECORD_RUN = ("/bin/skeletond run --config /etc/skeletond.json --layouts /layouts --layout solid --backend auto "
              "--log-level debug --frame-cache /var/cache/skeletond")

# As the initramfs starts it (the hashing seed too: getrandom() would wait for the kernel's
# entropy): the entries and the record wait for the hide.
RECORD_FIRST_GUEST = r"""
ctl() { /bin/skeletonctl --socket /run/skeletond/control.sock "$@"; }
export SKELETOND_INITRAMFS=1 SWIFT_DETERMINISTIC_HASHING=1
spawn /tmp/d.log @RUN@
sd=$SPAWNED_PID
wait_for_line /tmp/d.log 'first frame on fbdev' 30 || fail "skeletond drew no frame on fbdev"
load_modules bochs
wait_for_line /tmp/d.log 'drm takes over from fbdev' 30 || fail "skeletond did not move to the DRM card"
ctl hide --retain --wait || fail "hide failed"
wait_for_line /tmp/d.log 'boot record: wrote' 30 || fail "skeletond wrote no boot record"
for f in /var/cache/skeletond/*; do echo "@@CACHE_FILE $(basename "$f") $(base64 "$f" | tr -d '\n')"; done
kill -TERM "$sd"; wait "$sd"; echo "@@SKELETOND_EXIT $?"
"""

RECORD_AGAIN_GUEST = r"""
ctl() { /bin/skeletonctl --socket /run/skeletond/control.sock "$@"; }
echo 0 > /sys/class/graphics/fbcon/cursor_blink || fail "cannot stop the cursor blinking"
printf '\n@CONSOLE_TEXT@\n' > /dev/tty1 || fail "cannot write to the console"
usleep 300000
shot console
export SKELETOND_INITRAMFS=1 SWIFT_DETERMINISTIC_HASHING=1
spawn /tmp/d.log @RUN@
sd=$SPAWNED_PID
wait_for_line /tmp/d.log 'first frame on fbdev' 30 || fail "skeletond drew no frame on fbdev"
ctl ping || fail "no ping"
usleep 500000
shot recorded
kill -TERM "$sd"; wait "$sd"; echo "@@SKELETOND_EXIT $?"
usleep 500000
shot after-term
"""

def record_boot(c: Checker, label: str, name: str, mode: str, guest: str, files: dict, out: Path) -> tuple[dict, str]:
    """One boot of the record case: its result and serial log (kept in `out`), checked to have
    run to the end with no error in the daemon's log."""
    r = boot(name, mode, guest, files, out)
    log = r["serial_log"]
    (out / "serial.txt").write_text(log)
    c.check(f"{label}: guest script ran to the end", r["ok"], "; ".join(r.get("errors", [])) + f" (log {out}/serial.txt)")
    errors = [line for line in log.splitlines() if line.startswith("<3>")]
    c.check(f"{label}: no error in the daemon's log", not errors, "; ".join(errors[:3]))
    return r, log


def check_console_back(c: Checker, label: str, r: dict, out: Path) -> None:
    """After SIGTERM the screen is the console as captured before the start, pixel for pixel."""
    if "after-term" not in r["screenshots"] or "console" not in r["screenshots"]:
        c.check(f"{label}: console and after-term screenshots taken", False)
        return
    ok, detail = console_is_back(png.read(r["screenshots"]["after-term"]), png.read(r["screenshots"]["console"]),
                                 out / "diff-after-term.png")
    print(f"  after SIGTERM vs the console before the start: {detail}")
    c.check(f"{label}: after SIGTERM the text console is back as it was before the start", ok, detail)


def first_frame_ms(log: str) -> float | None:
    """How long after its process's start the daemon's first frame was on screen."""
    m = re.search(r"first frame on fbdev \((\d+) ms after process start", log)
    return float(m.group(1)) if m else None


def quantised_565(img: png.Image) -> png.Image:
    """The picture as an RGB565 framebuffer holds it and QEMU shows it (bits repeated below)."""
    rgb = img.rgb()
    out = bytearray(rgb.data)
    lut5 = bytes(((v >> 3) << 3) | ((v >> 3) >> 2) for v in range(256))
    lut6 = bytes(((v >> 2) << 2) | ((v >> 2) >> 4) for v in range(256))
    out[0::3] = bytes(rgb.data[0::3]).translate(lut5)
    out[1::3] = bytes(rgb.data[1::3]).translate(lut6)
    out[2::3] = bytes(rgb.data[2::3]).translate(lut5)
    return png.Image(rgb.width, rgb.height, 3, bytes(out))


def boot(name: str, mode: str, guest: str, guest_files: dict, out: Path) -> dict:
    return qemu_harness.run(device="VGA", guest_files=guest_files, guest_script=guest, out_dir=out, name=name,
                            timeout=240, pvh=False, append=f"vga={mode}",
                            guest_config={"E2E_DEFER_MODULES": "bochs virtio_gpu", "E2E_WAIT_CARD": "0"})


def compare(c: Checker, label: str, r: dict, shot: str, expected: png.Image, out: Path) -> None:
    if shot not in r["screenshots"]:
        c.check(f"{label}: screenshot {shot} taken", False)
        return
    d = png.compare(png.read(r["screenshots"][shot]), expected, diff_path=out / f"diff-{shot}.png")
    print(f"  {shot} vs render: {d}")
    c.check(f"{label}: {shot} equals `skeletond render`", d.ok, str(d))


def run_depth(c: Checker, name: str) -> None:
    mode, bits, rotation = DEPTHS[name]
    out, layouts, guest_files = case_files(name, OUT)
    print(f"== vesafb {name}: vga={mode}, `--backend fbdev --rotation {rotation}`")
    guest = (FBDEV_GUEST.replace("@RUN@", RUN.replace("@BACKEND@", "fbdev").replace("@ROTATION@", str(rotation)))
             .replace("@TINT@", TINT).replace("@CONSOLE_TEXT@", CONSOLE_TEXT))
    r = boot(f"fbdev-{name}", mode, guest, guest_files, out)
    log = r["serial_log"]
    (out / "serial.txt").write_text(log)
    label = f"vesafb {name}"
    c.check(f"{label}: guest script ran to the end", r["ok"], "; ".join(r.get("errors", [])) + f" (log {out}/serial.txt)")
    fb = re.search(r"@@FB (.*) (\d+)\s*$", log, re.M)
    c.check(f"{label}: /dev/fb0 is vesafb at {bits} bpp", fb is not None and fb.group(1) == "VESA VGA" and int(fb.group(2)) == bits,
            fb.group(0) if fb else "no @@FB line")
    logical = (SIZE[1], SIZE[0]) if rotation in (90, 270) else SIZE
    plain = turned(host_render(layouts / "solid.json", logical, out / "expected.png"), rotation)
    tinted = turned(host_render(layouts / "solid.json", logical, out / "expected-tint.png", "--tint", TINT), rotation)
    if bits == 16:
        plain, tinted = quantised_565(plain), quantised_565(tinted)
    compare(c, label, r, "solid", plain, out)
    compare(c, label, r, "tinted", tinted, out)
    if "hidden" in r["screenshots"] and "console" in r["screenshots"]:
        hidden, console = png.read(r["screenshots"]["hidden"]), png.read(r["screenshots"]["console"])
        ok, detail = console_is_back(hidden, console, out / "diff-hidden.png")
        print(f"  hidden vs the console before the start: {detail}")
        c.check(f"{label}: after hide the text console is back as it was before the start", ok, detail)
    else:
        c.check(f"{label}: console and hidden screenshots taken", False)
    exit_line = re.search(r"@@SKELETOND_EXIT (\d+)", log)
    c.check(f"{label}: skeletond exited 0 on SIGTERM", exit_line is not None and exit_line.group(1) == "0")
    errors = [line for line in log.splitlines() if line.startswith("<3>")]
    c.check(f"{label}: no error in the daemon's log", not errors, "; ".join(errors[:3]))


def bochs_takes_over(c: Checker, name: str, label: str, backend: str, guest_text: str) -> tuple[dict, str, Path, Path]:
    """vesafb (vga=0x318) with `--backend BACKEND`, then bochs loaded: the boot, its log kept,
    the script's end and the frame before checked. Returns the run, its log, its directory and
    its layouts."""
    out, layouts, guest_files = case_files(name, OUT)
    guest = guest_text.replace("@RUN@", RUN.replace("@BACKEND@", backend).replace("@ROTATION@", "0")).replace("@TINT@", TINT)
    r = boot(f"fbdev-{name}", "0x318", guest, guest_files, out)
    log = r["serial_log"]
    (out / "serial.txt").write_text(log)
    c.check(f"{label}: guest script ran to the end", r["ok"], "; ".join(r.get("errors", [])) + f" (log {out}/serial.txt)")
    compare(c, label, r, "before", host_render(layouts / "solid.json", SIZE, out / "expected-before.png"), out)
    return r, log, out, layouts


def run_handover(c: Checker) -> None:
    print("== hand-over: vesafb (vga=0x318) with `--backend auto`, then bochs loaded")
    label = "hand-over"
    r, log, out, layouts = bochs_takes_over(c, "handover", label, "auto", HANDOVER_GUEST)
    c.check(f"{label}: no present failed before the move (the watch found the card)", "the display device went away" not in log)
    if "after" in r["screenshots"]:
        after = png.read(r["screenshots"]["after"])
        size = (after.width, after.height)
        c.check(f"{label}: bochs drives another mode than vesafb did", size != SIZE, f"{size}")
        compare(c, label, r, "after", host_render(layouts / "solid.json", size, out / "expected-after.png", "--tint", TINT), out)
    status = re.search(r"@@STATUS (\{.*\})", log)
    backend = json.loads(status.group(1)).get("backend") if status else None
    c.check(f"{label}: status reports the DRM display", backend == "drm", f"backend {backend}")
    errors = [line for line in log.splitlines() if line.startswith("<3>")]
    c.check(f"{label}: no error in the daemon's log", not errors, "; ".join(errors[:3]))


def run_gone(c: Checker) -> None:
    print("== fbdev gone: vesafb (vga=0x318) with `--backend fbdev`, then bochs loaded (vesafb unregistered)")
    label = "fbdev gone"
    r, log, out, layouts = bochs_takes_over(c, "gone", label, "fbdev", GONE_GUEST)
    said = [line for line in log.splitlines() if "the framebuffer went away" in line or "looking for another one" in line]
    c.check(f"{label}: the daemon says the framebuffer went away and looks for another", len(said) >= 2, "; ".join(said))
    if "after" in r["screenshots"]:
        after = png.read(r["screenshots"]["after"])
        size = (after.width, after.height)
        compare(c, label, r, "after", host_render(layouts / "solid.json", size, out / "expected-after.png", "--tint", TINT), out)
    status = re.search(r"@@STATUS (\{.*\})", log)
    outputs = json.loads(status.group(1)).get("outputs", []) if status else []
    drivers = [o.get("driver") for o in outputs]
    c.check(f"{label}: status reports bochs's framebuffer, not vesafb's", status is not None and drivers and "VESA VGA" not in drivers,
            f"{drivers}")
    errors = [line for line in log.splitlines() if line.startswith("<3>")]
    c.check(f"{label}: no error in the daemon's log", not errors, "; ".join(errors[:3]))


def run_record(c: Checker) -> None:
    out, layouts, guest_files = case_files("record", OUT)
    run = RECORD_RUN
    print("== boot record on vesafb (vga=0x344): a first boot writes it at hide, after bochs took over")
    label = "record, first boot"
    r, log = record_boot(c, label, "fbdev-record-first", "0x344", RECORD_FIRST_GUEST.replace("@RUN@", run), guest_files, out / "first")
    cache = {m.group(1): base64.b64decode(m.group(2)) for m in re.finditer(r"@@CACHE_FILE (\S+) (\S+)", log)}
    records = [bytes_ for name, bytes_ in cache.items() if name.endswith(".boot")]
    entries = [name for name in cache if name.endswith(".frame")]
    c.check(f"{label}: one boot record and the frame entries written", len(records) == 1 and 1 <= len(entries) <= 2, f"{sorted(cache)}")
    c.check(f"{label}: the record names vesafb at 1024x768 beside bochs's output",
            len(records) == 1 and records[0][:8] == b"SKBOOT03" and b"/dev/fb0" in records[0] and b"VESA VGA" in records[0]
            and b"/dev/dri/card0" in records[0])
    c.check(f"{label}: the initramfs is marked to be made again", "asks for the initramfs to be made again" in log)
    cold = first_frame_ms(log)
    if len(records) != 1:
        return
    files = dict(guest_files)
    for name, data in cache.items():
        files[f"/var/cache/skeletond/{name}"] = data
    expected = host_render(layouts / "solid.json", SIZE, out / "expected.png")

    print("== boot record on vesafb: a second boot shows it before the settings are read; SIGTERM gives the console back")
    guest = RECORD_AGAIN_GUEST.replace("@RUN@", run).replace("@CONSOLE_TEXT@", CONSOLE_TEXT)
    label = "record, second boot"
    r, log = record_boot(c, label, "fbdev-record-again", "0x344", guest, files, out / "again")
    c.check(f"{label}: the first frame came from the boot record", "first frame on fbdev (" in log and "from the boot record)" in log)
    recorded = first_frame_ms(log)
    print(f"  first frame after the process's start: {recorded} ms from the record, {cold} ms with nothing prepared")
    c.check(f"{label}: nothing was written again", "frame cache: wrote" not in log and "boot record: wrote" not in log)
    compare(c, label, r, "recorded", expected, out / "again")
    check_console_back(c, label, r, out / "again")
    exit_line = re.search(r"@@SKELETOND_EXIT (\d+)", log)
    c.check(f"{label}: skeletond exited 0 on SIGTERM", exit_line is not None and exit_line.group(1) == "0")

    print("== boot record on vesafb: a boot at another mode (vga=0x343, 800x600) does not show it")
    label = "record, another mode"
    r, log = record_boot(c, label, "fbdev-record-other-mode", "0x343", guest, files, out / "other-mode")
    c.check(f"{label}: the record was not shown", "first frame on fbdev (" in log and "from the boot record" not in log)
    compare(c, label, r, "recorded", host_render(layouts / "solid.json", (800, 600), out / "expected-800x600.png"), out / "other-mode")
    check_console_back(c, label, r, out / "other-mode")


def main() -> int:
    if static_tools_missing():
        return 1
    c = Checker()
    for name in DEPTHS:
        run_depth(c, name)
    run_handover(c)
    run_gone(c)
    run_record(c)
    print(f"{c.passed} passed, {c.failed} failed")
    return 0 if c.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

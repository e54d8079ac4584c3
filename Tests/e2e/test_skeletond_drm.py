#!/usr/bin/env python3
"""skeletond on real kernel DRM drivers, booted under QEMU (issue 4's end-to-end test).

    python3 Tests/e2e/test_skeletond_drm.py [--device VGA] [--device virtio-gpu-pci]

Needs build/static/skeletond and skeletonctl (scripts/build-static.sh), the host build's
.build/debug/skeletond for reference renders, and scripts/qemu/fetch-deps.sh. Per device it
boots once and runs, in the guest:
  1. the C reference program (a mode set and one fill) for the start-up comparison;
  2. skeletond with a solid, static layout: the screenshot must equal `skeletond render` at the
     output's mode, pixel for pixel (with xres/yres unlike the design size: the scale rule);
  3. `skeletonctl update --tint`: the next screenshot equals the render with that tint;
  4. an animated gradient: two screenshots a moment apart differ, only inside skeleton shapes;
     a small shape pulsing (its frames written into the buffer on screen, not flipped): the
     same, inside that shape;
     then short sweeps with long pauses (shown again so that the cycle starts at a known time):
     after two sweeps' frames drawn through the back buffer (damage only), each of three
     screenshots in the second pause (each taken in a pause, by the guest's clock) equals the
     render, pixel for pixel;
  5. `skeletonctl hide` (no retain): the console that was there before is back;
     `show` again, then `hide --retain`: the last frame stays;
  6. SIGTERM while animating: the saved CRTC (the console) is back, no error in the log.
The first start of each boot finds no frame cache, draws, and writes the cache entry and its
boot record (printed to the host). Three more boots (bochs) start with an entry prepared on the
host by `skeletond cache`, as an image builder would: the first shows it before parsing the
layout; the second also has the boot plan `skeletond cache` wrote for the guest's command line,
shows the entry before it reads its settings, with the outputs chosen at boot, and writes the
boot record over the plan (the same record as the bochs boot's); the third has the boot record
the bochs boot wrote instead, and shows the entry before it reads its settings. Each time the
screen equals the render and SIGTERM brings the console back.
A last boot has that record but a screen that prefers 1280x800: the record is refused before any
mode is set, the daemon draws at the new size and writes a new record.
One more boot (bochs at 1280x800) runs `skeletond cache --size auto` in the guest, as `make
install` does, and the start after it shows that entry from the boot plan.
Screenshots and logs go to build/e2e/skeletond/<device>/ (never committed).
"""

from __future__ import annotations

import argparse
import base64
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True

import png  # noqa: E402
import qemu_harness  # noqa: E402
from console import CONSOLE_TEXT, console_is_back  # noqa: E402
from test_harness_minimal_c import Checker, build_c_program  # noqa: E402

OUT = REPO / "build" / "e2e" / "skeletond"
HOST_TOOL = REPO / ".build" / "debug" / "skeletond"
STATIC = REPO / "build" / "static"

SOLID = {
    "name": "solid",
    "canvas": {"width": 1280, "height": 720, "background": "#FFFFFF", "scale": "fit"},
    "appearance": {"tint": "clouds"},
    "presentation": {"style": "solid", "animated": False, "transition": {"kind": "none"}},
    "root": {"kind": "view", "children": [
        {"kind": "view", "frame": [0, 0, "100%", 64], "skeletonable": False, "background": "#2C3E50"},
        {"kind": "image", "frame": [40, 96, 120, 120], "shape": "circle"},
        {"kind": "text", "frame": [184, 100, 560, 110], "lines": "auto", "linesCornerRadius": 5},
        {"kind": "list", "frame": [40, 240, 700, "fill"], "rowHeight": 88, "row": {"kind": "view", "children": [
            {"kind": "image", "frame": [0, 12, 64, 64], "shape": "circle"},
            {"kind": "text", "frame": [84, 14, "fill", 60], "lines": 2}]}},
        {"kind": "grid", "frame": [780, 96, "fill", "fill"], "itemSize": [220, 160], "spacing": [20, 20],
         "cornerRadius": 12},
    ]},
}
ANIMATED = dict(SOLID, name="animated",
                presentation={"style": "gradient", "animated": True,
                              "animation": {"direction": "leftRight", "duration": 1.5},
                              "transition": {"kind": "none"}})
# Short sweeps and long pauses: in a pause the band is off every shape, so the screen must equal
# the render exactly, whatever the frames drawn before it left behind. The cycle (0.4 s of sweep,
# 3.6 s of pause) starts when the skeleton is shown; the guest shows it again with this layout in
# force, between two marks, and takes its shots in the second pause (4.4 to 8 s after the show).
PAUSED = dict(SOLID, name="paused",
              presentation={"style": "gradient", "animated": True,
                            "animation": {"direction": "leftRight", "duration": 0.4, "pause": 3.6},
                            "transition": {"kind": "none"}})
PAUSED_AT = 1.0  # seconds into the cycle: in the pause
PAUSED_SWEEP, PAUSED_PERIOD = 0.4, 4.0
# After a sweep ends, the frame that shows its end (the band off every shape) is drawn at the next
# tick of the frame clock: well within this (under TCG, frames come every 16 to 50 ms).
PAUSED_SETTLE = 0.25
PAUSE_SHOTS = ("pause1", "pause2", "pause3")
# Another background under the same shapes, shown with a quarter-second dissolve: the last frame
# of the dissolve must be this layout exactly, not the 99 % frame before it.
DISSOLVE = dict(SOLID, name="dissolve", canvas=dict(SOLID["canvas"], background="#D6EAF8"),
                presentation={"style": "solid", "animated": False,
                              "transition": {"kind": "crossDissolve", "duration": 0.25}})
TINT = "#E74C3C"
# One small shape pulsing: each frame changes less than 1/64 of the screen and is written into
# the buffer on screen (InPlaceWrites.share), with DIRTYFB over it on virtio-gpu.
PULSE_SHAPE = [620, 340, 40, 40]
PULSE = dict(SOLID, name="pulse",
             presentation={"style": "solid", "animated": True, "transition": {"kind": "none"}},
             root={"kind": "view", "children": [{"kind": "view", "frame": PULSE_SHAPE}]})

# name: (device, device args, the mode the output should get)
CASES = {
    "VGA": ("VGA", "xres=1024,yres=768", (1024, 768)),
    "virtio-gpu-pci": ("virtio-gpu-pci", "", None),
}

# The framebuffer the primary plane scans out, as the kernel's DRM state says (debugfs), read
# six times 70 ms apart: frames flipped show both buffers, frames written in place one.
SCANNED_OUT = r"""
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
scanned_out() {
    fbs=""
    for i in 1 2 3 4 5 6; do
        fbs="$fbs $(sed -n 's/^[[:space:]]*fb=\([0-9]*\)$/\1/p' /sys/kernel/debug/dri/0/state | head -1)"
        usleep 70000
    done
    echo "@@SCANNED_OUT_$1$fbs"
}
"""

# The C reference (a mode set and one fill), then skeletond started the same way: each the first
# program of its kind in the boot, so both start cold, as at a real boot.
START_BOTH = r"""
spawn /tmp/mm.log @TIMED@/bin/minimal-modeset --color 0x3498db
mm=$SPAWNED_PID
@QUIET@wait_for_line /tmp/mm.log '^@@FIRST_FRAME_US' 30 || fail "the C reference drew nothing"
kill -TERM "$mm"; wait "$mm"
wait_for_line /tmp/mm.log '^@@RESTORED' 10 || fail "the C reference did not restore the CRTC"
export SWIFT_DETERMINISTIC_HASHING=1
spawn /tmp/d.log @TIMED@/bin/skeletond @RUN@
sd=$SPAWNED_PID
@QUIET@wait_for_line /tmp/d.log 'first frame on drm' 30 || fail "skeletond drew no frame"
"""




def run_arguments(log_level: str = "debug") -> list[str]:
    """The guest's `skeletond` command line (without the program), as START_BOTH runs it."""
    return ["run", "--config", "/etc/skeletond.json", "--layouts", "/layouts", "--layout", "solid",
            "--backend", "drm", "--log-level", log_level, "--frame-cache", "/var/cache/skeletond"]


def start_both(log_level: str = "debug", timed: bool = False) -> str:
    """START_BOTH; `timed`: each program started through /bin/exec-timed (its start to the
    microsecond), nothing else run in the guest for a second after it (the polls' programs
    would share its CPU), and skeletond's /proc/PID/stat printed (start_up_figures)."""
    script = (START_BOTH.replace("@RUN@", " ".join(run_arguments(log_level)))
              .replace("@TIMED@", "/bin/exec-timed " if timed else "")
              .replace("@QUIET@", "usleep 1000000\n" if timed else ""))
    return script + ('read -r stat < "/proc/$sd/stat"; echo "@@SKELETOND_STAT $stat"\n' if timed else "")


# The console with a line of text on it (an empty console is all black, and so is a broken
# screen), in the shot the screen must equal again when the console is back (console_is_back).
CONSOLE_SHOT = f"""printf '\\n{CONSOLE_TEXT}\\n' > /dev/tty1 || fail "cannot write to the console"
usleep 300000
shot console
"""


# After a start without a boot record: waits for the one it writes and prints it for the host.
PRINT_BOOT_RECORD = r"""
wait_for_line /tmp/d.log 'boot record: wrote' 30 || fail "skeletond wrote no boot record"
for f in /var/cache/skeletond/*.boot; do echo "@@BOOT_RECORD $(basename "$f") $(base64 "$f" | tr -d '\n')"; done
"""


def boot_record(log: str) -> tuple[str, bytes] | None:
    """The boot record a guest printed (PRINT_BOOT_RECORD): its file name and bytes."""
    m = re.search(r"@@BOOT_RECORD (\S+\.boot) (\S+)", log)
    return (m.group(1), base64.b64decode(m.group(2))) if m else None


GUEST = r"""
ctl() { /bin/skeletonctl --socket /run/skeletond/control.sock "$@"; }
""" + SCANNED_OUT + CONSOLE_SHOT + start_both() + r"""
wait_for_line /tmp/d.log 'frame cache: wrote' 30 || fail "skeletond wrote no frame cache entry"
""" + PRINT_BOOT_RECORD + r"""
ctl ping || fail "no ping"
echo "@@STATUS $(ctl status --json)"
shot solid
ctl update --tint '@TINT@' || fail "update failed"
ctl ping
shot tinted
ctl show dissolve || fail "the switch to a layout with a dissolve failed"
usleep 1500000
shot dissolved
ctl update animated || fail "switch to the animated layout failed"
ctl ping
shot anim1
usleep 300000
shot anim2
scanned_out ANIM
ctl show pulse --transition none --wait || fail "show pulse failed"
usleep 200000
shot pulse1
usleep 300000
shot pulse2
scanned_out PULSE
ctl update paused || fail "switch to the paused sweep failed"
# Shown again with the paused sweep in force (and the tint): its cycle starts between the marks.
ctl hide --transition none --wait || fail "hide before the paused sweep failed"
mark paused-show
ctl show --transition none --wait || fail "show with the paused sweep failed"
mark paused-shown
usleep 4900000
shot pause1
usleep 600000
shot pause2
usleep 600000
shot pause3
ctl hide --transition none --wait || fail "hide failed"
shot hidden
# The display is free after a hide: another program takes it (as a display manager would).
spawn /tmp/other.log /bin/minimal-modeset --color 0x27ae60
other=$SPAWNED_PID
wait_for_line /tmp/other.log '^@@FIRST_FRAME_US' 30 || fail "another program could not take the display after hide"
shot other-after-hide
kill -TERM "$other"; wait "$other"
ctl show solid --tint clouds --style solid --no-animated --transition none --wait || fail "show again failed"
shot shown-again
ctl hide --retain || fail "hide --retain failed"
shot retained
echo "@@RETAINED_A $(ctl status --json)"
usleep 300000
echo "@@RETAINED_B $(ctl status --json)"
# hide --retain dropped master: the next program takes the display from the retained frame.
spawn /tmp/next.log /bin/minimal-modeset --color 0x8e44ad
next=$SPAWNED_PID
wait_for_line /tmp/next.log '^@@FIRST_FRAME_US' 30 || fail "the next program could not take the display after hide --retain"
shot next-after-retain
kill -TERM "$next"; wait "$next"
ctl show animated --style gradient --animated --transition none --wait || fail "show animated failed"
usleep 200000
kill -TERM "$sd"; wait "$sd"; echo "@@SKELETOND_EXIT $?"
shot after-term
"""


LATE_GUEST = r"""
ctl() { /bin/skeletonctl --socket /run/skeletond/control.sock "$@"; }
export SWIFT_DETERMINISTIC_HASHING=1
[ -e /dev/dri/card0 ] && fail "a card exists before the driver was loaded"
spawn /tmp/d.log /bin/skeletond run --config /etc/skeletond.json --layouts /layouts --layout solid \
    --backend drm --log-level debug
wait_for_line /tmp/d.log 'waiting up to' 30 || fail "skeletond did not say it waits for a display"
ctl ping || fail "the control socket does not answer while waiting for a display"
ctl update --tint '@TINT@' || fail "an update while waiting was refused"
echo "@@WAITING $(ctl status --json)"
load_modules bochs
wait_for_line /tmp/d.log 'first frame on drm' 30 || fail "no frame once the driver appeared"
ctl show --wait
shot late
"""


def case_files(name: str, out_root: Path = OUT, settings: bytes = b"{}") -> tuple[Path, Path, dict]:
    """A boot's work directory (`out_root`/`name`), its layouts directory (the solid layout) and
    the guest's files: both static tools, that layout and the settings."""
    out = out_root / name
    layouts = out / "layouts"
    layouts.mkdir(parents=True, exist_ok=True)
    (layouts / "solid.json").write_text(json.dumps(SOLID))
    files = {
        "/bin/skeletond": (STATIC / "skeletond", 0o755),
        "/bin/skeletonctl": (STATIC / "skeletonctl", 0o755),
        "/layouts/solid.json": layouts / "solid.json",
        "/etc/skeletond.json": settings,
    }
    return out, layouts, files


def static_tools_missing() -> bool:
    """True, with a line saying what to do, when the static executables are not built."""
    for tool in ("skeletond", "skeletonctl"):
        if not (STATIC / tool).exists():
            print(f"missing {STATIC / tool}: run scripts/build-static.sh first")
            return True
    return False


def run_late_display(c: Checker) -> None:
    """Issue 4: no card at start (the driver loads late); the socket answers meanwhile and a
    command sent then takes effect when the display appears."""
    out, layouts, files = case_files("late-display")
    print("== late display: bochs loaded only after skeletond started")
    r = qemu_harness.run(device="VGA", extra_device_args="xres=1024,yres=768", guest_files=files,
                         guest_script=LATE_GUEST.replace("@TINT@", TINT), out_dir=out, name="late-display",
                         timeout=240, append="vt.global_cursor_default=0",
                         guest_config={"E2E_DEFER_MODULES": "bochs", "E2E_WAIT_CARD": "0"})
    log = r["serial_log"]
    (out / "serial.txt").write_text(log)
    c.check("late display: guest script ran to the end", r["ok"], "; ".join(r.get("errors", [])) + f" (log {out}/serial.txt)")
    waiting = re.search(r"@@WAITING (\{.*\})", log)
    status = json.loads(waiting.group(1)) if waiting else {}
    c.check("late display: while waiting, status answers with no output", status.get("outputs") == [] and status.get("state") == "showing",
            str(status)[:200])
    if "late" not in r["screenshots"]:
        c.check("late display: screenshot taken", False)
        return
    shot = png.read(r["screenshots"]["late"])
    size = (shot.width, shot.height)
    expected = host_render(layouts / "solid.json", size, out / "expected-late.png", "--tint", TINT)
    d = png.compare(shot, expected, diff_path=out / "diff-late.png")
    print(f"  once the card appeared, vs render --tint {TINT}: {d}")
    c.check("late display: the skeleton appears with the update sent while waiting", d.ok, str(d))


CACHED_GUEST = CONSOLE_SHOT + start_both(timed=True) + r"""
/bin/skeletonctl --socket /run/skeletond/control.sock ping || fail "no ping"
shot cached
kill -TERM "$sd"; wait "$sd"; echo "@@SKELETOND_EXIT $?"
shot after-term
"""


def read_frame_entry(path: Path) -> png.Image:
    """A frame cache entry (`SKFRAME1`, width, height, XRGB8888 rows) as an RGB image."""
    data = path.read_bytes()
    assert data[:8] == b"SKFRAME1", f"{path}: not a frame cache entry"
    width, height = int.from_bytes(data[8:12], "little"), int.from_bytes(data[12:16], "little")
    pixels = data[16:]
    assert len(pixels) == width * height * 4, f"{path}: {len(pixels)} bytes of pixels for {width}x{height}"
    rgb = bytearray(width * height * 3)
    rgb[0::3] = pixels[2::4]
    rgb[1::3] = pixels[1::4]
    rgb[2::3] = pixels[0::4]
    return png.Image(width, height, 3, bytes(rgb))


def run_cached_start(c: Checker, c_binary: Path, record: tuple[str, bytes] | None) -> dict:
    """Boots whose frame cache was prepared on the host (`skeletond cache`, with the same static
    executable): the daemon shows the entry before it parses the layout; with the boot record a
    bochs boot wrote (`record`), before it reads its settings."""
    out = OUT / "cached-start"
    out.mkdir(parents=True, exist_ok=True)
    layouts = out / "layouts"
    layouts.mkdir(exist_ok=True)
    (layouts / "solid.json").write_text(json.dumps(SOLID))
    (out / "settings.json").write_text("{}")
    cache = out / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    size = (1024, 768)
    # As an image builder would, with the guest's command line: the entry and a boot plan.
    made = subprocess.run([str(STATIC / "skeletond"), "cache", "--config", str(out / "settings.json"), "--layouts", str(layouts),
                           "--layout", "solid", "--size", f"{size[0]}x{size[1]}", "--frame-cache", str(cache),
                           "--", *run_arguments()], capture_output=True, text=True)
    entries = sorted(cache.glob("*.frame"))
    plans = sorted(cache.glob("*.boot"))
    c.check("cached start: `skeletond cache` wrote an entry and a boot plan on the host",
            made.returncode == 0 and len(entries) == 1 and len(plans) == 1 and plans[0].read_bytes()[:8] == b"SKBOOT03",
            made.stderr)
    if not entries or not plans:
        return {}
    expected = host_render(layouts / "solid.json", size, out / "expected.png")
    d = png.compare(read_frame_entry(entries[0]), expected, diff_path=out / "diff-entry.png")
    print(f"  cache entry {entries[0].name} vs render {size[0]}x{size[1]}: {d}")
    c.check("cached start: the entry equals `skeletond render`", d.ok, str(d))
    files = {
        "/bin/skeletond": (STATIC / "skeletond", 0o755),
        "/bin/skeletonctl": (STATIC / "skeletonctl", 0o755),
        "/bin/minimal-modeset": (c_binary, 0o755),
        "/bin/exec-timed": (build_c_program("exec-timed", libdrm=False), 0o755),
        "/layouts/solid.json": layouts / "solid.json",
        "/etc/skeletond.json": b"{}",
        f"/var/cache/skeletond/{entries[0].name}": entries[0],
    }
    figures = {}
    figures["another monitor"] = run_changed_monitor(c, files, record, layouts)
    planned = dict(files)
    planned[f"/var/cache/skeletond/{plans[0].name}"] = plans[0]
    for label, source in (("cached start", "the frame cache"), ("boot plan start", "the boot plan"),
                          ("boot record start", "the boot record")):
        if source == "the boot record":
            if record is None:
                c.check(f"{label}: a boot record from the bochs boot", False, "the bochs case wrote none")
                break
            files[f"/var/cache/skeletond/{record[0]}"] = record[1]
        print(f"== {label}: -device VGA,xres=1024,yres=768, with the entry prepared on the host"
              + {"the boot plan": " and its boot plan", "the boot record": " and the boot record of the bochs boot"}.get(source, ""))
        case = out / ("with-" + source.removeprefix("the ").replace(" ", "-"))
        guest = CACHED_GUEST.replace("shot cached", PRINT_BOOT_RECORD + "shot cached") if source == "the boot plan" else CACHED_GUEST
        r = qemu_harness.run(device="VGA", extra_device_args="xres=1024,yres=768", guest_files=planned if source == "the boot plan" else files,
                             guest_script=guest,
                             out_dir=case, name=label.replace(" ", "-"), timeout=240, append="vt.global_cursor_default=0")
        log = r["serial_log"]
        (case / "serial.txt").write_text(log)
        c.check(f"{label}: guest script ran to the end", r["ok"], "; ".join(r.get("errors", [])) + f" (log {case}/serial.txt)")
        c.check(f"{label}: the first frame came from {source}", f"from {source})" in log)
        c.check(f"{label}: the entry was not written again", "frame cache: wrote" not in log)
        if source == "the frame cache":
            c.check(f"{label}: the boot record was written", "boot record: wrote" in log)
        elif source == "the boot plan":
            # Over the plan: the same name, now a record of what the start drove.
            written = boot_record(log)
            c.check(f"{label}: the boot record was written over the plan", written is not None and written[0] == plans[0].name
                    and written[1][:8] == b"SKBOOT03" and len(re.findall(r"@@BOOT_RECORD ", log)) == 1,
                    f"printed: {written[0] if written else None}")
            if record is not None and written is not None:
                c.check(f"{label}: that record is the one a start without a plan writes", written[1] == record[1])
        else:
            c.check(f"{label}: the boot record was not written again", "boot record: wrote" not in log)
        if "cached" in r["screenshots"]:
            d = png.compare(png.read(r["screenshots"]["cached"]), expected, diff_path=case / "diff-cached.png")
            print(f"  screen vs render: {d}")
            c.check(f"{label}: the screen equals the render", d.ok, str(d))
        else:
            c.check(f"{label}: screenshot taken", False)
        errors = [l for l in log.splitlines() if l.startswith("<3>")]
        c.check(f"{label}: no error in the daemon's log", not errors, "; ".join(errors[:3]))
        exit_line = re.search(r"@@SKELETOND_EXIT (\d+)", log)
        c.check(f"{label}: skeletond exited 0 on SIGTERM", exit_line is not None and exit_line.group(1) == "0")
        # The CRTC saved before the first mode set (by the boot path, for the record) is the console.
        if "console" in r["screenshots"] and "after-term" in r["screenshots"]:
            ok, d = console_is_back(png.read(r["screenshots"]["after-term"]), png.read(r["screenshots"]["console"]),
                                    case / "diff-after-term.png")
            print(f"  after SIGTERM vs the console before start: {d}")
            c.check(f"{label}: SIGTERM puts the console back", ok, d)
        else:
            c.check(f"{label}: console screenshots taken", False)
        figures[source] = start_up_figures(log)
        timed = figures[source]
        c.check(f"{label}: both starts timed from their exec (exec-timed) to the first frame",
                len(re.findall(r"@@EXEC_BOOTTIME_US \d+", log)) == 2 and "@@SKELETOND_STAT" in log
                and 0 < timed.get("c_first_frame_ms", 0) < 5000 and 0 < timed.get("skeletond_first_frame_ms", 0) < 5000, str(timed))
        print(f"  exec to first frame: C reference (a mode set and one fill) "
              f"{timed.get('c_first_frame_ms', 0):.1f} ms, skeletond from {source} {timed.get('skeletond_first_frame_ms', 0):.1f} ms")
        print(f"  skeletond start-up steps: {'; '.join(re.findall(r'start-up: (.*)', log))}")
    return figures


def check_1280x800_start(c: Checker, label: str, r: dict, out: Path, layouts: Path) -> None:
    """A CACHED_GUEST boot at 1280x800: the screen equals the render at that size, SIGTERM puts
    the console back, and the daemon logged no error."""
    shots = {k: png.read(v) for k, v in r["screenshots"].items()}
    if "cached" in shots:
        expected = host_render(layouts / "solid.json", (1280, 800), out / "expected.png")
        d = png.compare(shots["cached"], expected, diff_path=out / "diff.png")
        print(f"  screen vs render 1280x800: {d}")
        c.check(f"{label}: the screen equals the render at 1280x800", d.ok, str(d))
    if "console" in shots and "after-term" in shots:
        ok, d = console_is_back(shots["after-term"], shots["console"], out / "diff-after-term.png")
        c.check(f"{label}: SIGTERM puts the console back", ok, d)
    else:
        c.check(f"{label}: screenshots taken", False, f"got {sorted(shots)}")
    errors = [l for l in r["serial_log"].splitlines() if l.startswith("<3>")]
    c.check(f"{label}: no error in the daemon's log", not errors, "; ".join(errors[:3]))


def run_prepared_in_guest(c: Checker) -> None:
    """`skeletond cache --size auto` on the machine itself (as `make install` and
    skeletond-cache.service run it), with the command line the daemon will start with, while
    another program holds the display (DRM master, its own mode and picture): the outputs' sizes
    are read from the kernel all the same, and the next start shows the frame from the boot plan
    before it reads its settings."""
    label = "prepared in the guest"
    out, layouts, files = case_files("prepared-in-guest")
    files["/bin/minimal-modeset"] = (build_c_program(), 0o755)
    files["/bin/exec-timed"] = (build_c_program("exec-timed", libdrm=False), 0o755)
    prepare = (r"""spawn /tmp/holder.log /bin/minimal-modeset --color 0x202020
holder=$SPAWNED_PID
wait_for_line /tmp/holder.log '^@@FIRST_FRAME_US' 30 || fail "the program holding the display drew nothing"
/bin/skeletond cache --config /etc/skeletond.json --layouts /layouts --layout solid --size auto """
               "--frame-cache /var/cache/skeletond -- " + " ".join(run_arguments()) + r""" > /tmp/cache.out 2>&1
echo "@@CACHE_EXIT $?"
while read -r line; do echo "@@CACHE_OUT $line"; done < /tmp/cache.out
kill -0 "$holder" && echo "@@HOLDER_RAN_THROUGH"
kill -TERM "$holder"; wait "$holder"
""")
    print("== prepared in the guest: -device VGA,xres=1280,yres=800, `skeletond cache --size auto` before the start, "
          "while another program holds the display")
    r = qemu_harness.run(device="VGA", extra_device_args="xres=1280,yres=800", guest_files=files,
                         guest_script=CACHED_GUEST.replace("shot console\n", "shot console\n" + prepare, 1),
                         out_dir=out, name="prepared-in-guest", timeout=240, append="vt.global_cursor_default=0")
    log = r["serial_log"]
    (out / "serial.txt").write_text(log)
    c.check(f"{label}: guest script ran to the end", r["ok"], "; ".join(r.get("errors", [])) + f" (log {out}/serial.txt)")
    written = re.findall(r"@@CACHE_OUT (\S+)", log)
    c.check(f"{label}: `skeletond cache --size auto` wrote the entry of the screen's size and a boot plan",
            "@@CACHE_EXIT 0" in log and len(written) == 2 and written[0].endswith("-1280x800.frame") and written[1].endswith(".boot"),
            f"printed {written}")
    c.check(f"{label}: the program holding the display kept it while `skeletond cache` ran", "@@HOLDER_RAN_THROUGH" in log)
    c.check(f"{label}: the first frame came from the boot plan", "from the boot plan)" in log)
    check_1280x800_start(c, label, r, out, layouts)


def run_changed_monitor(c: Checker, files: dict, record: tuple[str, bytes] | None, layouts: Path) -> dict:
    """The boot record of a 1024x768 screen on a boot whose screen prefers 1280x800 (another
    monitor): the record must not be replayed; the daemon draws at the new size, writes a new
    record, and puts the console back at SIGTERM."""
    label = "another monitor"
    if record is None:
        c.check(f"{label}: a boot record from the bochs boot", False, "the bochs case wrote none")
        return {}
    out = OUT / "cached-start" / "another-monitor"
    out.mkdir(parents=True, exist_ok=True)
    files = dict(files)
    files[f"/var/cache/skeletond/{record[0]}"] = record[1]
    print("== another monitor: -device VGA,xres=1280,yres=800, with the boot record of a 1024x768 boot")
    r = qemu_harness.run(device="VGA", extra_device_args="xres=1280,yres=800", guest_files=files,
                         guest_script=CACHED_GUEST.replace("shot cached", PRINT_BOOT_RECORD + "shot cached"),
                         out_dir=out, name="another-monitor", timeout=240, append="vt.global_cursor_default=0")
    log = r["serial_log"]
    (out / "serial.txt").write_text(log)
    c.check(f"{label}: guest script ran to the end", r["ok"], "; ".join(r.get("errors", [])) + f" (log {out}/serial.txt)")
    # Refused before a mode was set (the preferred mode changed), not set and then taken back.
    c.check(f"{label}: the record was not replayed", "first frame on drm (" in log and "from the boot record" not in log
            and "boot record: the display is not driven as recorded" not in log)
    written = boot_record(log)
    c.check(f"{label}: a new record replaced it", written is not None and written[1] != record[1]
            and len(re.findall(r"@@BOOT_RECORD ", log)) == 1)
    check_1280x800_start(c, label, r, out, layouts)
    return start_up_figures(log)


def start_up_figures(log: str) -> dict:
    """Start to first frame, in ms: the C reference's and skeletond's; from a guest of
    start_both(timed=True) to the microsecond (skeletond's to the millisecond its log gives),
    else to the 10 ms grain of /proc's start time."""
    starts = [int(m.group(1)) for m in re.finditer(r"@@EXEC_BOOTTIME_US (\d+)", log)]
    frame = re.search(r"@@FIRST_FRAME_UPTIME_US (\d+)", log)
    age = re.search(r"first frame on drm \((\d+) ms after process start", log)
    stat = re.search(r"@@SKELETOND_STAT \d+ \(.*\) (.*)", log)
    if len(starts) == 2 and frame and age and stat:
        # The daemon's age counts from /proc's start time (field 22, in clock ticks of 10 ms).
        started_ticks = int(stat.group(1).split()[19])
        return {"c_first_frame_ms": (int(frame.group(1)) - starts[0]) / 1000,
                "skeletond_first_frame_ms": started_ticks * 10 + int(age.group(1)) - starts[1] / 1000}
    figures = {}
    m = re.search(r"@@FIRST_FRAME_SINCE_EXEC_US (\d+)", log)
    if m:
        figures["c_first_frame_ms"] = int(m.group(1)) / 1000
    m = re.search(r"first frame on drm \((\d+) ms after process start", log)
    if m:
        figures["skeletond_first_frame_ms"] = int(m.group(1))
    return figures


def pause_windows(log: str, marks: dict) -> dict[str, tuple[float, float] | None]:
    """For each pause shot, the span of times into the paused sweep's cycle that the picture it
    got can be from: from its request (@@SHOT's uptime) less the end of the show (mark
    paused-shown), to its acknowledgement (@@SHOT_OK's uptime) less the start of the show (mark
    paused-show); the cycle starts when the daemon shows, between the two marks."""
    shown_from, shown_to = marks.get("paused-show"), marks.get("paused-shown")
    asked = {m.group(1): float(m.group(2)) for m in re.finditer(r"@@SHOT (\S+) ([\d.]+)", log)}
    done = {m.group(1): float(m.group(2)) for m in re.finditer(r"@@SHOT_OK (\S+) ([\d.]+)", log)}
    windows: dict[str, tuple[float, float] | None] = {}
    for k in PAUSE_SHOTS:
        if shown_from is None or shown_to is None or k not in asked or k not in done:
            windows[k] = None
        else:
            windows[k] = (asked[k] - shown_to, done[k] - shown_from)
    return windows


def in_pause(window: tuple[float, float] | None) -> bool:
    """The whole window lies in one pause, PAUSED_SETTLE after its sweep ended (and /proc/uptime's
    10 ms grain at each end)."""
    if window is None:
        return False
    start, end = window[0] - 0.01, window[1] + 0.01
    cycle = int(start // PAUSED_PERIOD)
    return start >= 0 and end // PAUSED_PERIOD == cycle and start - cycle * PAUSED_PERIOD >= PAUSED_SWEEP + PAUSED_SETTLE


def check_paused_shots(c: Checker, name: str, shots: dict, expected: png.Image, windows: dict, out: Path) -> None:
    """Every shot of PAUSE_SHOTS was taken in a pause, and each equals the render in a pause."""
    for k in PAUSE_SHOTS:
        window = windows.get(k)
        when = f"{window[0]:.2f} to {window[1]:.2f} s into the cycle" if window else "no time known"
        c.check(f"{name}: {k} was taken in a pause ({when})", in_pause(window),
                f"the sweeps take {PAUSED_SWEEP} s of every {PAUSED_PERIOD} s (+{PAUSED_SETTLE} s for the frame after)")
        if k not in shots:
            c.check(f"{name}: {k} taken", False)
            continue
        d = png.compare(shots[k], expected, diff_path=out / f"diff-{k}.png")
        print(f"  {k} vs the render in a pause: {d}")
        c.check(f"{name}: after sweeps drawn by damage, {k} (in a pause) equals the render", d.ok, str(d))


def host_render(layout: Path, size: tuple[int, int], out: Path, *extra: str) -> png.Image:
    subprocess.run([str(HOST_TOOL), "render", str(layout), "--out", str(out),
                    "--size", f"{size[0]}x{size[1]}", *extra], check=True)
    return png.read(out)


def skeleton_rects(layout: Path, size: tuple[int, int]) -> list[tuple[float, float, float, float]]:
    tree = json.loads(subprocess.run([str(HOST_TOOL), "tree", str(layout), "--size", f"{size[0]}x{size[1]}"],
                                     check=True, capture_output=True, text=True).stdout)
    rects = []

    def walk(node):
        if node.get("skeleton"):
            rects.append(tuple(node["frame"]))
        for child in node.get("children", []):
            walk(child)
    walk(tree["root"])
    return rects


def run_case(name: str, c: Checker, c_binary: Path) -> dict:
    device, args, expected_mode = CASES[name]
    out = OUT / name
    out.mkdir(parents=True, exist_ok=True)
    layouts = out / "layouts"
    layouts.mkdir(exist_ok=True)
    (layouts / "solid.json").write_text(json.dumps(SOLID))
    (layouts / "animated.json").write_text(json.dumps(ANIMATED))
    (layouts / "paused.json").write_text(json.dumps(PAUSED))
    (layouts / "dissolve.json").write_text(json.dumps(DISSOLVE))
    (layouts / "pulse.json").write_text(json.dumps(PULSE))
    files = {
        "/bin/skeletond": (STATIC / "skeletond", 0o755),
        "/bin/skeletonctl": (STATIC / "skeletonctl", 0o755),
        "/bin/minimal-modeset": (c_binary, 0o755),
        "/layouts/solid.json": layouts / "solid.json",
        "/layouts/animated.json": layouts / "animated.json",
        "/layouts/paused.json": layouts / "paused.json",
        "/layouts/dissolve.json": layouts / "dissolve.json",
        "/layouts/pulse.json": layouts / "pulse.json",
        "/etc/skeletond.json": b"{}",
    }
    print(f"== {name}: -device {device}{',' + args if args else ''}")
    r = qemu_harness.run(device=device, extra_device_args=args, guest_files=files,
                         guest_script=GUEST.replace("@TINT@", TINT), out_dir=out, name=name, timeout=240,
                         append="vt.global_cursor_default=0")
    log = r["serial_log"]
    (out / "serial.txt").write_text(log)
    c.check(f"{name}: guest script ran to the end", r["ok"], "; ".join(r.get("errors", [])) + f" (log {out}/serial.txt)")
    shots = {k: png.read(v) for k, v in r["screenshots"].items()}
    print(f"  screenshots in {out}")
    if "solid" not in shots:
        c.check(f"{name}: screenshots taken", False, f"got {sorted(shots)}")
        return {}
    size = (shots["solid"].width, shots["solid"].height)
    if expected_mode:
        c.check(f"{name}: output mode {size[0]}x{size[1]} is the one asked for", size == expected_mode, f"expected {expected_mode}")

    # 1 and 4: the skeleton equals the host render at the output's mode (scaled from 1280x720).
    expected = host_render(layouts / "solid.json", size, out / "expected-solid.png")
    d = png.compare(shots["solid"], expected, diff_path=out / "diff-solid.png")
    print(f"  solid vs render {size[0]}x{size[1]}: {d}")
    c.check(f"{name}: screenshot equals `skeletond render --size {size[0]}x{size[1]}`", d.ok, str(d))

    # 3: a new tint shows in the next screenshot.
    expected_tint = host_render(layouts / "solid.json", size, out / "expected-tinted.png", "--tint", TINT)
    d = png.compare(shots["tinted"], expected_tint, diff_path=out / "diff-tinted.png")
    print(f"  after update --tint {TINT}: {d}")
    c.check(f"{name}: after `skeletonctl update --tint` the screen shows the new colour", d.ok, str(d))

    # The last frame of a layout switch's dissolve is the new layout, exactly.
    expected_dissolved = host_render(layouts / "dissolve.json", size, out / "expected-dissolved.png", "--tint", TINT)
    d = png.compare(shots["dissolved"], expected_dissolved, diff_path=out / "diff-dissolved.png")
    print(f"  after `show dissolve` (a 0.25 s dissolve): {d}")
    c.check(f"{name}: a dissolve between layouts ends on the new layout exactly", d.ok, str(d))

    # 2: animated frames differ, and only inside skeleton shapes.
    d = png.compare(shots["anim2"], shots["anim1"])
    rects = skeleton_rects(layouts / "animated.json", size)
    inside = d.count > 0 and d.bbox is not None
    outside = []
    if d.count:
        a, b = shots["anim1"].rgb(), shots["anim2"].rgb()
        for y in range(size[1]):
            ra, rb = a.row(y), b.row(y)
            if ra == rb:
                continue
            for x in range(size[0]):
                if ra[x * 3:x * 3 + 3] != rb[x * 3:x * 3 + 3]:
                    if not any(rx - 1 <= x <= rx + rw + 1 and ry - 1 <= y <= ry + rh + 1 for rx, ry, rw, rh in rects):
                        outside.append((x, y))
    print(f"  two animated screenshots: {d.count} pixels differ, {len(outside)} of them outside the {len(rects)} skeleton shapes")
    c.check(f"{name}: animated screenshots differ", inside, str(d))
    c.check(f"{name}: they differ only inside skeleton shapes", not outside, f"e.g. {outside[:5]}")

    # 2, small: a pulse written into the buffer on screen shows, and only inside its shape.
    d = png.compare(shots["pulse2"], shots["pulse1"])
    (rx, ry, rw, rh), = skeleton_rects(layouts / "pulse.json", size)
    box = d.bbox
    within = box is not None and rx - 1 <= box[0] and ry - 1 <= box[1] and box[2] <= rx + rw + 1 and box[3] <= ry + rh + 1
    print(f"  two screenshots of the small pulse: {d.count} pixels differ, within {box} (the shape: {rx:.0f},{ry:.0f} {rw:.0f}x{rh:.0f})")
    c.check(f"{name}: a small pulse written in place shows on screen", d.count > 0, str(d))
    c.check(f"{name}: it changes nothing outside its shape", within, f"differences within {box}")
    scanned = {kind: set(m.split()) for kind, m in re.findall(r"@@SCANNED_OUT_(ANIM|PULSE)((?: \d+)*)", log)}
    print(f"  framebuffers scanned out, the gradient's frames / the pulse's: {scanned.get('ANIM')} / {scanned.get('PULSE')}")
    c.check(f"{name}: the gradient's frames are flipped (both buffers scanned out)", len(scanned.get("ANIM", ())) == 2, str(scanned))
    c.check(f"{name}: the pulse's frames are written in place (one buffer scanned out)", len(scanned.get("PULSE", ())) == 1, str(scanned))

    # 2, continued: frames drawn through the back buffer leave nothing behind. Every shot taken in a
    # pause must equal the render, and each of the three must have been taken in one (the guest's
    # clock says when: see pause_windows). The tint set by the update above stays through the
    # change of layout.
    expected_pause = host_render(layouts / "paused.json", size, out / "expected-paused.png", "--at", str(PAUSED_AT),
                                 "--tint", TINT)
    check_paused_shots(c, name, {k: shots[k] for k in PAUSE_SHOTS if k in shots}, expected_pause,
                       pause_windows(log, r["guest_uptime"]["marks"]), out)

    # 5: hide restores the console; hide --retain keeps the last frame.
    ok, d = console_is_back(shots["hidden"], shots["console"], out / "diff-hidden.png")
    print(f"  after hide vs the console before start: {d}")
    c.check(f"{name}: `skeletonctl hide` shows what was there before (the console)", ok, d)
    d = png.compare(shots["retained"], shots["shown-again"], diff_path=out / "diff-retained.png")
    print(f"  after hide --retain vs the frame before: {d}")
    c.check(f"{name}: `hide --retain` leaves the last frame", d.ok and shots["retained"].histogram(1)[0][1][:3] != (0, 0, 0), str(d))

    drawn = [json.loads(m).get("framesDrawn") for m in re.findall(r"@@RETAINED_[AB] (\{.*\})", log)]
    print(f"  frames drawn 0.3 s apart while retained: {drawn}")
    c.check(f"{name}: nothing is drawn (and nothing wakes) while the frame is retained",
            len(drawn) == 2 and drawn[0] == drawn[1], str(drawn))

    for shot_name, color, after in (("other-after-hide", 0x27AE60, "hide"), ("next-after-retain", 0x8E44AD, "hide --retain")):
        if shot_name in shots:
            d = png.check_solid(shots[shot_name], color)
            print(f"  another program's fill after {after}: {d}")
            c.check(f"{name}: after `{after}` another program can take the display", d.ok, str(d))
        else:
            c.check(f"{name}: after `{after}` another program can take the display", False, "no screenshot")

    # 6: SIGTERM while animating puts the console back, without errors.
    ok, d = console_is_back(shots["after-term"], shots["console"], out / "diff-after-term.png")
    print(f"  after SIGTERM vs the console before start: {d}")
    c.check(f"{name}: SIGTERM restores the saved CRTC", ok, d)
    exit_line = re.search(r"@@SKELETOND_EXIT (\d+)", log)
    c.check(f"{name}: skeletond exited 0 on SIGTERM", exit_line is not None and exit_line.group(1) == "0",
            exit_line.group(0) if exit_line else "no exit line")
    errors = [l for l in log.splitlines() if l.startswith("<3>")]
    c.check(f"{name}: no error in the daemon's log", not errors, "; ".join(errors[:3]))

    c.check(f"{name}: the first start found no cache entry and wrote one",
            "first frame on drm (" in log and "from the frame cache" not in log and "frame cache: wrote" in log)
    record = boot_record(log)
    c.check(f"{name}: the first start wrote a boot record", record is not None and record[1].startswith(b"SKBOOT03"),
            "no @@BOOT_RECORD line" if record is None else f"{record[0]} starts {record[1][:8]!r}")
    figures = start_up_figures(log)
    if record:
        figures["boot_record"] = record
    breakdown = "; ".join(re.findall(r"start-up: (.*)", log))
    print(f"  process start to first frame (10 ms grain): C reference (a mode set and one fill) "
          f"{figures.get('c_first_frame_ms')} ms, skeletond {figures.get('skeletond_first_frame_ms')} ms")
    print(f"  skeletond start-up steps: {breakdown}")
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", action="append", choices=sorted(CASES))
    options = parser.parse_args()
    if static_tools_missing():
        return 1
    c = Checker()
    c_binary = build_c_program()
    records = {}
    for name in options.device or list(CASES):
        records[name] = run_case(name, c, c_binary).get("boot_record")
    if not options.device:
        run_late_display(c)
        run_cached_start(c, c_binary, records.get("VGA"))
        run_prepared_in_guest(c)
    print(f"{c.passed} passed, {c.failed} failed")
    return 0 if c.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""A logo, a status line and a progress bar on bochs under QEMU, driven over the socket.

    python3 Tests/e2e/test_skeletond_content.py

The shipped kiosk-splash layout (its PNG logo, a label drawn with DejaVu Sans by HarfBuzz and
FreeType, a bar), made still (solid, not animated) so that screenshots can be compared, runs
from the static executable on bochs at 1024x768. The screen must equal `skeletond render` at
that size; after `skeletonctl update --progress 0.5 --text status=...` (and the bar's slide)
it must equal the render with that text and value; after `--message` and a value through
`--progress bar=1` the same. Screenshots go to build/e2e/content/ (never committed).

A second boot: a layout of its own whose presentation is static (`"animated": false`) with a
progress bar at 0.1; after `skeletonctl update --progress bar=0.95` and nothing else (no other
request that would wake the daemon), the screen must equal `skeletond render --progress
bar=0.95`: the bar slid to its value. (A daemon that draws the slide's first frame and asks for
no next one, as before the fix in f2d34ad, leaves the bar at 0.1: the render at 0.1.)
Screenshots go to build/e2e/content-static-bar/.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True

import png  # noqa: E402
import qemu_harness  # noqa: E402
from test_harness_minimal_c import Checker  # noqa: E402
from test_skeletond_drm import case_files, host_render, static_tools_missing  # noqa: E402

OUT = REPO / "build" / "e2e" / "content"
MODE = (1024, 768)
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
STATUS = "Installing updates, do not switch off"
MESSAGE = "Almost there"

GUEST = r"""
ctl() { /bin/skeletonctl --socket /run/skeletond/control.sock "$@"; }
spawn /tmp/d.log /bin/skeletond run --config /etc/skeletond.json --layouts /layouts --layout splash \
    --backend drm --log-level debug --frame-cache none
sd=$SPAWNED_PID
wait_for_line /tmp/d.log 'first frame on drm' 30 || fail "no frame"
ctl show --wait || fail "show --wait failed"
shot initial
ctl update --progress 0.5 --text 'status=@STATUS@' || fail "update failed"
usleep 900000
ctl ping
shot updated
echo "@@STATUS $(ctl status --json)"
ctl update --message '@MESSAGE@' --progress bar=1 || fail "second update failed"
usleep 900000
ctl ping
shot message
ctl update --text nothing=x; echo "@@UNKNOWN $?"
kill -TERM "$sd"; wait "$sd"; echo "@@EXIT $?"
"""


STATIC_BAR_OUT = REPO / "build" / "e2e" / "content-static-bar"
STATIC_BAR = {
    "name": "static-bar",
    "canvas": {"width": 1280, "height": 720, "background": "#FFFFFF", "scale": "fit"},
    "appearance": {"tint": "clouds"},
    "presentation": {"style": "solid", "animated": False, "transition": {"kind": "none"}},
    "root": {"kind": "view", "children": [
        {"kind": "image", "frame": [560, 160, 160, 160], "shape": "circle"},
        {"kind": "view", "frame": [200, 350, 880, 84], "skeletonable": False, "background": "#F4F6F7", "children": [
            {"kind": "progress", "id": "bar", "frame": [40, 30, 800, 24], "value": 0.1,
             "trackColor": "#D5DBDB", "fillColor": "#16A085"}]},
        {"kind": "text", "frame": [240, 460, 800, 60], "lines": 2}]},
}
BAR_BEFORE, BAR_AFTER = 0.1, 0.95

STATIC_BAR_GUEST = r"""
ctl() { /bin/skeletonctl --socket /run/skeletond/control.sock "$@"; }
spawn /tmp/d.log /bin/skeletond run --config /etc/skeletond.json --layouts /layouts --layout static-bar \
    --backend drm --log-level debug --frame-cache none
sd=$SPAWNED_PID
wait_for_line /tmp/d.log 'first frame on drm' 30 || fail "no frame"
ctl show --wait || fail "show --wait failed"
shot before
ctl update --progress bar=@VALUE@ || fail "update --progress failed"
# The slide takes 0.3 s (valueAnimation's default); no request meanwhile, so that only the
# daemon's own frame clock can move the bar.
usleep 1500000
shot after
echo "@@STATUS $(ctl status --json)"
kill -TERM "$sd"; wait "$sd"; echo "@@EXIT $?"
"""


def check_bar_at(c: Checker, label: str, actual: png.Image, expected: png.Image, diff_path: Path) -> bool:
    d = png.compare(actual, expected, diff_path=diff_path)
    print(f"  {label}: {d}")
    c.check(label, d.ok, str(d))
    return d.ok


def run_static_bar(c: Checker) -> None:
    out = STATIC_BAR_OUT
    _, layouts, files = case_files("content-static-bar", out.parent)
    layout = layouts / "static-bar.json"
    layout.write_text(json.dumps(STATIC_BAR))
    files["/layouts/static-bar.json"] = layout
    print(f"== static bar: -device VGA,xres={MODE[0]},yres={MODE[1]}, a layout that does not animate, "
          f"its bar set from {BAR_BEFORE} to {BAR_AFTER} over the socket")
    r = qemu_harness.run(device="VGA", extra_device_args=f"xres={MODE[0]},yres={MODE[1]}", guest_files=files,
                         guest_script=STATIC_BAR_GUEST.replace("@VALUE@", str(BAR_AFTER)), out_dir=out,
                         name="content-static-bar", timeout=300, append="vt.global_cursor_default=0")
    log = r["serial_log"]
    (out / "serial.txt").write_text(log)
    c.check("static bar: guest script ran to the end", r["ok"], "; ".join(r.get("errors", [])) + f" (log {out}/serial.txt)")
    shots = r["screenshots"]
    before = host_render(layout, MODE, out / "expected-before.png")
    after = host_render(layout, MODE, out / "expected-after.png", "--progress", f"bar={BAR_AFTER}")
    c.check("static bar: the renders at the two values differ (the check can fail)", not png.compare(before, after).ok)
    if "before" in shots:
        check_bar_at(c, f"static bar: before the update, the screen equals the render at {BAR_BEFORE}",
                     png.read(shots["before"]), before, out / "diff-before.png")
    else:
        c.check("static bar: screenshot before taken", False)
    if "after" in shots:
        check_bar_at(c, f"static bar: after `update --progress bar={BAR_AFTER}`, the screen equals the render at {BAR_AFTER}",
                     png.read(shots["after"]), after, out / "diff-after.png")
    else:
        c.check("static bar: screenshot after taken", False)
    status = re.search(r"@@STATUS (\{.*\})", log)
    content = json.loads(status.group(1)).get("content", {}) if status else {}
    c.check(f"static bar: status reports the value {BAR_AFTER}", content.get("bar") == {"value": BAR_AFTER}, json.dumps(content))
    exit_line = re.search(r"@@EXIT (\d+)", log)
    c.check("static bar: skeletond exited 0 on SIGTERM", exit_line is not None and exit_line.group(1) == "0")
    errors = [line for line in log.splitlines() if line.startswith("<3>")]
    c.check("static bar: no error in the daemon's log", not errors, "; ".join(errors[:3]))


def still_splash() -> dict:
    layout = json.loads((REPO / "config" / "layouts" / "kiosk-splash.json").read_text())
    layout.pop("$schema", None)
    layout["name"] = "splash"
    layout["presentation"] = {"style": "solid", "animated": False, "transition": {"kind": "none"}}
    return layout


def main() -> int:
    if static_tools_missing():
        return 1
    if not FONT.exists():
        print(f"missing {FONT}: install fonts-dejavu-core (scripts/install-deps.sh)")
        return 1
    c = Checker()
    _, layouts, files = case_files("content", OUT.parent)
    splash = layouts / "splash.json"
    splash.write_text(json.dumps(still_splash()))
    logo = REPO / "config" / "layouts" / "kiosk-splash-logo.png"
    (layouts / logo.name).write_bytes(logo.read_bytes())
    files.update({"/layouts/splash.json": splash, f"/layouts/{logo.name}": logo, str(FONT): FONT})
    print(f"== content: -device VGA,xres={MODE[0]},yres={MODE[1]}, kiosk-splash still, a logo, a label and a bar")
    script = GUEST.replace("@STATUS@", STATUS).replace("@MESSAGE@", MESSAGE)
    r = qemu_harness.run(device="VGA", extra_device_args=f"xres={MODE[0]},yres={MODE[1]}", guest_files=files,
                         guest_script=script, out_dir=OUT, name="content", timeout=300, append="vt.global_cursor_default=0")
    log = r["serial_log"]
    (OUT / "serial.txt").write_text(log)
    c.check("content: guest script ran to the end", r["ok"], "; ".join(r.get("errors", [])) + f" (log {OUT}/serial.txt)")
    cases = (
        ("initial", ()),
        ("updated", ("--text", f"status={STATUS}", "--progress", "bar=0.5")),
        ("message", ("--text", f"status={MESSAGE}", "--progress", "bar=1")),
    )
    for shot, extra in cases:
        if shot not in r["screenshots"]:
            c.check(f"content: screenshot {shot} taken", False)
            continue
        expected = host_render(splash, MODE, OUT / f"expected-{shot}.png", *extra)
        d = png.compare(png.read(r["screenshots"][shot]), expected, diff_path=OUT / f"diff-{shot}.png")
        print(f"  {shot} vs render {' '.join(extra)}: {d}")
        c.check(f"content: {shot} equals the render with that content", d.ok, str(d))
    status = re.search(r"@@STATUS (\{.*\})", log)
    content = json.loads(status.group(1)).get("content", {}) if status else {}
    c.check("content: status reports the text and the value in force",
            content.get("status") == {"text": STATUS} and content.get("bar") == {"value": 0.5}, json.dumps(content))
    unknown = re.search(r"@@UNKNOWN (\d+)", log)
    c.check("content: an unknown id is an error reply (exit 1)", unknown is not None and unknown.group(1) == "1")
    exit_line = re.search(r"@@EXIT (\d+)", log)
    c.check("content: skeletond exited 0 on SIGTERM", exit_line is not None and exit_line.group(1) == "0")
    errors = [line for line in log.splitlines() if line.startswith("<3>")]
    c.check("content: no error in the daemon's log", not errors, "; ".join(errors[:3]))
    run_static_bar(c)
    print(f"{c.passed} passed, {c.failed} failed")
    return 0 if c.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

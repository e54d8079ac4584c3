"""The `web-kiosk` case of the boot test (Tests/boot/test_debian_boot.py): the browser recipe of
docs/handoff.md on Debian under QEMU, end to end as a kiosk image is made: the app's page is
captured at the display's size when the image is built (`skeletond capture`, its data waited
for) and made the start layout of the boot and of the skeleton's window. cage and weston's kiosk-shell, each started by its unit of
examples/handoff with Chromium in kiosk mode as the app, take the screen from the skeleton; the
page is served from the guest and draws its data 2.5 s after its load event, holding the skeleton
with data-skeleton-hold until then (Tests/kiosk/pages/held.html).

Per stack, screenshots as fast as QMP gives them from the unit's start until the page has shown its
data for 4 s: the skeleton (the boot daemon's frame, then the skeleton's window: the same pixels),
then the page with its data, and nothing else but what the compositor shows at its start (cage's
black mode set), counted and bounded. The machine runs under TCG (the KVM of these machines does
not boot a kernel) with two vCPUs; Chromium's time to the ready page is printed, and the watch's
timeout is raised to fit it (KIOSK_READY_TIMEOUT)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import handoff

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
PACKAGES = "weston,cage,xwayland,seatd,chromium,busybox,xserver-xorg-core,xinit"
STACKS = ("cage", "weston", "xorg")
# What a stack may show before the page with its data that is not the skeleton, in seconds: at its
# start, cage's black mode set (cage issue 366) or weston's background until the skeleton's window
# has drawn; at the browser's map, its page (without its data) until the skeleton's window is over
# it again, a round trip of the window's process (about 0.1 s under TCG, none on the host's
# fast form); Xorg: black from its mode set until the skeleton's window has drawn (no glamor on
# the virtual card). Measured in this test (docs/performance.md).
OTHER_LIMIT = {"cage": 1.0, "weston": 1.0, "xorg": 1.0}
PAGE = "http://127.0.0.1:8080/held.html"
CHROMIUM = ("chromium --kiosk --ozone-platform={platform} --disable-gpu-compositing --no-first-run --no-default-browser-check "
            "--password-store=basic --user-data-dir=/run/kiosk/chromium")


def capture_start_layout(root: Path, host_tool: Path, size: tuple[int, int]) -> Path:
    """`skeletond capture` of the app's page at the display's size, its data waited for, made the
    start layout ("page") of the boot daemon and of the skeleton's window, as an image builder
    does; not animated, so that a screenshot can equal its render. Returns the layout's path."""
    layout = root / "etc/skeletond/layouts/page.json"
    subprocess.run([str(host_tool), "capture", str(REPO / "Tests/kiosk/pages/held.html"), "--size", f"{size[0]}x{size[1]}",
                    "--wait-for", ".row", "--name", "page", "--out", str(layout)], check=True, capture_output=True)
    captured = json.loads(layout.read_text())
    captured.setdefault("presentation", {})["animated"] = False
    layout.write_text(json.dumps(captured, indent=2))
    settings_path = root / "etc/skeletond/skeletond.json"
    settings = json.loads(settings_path.read_text())
    settings["layouts"]["start"] = "page"
    settings_path.write_text(json.dumps(settings, indent=2))
    window_path = root / "etc/kiosk/skeleton-window.json"
    window = json.loads(window_path.read_text())
    window["layouts"]["start"] = "page"
    window_path.write_text(json.dumps(window))
    return layout


def install(root: Path, chroot) -> None:
    """The recipes as a kiosk builder installs them, Chromium as their app (KIOSK_APP), the page."""
    source = REPO / "examples" / "handoff"
    chroot("useradd", "--system", "--groups", "video,input", "kiosk")
    units = root / "etc/systemd/system"
    for unit in ("kiosk-cage.service", "kiosk-weston.service", "kiosk-xorg.service", "kiosk-drawn.path", "kiosk-drawn.service"):
        shutil.copy(source / unit, units / unit)
    # weston and Xorg run as root, where Chromium needs its sandbox off.
    for stack, platform, extra in (("cage", "wayland", ""), ("weston", "wayland", " --no-sandbox"), ("xorg", "x11", " --no-sandbox")):
        dropin = units / f"kiosk-{stack}.service.d"
        dropin.mkdir(parents=True, exist_ok=True)
        (dropin / "web.conf").write_text(f'[Service]\nEnvironment=HOME=/run/kiosk\n'
                                         f'Environment="KIOSK_APP={CHROMIUM.format(platform=platform)}{extra} {PAGE}"\n'
                                         "Environment=KIOSK_READY_TIMEOUT=300\nRestart=no\n")
    handoff.install_session(root)
    wants = units / "multi-user.target.wants"
    wants.mkdir(parents=True, exist_ok=True)
    (wants / "kiosk-drawn.path").symlink_to("/etc/systemd/system/kiosk-drawn.path")
    (root / "srv/kiosk").mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "Tests/kiosk/pages/held.html", root / "srv/kiosk/held.html")
    bin_ = root / "usr/local/bin"
    shutil.copy(HERE / "guest" / "e2e-web-kiosk", bin_ / "e2e-web-kiosk")
    (bin_ / "e2e-web-kiosk").chmod(0o755)
    (units / "skeletond-hide.service").unlink(missing_ok=True)
    (units / "skeletond-hide.service").symlink_to("/dev/null")


def page_kind(image) -> str | None:
    """The page with its data (its purple header, cream background, blue rows), the page without
    it, or None."""
    samples = [image.data[i:i + 3] for i in range(0, len(image.data), 3 * 53)]

    def near(colour: bytes, target: tuple[int, int, int], tolerance: int = 14) -> bool:
        return all(abs(a - b) <= tolerance for a, b in zip(colour, target))

    purple = sum(1 for s in samples if near(s, (0x6A, 0x1B, 0x9A)))
    cream = sum(1 for s in samples if near(s, (0xFF, 0xF8, 0xE1), 6))
    blue = sum(1 for s in samples if near(s, (0x1E, 0x88, 0xE5)))
    if purple and cream:
        return "data" if blue * 5 > len(samples) else "page"
    return None


def check(c, result: dict, known: dict, frame_kinds, marker, read_ppm, timeline) -> None:
    """Per stack: the skeleton, then the page with its data, which stays; the compositor's start
    counted and bounded; nothing else. `known`: the skeleton's picture, and weston's background."""
    for stack in STACKS:
        series = f"web-{stack}"
        drawn = marker(result, f"DRAWN {stack}")
        watch = [m for _, m in result["markers"] if m.startswith(f"@@WATCH {stack}")]
        c.check(f"web-kiosk {stack}: skeletond browser said the page was ready (not its timeout)",
                drawn not in (None, "never") and any("the page is ready after" in w for w in watch), f"{drawn}; {watch}")
        print(f"  figure: web-kiosk {stack}: " + " | ".join(w.split(" ", 2)[2] for w in watch))
        shots = result.get(series, [])
        if not shots:
            c.check(f"web-kiosk {stack}: screenshots were taken", False)
            continue
        frames = result[f"{series}_frames"]
        kinds = frame_kinds(frames, known)
        for digest, path in frames.items():
            if kinds[digest].startswith("picture"):
                kinds[digest] = page_kind(read_ppm(path)) or kinds[digest]
        runs = timeline(shots, kinds)
        first_skeleton = next((i for i, (_, d) in enumerate(shots) if kinds[d] == "skeleton"), None)
        first_data = next((i for i, (_, d) in enumerate(shots) if kinds[d] == "data"), None)
        start = sum(shots[i + 1][0] - t for i, (t, d) in enumerate(shots[:-1]) if kinds[d] != "skeleton"
                    and (first_data is None or i < first_data))
        journal = [m.split(" ", 2)[2] for _, m in result["markers"] if m.startswith(f"@@JOURNAL {stack}")]
        raises = sum(1 for line in journal if "is made again over it" in line or "put under the skeleton's window" in line)
        print(f"  figure: web-kiosk {stack}: the skeleton's window came back over another {raises} time(s)")
        print(f"  figure: web-kiosk {stack}: {len(shots)} screenshots: {runs}; the page with its data from "
              f"{shots[first_data][0] if first_data is not None else 'never'} s after the unit's start")
        c.check(f"web-kiosk {stack}: the skeleton first", first_skeleton == 0, runs)
        c.check(f"web-kiosk {stack}: then the page with its data, which stays",
                first_data is not None and all(kinds[d] == "data" for _, d in shots[first_data:]), runs)
        between = sorted({kinds[d] for _, d in shots[:first_data or len(shots)] if kinds[d] != "skeleton"})
        c.check(f"web-kiosk {stack}: before the page with its data, only the skeleton, the compositor's start "
                "and the browser's map (never the console or another picture)", set(between) <= {"black", "background", "page"}, f"{between}")
        c.check(f"web-kiosk {stack}: neither the skeleton nor the page with its data for at most {OTHER_LIMIT[stack]} s",
                start <= OTHER_LIMIT[stack], f"{start:.2f} s")

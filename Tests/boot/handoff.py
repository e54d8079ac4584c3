"""The `handoff` case of the boot test (Tests/boot/test_debian_boot.py): the kiosk stacks of
examples/handoff (an app on DRM, Xorg, weston's kiosk-shell, cage) take the screen from the
skeleton in turn, each started by its own unit as written there, on virtio-gpu (wlroots needs
PRIME import, which bochs lacks), with screenshots as fast as QMP gives them from the unit's
start until the app's frame has settled.

Per stack: the skeleton first (from the DRM daemon, then, for weston and cage, as their first
client's Wayland window: the same pixels), the app's frame last and staying, never the console;
the time on frames that are neither (black, weston's background, the app drawing or mapping)
printed as a figure and held to a measured bound (cage issue 366, wlroots PR 3175: cage's first
mode set is black). kiosk-drawn.path must have told the skeleton to go. Last, cage is killed
after it has taken the display: the unit's ExecStopPost must bring the skeleton back."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import png

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
# What the stacks need beyond the base root: Xorg with its modesetting driver and Mesa (glamor
# copies the frame on screen for -background none), an X client, weston, cage, seatd-launch for
# their seats, and foot as the Wayland app.
PACKAGES = "xserver-xorg-core,xinit,x11-xserver-utils,libgl1-mesa-dri,libegl-mesa0,weston,cage,xwayland,seatd,foot"
STACKS = ("drm-app", "xorg", "weston", "cage")
# The apps' frame: one colour over the whole screen.
APP_COLOUR = (0x27, 0xAE, 0x60)
# Weston's background before its client has drawn (examples/handoff/weston.ini): the skeleton's.
WESTON_BACKGROUND = (0xFF, 0xFF, 0xFF)
# The most a stack may show of anything but the skeleton and its app between them, in seconds
# (the screenshots' own spacing under TCG is about 20 ms). weston: its background; cage: its
# black mode set; measured in this test (docs/performance.md).
GAP_LIMIT = {"drm-app": 0.1, "xorg": 0.6, "weston": 3.0, "cage": 3.0}

APPS = {
    # An app on DRM (the e2e tests' minimal-modeset), which fills its buffer before its mode set
    # and says it has drawn once its first frame is up: /run/kiosk/drawn (kiosk-drawn.path tells
    # the skeleton).
    "kiosk-app-drm": """#!/bin/sh
/usr/local/bin/minimal-modeset --color 0x27ae60 --draw-before-modeset > /run/kiosk/app.log 2>&1 &
pid=$!
until grep -q '@@FIRST_FRAME_US' /run/kiosk/app.log; do kill -0 "$pid" 2>/dev/null || exit 1; sleep 0.02; done
touch /run/kiosk/drawn
wait "$pid"
""",
    # An X client: the root window in the app's colour.
    "kiosk-app-x": """#!/bin/sh
xsetroot -solid '#27AE60' && touch /run/kiosk/drawn
exec sleep infinity
""",
    # A Wayland client: foot with nothing in it, in the app's colour (its cursor too). foot
    # cannot say when it has drawn, and starts its shell before its first frame: the shell says
    # so a second later, when that frame is up even under TCG.
    "kiosk-app-wayland": """#!/bin/sh
exec foot -o colors.background=27ae60 -o 'cursor.color=27ae60 27ae60' -o pad=0x0 sh -c 'sleep 1; touch /run/kiosk/drawn; exec sleep infinity' 2>/run/kiosk/app.log
""",
}


def install(root: Path, minimal_modeset: Path, chroot) -> None:
    """The recipes as a kiosk builder installs them, the test's apps, and the guest script that
    runs the stacks (e2e.step=handoff). skeletond-hide.service is disabled, as a kiosk image whose
    app takes the screen over disables it: the skeleton stays from the initramfs to the app."""
    source = REPO / "examples" / "handoff"
    chroot("useradd", "--system", "--groups", "video,input", "kiosk")
    units = root / "etc/systemd/system"
    for unit in source.glob("*.service"):
        shutil.copy(unit, units / unit.name)
    install_session(root)
    for unit in ("kiosk-drawn.path", "kiosk-drawn.service"):
        shutil.copy(source / unit, units / unit)
    wants = units / "multi-user.target.wants"
    wants.mkdir(parents=True, exist_ok=True)
    (wants / "kiosk-drawn.path").symlink_to("/etc/systemd/system/kiosk-drawn.path")
    bin_ = root / "usr/local/bin"
    for name, text in APPS.items():
        (bin_ / name).write_text(text)
        (bin_ / name).chmod(0o755)
    shutil.copy(minimal_modeset, bin_ / "minimal-modeset")
    shutil.copy(HERE / "guest" / "e2e-handoff", bin_ / "e2e-handoff")
    (bin_ / "e2e-handoff").chmod(0o755)
    # Masked, not disabled: the first boot's presets would enable it again.
    (units / "skeletond-hide.service").unlink(missing_ok=True)
    (units / "skeletond-hide.service").symlink_to("/dev/null")


def install_session(root: Path) -> None:
    """The Wayland recipes' session as a kiosk builder installs it: weston.ini, the session
    script, and the skeleton window's settings with the test's start layout (`solid`)."""
    source = REPO / "examples" / "handoff"
    (root / "etc/kiosk").mkdir(parents=True, exist_ok=True)
    shutil.copy(source / "weston.ini", root / "etc/kiosk/weston.ini")
    lib = root / "usr/local/lib/kiosk"
    lib.mkdir(parents=True, exist_ok=True)
    shutil.copy(source / "wayland-session", lib / "wayland-session")
    (lib / "wayland-session").chmod(0o755)
    window = json.loads((source / "skeleton-window.json").read_text())
    window["layouts"]["start"] = "solid"
    (root / "etc/kiosk/skeleton-window.json").write_text(json.dumps(window))


def solid(colour: tuple[int, int, int], size: tuple[int, int]) -> png.Image:
    return png.Image(size[0], size[1], 3, bytes(colour) * (size[0] * size[1]))


# A compositor's pointer (cage draws one where a pointer device is, QEMU's) over the app's
# frame: at most this many pixels a side.
POINTER = 48


def kind_of(kinds: dict, digest: str, frames: dict, read_ppm) -> str:
    """A frame that is not a known picture: "app" when it is the app's frame but for a pointer,
    "drawing" when it holds only the app's colour and black (an app filling its new buffer after
    its mode set), "mapping" when the app's colour covers part of it (the app's first frame at its
    own size, before the compositor has made it fullscreen), else what frame_kinds said."""
    kind = kinds[digest]
    if kind.startswith("picture"):
        image = read_ppm(frames[digest])
        off = [i // 3 for i in range(0, len(image.data), 3) if image.data[i:i + 3] != bytes(APP_COLOUR)]
        if off:
            xs, ys = [i % image.width for i in off], [i // image.width for i in off]
            if max(xs) - min(xs) < POINTER and max(ys) - min(ys) < POINTER:
                return "app"
        samples = [image.data[i:i + 3] for i in range(0, len(image.data), 3 * 97)]
        if set(samples) <= {bytes(APP_COLOUR), b"\0\0\0"}:
            return "drawing"
        if samples.count(bytes(APP_COLOUR)) * 20 >= len(samples):
            return "mapping"
    return kind


def check(c, result: dict, skeleton: png.Image, size: tuple[int, int], frame_kinds, marker, read_ppm) -> None:
    """Per stack: the skeleton first, the app's frame last and settled, never the console; what
    showed between them (black, weston's background, the app drawing) and for how long, held to
    GAP_LIMIT."""
    known = {"skeleton": skeleton, "app": solid(APP_COLOUR, size), "background": solid(WESTON_BACKGROUND, size)}
    for stack in STACKS:
        series = f"handoff-{stack}"
        shots = result.get(series, [])
        drawn = marker(result, f"DRAWN {stack}")
        c.check(f"handoff {stack}: the app said it had drawn", drawn not in (None, "never"), f"{drawn}")
        told = marker(result, f"TOLD {stack}") or ""
        c.check(f"handoff {stack}: kiosk-drawn.path told the skeleton to go (hide --retain)",
                told.startswith("active") and '"state":"idle"' in told, told)
        if not shots:
            c.check(f"handoff {stack}: screenshots were taken", False)
            continue
        frames = result[f"{series}_frames"]
        raw = frame_kinds(frames, known)
        kinds = {d: kind_of(raw, d, frames, read_ppm) for d in frames}
        # The app's frame from here on: the last run of it. Before it the app may show for a
        # moment as it maps, before the skeleton's window is over it again (weston's kiosk-shell
        # shows the newest window): that counts as neither.
        first_app = len(shots)
        while first_app > 0 and kinds[shots[first_app - 1][1]] == "app":
            first_app -= 1
        first_app = first_app if first_app < len(shots) else None
        runs = timeline(shots, kinds)
        # Every stretch of frames that are neither the skeleton nor the app for good, up to the frame after it.
        other = sum(shots[i + 1][0] - t for i, (t, d) in enumerate(shots[:-1])
                    if kinds[d] != "skeleton" and (first_app is None or i < first_app))
        shown = sorted({kinds[d] for _, d in shots if kinds[d] not in ("skeleton", "app")})
        print(f"  figure: handoff {stack}: {len(shots)} screenshots: {runs}; neither the skeleton nor the app: "
              f"{other * 1000:.0f} ms ({', '.join(shown) or 'none'})")
        c.check(f"handoff {stack}: the skeleton first", kinds[shots[0][1]] == "skeleton", runs)
        c.check(f"handoff {stack}: then the app's frame, which stays", first_app is not None
                and all(kinds[d] == "app" for _, d in shots[first_app:]), runs)
        strange = [(round(t, 2), kinds[d]) for t, d in shots if kinds[d].startswith("picture")]
        c.check(f"handoff {stack}: never the console or another picture", not strange, f"{strange[:6]}")
        c.check(f"handoff {stack}: neither the skeleton nor the app for at most {GAP_LIMIT[stack]} s", first_app is not None
                and other <= GAP_LIMIT[stack], f"{other:.3f} s")
    shots = result.get("handoff-crash", [])
    back = marker(result, "BACK")
    frames = result.get("handoff-crash_frames", {})
    raw = frame_kinds(frames, known)
    kinds = {d: kind_of(raw, d, frames, read_ppm) for d in frames}
    print(f"  figure: handoff crash: cage killed, the skeleton shown again after {back} s; {timeline(shots, kinds)}")
    c.check("handoff crash: cage killed after taking the display, the skeleton comes back (ExecStopPost), not the console "
            "or a frozen frame", bool(shots) and kinds[shots[-1][1]] == "skeleton" and back not in (None, "never"),
            f"{back}: {timeline(shots, kinds)}")


def timeline(shots: list, kinds: dict) -> str:
    runs: list[list] = []
    for t, d in shots:
        if runs and runs[-1][0] == kinds[d]:
            runs[-1][2] = t
        else:
            runs.append([kinds[d], t, t])
    return ", ".join(f"{k} {a:.2f}-{b:.2f} s" for k, a, b in runs)

#!/usr/bin/env python3
"""The boot benchmark (`make bench-boot`): skeletond beside Debian's Plymouth on one image recipe.

    python3 Tests/boot/bench_boot.py [--boots N] [--window SECONDS] [--firmware bios|uefi]... [--still] [--short]
                                     [--append PARAMETERS] [--deb PATH | --made-deb]

One recipe, three images: the Debian 12 root of the boot test's `debian12` case (Tests/boot/test_debian_boot.py;
the figures against Plymouth were set up on Debian 12, whose base root the boot stage has made already)
built as kiosk images are (in a chroot that sees no card, initramfs-tools' default MODULES=most),
with Debian's plymouth and plymouth-themes (22.02: `spinner`, `bgrt` for the UEFI boots,
ShowDelay=0), with skeletond's package (the bundled default layout, animated, at Plymouth's 30
frames a second), and with neither. Every boot has the same kernel command line, the boot
test's (`root=/dev/vda rw console=ttyS0 quiet vt.global_cursor_default=0 systemd.show_status=0`)
with `splash plymouth.ignore-serial-consoles`. They boot in turn, BIOS (SeaBIOS) and UEFI
(Debian's OVMF), on bochs (`-device VGA`, 1024x768) under QEMU TCG with one vCPU, `--boots`
times each (3 by default). Every image's initramfs also starts a helper that keeps its programs
and libraries open into the real root (Tests/boot/guest/bench-hold-programs.c), so that no image
pays for an emulator's cost hardware does not have: under TCG, zeroing pages QEMU has
translated code from, freed at the switch to the real root, took a second of the boot.

Each splash's image boots twice a round: once watched, once not. A watched boot takes
screenshots as fast as QMP gives them from QEMU's start until multi-user.target (a unit ordered
after it prints a marker on the serial line); each distinct picture is
classified as black, the firmware's (first seen before the kernel started: QEMU's notice, the
firmware's text or logo, wherever seen again), the splash (equal to the splash's own screenshots
taken after multi-user.target on most of the pixels either lights, or, a splash on black,
lighting pixels only where those do), or else the text console. Per boot: the first splash
frame, the black and console time between the firmware's last picture and the splash, and
after it. The time to multi-user.target (seconds since QEMU's start, read on the host; the
kernel's start is that less the guest's uptime in the marker) comes from the boots not watched:
each screenshot costs QEMU's main loop (which also serves the disk) a whole frame's conversion,
and that slowed the boots by seconds, the more the more of the screen changes. The image with
neither boots only so. After multi-user.target the
splash stays (plymouth-quit*.service and skeletond-hide.service are masked) and the guest reads
utime+stime of plymouthd or skeletond from /proc/PID/stat over `--window` seconds while it
animates (CPU seconds per second of animation), and their peak RSS (VmHWM); skeletond's once
more with an animation of the size of Plymouth's spinner (`THROBBER_LAYOUT`), for the CPU time
of the same work. From the journal and /proc/PID/stat: when the kernel ran /init (the earliest
any program of the initramfs can draw), when the splash's process started, and when the
framebuffer console took a framebuffer over (under UEFI efifb's, before /init: the black the
kernel makes). Each image's
initramfs is weighed against the one of the image with neither. `--still`: skeletond's default
layout not animated, to tell what the animation costs the boot. `--append`: kernel parameters
for every boot of every image, to see what a setting does to each splash (`fbcon=vc:2-6` keeps
the framebuffer console off tty1, so that nothing clears the firmware's logo before a splash).

Every boot above is its image's first: a fresh copy of the disk, the initramfs as the chroot
made it, so skeletond starts with nothing prepared. Under UEFI each round also measures its
later boots: skeletond's boot not watched ends with a hide (`bench.prepare-next`), which writes
the frames and the boot record its initramfs lacked and has skeletond-initramfs.path make the
initramfs again in the guest; that disk boots once more, watched, from that initramfs (read
from the disk with debugfs): skeletond's second boot, whose figures are set against
Plymouth's boots of the same round.

Printed: the medians per firmware, each as a ratio to Plymouth's in the same run (for
multi-user.target: the time each splash adds over the image with neither), and which goals
hold. The figures and every boot's are kept in build/boot/bench/results.json. `--short` (in
`make test`): one round under BIOS of the splashes' images (the image with neither weighed, not
booted) and a short window, checked to give every figure (it runs end to end), not how fast.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True

import test_debian_boot as boot_test  # noqa: E402
try:
    import numpy
except ImportError:
    # Tests/boot/run.sh installs python3-numpy as root; as another user the benchmark is skipped
    # before anything needs it.
    pass
from test_debian_boot import png  # noqa: E402

OUT = boot_test.OUT / "bench"
IMAGES = ("plymouth", "skeletond", "neither")
SPLASHES = IMAGES[:2]
FIRMWARES = ("bios", "uefi")
# Installed by apt into the `debian12` case's base root (the same packages mmdebstrap would
# give a root of its own, in a quarter of the time).
PLYMOUTH_PACKAGES = ("plymouth", "plymouth-themes")
PLYMOUTH_THEME = {"bios": "spinner", "uefi": "bgrt"}
# Plymouth's animations (two-step's throbber and animation) run at 30 frames a second
# (FRAMES_PER_SECOND in src/plugins/splash/two-step/plugin.c and src/libply-splash-graphics).
FRAMES_PER_SECOND = 30
KERNEL_ARGS = "splash plymouth.ignore-serial-consoles"
# An animation of the size of Plymouth's spinner (its throbber redraws about 490 pixels a
# frame): one shape of 22x22 pulsing on black in the default tint, shown after the default
# layout's CPU sample for a second sample. Its colour changes 28 times in the pulse's 2 s; the
# daemon sleeps through the slots that would repeat the frame on screen (design.md, "Repeated
# frames"), where Plymouth's throbber shows a new image at each of its 30 frames a second.
THROBBER_LAYOUT = {
    "name": "bench-throbber",
    "canvas": {"width": 1024, "height": 768, "background": "#000000", "scale": "fit"},
    "presentation": {"style": "solid", "animated": True},
    "root": {"kind": "view", "frame": [0, 0, "100%", "100%"],
             "children": [{"kind": "view", "id": "throbber", "frame": [501, 373, 22, 22]}]},
}
# What quits each splash at multi-user.target, masked so that it keeps animating for the sample.
# Where skeletond's second boot is measured (the boot record on the firmware's framebuffer).
SECOND_BOOT_FIRMWARES = ("uefi",)
QUITTERS = {"plymouth": ("plymouth-quit.service", "plymouth-quit-wait.service"), "skeletond": ("skeletond-hide.service",)}
# A screenshot is the splash when it equals one of the splash's own screenshots on at least this
# share of the pixels that are not black in either (an animation moves only part of them).
SPLASH_LIKENESS = 0.6
# A splash on black (Plymouth's spinner) lights only a small area; pixels this far around it
# still count as the splash's.
SPLASH_MARGIN = 8
# The first picture of each stretch of the timeline is kept as PNG beside the boot's log, up to
# this many.
KEPT_PICTURES = 12
BOOT_TIMEOUT = 900
# One vCPU: the boot to multi-user.target is bound by it, so what a splash costs the boot is its
# CPU time. (On two, Debian's Plymouth showed no splash before multi-user.target.)
MACHINE = boot_test.ONE_VCPU


def prepare(name: str, deb: Path, firmwares: tuple[str, ...], still: bool, booted: bool) -> dict:
    """The image: its kernel, an initramfs per firmware (Plymouth's theme differs), and, when it
    is to be booted, its disk."""
    work = OUT / name
    root = work / "root"
    shutil.rmtree(work, ignore_errors=True)
    root.mkdir(parents=True)
    boot_test.run("tar", "-xf", str(boot_test.base_root(release=12)), "-C", str(root), "--numeric-owner")
    version = sorted((root / "lib/modules").iterdir())[-1].name

    def chroot(*command: str) -> None:
        done = boot_test.in_chroot(root, *command)
        if done.returncode != 0:
            raise RuntimeError(f"{name}: {' '.join(command)} failed: {done.stderr[-800:]}")

    if name == "plymouth":
        chroot("sh", "-c", "apt-get update -qq && apt-get install -y -qq --no-install-recommends " + " ".join(PLYMOUTH_PACKAGES)
               + " && apt-get clean")
    if name == "skeletond":
        shutil.copy(deb, root / "tmp" / "skeletond.deb")
        chroot("dpkg", "-i", "/tmp/skeletond.deb")
        settings_path = root / "etc/skeletond/skeletond.json"
        settings = json.loads(settings_path.read_text())
        settings["layouts"]["start"] = "default"
        if still:
            layout = json.loads((root / "etc/skeletond/layouts/default.json").read_text())
            layout["name"] = "default-still"
            layout["presentation"]["animated"] = False
            (root / "etc/skeletond/layouts/default-still.json").write_text(json.dumps(layout))
            settings["layouts"]["start"] = "default-still"
        settings["display"]["maxFps"] = FRAMES_PER_SECOND
        settings_path.write_text(json.dumps(settings, indent=2))
        (root / "etc/skeletond/layouts/bench-throbber.json").write_text(json.dumps(THROBBER_LAYOUT))
    hold_programs(root)
    units = root / "etc/systemd/system"
    for unit in QUITTERS.get(name, ()):
        (units / unit).unlink(missing_ok=True)
        (units / unit).symlink_to("/dev/null")
    shutil.copy(HERE / "guest" / "bench-multi-user", root / "usr/local/bin" / "bench-multi-user")
    (units / "bench-multi-user.service").write_text(
        "[Unit]\nDescription=boot benchmark: multi-user.target reached, the splash's CPU time\nAfter=multi-user.target\n"
        "[Service]\nType=oneshot\nExecStart=/usr/local/bin/bench-multi-user\n[Install]\nWantedBy=multi-user.target\n")
    wants = units / "multi-user.target.wants"
    wants.mkdir(parents=True, exist_ok=True)
    (wants / "bench-multi-user.service").symlink_to("/etc/systemd/system/bench-multi-user.service")
    initrds: dict[str, Path] = {}
    for firmware in firmwares:
        if name == "plymouth":
            (root / "etc/plymouth").mkdir(parents=True, exist_ok=True)
            (root / "etc/plymouth/plymouthd.conf").write_text(f"[Daemon]\nTheme={PLYMOUTH_THEME[firmware]}\nShowDelay=0\n")
        elif initrds:
            initrds[firmware] = next(iter(initrds.values()))
            continue
        chroot("mkinitramfs", "-o", "/tmp/initrd.img", version)
        initrds[firmware] = work / f"initrd-{firmware}.img"
        shutil.move(root / "tmp/initrd.img", initrds[firmware])
    kernel = work / "vmlinuz"
    shutil.copy(root / "boot" / f"vmlinuz-{version}", kernel)
    disk = work / "disk.img"
    if booted:
        boot_test.run("mke2fs", "-q", "-t", "ext4", "-d", str(root), str(disk), "3G")
    shutil.rmtree(root)
    return {"name": name, "kernel": kernel, "initrds": initrds, "disk": disk, "version": version}


def hold_programs(root: Path) -> None:
    """Every image's initramfs starts `bench-hold-programs` (Tests/boot/guest): it keeps the
    initramfs's programs and libraries open into the real root, so that their pages, which QEMU
    has translated code from, are not freed and zeroed there, at a cost under TCG that hardware
    does not have (docs/performance.md, "Beside Plymouth")."""
    helper = OUT / "bench-hold-programs"
    source = HERE / "guest" / "bench-hold-programs.c"
    if not helper.exists() or helper.stat().st_mtime < source.stat().st_mtime:
        OUT.mkdir(parents=True, exist_ok=True)
        boot_test.run("gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-static", "-o", str(helper), str(source))
    shutil.copy(helper, root / "usr/local/sbin/bench-hold-programs")
    header = 'PREREQ=""\nprereqs() { echo "$PREREQ"; }\ncase "$1" in prereqs) prereqs; exit 0 ;; esac\n'
    scripts = {"hooks": ". /usr/share/initramfs-tools/hook-functions\n"
                        "copy_exec /usr/local/sbin/bench-hold-programs /usr/sbin\n",
               "scripts/init-top": "/usr/sbin/bench-hold-programs </dev/null >/dev/null 2>&1 &\n"}
    for directory, body in scripts.items():
        path = root / "etc/initramfs-tools" / directory / "bench-hold-programs"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("#!/bin/sh\n" + header + body)
        path.chmod(0o755)


def boot_once(image: dict, firmware: str, work: Path, window: int, watched: bool, prepares_next: bool = False,
              after: Path | None = None) -> dict:
    """One boot from a fresh copy of the image's disk; its figures. `watched`: with screenshots
    until multi-user.target, for the splash's figures. `prepares_next`: the guest hides the
    splash at the end and waits for what the hide starts (skeletond's mark has the initramfs
    made again), and the disk and that initramfs are kept for a second boot (`second_boot`).
    `after`: the work directory of such a boot, whose disk and initramfs this boot starts from."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    disk = work / "disk.img"
    initrd = image["initrds"][firmware]
    if after is not None:
        shutil.move(after / "disk.img", disk)
        initrd = after / "initrd-next.img"
    else:
        boot_test.run("cp", "--sparse=always", str(image["disk"]), str(disk))
    ovmf = None
    if firmware == "uefi":
        ovmf = work / "OVMF.fd"
        shutil.copy(boot_test.OVMF, ovmf)
    append = f"{KERNEL_ARGS} bench.window={window}" + (" bench.prepare-next" if prepares_next else "")
    result = boot_test.boot(work, image["kernel"], initrd, work, timeout=BOOT_TIMEOUT, append=append, disk=disk, firmware=ovmf,
                            watch_up=watched, watch_until="@@MULTI_USER", machine=MACHINE)
    figures = {"image": image["name"], "firmware": firmware, "watched": watched, "timed_out": result["timed_out"],
               "screenshots": len(result["up"]), "second": after is not None}
    if prepares_next:
        figures["initramfs_remade"] = boot_test.marker(result, "INITRAMFS_REMADE")
        kept = boot_test.dump(disk, f"/boot/initrd.img-{image['version']}", work / "initrd-next.img")
        figures["prepared_next"] = kept is not None and (figures["initramfs_remade"] or "").startswith("success")
    else:
        disk.unlink()
    multi_user = next((t for t, line in result["markers"] if line.startswith("@@MULTI_USER")), None)
    figures["multi_user"] = multi_user
    figures["multi_user_uptime"] = boot_test.number(boot_test.marker(result, "MULTI_USER"))
    figures["kernel_start"] = kernel_start(result) if multi_user is not None else None
    if image["name"] in SPLASHES:
        if watched:
            figures.update(splash_figures(result, work))
            if figures["first_splash"] is not None:
                figures["first_splash_from_kernel"] = figures["first_splash"] - figures["kernel_start"]
        figures.update(cpu_figures(result))
        figures.update(start_figures(figures))
    # The pictures are kept once each (PPM); the timeline is in results.json.
    for path in result["up_frames"].values():
        path.unlink(missing_ok=True)
    return figures


def start_figures(figures: dict) -> dict:
    """What comes before the first splash frame, in seconds: the kernel's start to /init (no
    program of the initramfs can draw earlier), /init to the splash's process, its process to
    its first frame; the earliest a splash could draw (at /init) since QEMU's start; and the
    black the kernel's framebuffer console made before /init (under UEFI it clears efifb, and
    the firmware's logo with it, as efifb registers)."""
    init, started, kernel = figures.get("init_ran"), figures.get("splash_started"), figures.get("kernel_start")
    first = figures.get("first_splash_from_kernel")
    console = figures.get("console_on_framebuffer")
    def difference(later: float | None, earlier: float | None) -> float | None:
        return later - earlier if later is not None and earlier is not None else None
    black_before_init = None
    if init is not None:
        black_before_init = init - console if console is not None and console < init else 0.0
    return {"init_to_process": difference(started, init), "process_to_first_frame": difference(first, started),
            "earliest_possible": kernel + init if kernel is not None and init is not None else None,
            "black_before_init": black_before_init}


def pixels(image: png.Image) -> numpy.ndarray:
    channels = len(image.data) // (image.width * image.height)
    return numpy.frombuffer(image.data, dtype=numpy.uint8).reshape(image.height, image.width, channels)[:, :, :3]


def likeness(shot: numpy.ndarray, reference: numpy.ndarray) -> float:
    """The share of the pixels not black in either picture on which they are equal."""
    if shot.shape != reference.shape:
        return 0.0
    lit = shot.any(axis=2) | reference.any(axis=2)
    count = int(lit.sum())
    return float(((shot == reference).all(axis=2) & lit).sum()) / count if count else 0.0


def splash_area(references: list[numpy.ndarray]) -> numpy.ndarray | None:
    """Where a splash drawn on black lights pixels (Plymouth's spinner: its throbber), widened by
    SPLASH_MARGIN; None for a splash that fills the screen."""
    lit = numpy.logical_or.reduce([reference.any(axis=2) for reference in references])
    ys, xs = numpy.nonzero(lit)
    if not len(ys) or lit.mean() > 0.5:
        return None
    area = numpy.zeros_like(lit)
    area[max(ys.min() - SPLASH_MARGIN, 0):ys.max() + SPLASH_MARGIN + 1, max(xs.min() - SPLASH_MARGIN, 0):xs.max() + SPLASH_MARGIN + 1] = True
    return area


def is_splash(shot: numpy.ndarray, references: list[numpy.ndarray], area: numpy.ndarray | None) -> bool:
    """Equal to the splash's own screenshots on most of the pixels either lights, or (a splash on
    black) lighting pixels only where the splash does: an animation moves part of them."""
    if any(likeness(shot, reference) >= SPLASH_LIKENESS for reference in references):
        return True
    if area is None or shot.shape[:2] != area.shape:
        return False
    lit = shot.any(axis=2)
    return bool(lit[area].any()) and not lit[~area].any()


def classify(result: dict, references: list[numpy.ndarray], kernel_start: float, work: Path) -> list[tuple[float, str]]:
    """Each screenshot of the way up as black, firmware, console or splash. The firmware's
    pictures: those first seen before the kernel started (QEMU's own notice, the firmware's
    text or logo), wherever they are seen again (efifb keeps the logo; bgrt draws it too)."""
    area = splash_area(references)
    kinds: dict[str, str] = {}
    for digest, path in result["up_frames"].items():
        shot = pixels(boot_test.read_ppm(path))
        kinds[digest] = "black" if not shot.any() else "splash" if is_splash(shot, references, area) else "console"
    for at, digest in result["up"]:
        if at < kernel_start and kinds[digest] != "black":
            kinds[digest] = "firmware"
    timeline: list[tuple[float, str]] = []
    for at, digest in result["up"]:
        kind = kinds[digest]
        if (not timeline or timeline[-1][1] != kind) and len(list(work.glob("up-*.png"))) < KEPT_PICTURES:
            # The first picture of each stretch, kept for a look.
            png.write(work / f"up-{at:07.2f}-{kind}.png", boot_test.read_ppm(result["up_frames"][digest]))
        timeline.append((at, kind))
    return timeline


def kernel_start(result: dict) -> float:
    """When the kernel started, in seconds since QEMU's start: when the host read the
    multi-user.target marker less the guest's uptime in it."""
    at = next(t for t, line in result["markers"] if line.startswith("@@MULTI_USER"))
    return at - (boot_test.number(boot_test.marker(result, "MULTI_USER")) or 0.0)


def splash_figures(result: dict, work: Path) -> dict:
    shots = [result["shots"].get(name) for name in ("splash-a", "splash-b")]
    if not all(shots) or boot_test.marker(result, "MULTI_USER") is None:
        return {"first_splash": None, "black_before_splash": None, "animated": None}
    a, b = (pixels(png.read(shot)) for shot in shots)
    kernel = kernel_start(result)
    timeline = classify(result, [a, b], kernel, work)
    # Animated: two pictures of the splash seen on the way up, or its two screenshots differ (an
    # animation's period may bring the second back to the first's picture).
    pictures = {digest for (_, digest), (_, kind) in zip(result["up"], timeline) if kind == "splash"}
    animated = len(pictures) > 1 or not numpy.array_equal(a, b)
    first = next((i for i, (_, kind) in enumerate(timeline) if kind == "splash"), None)
    runs: list[list] = []
    for i, (at, kind) in enumerate(timeline):
        until = timeline[i + 1][0] if i + 1 < len(timeline) else at
        if runs and runs[-1][0] == kind:
            runs[-1][2] = until
        else:
            runs.append([kind, at, until])
    (work / "timeline.txt").write_text("".join(f"{kind} {a:.2f}-{b:.2f}\n" for kind, a, b in runs))
    if first is None:
        return {"first_splash": None, "black_before_splash": None, "animated": animated,
                "timeline": [(k, round(x, 2), round(y, 2)) for k, x, y in runs]}
    # From the first picture not the firmware's still on screen once the kernel has started: a
    # splash may show the firmware's logo alone first (Plymouth's bgrt theme), and that picture
    # must not hide the black before it.
    gone = next((i for i in range(first) if timeline[i][1] != "firmware" and timeline[i + 1][0] > kernel), first)

    def time_as(kind: str, frames: range) -> float:
        return sum(timeline[i + 1][0] - timeline[i][0] for i in frames if i + 1 < len(timeline) and timeline[i][1] == kind)
    before, after = range(gone, first), range(first, len(timeline))
    return {"first_splash": timeline[first][0], "black_before_splash": time_as("black", before),
            "console_before_splash": time_as("console", before), "black_after_splash": time_as("black", after),
            "console_after_splash": time_as("console", after),
            "animated": animated, "timeline": [(k, round(x, 2), round(y, 2)) for k, x, y in runs]}


def cpu_sample(result: dict, name: str) -> tuple[dict[str, str], float | None]:
    """The fields of the marker `name` (`ticks=... hz=... from=... to=...`) and the CPU seconds
    per second they make, None when they are missing."""
    fields = dict(item.split("=", 1) for item in (boot_test.marker(result, name) or "").split() if "=" in item)
    try:
        return fields, int(fields["ticks"]) / int(fields["hz"]) / (float(fields["to"]) - float(fields["from"]))
    except (KeyError, ValueError, ZeroDivisionError):
        return fields, None


def cpu_figures(result: dict) -> dict:
    fields, rate = cpu_sample(result, "CPU")
    if rate is None:
        return {"cpu_per_second": None, "peak_rss_kb": None, "pids": None}
    peaks = [int(kb) for kb in (boot_test.marker(result, "HWM_KB") or "").split()]
    _, cpu_throbber = cpu_sample(result, "CPU_THROBBER")
    processes = [line[len("@@PROC "):] for _, line in result["markers"] if line.startswith("@@PROC ")]
    milestones = [line[len("@@MILESTONE "):] for _, line in result["markers"] if line.startswith("@@MILESTONE ")]
    return {"cpu_per_second": rate if fields.get("pids") else None, "peak_rss_kb": sum(peaks) if peaks else None,
            "cpu_per_second_throbber": cpu_throbber, "init_ran": milestone(milestones, "Run /init"),
            "console_on_framebuffer": milestone(milestones, "Console: switching to colour frame buffer"),
            "splash_started": process_start(result),
            "peak_rss_kb_each": peaks, "ticks_each": boot_test.marker(result, "TICKS_EACH"), "processes": processes,
            "milestones": milestones,
            "boot_share": [line[len("@@BOOT_SHARE "):] for _, line in result["markers"] if line.startswith("@@BOOT_SHARE ")]}


def milestone(milestones: list[str], text: str) -> float | None:
    """The first milestone line holding `text`: its time, in seconds since the kernel's start."""
    return next((float(line.split()[0]) for line in milestones if text in line), None)


def process_start(result: dict) -> float | None:
    """When the splash's first process started, in seconds since the kernel's start (its
    /proc/PID/stat start time)."""
    starts = []
    for _, line in result["markers"]:
        if line.startswith("@@STARTED "):
            fields = line.split()
            try:
                starts.append(int(fields[2]) / int(fields[4].split("=", 1)[1]))
            except (IndexError, ValueError, ZeroDivisionError):
                pass
    return min(starts) if starts else None


def median(values: list) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


def ratio(ours: float | None, theirs: float | None) -> float | None:
    if ours is None or theirs is None:
        return None
    if theirs == 0:
        return 1.0 if ours == 0 else None
    return ours / theirs


def summary(boots: list[dict], images: dict[str, dict], firmware: str) -> dict:
    """The screen's figures from the watched boots; the rest from the boots not watched."""
    def med(image: str, key: str, watched: bool, second: bool = False) -> float | None:
        return median([b.get(key) for b in boots if b["image"] == image and b["firmware"] == firmware and b["watched"] == watched
                       and b.get("second", False) == second])

    table: dict[str, dict] = {}
    for key in ("first_splash", "first_splash_from_kernel", "black_before_splash", "console_before_splash", "black_after_splash", "console_after_splash"):
        table[key] = {image: med(image, key, True) for image in SPLASHES}
    for key in ("earliest_possible", "init_to_process", "process_to_first_frame", "black_before_init"):
        table[key] = {image: med(image, key, True) for image in SPLASHES}
    for key in ("cpu_per_second", "peak_rss_kb"):
        table[key] = {image: med(image, key, False) for image in SPLASHES}
    # skeletond's second boot (from the record its first boot wrote) against Plymouth's boots,
    # which are all alike.
    for key in ("first_splash", "first_splash_from_kernel", "black_before_splash", "process_to_first_frame"):
        table[key + "_second"] = {"plymouth": table[key]["plymouth"], "skeletond": med("skeletond", key, True, second=True)}
    # skeletond's animation of the spinner's size against Plymouth's spinner.
    table["cpu_per_second_throbber"] = {"plymouth": table["cpu_per_second"]["plymouth"],
                                        "skeletond": med("skeletond", "cpu_per_second_throbber", False)}
    table["multi_user"] = {image: med(image, "multi_user", False) for image in IMAGES}
    # From the kernel's start (the guest's uptime): the firmware's time, which moves by seconds
    # from boot to boot here, left out.
    multi = {image: med(image, "multi_user_uptime", False) for image in IMAGES}
    table["multi_user_uptime"] = multi
    table["multi_user_added"] = {image: (multi[image] - multi["neither"]) if multi[image] is not None and multi["neither"] is not None
                                 else None for image in SPLASHES}
    sizes = {image: images[image]["initrds"][firmware].stat().st_size for image in IMAGES}
    table["initramfs_added_bytes"] = {image: sizes[image] - sizes["neither"] for image in SPLASHES}
    table["initramfs_bytes"] = sizes
    for row in table.values():
        row["ratio"] = ratio(row.get("skeletond"), row.get("plymouth"))
    # Two differences, each about 0 when a splash costs nothing: their ratio says nothing.
    table["multi_user_added"]["ratio"] = None
    # The floor: a splash drawing the moment /init runs, against Plymouth's first frame.
    table["earliest_possible"]["ratio"] = ratio(table["earliest_possible"]["skeletond"], table["first_splash"]["plymouth"])
    return table


GOALS = {
    "uefi": [("first_splash", 0.5, "the first frame at most 0.5x Plymouth's"),
             ("multi_user_added", 1.0, "the boot to multi-user.target no slower than with Plymouth"),
             ("cpu_per_second", 0.5, "CPU per animated second at most 0.5x"),
             ("initramfs_added_bytes", 1.0, "initramfs bytes no more than Plymouth's")],
    "bios": [("first_splash", 1.0, "the first frame no later than Plymouth's"),
             ("multi_user_added", 1.0, "the boot to multi-user.target no slower than with Plymouth"),
             ("cpu_per_second", 0.5, "CPU per animated second at most 0.5x"),
             ("initramfs_added_bytes", 1.0, "initramfs bytes no more than Plymouth's")],
}


def goal_lines(table: dict, firmware: str) -> list[str]:
    lines = []
    for key, most, text in GOALS[firmware]:
        ours, theirs = table[key]["skeletond"], table[key]["plymouth"]
        if ours is None or theirs is None:
            lines.append(f"  goal {firmware}: {text}: not measured")
            continue
        # Compared on the figures themselves: a ratio of two differences can flip sign.
        held = ours <= most * theirs
        lines.append(f"  goal {firmware}: {text}: {'holds' if held else 'MISSED'}")
    second_first, theirs_first = table["first_splash_second"]["skeletond"], table["first_splash_second"]["plymouth"]
    if second_first is not None and theirs_first is not None:
        most = dict((key, limit) for key, limit, _ in GOALS[firmware])["first_splash"]
        lines.append(f"  goal {firmware}, every boot after the first: the first frame at most {most}x Plymouth's: "
                     + ("holds" if second_first <= most * theirs_first else "MISSED"))
    if firmware == "uefi":
        ours, theirs = table["black_before_splash"]["skeletond"], table["black_before_splash"]["plymouth"]
        if ours is None or theirs is None:
            lines.append("  goal uefi: no black frames where Plymouth has seconds of them: not measured")
        else:
            lines.append(f"  goal uefi: no black frames where Plymouth has seconds of them (Plymouth {theirs:.1f} s): "
                         + ("holds" if ours == 0 else f"MISSED ({ours:.1f} s)"))
    return lines


ROWS = [("first_splash", "first splash frame, s from QEMU's start", "{:.1f}"),
        ("first_splash_from_kernel", "  from the kernel's start", "{:.1f}"),
        ("earliest_possible", "  the earliest possible (/init; ratio to Plymouth's first frame)", "{:.1f}"),
        ("init_to_process", "  /init to the splash's process, s", "{:.2f}"),
        ("process_to_first_frame", "  its process to its first frame, s", "{:.2f}"),
        ("black_before_splash", "black between firmware and splash, s", "{:.2f}"),
        ("black_before_init", "  of it the kernel's console's before /init, s", "{:.2f}"),
        ("first_splash_second", "skeletond's second boot (its boot record): first frame, s", "{:.1f}"),
        ("first_splash_from_kernel_second", "  from the kernel's start", "{:.1f}"),
        ("process_to_first_frame_second", "  its process to its first frame, s", "{:.2f}"),
        ("black_before_splash_second", "  black between firmware and splash, s", "{:.2f}"),
        ("console_before_splash", "text console between firmware and splash, s", "{:.2f}"),
        ("black_after_splash", "black after the first splash frame, s", "{:.2f}"),
        ("console_after_splash", "text console after the first splash frame, s", "{:.2f}"),
        ("multi_user", "multi-user.target, s from QEMU's start", "{:.1f}"),
        ("multi_user_uptime", "  from the kernel's start", "{:.1f}"),
        ("multi_user_added", "    added over the image with neither, s", "{:.1f}"),
        ("cpu_per_second", "CPU s per animated s (30 fps)", "{:.3f}"),
        ("cpu_per_second_throbber", "  skeletond with an animation the spinner's size", "{:.3f}"),
        ("peak_rss_kb", "peak RSS (VmHWM), KiB", "{:.0f}"),
        ("initramfs_bytes", "initramfs, bytes (gzip: the root has no zstd)", "{:.0f}"),
        ("initramfs_added_bytes", "  added over the image with neither", "{:.0f}")]


def print_table(table: dict, firmware: str, boots: int) -> None:
    print(f"\n== {firmware.upper()} (medians of {boots} boot{'s' if boots > 1 else ''} each; Plymouth's theme "
          f"{PLYMOUTH_THEME[firmware]})")
    print(f"  {'':66} {'Plymouth':>11} {'skeletond':>11} {'neither':>11} {'ratio':>7}")

    def cell(value, fmt):
        return fmt.format(value) if value is not None else "-"
    for key, label, fmt in ROWS:
        row = table[key]
        print(f"  {label:66} {cell(row.get('plymouth'), fmt):>11} {cell(row.get('skeletond'), fmt):>11} "
              f"{cell(row.get('neither'), fmt):>11} {cell(row.get('ratio'), '{:.2f}x'):>7}")


def expected_figures(boot: dict) -> tuple[str, ...]:
    """What a boot must have measured: a splash's watched boot its screen's first frame, when
    /init ran and when the splash's process started; its boot not watched its CPU time and
    peak RSS (skeletond's also animating as much as the spinner); every boot
    multi-user.target."""
    if boot["image"] not in SPLASHES:
        return ("multi_user",)
    if boot.get("second"):
        return ("multi_user", "first_splash", "splash_started")
    if boot["watched"]:
        return ("multi_user", "first_splash", "init_ran", "splash_started")
    return ("multi_user", "cpu_per_second", "peak_rss_kb") + (("cpu_per_second_throbber",) if boot["image"] == "skeletond" else ())


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--boots", type=int, default=3,
                        help="rounds: in each, under each firmware, each splash's image boots watched and not, neither's not (3)")
    parser.add_argument("--window", type=int, default=10, help="seconds of animation sampled for the CPU time (10)")
    parser.add_argument("--firmware", action="append", choices=FIRMWARES, help="only this firmware (both by default)")
    parser.add_argument("--still", action="store_true",
                        help="skeletond's default layout not animated: what the animation costs the boot")
    parser.add_argument("--short", action="store_true",
                        help="one BIOS boot of each splash's image: checks that every figure comes out")
    parser.add_argument("--deb", type=Path, help="install this package instead of building one with `make deb`")
    parser.add_argument("--append", default="",
                        help="kernel parameters for every boot of every image (for example fbcon=vc:2-6)")
    parser.add_argument("--made-deb", action="store_true",
                        help="install the package `make deb` left in build/deb (the boot stage of `make test` made it)")
    args = parser.parse_args()
    boot_test.EXTRA_KERNEL_ARGS = args.append
    if args.short:
        args.boots, args.window, args.firmware = 1, 2, ["bios"]
    # The short form boots the two splashes only: the image with neither is weighed, not booted.
    booted = SPLASHES if args.short else IMAGES
    firmwares = tuple(args.firmware or FIRMWARES)
    if os.geteuid() != 0:
        print(f"SKIPPED: {boot_test.NEEDS_ROOT}")
        return boot_test.SKIPPED
    began = time.monotonic()
    deb = args.deb or (boot_test.package_path() if args.made_deb else boot_test.the_package())
    if not deb.exists():
        print(f"no package at {deb}")
        return 1
    images = {}
    for name in IMAGES:
        started = time.monotonic()
        images[name] = prepare(name, deb, firmwares, args.still, name in booted)
        print(f"== {name}: image made in {time.monotonic() - started:.0f} s; initramfs "
              + ", ".join(f"{fw} {path.stat().st_size} bytes" for fw, path in images[name]["initrds"].items()))
    boots: list[dict] = []
    for round_number in range(args.boots):
        for firmware in firmwares:
            # In turn, each round starting with another image, so that no image always boots
            # right after the same one.
            order = booted[round_number % len(booted):] + booted[:round_number % len(booted)]
            runs = [(name, True) for name in order if name in SPLASHES] + [(name, False) for name in order]
            # Under UEFI skeletond's boot not watched prepares the next (its hide's boot record, the
            # initramfs made again), and that second boot is watched: every boot after the first.
            second = firmware in SECOND_BOOT_FIRMWARES and not args.short
            if second:
                runs.append(("skeletond", "second"))
            for name, watched in runs:
                started = time.monotonic()
                kind = watched if isinstance(watched, str) else "watched" if watched else "unwatched"
                work = OUT / "boots" / f"{firmware}-{name}-{kind}-{round_number + 1}"
                if kind == "second":
                    figures = boot_once(images[name], firmware, work, args.window, True,
                                        after=OUT / "boots" / f"{firmware}-{name}-unwatched-{round_number + 1}")
                else:
                    figures = boot_once(images[name], firmware, work, args.window, watched,
                                        prepares_next=second and name == "skeletond" and not watched)
                boots.append(figures)
                print(f"  boot {round_number + 1} {firmware} {name} ({kind}): {time.monotonic() - started:.0f} s; "
                      + ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in figures.items()
                                  if k not in ("image", "firmware", "watched", "timeline", "peak_rss_kb_each", "ticks_each", "processes",
                                               "milestones", "boot_share")))
    tables = {firmware: summary(boots, images, firmware) for firmware in firmwares}
    for firmware in firmwares:
        print_table(tables[firmware], firmware, args.boots)
        print("\n".join(goal_lines(tables[firmware], firmware)))
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "results.json").write_text(json.dumps({"boots": boots, "tables": tables}, indent=1, default=str))
    missing = [f"{b['firmware']} {b['image']}: {key}" for b in boots for key in expected_figures(b) if b.get(key) is None]
    missing += [f"{b['firmware']} {b['image']}: timed out" for b in boots if b["timed_out"]]
    missing += [f"{b['firmware']} {b['image']}: the initramfs was not made again for the second boot ({b.get('initramfs_remade')})"
                for b in boots if "prepared_next" in b and not b["prepared_next"]]
    missing += [f"{b['firmware']} {b['image']}: the splash did not animate" for b in boots
                if b["watched"] and b.get("animated") is False and not (args.still and b["image"] == "skeletond")]
    for line in missing:
        print(f"  not measured: {line}")
    print(f"\n{len(boots)} boots in {time.monotonic() - began:.0f} s; results in {OUT / 'results.json'}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())

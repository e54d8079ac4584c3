#!/usr/bin/env python3
"""A real boot: Debian 13 (and 12) with systemd as PID 1 and skeletond's package, under QEMU.

    python3 Tests/boot/test_debian_boot.py [--case initramfs|debian12|layout-change|disabled|real-root|no-executable|dracut|dracut-disabled|no-module|chroot-image|chroot-image-virtio|chroot-image-uefi|chroot-image-uefi-virtio|handoff|web-kiosk|luks|luks-de|luks-plymouth]... [--deb PATH]

The root file system is built by mmdebstrap from Debian's packages: Debian 13, the current stable
release, but for the `debian12` case (the `initramfs` case on Debian 12, so that neither breaks
unseen) and the cases run only on request (`handoff`, `web-kiosk`, `luks*`: set up on Debian 12);
cached as build/boot/debian13-base-HASH.tar and debian12-. The package of `make deb` is installed into it with dpkg, a
static layout is made the start layout, and the initramfs is made by Debian's update-initramfs
with the package's hook (MODULES=list: the root disk's modules, and what the hook adds). It boots with Debian's kernel under `qemu-system-x86_64 -accel tcg,thread=multi -smp 2` on
`-device VGA` (bochs, 1024x768). Guest scripts (Tests/boot/guest/) print markers on the serial
console and the host takes screenshots over QMP when they ask.

Case `initramfs`: the skeleton is on screen from the initramfs (equal to `skeletond render`),
still there after the switch to the real root, drawn by the same process (its argv[0] begins
with '@', it holds the card alone, its frame count has not moved), with `skeletond.service`
skipped by its condition (no second process, as Plymouth's units); `plymouth --ping` and `plymouth display-message` (Debian's client)
are answered; after multi-user.target it is hidden and the text console is back (screenshots
as fast as QMP gives them from before skeletond-hide.service: the skeleton, then the console as
the kernel left it, with at most HIDE_BLACK_LIMIT black screenshots between); shown again,
then `systemctl poweroff`: screenshots as fast as QMP gives them until the machine stops must
each be the skeleton or the shutdown layout saying "Powering off" (`skeletond-poweroff.service`),
never the console, and the daemon must still hold the card at systemd-shutdown's last step
(Tests/boot/guest/e2e-final). Case `real-root`: the same without the hook
(`SKELETOND_INITRAMFS=no`), the daemon started by skeletond.service, and `systemctl reboot`
("Restarting") instead, from the console (hidden again first): the console, then the shutdown
layout, with at most FROM_CONSOLE_BLACK_LIMIT black screenshots between. Each prints the time from
kernel start to the first skeleton frame as a figure (it moves with the machine's load), and
checks that it is a real time: no later than when the guest saw the frame logged (the initramfs
shot, or the probe in the real root). Case `no-executable` (only on request, as
`dracut-disabled` and `chroot-image-virtio`, for `make test`'s time): the hook's initramfs, but the
real root has lost /usr/bin/skeletond since: the initramfs daemon shows the skeleton, then at the
switch gives the display back (the console, no frozen picture), says why, and exits. Case
`dracut`: Debian's dracut instead of initramfs-tools, the package's dracut module, systemd in the
initramfs; checked as `initramfs`. Case `chroot-image`: built as kiosk images are, in a chroot
that sees no card, with initramfs-tools' default `MODULES=most` and the package's
/etc/skeletond/initramfs untouched (no SKELETOND_MODULES): the hook's DRM drivers must bring the
skeleton up from the initramfs; checked as `initramfs`, then booted again on virtio-gpu
(`chroot-image-virtio`, the same initramfs); with `--case chroot-image-uefi` and `--case
chroot-image-uefi-virtio` (not in `make test`, for their time) also under UEFI (Debian's
OVMF), where its layout keeps the firmware's logo (`"source": "bgrt"`) and the screen must
equal the render with the logo where the BGRT table puts it, as the firmware drew it. It prints
the initramfs's size with and without skeletond and what the drivers weigh in it; the BIOS and
UEFI boots take screenshots as fast as QMP gives them from the machine's start to the real root
and print what the screen showed, for how long, and how long it was black right before the
skeleton; once the skeleton shows, every screenshot up to the real root's must be the skeleton
but for single screenshots of a mode set. Under UEFI the firmware's logo must show before the
skeleton, and with `--append fbcon=vc:2-6` (the framebuffer console kept off tty1) no black
may come between them. Every case checks that sysinit.target is ordered after no skeletond
unit (the boot never waits for the splash); where skeletond.service starts the daemon, it
prints how long the unit's start job took (at most START_JOB_LIMIT). Case `no-module` (only with `--case no-module`, not in
`make test`, for its time): the hook's initramfs without the card's DRM
driver: the initramfs daemon waits past `waitSeconds` (no memory fallback) and draws once the
real root's udev loads bochs; checked as `initramfs` from the real root on.

Case `handoff` (only with `--case handoff`, not in `make test`, for its time): a root with Xorg,
weston, cage, seatd and foot besides, on virtio-gpu; the kiosk recipes of examples/handoff take
the screen from the skeleton in turn (Tests/boot/handoff.py).

Case `web-kiosk` (only with `--case web-kiosk`, for its time): a root with cage, weston, Xorg and
Chromium; the browser recipe of docs/handoff.md on each, with a page served from the guest whose
data arrives after its load event, under TCG with two vCPUs (Tests/boot/web_kiosk.py).

Cases `luks`, `luks-de` and `luks-plymouth` (only on request): the root on LUKS2, unlocked by
Debian's cryptsetup-initramfs with the passphrase typed over QMP, a wrong one first
(Tests/boot/luks.py).

Follow-ups that boot the `initramfs` case's root and the disk its boot left (they run that case
too), told what to do by `e2e.step=` on the kernel command line (Tests/boot/guest/e2e-after):
`layout-change`: at the end of the `initramfs` boot, first, the daemon from the initramfs must
have left, at the hide, the mark that has skeletond-initramfs.path start skeletond-cache.service:
it must succeed, consume the mark, keep the boot record the daemon wrote (its confirmed outputs)
and make the initramfs again with that record in it; then the start layout is edited (another tint);
skeletond-cache.path must start skeletond-cache.service, which must succeed, leave the new
layout's frame in /var/cache/skeletond (read from the disk image with debugfs, equal to
`skeletond render`) and make the initramfs again; the boot after it (`next-boot`, from that
initramfs) is checked as `initramfs` against the new layout's render, then the package is
installed again there (the postinst, with the card present, must prepare the next boot: a frame
equal to the render and a boot plan; in the chroot, without a display, it prepared nothing) and
purged (no /var/cache/skeletond, nothing in /run/skeletond). `disabled`: between them, a boot
with `skeletond.enable=0`: no skeletond process in the initramfs once the card is up and no
log, none in the real root, nothing holding the card, skeletond.service, .socket,
skeletond-hide.service and the path units skipped by their condition (the journal says
so), no /run/skeletond, `skeletonctl status` exits 2, the text console on every screenshot.
`dracut-disabled`: the same with the `dracut` case's root. Each boot prints how long it took.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "Tests" / "e2e"))
sys.path.insert(0, str(REPO / "Tests" / "plymouth"))
sys.dont_write_bytecode = True

import png  # noqa: E402
import qemu_harness  # noqa: E402
from test_plymouth_client import fetch_client  # noqa: E402
from test_harness_minimal_c import Checker, build_c_program  # noqa: E402
import handoff  # noqa: E402
import web_kiosk  # noqa: E402
import luks  # noqa: E402
from test_skeletond_drm import SOLID  # noqa: E402

OUT = REPO / "build" / "boot"
SKIPPED = 77  # exit status of a skipped test; scripts/test-all.sh lists it with its reason
NEEDS_ROOT = "needs root: the root file system is built, installed into with chroot, and owned as in Debian"
# The root file system: Debian with systemd, its kernel and initramfs-tools. Documentation,
# locales and the kernel modules no virtual machine here needs (sound, networking, media,
# other GPUs...) are left out: the root is unpacked, imaged and booted for every case. cpio,
# kpartx and e2fsprogs are what dracut needs besides: the dracut case swaps it in for
# initramfs-tools. make: `make install` runs in the guest (the next-boot follow-up).
PACKAGES = "systemd-sysv,udev,kmod,linux-image-amd64,initramfs-tools,busybox,cpio,kpartx,e2fsprogs,fonts-dejavu-core,xkb-data,libx11-data,make"
EXCLUDED = ["/usr/share/doc/*", "/usr/share/man/*", "/usr/share/locale/*", "/usr/share/info/*",
            "/lib/modules/*/kernel/sound/*", "/lib/modules/*/kernel/net/*", "/lib/modules/*/kernel/drivers/net/*",
            "/lib/modules/*/kernel/drivers/media/*", "/lib/modules/*/kernel/drivers/infiniband/*",
            "/lib/modules/*/kernel/drivers/gpu/drm/amd/*", "/lib/modules/*/kernel/drivers/gpu/drm/nouveau/*",
            "/lib/modules/*/kernel/drivers/gpu/drm/i915/*", "/lib/modules/*/kernel/drivers/gpu/drm/radeon/*",
            "/lib/modules/*/kernel/drivers/staging/*", "/lib/modules/*/kernel/drivers/bluetooth/*",
            "/lib/modules/*/kernel/drivers/usb/*", "/lib/modules/*/kernel/drivers/scsi/*", "/lib/modules/*/kernel/drivers/iio/*"]
# Debian's releases by number, and the one each case boots: Debian 13, the current stable, but for
# the `debian12` case (the `initramfs` case on the release before) and the cases run only on request,
# whose extra packages and figures were set up on Debian 12.
SUITES = {13: "trixie", 12: "bookworm"}
DEFAULT_RELEASE = 13
ON_DEBIAN_12 = ("debian12", "handoff", "web-kiosk", *luks.CASES)


def release_of(case: str) -> int:
    return 12 if case in ON_DEBIAN_12 else DEFAULT_RELEASE


def base_path(packages: str, release: int = DEFAULT_RELEASE) -> Path:
    return OUT / f"debian{release}-base-{hashlib.sha256((packages + ' '.join(EXCLUDED)).encode()).hexdigest()[:12]}.tar"

SIZE = (1024, 768)
# The start layout as an administrator changes it in the `layout-change` boot: another tint.
CHANGED = dict(SOLID, appearance={"tint": "#E74C3C"})
# The shutdown layout (settings shutdown.layout): the message role says what is happening.
BYE = {
    "name": "bye",
    "canvas": {"width": SIZE[0], "height": SIZE[1], "background": "#1B2631"},
    "presentation": {"style": "solid", "animated": False, "transition": {"kind": "none"}},
    "root": {"kind": "view", "children": [
        {"kind": "label", "id": "status", "role": "message", "frame": [0, 560, "100%", 60], "text": "",
         "fontSize": 36, "color": "#FFFFFF", "alignment": "center", "skeletonable": False},
        {"kind": "image", "frame": [432, 224, 160, 160], "shape": "circle"},
    ]},
}
# The follow-up boots of the initramfs case's root, each its own --case: `layout-change` edits the
# layout at the end of the initramfs boot, boots again (`next-boot`) and reinstalls and purges
# the package there; `disabled` boots with skeletond.enable=0 in between.
FOLLOW_UPS = ("layout-change", "disabled")
# How systemd says a unit was skipped by skeletond.enable=0: Debian 12's systemd 252, then 13's 257.
OFF_MESSAGES = ("skipped because of an unmet condition check (ConditionKernelCommandLine=!skeletond.enable=0)",
                "skipped, unmet condition check ConditionKernelCommandLine=!skeletond.enable=0")
HOST_TOOL = REPO / ".build" / "debug" / "skeletond"
# An image built the way kiosk images are (MODULES=most, no SKELETOND_MODULES, no card seen at
# build time), booted on bochs and then on virtio-gpu: the skeleton must come from its initramfs.
CHROOT_IMAGE = ("chroot-image", "chroot-image-virtio", "chroot-image-uefi", "chroot-image-uefi-virtio")
# The kiosk image's start layout keeps the firmware's logo where the firmware drew it (the bgrt
# source, drawn over the skeleton); without a BGRT table (SeaBIOS) that node draws nothing, so
# under BIOS the screen equals SOLID's render.
SOLID_WITH_LOGO = dict(SOLID, root=dict(SOLID["root"], children=[
    *SOLID["root"]["children"],
    {"kind": "image", "id": "firmware-logo", "frame": [0, 0, 0, 0], "skeletonable": False, "source": "bgrt"}]))
# Debian's OVMF (the `ovmf` package; Tests/boot/run.sh installs it).
OVMF = Path("/usr/share/ovmf/OVMF.fd")
# Kernel parameters for every boot (`--append`), to see what a setting changes (fbcon=vc:2-6).
EXTRA_KERNEL_ARGS = ""
VIRTIO = f"virtio-vga,xres={SIZE[0]},yres={SIZE[1]}"
# QEMU's accelerator, memory (MB) and CPUs: two vCPUs under multi-threaded TCG boot Debian 13 in
# about 0.7 of the time of one (46 s against 65 s for the `initramfs` case); the boot benchmark
# measures on one, where what a splash costs the boot is its CPU time.
TWO_VCPUS = ("tcg,thread=multi", "1024", "2")
ONE_VCPU = ("tcg", "1024", "1")
# How long skeletond.service's start job may take, under TCG (sysinit.target does not
# wait for it, so the boot never does): systemd sets up the sandbox and the executable is loaded;
# READY=1 comes once the socket listens, before any driver or frame.
START_JOB_LIMIT = 10.0


def run(*command: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(command, check=True, **kwargs)


def base_root(extra: str = "", release: int = DEFAULT_RELEASE) -> Path:
    """The root's tar (made once, cached by its release and package list); `extra`: packages besides."""
    packages = PACKAGES + ("," + extra if extra else "")
    base = base_path(packages, release)
    if not base.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        print(f"== mmdebstrap: a Debian {release} root with systemd, its kernel and initramfs-tools" + (f", and {extra}" if extra else "")
              + " (once, cached)")
        partial = base.with_suffix(".partial")
        run("mmdebstrap", "--quiet", "--variant=apt", f"--include={packages}",
            *[f"--dpkgopt=path-exclude={pattern}" for pattern in EXCLUDED],
            "--format=tar", SUITES[release], str(partial))
        partial.rename(base)
    return base


def the_package() -> Path:
    run(str(REPO / "scripts" / "make-deb.sh"), stdout=subprocess.DEVNULL)
    return package_path()


def package_path() -> Path:
    """Where `make deb` leaves the package."""
    version = subprocess.run(["dpkg-parsechangelog", "-S", "Version"], cwd=REPO, capture_output=True, text=True, check=True).stdout.strip()
    arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True, check=True).stdout.strip()
    return REPO / "build" / "deb" / f"skeletond_{version}_{arch}.deb"


def install_dracut(root: Path, work: Path, chroot) -> None:
    """Debian's dracut in place of initramfs-tools, with the package's module, the test's marker module,
    and only the drivers the virtual machine needs (the disk's and bochs)."""
    # Configured before dracut is installed: its postinst may make an initramfs already.
    (root / "etc/dracut.conf.d").mkdir(parents=True, exist_ok=True)
    (root / "etc/dracut.conf.d/90-boot-test.conf").write_text(
        'hostonly="no"\ndrivers=" bochs virtio_pci virtio_blk ext4 "\ncompress="zstd"\nadd_dracutmodules+=" skeletond e2emark "\n')
    module = root / "usr/lib/dracut/modules.d/91e2emark"
    module.mkdir(parents=True, exist_ok=True)
    (module / "module-setup.sh").write_text(
        '#!/bin/bash\ncheck() { return 255; }\ndepends() { return 0; }\ninstall() { inst_multiple grep cut cat sleep; inst_hook pre-mount 10 "$moddir/e2e-mark.sh"; }\n')
    # The same marker script as initramfs-tools', as a sourced dracut hook.
    mark = (HERE / "guest" / "e2e-initramfs-mark").read_text().split("esac\n", 1)[1].replace("exit 0", "return 0")
    (module / "e2e-mark.sh").write_text("#!/bin/sh\n" + mark)
    for file in module.iterdir():
        file.chmod(0o755)
    # The root's own release's dracut, from its mirror: apt takes initramfs-tools out for it.
    swapped = chroot("sh", "-c", "apt-get update -qq && apt-get install -y -qq --no-install-recommends --purge dracut && apt-get clean")
    (work / "dracut-install.log").write_text(swapped.stdout + swapped.stderr)
    if swapped.returncode != 0:
        raise RuntimeError(f"installing dracut failed: {swapped.stderr[-800:]}")


def in_chroot(root: Path, *command: str) -> subprocess.CompletedProcess:
    # With /proc, as image builders (mmdebstrap) give their hooks: the static skeletond
    # cannot start without /proc/self/exe.
    return subprocess.run(["unshare", "--mount", "--fork", "sh", "-c", 'mount -t proc proc "$0/proc" && exec chroot "$0" "$@"',
                           str(root), *command], capture_output=True, text=True,
                          env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "DEBIAN_FRONTEND": "noninteractive", "LANG": "C"})


def prepare_root(case: str, deb: Path, work: Path) -> tuple[Path, Path, Path]:
    """The case's root directory with the package installed and configured, its kernel and initrd."""
    root = work / "root"
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    extra = {"handoff": handoff.PACKAGES, "web-kiosk": web_kiosk.PACKAGES}.get(case, luks.PACKAGES if case in luks.CASES else "")
    run("tar", "-xf", str(base_root(extra, release_of(case))), "-C", str(root), "--numeric-owner")
    shutil.copy(deb, root / "tmp" / "skeletond.deb")

    def chroot(*command: str) -> subprocess.CompletedProcess:
        return in_chroot(root, *command)

    installed = chroot("dpkg", "-i", "/tmp/skeletond.deb")
    (work / "dpkg.log").write_text(installed.stdout + installed.stderr)
    if installed.returncode != 0:
        raise RuntimeError(f"dpkg -i failed: {installed.stderr[-800:]}")
    # A static start layout (so that screenshots can equal the render), as an administrator
    # would set one: the settings are the package's conffile, edited.
    (root / "etc/skeletond/layouts/solid.json").write_text(json.dumps(SOLID_WITH_LOGO if case == "chroot-image" else SOLID))
    settings_path = root / "etc/skeletond/skeletond.json"
    settings = json.loads(settings_path.read_text())
    settings["layouts"]["start"] = "solid"
    (root / "etc/skeletond/layouts/bye.json").write_text(json.dumps(BYE))
    settings["shutdown"] = {"layout": "bye"}
    settings_path.write_text(json.dumps(settings, indent=2))
    hook = "no" if case == "real-root" else "yes"
    if case == "chroot-image":
        # As a kiosk image is built: the package's /etc/skeletond/initramfs untouched (no
        # SKELETOND_MODULES) and initramfs-tools' default MODULES=most; the chroot sees no card.
        (root / "etc/initramfs-tools/conf.d/boot-test").write_text("COMPRESS=zstd\n")
    else:
        # no-module: the hook adds no DRM driver (none named, and MODULES=list adds none).
        modules = "" if case == "no-module" else "virtio_gpu" if case in ("handoff", "web-kiosk") else "bochs"
        (root / "etc/skeletond/initramfs").write_text(f'SKELETOND_INITRAMFS={hook}\nSKELETOND_MODULES="{modules}"\n')
        # A lean initramfs, as a kiosk image may have: the root disk's modules only (MODULES=dep
        # cannot see the disk from a chroot), plus what the hook adds.
        (root / "etc/initramfs-tools/conf.d/boot-test").write_text("MODULES=list\nCOMPRESS=zstd\n")
        (root / "etc/initramfs-tools/modules").write_text("virtio_pci\nvirtio_blk\next4\n")
    # Test-only pieces: the initramfs marker script, the probes, Debian's plymouth client.
    premount = root / "etc/initramfs-tools/scripts/init-premount"
    premount.mkdir(parents=True, exist_ok=True)
    if case == "initramfs":
        # For the follow-up boots (e2e.step=): the package again, and the changed layout.
        shutil.copy(deb, root / "root" / "skeletond.deb")
        (root / "root" / "e2e-changed.json").write_text(json.dumps(CHANGED))
        # What `make install` installs from, its executables the package's (built already).
        src = root / "root" / "src"
        for part in ("systemd", "config", "initramfs"):
            shutil.copytree(REPO / part, src / part)
        shutil.copy(REPO / "Makefile", src / "Makefile")
        (src / "build" / "static").mkdir(parents=True)
        for tool in ("skeletond", "skeletonctl"):
            shutil.copy(root / "usr/bin" / tool, src / "build" / "static" / tool)
    if case == "handoff":
        handoff.install(root, build_c_program(), chroot)
    if case == "web-kiosk":
        web_kiosk.install(root, chroot)
        web_kiosk.capture_start_layout(root, HOST_TOOL, SIZE)
    if case in luks.CASES:
        luks.install(root, case)
    if case in ("initramfs", "debian12", "no-executable", "chroot-image", "handoff", "web-kiosk", *luks.CASES):
        shutil.copy(HERE / "guest" / "e2e-initramfs-mark", premount / "e2e-mark")
        (premount / "e2e-mark").chmod(0o755)
    for script in ("e2e-probe", "e2e-after"):
        shutil.copy(HERE / "guest" / script, root / "usr/local/bin" / script)
        (root / "usr/local/bin" / script).chmod(0o755)
    final = root / "usr/lib/systemd/system-shutdown/e2e-final"
    final.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(HERE / "guest" / "e2e-final", final)
    final.chmod(0o755)
    units = root / "etc/systemd/system"
    (units / "e2e-probe.service").write_text(
        "[Unit]\nDescription=boot test: the real root's first moments\nAfter=skeletond.service\nBefore=skeletond-hide.service\n"
        "[Service]\nType=oneshot\nExecStart=/usr/local/bin/e2e-probe\n[Install]\nWantedBy=multi-user.target\n")
    (units / "e2e-after.service").write_text(
        "[Unit]\nDescription=boot test: hidden, shown again, powered off\nAfter=skeletond-hide.service multi-user.target\n"
        "[Service]\nType=oneshot\nExecStart=/usr/local/bin/e2e-after\n[Install]\nWantedBy=multi-user.target\n")
    wants = units / "multi-user.target.wants"
    wants.mkdir(parents=True, exist_ok=True)
    for unit in ("e2e-probe.service", "e2e-after.service"):
        (wants / unit).unlink(missing_ok=True)
        (wants / unit).symlink_to(f"/etc/systemd/system/{unit}")
    executable, libraries = fetch_client()
    (root / "opt/plymouth/lib").mkdir(parents=True, exist_ok=True)
    shutil.copy(executable, root / "opt/plymouth/plymouth")
    for library in libraries.glob("libply*.so*"):
        shutil.copy(library, root / "opt/plymouth/lib" / library.name, follow_symlinks=True)
    kernels = sorted((root / "lib/modules").iterdir())
    version = kernels[-1].name
    if case == "dracut":
        install_dracut(root, work, chroot)
        made = chroot("dracut", "--force", f"/boot/initrd.img-{version}", version)
    else:
        made = chroot("update-initramfs", "-c", "-k", version)
    (work / "initramfs.log").write_text(made.stdout + made.stderr)
    if made.returncode != 0:
        raise RuntimeError(f"making the initramfs failed: {made.stderr[-800:]}")
    if case == "chroot-image":
        print(f"  {case}: {initramfs_sizes(root, version, chroot)}")
    if case == "no-executable":
        # The package's executable gone from the real root after the initramfs was made.
        (root / "usr/bin/skeletond").unlink()
    return root, root / "boot" / f"vmlinuz-{version}", root / "boot" / f"initrd.img-{version}"


def initramfs_sizes(root: Path, version: str, chroot) -> str:
    """The chroot image's initramfs against the same one made without skeletond, and what its
    DRM drivers and executables weigh inside it (uncompressed)."""
    made = root / "boot" / f"initrd.img-{version}"
    settings = root / "etc/skeletond/initramfs"
    kept = settings.read_text() if settings.exists() else None
    settings.write_text((kept or "") + "SKELETOND_INITRAMFS=no\n")
    try:
        chroot("mkinitramfs", "-o", "/tmp/initrd-without", version)
    finally:
        if kept is None:
            settings.unlink()
        else:
            settings.write_text(kept)
    without = root / "tmp" / "initrd-without"
    listing = chroot("lsinitramfs", "-l", f"/boot/initrd.img-{version}").stdout.splitlines()

    def weight(pattern: str) -> int:
        return sum(int(line.split()[4]) for line in listing if re.search(pattern, line.split()[-1] if line.split() else ""))
    drivers = weight(r"/kernel/drivers/gpu/drm/")
    executables = weight(r"^usr/bin/skeleton")
    mb = 1 << 20
    text = (f"initramfs {made.stat().st_size / mb:.1f} MB compressed, {without.stat().st_size / mb:.1f} MB without skeletond; "
            f"inside, uncompressed: DRM drivers {drivers / mb:.1f} MB, skeletond and skeletonctl {executables / mb:.1f} MB")
    without.unlink()
    return text


def boot(root: Path, kernel: Path, initrd: Path, work: Path, timeout: float = 300, append: str = "",
         disk: Path | None = None, device: str = f"VGA,xres={SIZE[0]},yres={SIZE[1]}", firmware: Path | None = None,
         watch_up: bool = False, on_marker=None, watch_until: str = "@@REALROOT", machine: tuple[str, str, str] = TWO_VCPUS) -> dict:
    """Boots the root (imaged afresh as work/disk.img), or `disk` as a previous boot left it;
    `append` goes on the kernel command line, `device` is the display, `firmware` a UEFI
    firmware image (else SeaBIOS). Screenshots as fast as QMP gives them are taken from
    `systemctl poweroff|reboot` to the end (`down`) and, with `watch_up`, from the start until
    the marker `watch_until` (the real root's probe; `up`). `on_marker(qmp, line, result)` is called on each marker.
    `machine`: QEMU's accelerator, memory (MB) and CPUs (TWO_VCPUS, or ONE_VCPU)."""
    if disk is None:
        disk = work / "disk.img"
        disk.unlink(missing_ok=True)
        run("mke2fs", "-q", "-t", "ext4", "-d", str(root), str(disk), "3G")
    sockets = Path(tempfile.mkdtemp(prefix="skeletond-boot-"))
    con_path, qmp_path = sockets / "con", sockets / "qmp"
    con_server, qmp_server = qemu_harness._listen(con_path), qemu_harness._listen(qmp_path)
    command = ["qemu-system-x86_64", "-accel", machine[0], "-m", machine[1], "-smp", machine[2], "-no-reboot", "-no-shutdown",
               "-kernel", str(kernel), "-initrd", str(initrd),
               "-append", " ".join(["root=/dev/vda rw console=ttyS0 quiet vt.global_cursor_default=0 systemd.show_status=0",
                                    EXTRA_KERNEL_ARGS, append]).strip(),
               "-drive", f"file={disk},if=virtio,format=raw", "-device", device,
               "-display", "none", "-chardev", f"socket,id=con,path={con_path}", "-serial", "chardev:con",
               "-qmp", f"unix:{qmp_path}"] + (["-bios", str(firmware)] if firmware else [])
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=open(work / "qemu.stderr", "w"))
    result: dict = {"shots": {}, "markers": [], "log": "", "timed_out": False, "down": [], "down_frames": {}, "up": [], "up_frames": {}}
    log = bytearray()
    try:
        con = qemu_harness._accept(con_server, proc, "the serial console", 30)
        qmp = qemu_harness.QMP(qemu_harness._accept(qmp_server, proc, "QMP", 30), None)
        con.settimeout(0.2)
        started = time.monotonic()
        pending = b""
        powered_off_at = None
        going_down_at = None
        coming_up = watch_up
        # A series the guest asked for (@@SERIES NAME ... @@SERIES-END NAME), and when it began.
        series: tuple[str, float] | None = None
        if watch_up:
            con.settimeout(0.01)
        while True:
            if time.monotonic() - started > timeout:
                result["timed_out"] = True
                break
            if powered_off_at and time.monotonic() - powered_off_at > 1.5:
                shot = work / "poweroff.png"
                qmp.execute("screendump", {"filename": str(shot), "format": "png"})
                result["shots"]["poweroff"] = shot
                break
            if going_down_at is not None and powered_off_at is None:
                series_shot(qmp, work, result, "down", time.monotonic() - going_down_at)
            elif coming_up:
                series_shot(qmp, work, result, "up", time.monotonic() - started)
            elif series is not None:
                series_shot(qmp, work, result, series[0], time.monotonic() - series[1])
            try:
                chunk = con.recv(65536)
                if not chunk:
                    break
            except socket.timeout:
                continue
            log += chunk
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for raw in lines:
                line = raw.decode(errors="replace").strip()
                # A marker may follow the kernel's or the initramfs's text on the same line.
                if "@@" in line:
                    line = line[line.index("@@"):]
                    result["markers"].append((time.monotonic() - started, line))
                    if line.startswith(watch_until):
                        coming_up = False
                        con.settimeout(0.2)
                    if line in ("@@POWEROFF", "@@REBOOT"):
                        going_down_at = time.monotonic()
                        con.settimeout(0.01)
                    named = re.match(r"@@SERIES(-END)? (\S+)", line)
                    if named and not named.group(1):
                        series = (named.group(2), time.monotonic())
                        result.setdefault(series[0], [])
                        result.setdefault(f"{series[0]}_frames", {})
                        con.settimeout(0.01)
                    elif named:
                        series = None
                        con.settimeout(0.2)
                    if line.startswith("@@FINAL") and going_down_at is not None:
                        result["final_at"] = time.monotonic() - going_down_at
                    shoot = re.match(r"@@SHOOT (\S+)", line)
                    if shoot:
                        shot = work / f"{shoot.group(1)}.png"
                        qmp.execute("screendump", {"filename": str(shot), "format": "png"})
                        result["shots"][shoot.group(1)] = shot
                    if on_marker:
                        on_marker(qmp, line, result)
                # With -no-reboot and -no-shutdown a reboot stops the machine as a power-off does.
                if "reboot: Power down" in line or "reboot: Restarting system" in line:
                    powered_off_at = time.monotonic()
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(sockets, ignore_errors=True)
    result["log"] = log.decode(errors="replace")
    (work / "serial.txt").write_text(result["log"])
    return result


def series_shot(qmp, work: Path, result: dict, series: str, at: float) -> None:
    """One screenshot of a series (PPM: no encoding), kept once per distinct picture."""
    shot = work / f"{series}-{len(result[series]):04d}.ppm"
    try:
        qmp.execute("screendump", {"filename": str(shot)})
        pixels = read_ppm(shot).data
    except (OSError, ValueError, qemu_harness.HarnessError):
        return
    digest = hashlib.sha1(pixels).hexdigest()
    if digest in result[f"{series}_frames"]:
        shot.unlink()
    else:
        result[f"{series}_frames"][digest] = shot
    result[series].append((at, digest))


def frame_kinds(frames: dict[str, Path], known: dict[str, png.Image]) -> dict[str, str]:
    """What each distinct screenshot of a series is: the name of the known picture it equals,
    "black", or "picture WxH" (kept as PNG beside it for a look)."""
    kinds: dict[str, str] = {}
    for digest, path in frames.items():
        image = read_ppm(path)
        kinds[digest] = next((name for name, picture in known.items()
                              if (image.width, image.height) == (picture.width, picture.height) and png.compare(image, picture).ok), "")
        if not kinds[digest]:
            kinds[digest] = "black" if not image.data.strip(b"\0") else f"picture {image.width}x{image.height}"
            png.write(path.with_suffix(".png"), image)
    return kinds


def check_coming_up(c: Checker, label: str, result: dict, skeleton: png.Image, work: Path) -> None:
    """From the machine's start to the real root: what the screen showed before the skeleton, and
    for how long. The firmware's screen, then (under UEFI) its logo kept by efifb, black or the
    console while the DRM driver replaces the firmware's framebuffer, then the skeleton. Printed
    as a figure: the black and console time between the last picture before the skeleton and
    the skeleton."""
    up = result["up"]
    kinds = frame_kinds(result["up_frames"], {"skeleton": skeleton})
    first = next((i for i, (_, d) in enumerate(up) if kinds[d] == "skeleton"), None)
    runs: list[list] = []
    for t, d in up[:first]:
        if runs and runs[-1][0] == kinds[d]:
            runs[-1][2] = t
        else:
            runs.append([kinds[d], t, t])
    timeline = ", ".join(f"{k} {a:.1f}-{b:.1f} s" for k, a, b in runs)
    if first is None:
        print(f"  figure: {label}: coming up, no skeleton frame before the real root; {timeline}")
        return
    black = 0.0
    for k, a, b in reversed(runs):
        if k != "black":
            break
        black = up[first][0] - a
    print(f"  figure: {label}: coming up, {len(up)} screenshots: {timeline}, the skeleton from {up[first][0]:.1f} s; "
          f"black right before it: {black:.2f} s")
    result["black_before_skeleton"] = black
    # From the first skeleton frame to the real root's screenshot: the skeleton throughout, the
    # native driver's arrival included. A mode set may show in one screenshot (the emulated VGA
    # of bochs clears its memory when a mode is set; the frame is written again at once).
    after: list[list] = []
    for i, (t, d) in enumerate(up[first:], start=first):
        if kinds[d] == "skeleton":
            continue
        if after and after[-1][0] == kinds[d] and after[-1][3] == i - 1:
            after[-1][2], after[-1][3] = t, i
        else:
            after.append([kinds[d], t, t, i])
    others = sum(1 for _, d in up[first:] if kinds[d] != "skeleton")
    print(f"  figure: {label}: from the skeleton's first frame to the real root, {len(up) - first} screenshots, "
          f"{others} not the skeleton: " + (", ".join(f"{k} at {a:.2f}-{b:.2f} s" for k, a, b, _ in after) or "none"))
    c.check(f"{label}: once shown, the skeleton stays until the real root (at most one screenshot of a mode set at a time)",
            all(a == b for _, a, b, _ in after) and len(after) <= 2, str([(k, round(a, 2), round(b, 2)) for k, a, b, _ in after]))
    if "uefi" in label:
        logo = next((i for i, (_, d) in enumerate(up) if kinds[d] == f"picture {skeleton.width}x{skeleton.height}"), None)
        c.check(f"{label}: the firmware's logo is on screen before the skeleton", logo is not None and logo < first, f"timeline {timeline}")
        if "fbcon=vc:" in EXTRA_KERNEL_ARGS and logo is not None:
            blacks = sum(1 for _, d in up[logo:first] if kinds[d] == "black")
            c.check(f"{label}: no black between the firmware's logo and the skeleton (the framebuffer console kept off tty1)",
                    blacks <= 1, f"{blacks} black screenshots; timeline {timeline}")


def with_firmware_logo(c: Checker, label: str, render: png.Image, result: dict) -> png.Image:
    """What the kiosk image's layout shows under UEFI: its render with the firmware's logo where
    the BGRT table puts it (`@@BGRT X Y WIDTH HEIGHT`, read in the guest), its pixels as the
    firmware drew them: the last screenshot at the render's size that is black but for that box
    (the firmware draws its logo on black, part by part)."""
    fields = (marker(result, "BGRT") or "").split()
    if len(fields) != 4:
        c.check(f"{label}: the firmware published its logo (BGRT)", False, f"@@BGRT {fields}")
        return render
    x, y, width, height = (int(f) for f in fields)
    rows = range(max(0, y), min(render.height, y + abs(height)))
    left, right = max(0, x) * 3, min(render.width, x + width) * 3
    row = render.width * 3

    def outside_box(data: bytes) -> bytes:
        cut = bytearray(data)
        for line in rows:
            cut[line * row + left:line * row + right] = bytes(right - left)
        return bytes(cut)

    firmware = None
    for _, digest in result["up"]:
        image = read_ppm(result["up_frames"][digest])
        if (image.width, image.height) == (render.width, render.height) and image.data.strip(b"\0") \
                and not outside_box(image.data).strip(b"\0"):
            firmware = image
    c.check(f"{label}: the firmware published its logo (BGRT) and drew it there", firmware is not None, f"@@BGRT {fields}")
    if firmware is None:
        return render
    data = bytearray(render.rgb().data)
    for line in rows:
        data[line * row + left:line * row + right] = firmware.data[line * row + left:line * row + right]
    return png.Image(render.width, render.height, 3, bytes(data))


def read_ppm(path: Path) -> png.Image:
    """QEMU's screendump in its default format: a binary PPM (P6, 8 bits)."""
    blob = path.read_bytes()
    fields = blob.split(maxsplit=4)
    if len(fields) < 5 or fields[0] != b"P6" or fields[3] != b"255":
        raise ValueError(f"{path}: not an 8-bit binary PPM")
    width, height = int(fields[1]), int(fields[2])
    data = fields[4][:width * height * 3]
    if len(data) != width * height * 3:
        raise ValueError(f"{path}: {len(data)} bytes of pixels for {width}x{height}")
    return png.Image(width, height, 3, data)


# How much earlier than the host read systemd-shutdown's last marker the screen may go black:
# the serial line and the screenshots are read in turn, a few ms apart.
FINAL_LAG = 0.25


def check_going_down(c: Checker, label: str, result: dict, skeleton: png.Image, mode: str, work: Path) -> None:
    """From `systemctl poweroff|reboot` until the power is off: every screenshot is the
    skeleton (shown again before the command) or the shutdown layout saying what happens, never
    the console, until systemd-shutdown's last step (Tests/boot/guest/e2e-final), where the
    daemon must still hold the card. What follows that step is the kernel's: its drivers shut the
    devices down on the way to the power-off (virtio-gpu's reset brings back the VGA text the
    firmware left, for the last few milliseconds)."""
    message = {"poweroff": "Powering off", "reboot": "Restarting"}[mode]
    bye = png.read(shutdown_render(message, (skeleton.width, skeleton.height)))
    down = result["down"]
    kinds = frame_kinds(result["down_frames"], {"shutdown": bye, "skeleton": skeleton})
    # The reboot goes down from the console (the skeleton hidden): the console until the shutdown
    # layout, which skeletond-hide.service's stop has on screen before the getty's stop clears the
    # console: at most FROM_CONSOLE_BLACK_LIMIT black screenshots between them.
    if mode == "reboot":
        for d, path in result["down_frames"].items():
            if kinds[d] not in ("shutdown", "skeleton"):
                kinds[d] = hide_kind(read_ppm(path), skeleton)
        first_bye = next((i for i, (_, d) in enumerate(down) if kinds[d] == "shutdown"), len(down))
        lead = [kinds[d] for _, d in down[:first_bye]]
        black = lead.count("black")
        runs = ", ".join(f"{k} ({n})" for k, n in _runs(lead))
        print(f"  figure: {label}: from the console to the shutdown layout: {runs or 'nothing'}, {black} black screenshot(s); "
              f"the shutdown layout from {down[first_bye][0] if first_bye < len(down) else 'never'} s after `systemctl reboot`")
        c.check(f"{label}: going down from the console, only the console, then the shutdown layout",
                first_bye < len(down) and all(k == "console" for k in lead if k != "black"), runs)
        c.check(f"{label}: at most {FROM_CONSOLE_BLACK_LIMIT} black screenshot between the console and the shutdown layout",
                black <= FROM_CONSOLE_BLACK_LIMIT, f"{black}: {runs}")
        # From the shutdown layout on, as from the skeleton.
        down = down[first_bye:]
    good = [i for i, (_, d) in enumerate(down) if kinds[d] in ("skeleton", "shutdown")]
    final_at = result.get("final_at")
    # What follows the shutdown layout from systemd-shutdown's last step on is the kernel's
    # device shutdown, even when it looks like the skeleton: virtio-gpu's reset shows the VGA
    # memory again, which under UEFI holds the skeleton drawn on efifb.
    last_bye = max((i for i in good if kinds[down[i][1]] == "shutdown"), default=-1)
    if final_at is not None and last_bye >= 0 and all(t >= final_at - FINAL_LAG for t, _ in down[last_bye + 1:]):
        good = [i for i in good if i <= last_bye]
    last_good = good[-1] if good else -1
    before = [(round(t, 2), result["down_frames"][d].with_suffix(".png").name) for t, d in down[:last_good] if kinds[d] not in ("skeleton", "shutdown")]
    tail = down[last_good + 1:]
    first = next((t for t, d in down if kinds[d] == "shutdown"), None)
    span = down[-1][0] if down else 0
    print(f"  figure: {label}: {len(down)} screenshots in the {span:.1f} s from `systemctl {mode}` to the end: "
          f"{sum(kinds[d] == 'skeleton' for _, d in down)} the skeleton, {sum(kinds[d] == 'shutdown' for _, d in down)} the shutdown layout"
          + (f" (from {first:.2f} s)" if first is not None else "") + f", then {len(tail)} after it ({sorted({kinds[d] for _, d in tail})})"
          + (f" (from {tail[0][0]:.2f} s; systemd-shutdown's last step read at {final_at:.2f} s)" if tail and final_at is not None else ""))
    c.check(f"{label}: screenshots were taken from `systemctl {mode}` on", len(down) >= 5, f"{len(down)} (log {work}/serial.txt)")
    c.check(f"{label}: going down ({mode}), every screenshot is the skeleton or the shutdown layout, never the console",
            not before, f"{len(before)} others before the last skeleton frame ({before[:5]}), in {work}")
    c.check(f"{label}: the last skeleton frame is the shutdown layout saying \"{message}\"",
            last_good >= 0 and kinds[down[last_good][1]] == "shutdown", f"last: {kinds[down[last_good][1]] if good else 'none'}")
    final = marker(result, "FINAL")
    holders = (final or "").split()
    c.check(f"{label}: at systemd-shutdown's last step the daemon (or the process it left) still holds the card, its argv[0] marked '@'",
            bool(holders) and all(h.split(":", 1)[1].startswith("@") for h in holders if ":" in h), str(final))
    if tail:
        c.check(f"{label}: the skeleton left the screen only after systemd-shutdown's last step (the kernel's device shutdown)",
                final_at is not None and tail[0][0] >= final_at - FINAL_LAG,
                f"{[kinds[d] for _, d in tail][:3]} from {tail[0][0]:.2f} s, last step at {final_at}")


def _runs(kinds: list[str]) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for k in kinds:
        if out and out[-1][0] == k:
            out[-1] = (k, out[-1][1] + 1)
        else:
            out.append((k, 1))
    return out


# At most this many screenshots may be black between the skeleton and the console at the hide:
# the console's mode set and its first flush can show as one at the QMP rate (0 or 1 measured).
HIDE_BLACK_LIMIT = 1
# Going down from the console: black screenshots between it and the shutdown layout.
FROM_CONSOLE_BLACK_LIMIT = 1


def hide_kind(image: png.Image, skeleton: png.Image) -> str:
    """A screenshot of the hide: the skeleton, the console (black with text on it), black (nothing
    brighter than a dissolve's last steps), or other (the dissolve)."""
    if (image.width, image.height) == (skeleton.width, skeleton.height) and png.compare(image, skeleton).ok:
        return "skeleton"
    pixels = [image.data[i:i + 3] for i in range(0, len(image.data), 3 * 7)]
    brightest = max(max(p) for p in pixels)
    if brightest < 24:
        return "black"
    dark = sum(1 for p in pixels if max(p) < 8)
    return "console" if dark > len(pixels) * 0.9 else "other"


def check_hide(c: Checker, label: str, result: dict, skeleton: png.Image) -> None:
    """From before skeletond-hide.service until the console has shown its getty's prompt for a
    while: the skeleton, its fade, then the console as the kernel left it (here the firmware's
    text, which the console took over), with at most HIDE_BLACK_LIMIT black screenshots between
    them, whatever else the first boot does. After that the console is the getty's: it clears
    the screen (black) and writes its prompt."""
    shots = result.get("hide", [])
    if not shots:
        c.check(f"{label}: screenshots were taken around the hide", False)
        return
    kinds = {d: hide_kind(read_ppm(p), skeleton) for d, p in result["hide_frames"].items()}
    runs = []
    for t, d in shots:
        if runs and runs[-1][0] == kinds[d]:
            runs[-1][2] = t
            runs[-1][3] += 1
        else:
            runs.append([kinds[d], t, t, 1])
    described = ", ".join(f"{k} {a:.2f}-{b:.2f} s ({n})" for k, a, b, n in runs)
    print(f"  figure: {label}: the hide, {len(shots)} screenshots: {described}")
    sequence = [kinds[d] for _, d in shots]
    left = next((i for i, k in enumerate(sequence) if k != "skeleton"), len(sequence))
    after = sequence[left:]
    console_from = next((i for i, k in enumerate(after) if k == "console"), None)
    black = after[:console_from].count("black") if console_from is not None else len(after)
    c.check(f"{label}: the hide: the skeleton, then its fade, then the console, which stays (its getty clearing it or not)",
            console_from is not None and all(k in ("console", "black") for k in after[console_from:]) and "skeleton" not in after,
            described)
    c.check(f"{label}: the hide: at most {HIDE_BLACK_LIMIT} black screenshot between the skeleton and the console",
            black <= HIDE_BLACK_LIMIT, f"{black} black screenshot(s): {described}")


def check_handoff(c: Checker, result: dict, expected: png.Image, work: Path) -> None:
    """The skeleton from the initramfs, the kiosk stacks taking the screen over from it, and the
    way down (Tests/boot/handoff.py)."""
    c.check("handoff: the boot ran to the power-off", not result["timed_out"] and "poweroff" in result["shots"],
            f"timed out {result['timed_out']}, markers {[m for _, m in result['markers']][-5:]} (log {work}/serial.txt)")
    for shot in ("initramfs", "realroot"):
        if shot in result["shots"]:
            d = png.compare(png.read(result["shots"][shot]), expected, diff_path=work / f"diff-{shot}.png")
            c.check(f"handoff: {shot}: the screen equals `skeletond render`", d.ok, str(d))
        else:
            c.check(f"handoff: {shot} screenshot taken", False)
    handoff.check(c, result, expected, SIZE, frame_kinds, marker, read_ppm)
    check_going_down(c, "handoff", result, expected, "poweroff", work)


def shutdown_render(message: str, size: tuple[int, int] = SIZE) -> Path:
    """`skeletond render` of the shutdown layout with the message role's text (made once)."""
    out = OUT / "cases" / f"expected-bye-{message.split()[0].lower()}{'' if size == SIZE else '-%dx%d' % size}.png"
    if not out.exists():
        layout = OUT / "cases" / "bye.json"
        layout.write_text(json.dumps(BYE))
        run(str(HOST_TOOL), "render", str(layout), "--out", str(out), "--size", f"{size[0]}x{size[1]}", "--text", f"status={message}")
    return out


def marker(result: dict, name: str) -> str | None:
    for _, line in result["markers"]:
        if line.startswith(f"@@{name} ") or line == f"@@{name}":
            return line[len(name) + 3:]
    return None


def status(result: dict, name: str) -> dict:
    text = marker(result, name)
    try:
        return json.loads(text) if text else {}
    except json.JSONDecodeError:
        return {}


def is_console(image: png.Image, expected: png.Image) -> tuple[bool, str]:
    """The text console: not the skeleton, and mostly black."""
    d = png.compare(image, expected)
    colours = [colour for _, colour in image.histogram(4)]
    return (not d.ok and bool(colours) and colours[0][:3] == (0, 0, 0)), f"{d}; top colours {colours}"


def check_no_executable(c: Checker, result: dict, expected: png.Image, work: Path) -> None:
    """The real root has no skeletond: the initramfs daemon shows the skeleton, then gives the
    display back at the switch (the console, not a frozen picture) and exits."""
    label = "no-executable"
    c.check(f"{label}: the boot ran to the power-off", not result["timed_out"] and "poweroff" in result["shots"],
            f"timed out {result['timed_out']} (log {work}/serial.txt)")
    if "initramfs" in result["shots"]:
        d = png.compare(png.read(result["shots"]["initramfs"]), expected, diff_path=work / "diff-initramfs.png")
        c.check(f"{label}: initramfs: the screen equals `skeletond render`", d.ok, str(d))
    else:
        c.check(f"{label}: initramfs screenshot taken", False)
    if "realroot" in result["shots"]:
        ok, detail = is_console(png.read(result["shots"]["realroot"]), expected)
        c.check(f"{label}: realroot: the console is back, no frozen skeleton", ok, detail)
    else:
        c.check(f"{label}: realroot screenshot taken", False)
    holders = (marker(result, "CARD_HOLDERS") or "").split()
    c.check(f"{label}: nothing holds the DRM card in the real root", holders == [], f"holders {holders}")
    log = marker(result, "INITRAMFS_LOG") or ""
    c.check(f"{label}: the daemon said why it gave the display back",
            "has no /root/usr/bin/skeletond" in log and "giving the display back before the switch" in log, log[-600:])


def check_case(c: Checker, label: str, result: dict, expected: png.Image, work: Path) -> float | None:
    # `debian12` is the `initramfs` case on Debian 12, checked as that case.
    case = "initramfs" if label == "debian12" else label
    if case == "no-executable":
        check_no_executable(c, result, expected, work)
        return None
    rebooted = "reboot: Restarting system" in result["log"]
    c.check(f"{label}: the boot ran to the power-off" + (" (a reboot)" if rebooted else ""),
            not result["timed_out"] and ("poweroff" in result["shots"] or rebooted),
            f"timed out {result['timed_out']}, markers {[m for _, m in result['markers']][-5:]} (log {work}/serial.txt)")
    from_initramfs = case in ("initramfs", "dracut", "no-module", "next-boot") + CHROOT_IMAGE
    for shot in (["initramfs"] if case in ("initramfs", "dracut", "next-boot") + CHROOT_IMAGE else []) + ["realroot", "shown-again"]:
        if shot not in result["shots"]:
            c.check(f"{label}: {shot} screenshot taken", False, f"markers {[m for _, m in result['markers']][-5:]}")
            continue
        d = png.compare(png.read(result["shots"][shot]), expected, diff_path=work / f"diff-{shot}.png")
        print(f"  {label} {shot} vs render: {d}")
        c.check(f"{label}: {shot}: the screen equals `skeletond render`", d.ok, str(d))
    if case in ("initramfs", "real-root", "dracut") + CHROOT_IMAGE[:1]:
        check_hide(c, label, result, expected)
    if "hidden" not in result["shots"]:
        c.check(f"{label}: hidden screenshot taken", False)
    else:
        ok, detail = is_console(png.read(result["shots"]["hidden"]), expected)
        c.check(f"{label}: hidden: the text console is back (no skeleton, black background)", ok, detail)
    # next-boot purges the package and puts it back with `make install` before its power-off: no
    # daemon is left to be told (the purge stopped it), so its way down is not the shutdown layout's.
    if case != "next-boot":
        check_going_down(c, label, result, expected, "reboot" if marker(result, "REBOOT") is not None else "poweroff", work)
    if result["up"]:
        check_coming_up(c, label, result, expected, work)
    holders = (marker(result, "CARD_HOLDERS") or "").split()
    c.check(f"{label}: one process holds the DRM card in the real root", len(holders) == 1, f"holders {holders}")
    cmdlines = [m for _, m in result["markers"] if m.startswith("@@CMDLINE")]
    if from_initramfs:
        c.check(f"{label}: it is the daemon from the initramfs, its argv[0] marked '@'",
                bool(cmdlines) and cmdlines[0].split(" ", 2)[2].startswith("@"), f"{cmdlines}")
    if from_initramfs:
        # As plymouth-start.service with plymouthd from the initramfs: nothing is started for it.
        c.check(f"{label}: skeletond.service skipped by its condition (the daemon from the initramfs lives)",
                marker(result, "ACTIVE") == "inactive,no", str(marker(result, "ACTIVE")))
        c.check(f"{label}: no skeletond process started in the real root (only the daemon from the initramfs)",
                (marker(result, "DAEMONS") or "").split() == holders, f"{marker(result, 'DAEMONS')} against holders {holders}")
    else:
        c.check(f"{label}: skeletond.service is active before the hide", marker(result, "ACTIVE") == "active,yes", str(marker(result, "ACTIVE")))
        job = number(marker(result, "START_JOB_US"))
        print(f"  figure: {label}: skeletond.service's start job (what systemd waits for): "
              + (f"{job / 1000:.0f} ms" if job is not None else "unknown"))
        c.check(f"{label}: skeletond.service's start job took less than {START_JOB_LIMIT} s",
                job is not None and 0 < job < START_JOB_LIMIT * 1e6, str(job))
    c.check(f"{label}: the boot does not wait for the splash (sysinit.target is after no skeletond unit)",
            marker(result, "SYSINIT_WAITS_FOR") == "0", str(marker(result, "SYSINIT_WAITS_FOR")))
    c.check(f"{label}: plymouth --ping is answered", marker(result, "PLYMOUTH_PING") == "ok", str(marker(result, "PLYMOUTH_PING")))
    c.check(f"{label}: plymouth display-message is answered", marker(result, "PLYMOUTH_MESSAGE") == "ok", str(marker(result, "PLYMOUTH_MESSAGE")))
    s = status(result, "STATUS")
    messages = s.get("plymouth", {}).get("messages")
    c.check(f"{label}: the message is kept", messages == ["e2e: checking the disks"], json.dumps(s.get("plymouth")))
    outputs = s.get("outputs", [])
    # A start that adopted the boot record's or plan's frame draws the parsed start layout once
    # more (the same pixels, in the initramfs): two presents, and none in the real root.
    adopted = re.search(r"first frame on drm \([^)]*from the boot (plan|record)\)", marker(result, "INITRAMFS_LOG") or "") is not None
    presents = 2 if adopted else 1
    c.check(f"{label}: in the real root the frame was not drawn again ({presents} frames presented, "
            f"{'the adopted one and the start layout drawn once' if adopted else 'the first'})",
            [o.get("framesPresented") for o in outputs] == [presents], json.dumps(outputs)[:300])
    c.check(f"{label}: status says where the daemon started", bool(s.get("initramfs")) == from_initramfs, json.dumps(s)[:200])
    if case == "no-module":
        log = marker(result, "INITRAMFS_LOG") or ""
        c.check(f"{label}: the initramfs daemon waited for the card past waitSeconds, not drawing into memory",
                "still waiting for one: in the initramfs" in log and "drawing into memory" not in log
                and [o.get("backend") for o in outputs] == ["drm"], log[-600:])
    hidden = status(result, "HIDDEN")
    c.check(f"{label}: hidden after multi-user.target", hidden.get("state") == "idle", json.dumps(hidden)[:200])
    after_hide = "inactive,no" if from_initramfs else "active,yes"
    c.check(f"{label}: skeletond.service after the hide as before it ({after_hide}): the hide started no daemon",
            marker(result, "ACTIVE_AFTER_HIDE") == after_hide, str(marker(result, "ACTIVE_AFTER_HIDE")))
    c.check(f"{label}: shown again on request", marker(result, "SHOWN_AGAIN") == "ok")
    first = number(marker(result, "FIRST_FRAME_UPTIME"))
    check_first_frame_time(c, label, first, seen_by(result, case))
    return first


def number(text: str | None) -> float | None:
    try:
        return float(text.split()[0]) if text and text.split() else None
    except ValueError:
        return None


def seen_by(result: dict, case: str) -> tuple[str, float | None]:
    """The earliest guest uptime by which something outside the daemon had seen its first frame
    logged: the initramfs marker script (it polls the log every 0.1 s, then asks for the
    `initramfs` shot), else the probe in the real root when it read the line."""
    if case in ("initramfs", "dracut", "next-boot") + CHROOT_IMAGE:
        shoot = marker(result, "SHOOT")
        if shoot and shoot.split()[0] == "initramfs":
            return "the initramfs shot", number(" ".join(shoot.split()[1:]))
    return "the probe in the real root", number(marker(result, "FIRST_FRAME_SEEN_BY"))


# Both ends have a grain: the process's start time in clock ticks (10 ms, rounded down), the
# daemon's milliseconds, and /proc/uptime's 10 ms.
UPTIME_GRAIN = 0.02


def check_first_frame_time(c: Checker, label: str, first: float | None, seen: tuple[str, float | None]) -> None:
    """The first frame's time since the kernel started (the daemon's "ms after process start"
    plus the process's start time) is a real time: after the kernel started, and no later than
    the moment something outside the daemon saw the frame logged. How long it takes depends on
    the machine's load under TCG (README: 6.5 to 39 s), so it is printed as a figure, not bounded."""
    what, at = seen
    c.check(f"{label}: the first frame's time since the kernel started lies between the kernel's start and {what}",
            first is not None and at is not None and 0 < first <= at + UPTIME_GRAIN,
            f"first frame {first} s, {what} at uptime {at} s")


def debugfs(disk: Path, request: str) -> str:
    """A debugfs request on the guest's disk image (read-only, nothing mounted)."""
    return subprocess.run(["debugfs", "-R", request, str(disk)], capture_output=True, text=True, check=True).stdout


def dump(disk: Path, guest_path: str, host_path: Path) -> Path | None:
    host_path.unlink(missing_ok=True)
    debugfs(disk, f"dump {guest_path} {host_path}")
    return host_path if host_path.exists() and host_path.stat().st_size > 0 else None


def frame_file(path: Path) -> png.Image | None:
    """A frame cache entry (SKFRAME1, width, height, XRGB8888 rows) as an RGB image."""
    blob = path.read_bytes()
    if blob[:8] != b"SKFRAME1":
        return None
    width, height = int.from_bytes(blob[8:12], "little"), int.from_bytes(blob[12:16], "little")
    pixels = blob[16:]
    if len(pixels) != width * height * 4:
        return None
    rgb = bytearray(width * height * 3)
    rgb[0::3], rgb[1::3], rgb[2::3] = pixels[2::4], pixels[1::4], pixels[0::4]
    return png.Image(width, height, 3, bytes(rgb))


def check_frame_file(c: Checker, label: str, disk: Path, guest_path: str, expected: png.Image, work: Path) -> None:
    dumped = dump(disk, guest_path, work / Path(guest_path).name)
    image = frame_file(dumped) if dumped else None
    if image is None:
        c.check(f"{label}: {guest_path} is a whole frame cache entry", False, f"dumped {dumped}")
        return
    d = png.compare(image, expected, diff_path=work / f"diff-{Path(guest_path).name}.png")
    c.check(f"{label}: {guest_path} holds the start layout's frame (equals `skeletond render`)", d.ok, str(d))


def check_layout_change(c: Checker, result: dict, disk: Path, version: str, expected: png.Image, work: Path) -> Path | None:
    """After the initramfs boot's hide: its mark had skeletond-cache.service keep the boot record
    and make the initramfs again; the start layout, edited while that run went on, was seen by
    the run's last step, which had the service run again: it wrote the new layout's frame and a
    boot plan and made the initramfs again. Returns that initramfs, for the next boot."""
    label = "layout-change"
    record = marker(result, "RECORD_AT_HIDE")
    confirmed = base64.b64decode(record) if record else b""
    c.check(f"{label}: the run the hide's mark started kept the record the daemon confirmed (bochs's output), not a plan",
            confirmed[:8] == b"SKBOOT03" and b"/dev/dri/card0" in confirmed, f"{confirmed[:8]!r}, {len(confirmed)} bytes")
    edited = (marker(result, "EDITED_DURING") or "").split()
    c.check(f"{label}: the layout was edited while that run made the initramfs, its mark consumed",
            edited == ["start-post", "mark=gone"], str(edited))
    remade = (marker(result, "INITRAMFS_REMADE") or "").split()
    c.check(f"{label}: that run's initramfs carries the boot record", remade[1:] == ["in-initramfs=1"], str(remade))
    if remade:
        print(f"  {label}: the initramfs made again {remade[0]} after the hide's mark")
    runs = (marker(result, "CACHE_RUNS") or "").split()
    c.check(f"{label}: the run's last step saw the edit the path units let pass, and the service ran again",
            runs == ["two", "check-saw-the-edit=1"], str(runs))
    service = (marker(result, "CACHE_SERVICE") or "").split(",")
    c.check(f"{label}: skeletond-cache.service ran and succeeded", service[:3] == ["success", "0", "inactive"], str(service))
    if len(service) == 4:
        print(f"  {label}: skeletond-cache.service's second run done {service[3]} after the layout was written")
    files = (marker(result, "CACHE_FILES") or "").split()
    frames = [f for f in files if f.endswith(f"-{SIZE[0]}x{SIZE[1]}.frame")]
    c.check(f"{label}: the frame cache holds one {SIZE[0]}x{SIZE[1]} frame and a boot plan",
            len(frames) == 1 and any(f.endswith(".boot") for f in files), str(files))
    if frames:
        check_frame_file(c, label, disk, f"/var/cache/skeletond/{frames[0]}", expected, work)
    try:
        remade = int(marker(result, "INITRD_AFTER") or 0) > int(marker(result, "INITRD_BEFORE") or 0)
    except ValueError:
        remade = False
    c.check(f"{label}: the initramfs was made again", remade,
            f"{marker(result, 'INITRD_BEFORE')} -> {marker(result, 'INITRD_AFTER')}")
    return dump(disk, f"/boot/initrd.img-{version}", work / "initrd-after.img")


def check_disabled(c: Checker, result: dict, expected: png.Image, work: Path, label: str = "disabled") -> None:
    """skeletond.enable=0: nothing started in the initramfs or from the real root, nothing
    drawn (the console throughout), the journal says why."""
    c.check(f"{label}: the boot ran to the power-off", not result["timed_out"] and "poweroff" in result["shots"],
            f"timed out {result['timed_out']}, markers {[m for _, m in result['markers']][-5:]} (log {work}/serial.txt)")
    off = marker(result, "INITRAMFS_OFF")
    c.check(f"{label}: in the initramfs, with the card up, no skeletond process and no log", off == "card=yes log=no procs=", str(off))
    for shot in ("initramfs", "realroot", "hidden", "poweroff"):
        if shot not in result["shots"]:
            c.check(f"{label}: {shot} screenshot taken", False)
            continue
        ok, detail = is_console(png.read(result["shots"][shot]), expected)
        c.check(f"{label}: {shot}: the text console, no skeleton", ok, detail)
    holders = (marker(result, "CARD_HOLDERS") or "").split()
    c.check(f"{label}: nothing holds the DRM card in the real root", marker(result, "CARD_HOLDERS") is not None and holders == [],
            f"holders {holders}")
    c.check(f"{label}: no skeletond process in the real root", (marker(result, "DAEMONS") or "").strip() == "",
            str(marker(result, "DAEMONS")))
    units = dict(item.split("=", 1) for item in (marker(result, "UNITS") or "").split())
    c.check(f"{label}: skeletond.service, .socket and the path units skipped by their condition",
            units == {unit: "inactive,no" for unit in ("skeletond.service", "skeletond.socket", "skeletond-cache.path",
                                                       "skeletond-initramfs.path")}, str(units))
    c.check(f"{label}: skeletond-hide.service skipped by its condition", marker(result, "HIDE_UNIT") == "inactive,no",
            str(marker(result, "HIDE_UNIT")))
    journal = marker(result, "JOURNAL") or ""
    c.check(f"{label}: the journal says skeletond.service was turned off", any(m in journal for m in OFF_MESSAGES), journal[-300:])
    c.check(f"{label}: /run/skeletond was not made", (marker(result, "RUN_DIR") or "").strip() == "", str(marker(result, "RUN_DIR")))
    c.check(f"{label}: skeletonctl status cannot reach a daemon (exit status 2)", marker(result, "CTL_STATUS_RC") == "2",
            str(marker(result, "CTL_STATUS_RC")))


def check_reinstall_purge(c: Checker, result: dict, disk: Path, expected: png.Image, default_layout: png.Image,
                          work: Path) -> None:
    """In the boot after the layout change: the package installed again where a display is
    prepares the next boot; purged, it leaves no frame cache and no marks."""
    label = "next-boot"
    c.check(f"{label}: dpkg -i of the package succeeded in the guest", marker(result, "REINSTALL") == "0", str(marker(result, "REINSTALL")))
    files = (marker(result, "POSTINST_CACHE") or "").split()
    c.check(f"{label}: the postinst prepared the next boot (a {SIZE[0]}x{SIZE[1]} frame and a boot plan)",
            any(f.endswith(f"-{SIZE[0]}x{SIZE[1]}.frame") for f in files) and any(f.endswith(".boot") for f in files), str(files))
    check_frame_file(c, f"{label}: postinst", disk, "/root/postinst.frame", expected, work)
    before = dict(item.split("=", 1) for item in (marker(result, "BEFORE_PURGE") or "").split())
    c.check(f"{label}: before the purge, files in the frame cache and marks in /run/skeletond",
            before.get("cache", "0") != "0" and before.get("run", "0") != "0", str(before))
    c.check(f"{label}: dpkg -P succeeded", marker(result, "PURGE") == "0", str(marker(result, "PURGE")))
    c.check(f"{label}: purge removed the frame cache and the marks in /run/skeletond",
            marker(result, "PURGED") == "cache=absent run=", str(marker(result, "PURGED")))
    made = (marker(result, "MAKE_INSTALL") or "").split()
    c.check(f"{label}: `make install` ended with a prepared cache (a {SIZE[0]}x{SIZE[1]} frame and a boot plan)",
            made[:1] == ["0"] and any(f.endswith(f"-{SIZE[0]}x{SIZE[1]}.frame") for f in made)
            and any(f.endswith(".boot") for f in made), str(made))
    check_frame_file(c, f"{label}: make install", disk, "/root/make-install.frame", default_layout, work)


def follow_ups(c: Checker, cases: list[str], first: dict, root: Path, kernel: Path, initrd: Path, work: Path,
               changed: png.Image) -> None:
    """The boots after the initramfs case's, on the disk it left: skeletond.enable=0, then the
    boot after the layout change (its first frame the new layout's), reinstalling and purging."""
    disk = work / "disk.img"
    version = kernel.name[len("vmlinuz-"):]
    expected = png.read(OUT / "cases" / "expected.png")
    if "layout-change" in cases:
        made = check_layout_change(c, first, disk, version, changed, work)
        c.check("layout-change: the initramfs made in the guest was read back", made is not None)
        if made is None:
            return
        initrd, expected = made, changed
    if "disabled" in cases:
        print("== disabled: the same disk, booted with skeletond.enable=0")
        began = time.monotonic()
        off = work.parent / "disabled"
        off.mkdir(parents=True, exist_ok=True)
        result = boot(root, kernel, initrd, off, append="skeletond.enable=0 e2e.step=disabled", disk=disk)
        print(f"  disabled: booted to the power-off in {time.monotonic() - began:.0f} s")
        check_disabled(c, result, expected, off)
    if "layout-change" in cases:
        print("== next-boot: the same disk after the layout change; then the package reinstalled and purged")
        began = time.monotonic()
        again = work.parent / "next-boot"
        again.mkdir(parents=True, exist_ok=True)
        result = boot(root, kernel, initrd, again, timeout=400, append="e2e.step=reinstall-purge", disk=disk)
        print(f"  next-boot: booted to the power-off in {time.monotonic() - began:.0f} s")
        check_case(c, "next-boot", result, changed, again)
        # skeletond-cache.service prepared the plan with the package's skeletond; the initramfs's
        # executable keys its record on its own build id: one name means one key.
        plan = next((f for f in (marker(first, "CACHE_FILES") or "").split() if f.endswith(".boot")), None)
        wrote = re.search(r"boot record: wrote /var/cache/skeletond/(\S+\.boot)", marker(result, "LOG_AFTER_HIDE") or "")
        c.check("next-boot: the initramfs's executable keys the boot record where the package's skeletond put the plan (one build id)",
                plan is not None and wrote is not None and wrote.group(1) == plan, f"plan {plan}, record {wrote.group(1) if wrote else None}")
        default_layout = work.parent / "expected-default.png"
        run(str(HOST_TOOL), "render", str(REPO / "config/layouts/default.json"), "--out", str(default_layout),
            "--size", f"{SIZE[0]}x{SIZE[1]}", "--at", "0")
        check_reinstall_purge(c, result, disk, changed, png.read(default_layout), again)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", action="append", choices=["initramfs", "debian12", "layout-change", "disabled", "real-root", "no-executable",
                                                            "no-module", "dracut", "dracut-disabled", *CHROOT_IMAGE, "handoff",
                                                            "web-kiosk", *luks.CASES])
    parser.add_argument("--deb", type=Path, help="install this package instead of building one with `make deb`")
    parser.add_argument("--append", default="", help="kernel parameters for every boot (for example fbcon=vc:2-6)")
    args = parser.parse_args()
    global EXTRA_KERNEL_ARGS
    EXTRA_KERNEL_ARGS = args.append
    # chroot-image-uefi (OVMF) only when asked for: `make test` stays under its 30 minutes.
    # `no-executable`, `dracut-disabled` and `chroot-image-virtio` only when asked for as well: with
    # Debian 13 and the `debian12` case, `make test` stays under its 30 minutes.
    cases = args.case or ["initramfs", "debian12", "layout-change", "disabled", "real-root", "dracut", "chroot-image"]
    # The follow-ups boot the root their case prepared (and the disk it left): that case runs too.
    if any(case in cases for case in FOLLOW_UPS) and "initramfs" not in cases:
        cases.insert(0, "initramfs")
    if "dracut-disabled" in cases and "dracut" not in cases:
        cases.append("dracut")
    if any(case in cases for case in CHROOT_IMAGE[1:]) and "chroot-image" not in cases:
        cases.append("chroot-image")
    if os.geteuid() != 0:
        print(f"SKIPPED: {NEEDS_ROOT}")
        return SKIPPED
    c = Checker()
    deb = args.deb or the_package()
    work_root = OUT / "cases"
    layout = work_root / "solid.json"
    work_root.mkdir(parents=True, exist_ok=True)
    layout.write_text(json.dumps(SOLID))
    expected_path = work_root / "expected.png"
    run(str(HOST_TOOL), "render", str(layout), "--out", str(expected_path), "--size", f"{SIZE[0]}x{SIZE[1]}")
    expected = png.read(expected_path)
    changed_layout = work_root / "changed.json"
    changed_layout.write_text(json.dumps(CHANGED))
    run(str(HOST_TOOL), "render", str(changed_layout), "--out", str(work_root / "expected-changed.png"), "--size", f"{SIZE[0]}x{SIZE[1]}")
    changed = png.read(work_root / "expected-changed.png")
    first_frames: dict[str, float | None] = {}
    for case in cases:
        if case in FOLLOW_UPS or case in ("dracut-disabled",) + CHROOT_IMAGE[1:]:
            continue
        work = work_root / case
        work.mkdir(parents=True, exist_ok=True)
        print(f"== {case}: Debian {release_of(case)}, systemd, {deb.name} installed, " + {
            "initramfs": "with the initramfs hook",
            "debian12": "with the initramfs hook",
            "real-root": "without the initramfs hook (skeletond.service starts the daemon)",
            "no-executable": "with the initramfs hook, and /usr/bin/skeletond removed from the real root afterwards",
            "no-module": "with the initramfs hook but no DRM driver in the initramfs",
            "dracut": "dracut instead of initramfs-tools, with the package's dracut module",
            "chroot-image": "built as a kiosk image is (MODULES=most, no SKELETOND_MODULES, no card in the chroot), on bochs",
            "handoff": "with the initramfs hook, Xorg, weston, cage and an app on DRM taking the screen over in turn",
            "web-kiosk": "with the initramfs hook, cage, weston and Xorg with Chromium on a page served here taking the screen over in turn",
            **{name: "with the initramfs hook, the root on LUKS2, the passphrase typed" for name in luks.CASES}}[case])
        began = time.monotonic()
        root, kernel, initrd = prepare_root(case, deb, work)
        prepared = time.monotonic()
        if case == "initramfs":
            cache = root / "var/cache/skeletond"
            c.check("postinst in a chroot (no display): succeeded and prepared nothing",
                    cache.is_dir() and not any(cache.iterdir()), f"{sorted(p.name for p in cache.iterdir()) if cache.is_dir() else 'no directory'}")
        step = "e2e.step=layout-change" if case == "initramfs" and "layout-change" in cases else ""
        if case == "real-root":
            step = "e2e.step=reboot"
        if case == "handoff":
            # virtio-gpu: wlroots (cage) needs PRIME import, which bochs lacks.
            result = boot(root, kernel, initrd, work, timeout=1500, append="e2e.step=handoff", device=VIRTIO)
            print(f"  {case}: root prepared in {prepared - began:.0f} s, booted to the power-off in {time.monotonic() - prepared:.0f} s")
            check_handoff(c, result, expected, work)
            shutil.rmtree(root, ignore_errors=True)
            continue
        if case == "web-kiosk":
            # Chromium under TCG: two vCPUs (multi-threaded TCG) and the memory it needs.
            result = boot(root, kernel, initrd, work, timeout=2400, append="e2e.step=web-kiosk", device=VIRTIO,
                          machine=("tcg,thread=multi", "2048", "2"))
            print(f"  {case}: root prepared in {prepared - began:.0f} s, booted to the power-off in {time.monotonic() - prepared:.0f} s")
            c.check("web-kiosk: the boot ran to the power-off", not result["timed_out"] and "poweroff" in result["shots"],
                    f"timed out {result['timed_out']}, markers {[m for _, m in result['markers']][-5:]} (log {work}/serial.txt)")
            page = work / "expected-page.png"
            run(str(HOST_TOOL), "render", str(root / "etc/skeletond/layouts/page.json"), "--out", str(page), "--size", f"{SIZE[0]}x{SIZE[1]}")
            known = {"skeleton": png.read(page), "background": handoff.solid(handoff.WESTON_BACKGROUND, SIZE)}
            web_kiosk.check(c, result, known, frame_kinds, marker, read_ppm, handoff.timeline)
            shutil.rmtree(root, ignore_errors=True)
            continue
        if case in luks.CASES:
            luks.check_initramfs(c, case, luks.initramfs_files(root, kernel.name[len("vmlinuz-"):]))
            disk = luks.encrypt(root, work, case)
            encrypted = time.monotonic()
            result = boot(root, kernel, initrd, work, timeout=900, append=luks.append(case), disk=disk, on_marker=luks.reactor(case, work))
            print(f"  {case}: root prepared in {prepared - began:.0f} s, encrypted in {encrypted - prepared:.0f} s, "
                  f"booted to the power-off in {time.monotonic() - encrypted:.0f} s")
            luks.check(c, case, result, expected, work, marker)
            shutil.rmtree(root, ignore_errors=True)
            continue
        result = boot(root, kernel, initrd, work, timeout=1200 if step == "e2e.step=layout-change" else 300, append=step,
                      watch_up=case == "chroot-image")
        print(f"  {case}: root prepared in {prepared - began:.0f} s ({initrd.stat().st_size >> 20} MB initramfs), booted to the power-off in {time.monotonic() - prepared:.0f} s")
        first_frames[case] = check_case(c, case, result, expected, work)
        if case == "initramfs":
            follow_ups(c, cases, result, root, kernel, initrd, work, changed)
        if case == "dracut" and "dracut-disabled" in cases:
            print("== dracut-disabled: the dracut root again, with skeletond.enable=0")
            began = time.monotonic()
            off = work_root / "dracut-disabled"
            off.mkdir(parents=True, exist_ok=True)
            result = boot(root, kernel, initrd, off, append="skeletond.enable=0 e2e.step=disabled")
            print(f"  dracut-disabled: booted to the power-off in {time.monotonic() - began:.0f} s")
            check_disabled(c, result, expected, off, "dracut-disabled")
        if case == "chroot-image" and "chroot-image-virtio" in cases:
            print("== chroot-image-virtio: the same image on virtio-gpu")
            began = time.monotonic()
            other = work_root / "chroot-image-virtio"
            other.mkdir(parents=True, exist_ok=True)
            result = boot(root, kernel, initrd, other, device=VIRTIO)
            print(f"  chroot-image-virtio: booted to the power-off in {time.monotonic() - began:.0f} s")
            first_frames["chroot-image-virtio"] = check_case(c, "chroot-image-virtio", result, expected, other)
        # OVMF's mode on virtio-vga is 1280x800 whatever the monitor says: the monitor there is
        # 1280x800 too, so that the firmware's logo is where the firmware drew it, unscaled.
        for uefi, device, card, size in (("chroot-image-uefi", f"VGA,xres={SIZE[0]},yres={SIZE[1]}", "bochs", SIZE),
                                         ("chroot-image-uefi-virtio", "virtio-vga,xres=1280,yres=800", "virtio-gpu", (1280, 800))):
            if case != "chroot-image" or uefi not in cases:
                continue
            print(f"== {uefi}: the same image on {card} at {size[0]}x{size[1]} under UEFI (Debian's OVMF)")
            render = expected
            if size != SIZE:
                run(str(HOST_TOOL), "render", str(layout), "--out", str(work_root / f"expected-{uefi}.png"), "--size", f"{size[0]}x{size[1]}")
                render = png.read(work_root / f"expected-{uefi}.png")
            began = time.monotonic()
            other = work_root / uefi
            other.mkdir(parents=True, exist_ok=True)
            firmware = other / "OVMF.fd"
            shutil.copy(OVMF, firmware)
            result = boot(root, kernel, initrd, other, device=device, firmware=firmware, watch_up=True, watch_until="@@SHOOT realroot")
            print(f"  {uefi}: booted to the power-off in {time.monotonic() - began:.0f} s")
            first_frames[uefi] = check_case(c, uefi, result, with_firmware_logo(c, uefi, render, result), other)
        shutil.rmtree(root, ignore_errors=True)
    for case, t in first_frames.items():
        if case == "no-executable":
            continue
        print(f"  figure: {case}: kernel start to the first skeleton frame: {'%.2f s' % t if t is not None else 'unknown'}")
    if first_frames.get("initramfs") and first_frames.get("real-root"):
        c.check("the skeleton comes earlier from the initramfs", first_frames["initramfs"] < first_frames["real-root"],
                f"{first_frames}")
    print(f"{c.passed} passed, {c.failed} failed")
    return 0 if c.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Build a tiny initramfs for the QEMU end-to-end tests.

The archive holds busybox-static (with a symlink per applet), the DRM/virtio kernel modules
from the cache made by fetch-deps.sh (dependencies resolved from each module's .modinfo and
loaded in dependency order), an /init, a helper library for guest scripts
(/lib/e2e/e2e.sh) and any extra files (e.g. a static binary and a guest script).

/init mounts proc, sysfs, devtmpfs, devpts and tmpfs, loads the modules, waits for
/dev/dri/card0, opens the control serial port (/dev/ttyS1) on fd 9, then runs the guest script
with `sh`, and finally powers off. Progress markers go to the serial console (ttyS0):

    @@INIT_START <uptime>           /init began
    @@MODULES_LOADED <uptime>
    @@CARD_READY <uptime> /dev/dri/card0     (or @@CARD_TIMEOUT <uptime>)
    @@GUEST_START <uptime>
    @@GUEST_EXIT <rc> <uptime>
    @@DONE <rc>                     (also sent on the control port; the harness then quits)

Guest scripts may source /lib/e2e/e2e.sh (it is sourced for them automatically) and use:

    shot NAME [device=ID] [head=N]    ask the host for a screenshot, wait for its ack
    mark NAME                         record a timing marker on the host
    wait_for_line FILE PATTERN [SECS] poll FILE until a line matches PATTERN (grep -E)
    spawn LOG CMD [ARGS...]           start CMD in the background, output to LOG and the
                                      console; its pid is in $SPAWNED_PID
    fail MESSAGE                      print @@FAIL MESSAGE and exit 1
    load_modules NAME...              insmod modules /init was told to defer
                                      (config E2E_DEFER_MODULES="bochs virtio_gpu")

Usage as a library:  build_initramfs(out, files={"/bin/x": "build/x"}, guest_script="...")
CLI:  make-initramfs.py -o build/e2e/initrd.cpio.gz --file build/x:/bin/x --guest-script g.sh
"""

from __future__ import annotations

import argparse
import gzip
import io
import lzma
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Iterable, Mapping, Union

REPO = Path(__file__).resolve().parents[2]
DEFAULT_CACHE = Path(os.environ.get("QEMU_CACHE", REPO / "build" / "qemu-cache"))

# The display drivers loaded by default (their dependencies are added automatically, the
# order below is the reference order: drm drm_kms_helper ttm drm_ttm_helper drm_vram_helper
# drm_shmem_helper virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev virtio_pci
# virtio_dma_buf bochs cirrus virtio-gpu). Loading a driver with no device is harmless.
DEFAULT_MODULES = ("virtio_pci", "bochs", "cirrus", "virtio_gpu")

FileSpec = Union[str, os.PathLike, bytes, tuple]

INIT_SCRIPT = r"""#!/bin/sh
export PATH=/usr/local/bin:/usr/bin:/usr/sbin:/bin:/sbin
export HOME=/root TERM=linux
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm /tmp /run /var/tmp
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /dev/shm
[ -e /etc/e2e/config ] && . /etc/e2e/config
up() { read -r _u _rest < /proc/uptime; echo "$_u"; }
echo "@@INIT_START $(up)"

while read -r mod args; do
    [ -n "$mod" ] || continue
    case " ${E2E_DEFER_MODULES:-} " in *" $mod "*) continue ;; esac
    # shellcheck disable=SC2086
    insmod "/lib/modules/e2e/$mod.ko" $args || echo "@@WARN insmod $mod failed"
done < /etc/e2e/modules
echo "@@MODULES_LOADED $(up)"

if [ "${E2E_WAIT_CARD:-1}" = 1 ]; then
    i=0
    limit=$(( ${E2E_CARD_TIMEOUT:-15} * 50 ))
    while [ ! -e /dev/dri/card0 ] && [ "$i" -lt "$limit" ]; do
        usleep 20000
        i=$((i + 1))
    done
    if [ -e /dev/dri/card0 ]; then
        echo "@@CARD_READY $(up) /dev/dri/card0"
    else
        echo "@@CARD_TIMEOUT $(up)"
    fi
fi

# Control channel to the host: requests go out, acknowledgements come back. Kept open on
# fd 9 for the whole run so that no reply is lost between two opens of the tty.
if [ -e "${E2E_CTL:=/dev/ttyS1}" ]; then
    exec 9<>"$E2E_CTL"
    stty raw -echo <&9 2>/dev/null
else
    echo "@@WARN no control port $E2E_CTL"
    exec 9>/dev/null
fi
export E2E_CTL

echo "@@GUEST_START $(up)"
cd /
sh -c '. /lib/e2e/e2e.sh; . /e2e/guest.sh'
rc=$?
echo "@@GUEST_EXIT $rc $(up)"
echo "@@DONE $rc"
printf '@@DONE %s\n' "$rc" >&9
sync
# The harness normally quits QEMU on @@DONE; power off anyway in case nobody is listening.
sleep "${E2E_POWEROFF_DELAY:-5}"
poweroff -f
"""

E2E_LIB = r"""# Helpers for e2e guest scripts (sourced automatically before /e2e/guest.sh).
e2e_uptime() { read -r _u _rest < /proc/uptime; echo "$_u"; }
e2e_ctl() { printf '%s\n' "$*" >&9; }

# shot NAME [device=ID] [head=N]: ask the host for a screendump and wait for it.
shot() {
    _name=$1; shift
    echo "@@SHOT $_name $(e2e_uptime)"
    e2e_ctl "@@SHOT $_name $*"
    while IFS= read -r -t "${E2E_SHOT_TIMEOUT:-60}" _line <&9; do
        case "$_line" in
            "@@ACK $_name") echo "@@SHOT_OK $_name $(e2e_uptime)"; return 0 ;;
            "@@NAK $_name "*) echo "@@SHOT_FAILED $_name ${_line#@@NAK $_name }"; return 1 ;;
        esac
    done
    echo "@@SHOT_TIMEOUT $_name"
    return 1
}

# mark NAME: timing marker, recorded by the host (no reply).
mark() {
    _t=$(e2e_uptime)
    echo "@@MARK $1 $_t"
    e2e_ctl "@@MARK $1 $_t"
}

# wait_for_line FILE PATTERN [SECONDS]: poll until a line of FILE matches (grep -E).
wait_for_line() {
    _f=$1; _p=$2; _limit=$(( ${3:-30} * 50 )); _i=0
    while [ "$_i" -lt "$_limit" ]; do
        if [ -e "$_f" ] && grep -qE "$_p" "$_f"; then return 0; fi
        usleep 20000
        _i=$((_i + 1))
    done
    return 1
}

# spawn LOG CMD [ARGS...]: run CMD in the background with its output (stdout and stderr)
# in LOG and copied to the console as it comes; the command's pid is left in SPAWNED_PID.
spawn() {
    _log=$1; shift
    _fifo=$(mktemp -u /tmp/spawn.XXXXXX)
    mkfifo "$_fifo"
    tee "$_log" < "$_fifo" 9>&- &
    "$@" > "$_fifo" 2>&1 9>&- &
    SPAWNED_PID=$!
}

fail() {
    echo "@@FAIL $*"
    exit 1
}

# load_modules NAME...: insmod modules that /init skipped (E2E_DEFER_MODULES), with the
# options given at build time, e.g. to make the card appear after the daemon started.
load_modules() {
    for _m in "$@"; do
        _args=$(grep "^$_m\( \|$\)" /etc/e2e/modules | cut -d' ' -f2-)
        [ "$_args" = "$_m" ] && _args=
        # shellcheck disable=SC2086
        insmod "/lib/modules/e2e/$_m.ko" $_args || { echo "@@WARN insmod $_m failed"; return 1; }
    done
    echo "@@MODULES_LOADED_LATE $* $(e2e_uptime)"
}
"""


def find_busybox() -> Path:
    for cand in ("/bin/busybox", "/usr/bin/busybox"):
        p = Path(cand)
        if p.exists():
            out = subprocess.run(["file", "-L", str(p)], capture_output=True, text=True).stdout \
                if shutil.which("file") else "statically linked"
            if "statically linked" in out or "static-pie" in out:
                return p
    raise FileNotFoundError("busybox-static not found (run scripts/qemu/fetch-deps.sh)")


def kernel_dir(cache: Path | None = None) -> Path:
    cache = Path(cache or DEFAULT_CACHE)
    d = cache / "current"
    if not (d / "vmlinuz").exists():
        raise FileNotFoundError(f"no kernel in {d} (run scripts/qemu/fetch-deps.sh)")
    return d.resolve()


def kernel_image(kdir: Path, pvh: bool = True) -> Path:
    """The kernel to pass to QEMU's -kernel.

    With pvh=True, return an uncompressed ELF vmlinux extracted from vmlinuz (cached next to
    it). QEMU boots such a kernel through its PVH entry point (Debian builds CONFIG_PVH=y),
    which skips the real-mode setup and the in-guest decompression: under TCG that is about
    3 s less per boot. Falls back to vmlinuz when nothing can be extracted.
    """
    kdir = Path(kdir)
    vmlinuz = kdir / "vmlinuz"
    if not pvh:
        return vmlinuz
    vmlinux = kdir / "vmlinux"
    if vmlinux.exists() and vmlinux.stat().st_mtime >= vmlinuz.stat().st_mtime:
        return vmlinux
    try:
        data = extract_vmlinux(vmlinuz.read_bytes())
    except (ValueError, OSError, lzma.LZMAError, EOFError) as e:
        print(f"make-initramfs: cannot extract vmlinux ({e}); booting vmlinuz", file=sys.stderr)
        return vmlinuz
    tmp = vmlinux.with_name(f"vmlinux.tmp{os.getpid()}")
    tmp.write_bytes(data)
    tmp.replace(vmlinux)
    return vmlinux


def _has_pvh_note(elf: bytes) -> bool:
    """True when an ELF64 kernel has XEN_ELFNOTE_PHYS32_ENTRY (type 18, name "Xen"), the
    entry point QEMU uses for PVH boot."""
    import struct
    if elf[:5] != b"\x7fELF\x02":
        return False
    phoff, = struct.unpack_from("<Q", elf, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", elf, 0x36)
    for k in range(phnum):
        p_type, _flags, p_offset, _va, _pa, p_filesz = struct.unpack_from(
            "<IIQQQQ", elf, phoff + k * phentsize)
        if p_type != 4:  # PT_NOTE
            continue
        off, end = p_offset, p_offset + p_filesz
        while off + 12 <= end:
            namesz, descsz, ntype = struct.unpack_from("<III", elf, off)
            name = elf[off + 12:off + 12 + namesz].rstrip(b"\0")
            if name == b"Xen" and ntype == 18:
                return True
            off += 12 + ((namesz + 3) & ~3) + ((descsz + 3) & ~3)
    return False


def extract_vmlinux(bz: bytes) -> bytes:
    """Like the kernel's scripts/extract-vmlinux: find the compressed payload, inflate it."""
    import zlib
    candidates = []
    for kind, magic in (("xz", b"\xfd7zXZ\x00"), ("gzip", b"\x1f\x8b\x08"),
                        ("zstd", b"\x28\xb5\x2f\xfd")):
        i = bz.find(magic)
        while i >= 0 and len(candidates) < 16:
            candidates.append((i, kind))
            i = bz.find(magic, i + 1)
    for i, kind in sorted(candidates):
        try:
            if kind == "xz":
                out = lzma.LZMADecompressor().decompress(bz[i:])
            elif kind == "gzip":
                out = zlib.decompressobj(31).decompress(bz[i:])
            else:
                out = subprocess.run(["zstd", "-dcq"], input=bz[i:], capture_output=True).stdout
        except Exception:
            continue
        if out[:4] == b"\x7fELF" and _has_pvh_note(out):
            return out
    raise ValueError("no ELF kernel with a PVH note inside vmlinuz")


# ---- kernel modules ----------------------------------------------------------------------

def _modname(name: str) -> str:
    return name.replace("-", "_")


def _read_module(path: Path) -> bytes:
    data = path.read_bytes()
    if path.name.endswith(".xz"):
        data = lzma.decompress(data)
    elif path.name.endswith(".gz"):
        data = gzip.decompress(data)
    elif path.name.endswith(".zst"):
        data = subprocess.run(["zstd", "-dc", str(path)], capture_output=True, check=True).stdout
    return data


def _modinfo_depends(data: bytes) -> list[str]:
    i = data.find(b"\0depends=")
    if i < 0:
        i = data.find(b"depends=")
        if i != 0:
            return []
    else:
        i += 1
    end = data.index(b"\0", i)
    value = data[i + len(b"depends="):end].decode()
    return [_modname(d) for d in value.split(",") if d]


def module_index(kdir: Path) -> dict[str, Path]:
    index = {}
    for p in sorted((kdir / "lib" / "modules").rglob("*.ko*")):
        base = p.name.split(".ko")[0]
        index[_modname(base)] = p
    return index


def resolve_modules(kdir: Path, wanted: Iterable[str]) -> list[tuple[str, bytes]]:
    """Return [(name, plain .ko bytes)] for wanted modules plus dependencies, deps first."""
    index = module_index(kdir)
    order: list[str] = []
    blobs: dict[str, bytes] = {}

    def visit(name: str, stack: tuple[str, ...]) -> None:
        name = _modname(name)
        if name in blobs:
            return
        if name in stack:
            raise ValueError(f"module dependency cycle: {' -> '.join(stack + (name,))}")
        if name not in index:
            raise FileNotFoundError(f"module {name} not in {kdir} (needed by {stack[-1] if stack else 'request'})")
        data = _read_module(index[name])
        for dep in _modinfo_depends(data):
            visit(dep, stack + (name,))
        blobs[name] = data
        order.append(name)

    for w in wanted:
        visit(w, ())
    return [(n, blobs[n]) for n in order]


# ---- cpio (newc) writer --------------------------------------------------------------------

class Cpio:
    def __init__(self) -> None:
        self.buf = io.BytesIO()
        self.ino = 1000
        self.dirs: set[str] = set()
        self.paths: set[str] = set()

    def _entry(self, name: str, mode: int, data: bytes = b"", rdev: tuple[int, int] = (0, 0),
               nlink: int = 1) -> None:
        self.ino += 1
        namez = name.encode() + b"\0"
        hdr = "070701" + "".join(f"{v:08x}" for v in (
            self.ino, mode, 0, 0, nlink, 0, len(data), 0, 0, rdev[0], rdev[1], len(namez), 0))
        self.buf.write(hdr.encode() + namez)
        self.buf.write(b"\0" * ((-(110 + len(namez))) % 4))
        self.buf.write(data)
        self.buf.write(b"\0" * ((-len(data)) % 4))

    def mkdir(self, path: str, mode: int = 0o755) -> None:
        path = path.strip("/")
        if not path or path in self.dirs:
            return
        parent = os.path.dirname(path)
        if parent:
            self.mkdir(parent)
        self.dirs.add(path)
        self._entry(path, stat.S_IFDIR | mode, nlink=2)

    def file(self, path: str, data: bytes, mode: int = 0o644) -> None:
        path = path.strip("/")
        self.mkdir(os.path.dirname(path))
        self.paths.add(path)
        self._entry(path, stat.S_IFREG | mode, data)

    def symlink(self, path: str, target: str) -> None:
        path = path.strip("/")
        self.mkdir(os.path.dirname(path))
        self.paths.add(path)
        self._entry(path, stat.S_IFLNK | 0o777, target.encode())

    def chardev(self, path: str, major: int, minor: int, mode: int = 0o600) -> None:
        path = path.strip("/")
        self.mkdir(os.path.dirname(path))
        self._entry(path, stat.S_IFCHR | mode, rdev=(major, minor))

    def finish(self) -> bytes:
        self._entry("TRAILER!!!", 0, nlink=1)
        self.buf.write(b"\0" * ((-self.buf.tell()) % 512))
        return self.buf.getvalue()


# ---- initramfs -------------------------------------------------------------------------------

def _file_payload(spec: FileSpec) -> tuple[bytes, int | None]:
    """A file spec is a host path, raw bytes, or (path-or-bytes, mode)."""
    mode = None
    if isinstance(spec, tuple):
        spec, mode = spec
    if isinstance(spec, (bytes, bytearray)):
        return bytes(spec), mode
    p = Path(spec)
    data = p.read_bytes()
    if mode is None:
        mode = 0o755 if os.access(p, os.X_OK) else 0o644
    return data, mode


def build_initramfs(out: str | os.PathLike,
                    files: Mapping[str, FileSpec] | None = None,
                    guest_script: str | bytes = "echo no guest script\n",
                    modules: Iterable[str] = DEFAULT_MODULES,
                    module_args: Mapping[str, str] | None = None,
                    config: Mapping[str, str] | None = None,
                    kdir: str | os.PathLike | None = None,
                    busybox: str | os.PathLike | None = None,
                    compress: str = "gzip") -> Path:
    """Write the initramfs to `out` and return its path.

    files:        {guest path: host path | bytes | (host path or bytes, mode)}
    guest_script: shell text run by /init (after e2e.sh is sourced); a host path is not
                  accepted here, read it yourself
    modules:      driver modules to load (deps added); module_args: {module: "opt=val ..."}
    config:       variables written to /etc/e2e/config (E2E_CARD_TIMEOUT, E2E_WAIT_CARD,
                  E2E_SHOT_TIMEOUT, E2E_POWEROFF_DELAY, E2E_DEFER_MODULES) and exported to
                  the guest script
    compress:     "gzip" (level 1: fast to make, fast to unpack under TCG) or "none"
    """
    kdir = Path(kdir) if kdir else kernel_dir()
    bb = Path(busybox) if busybox else find_busybox()
    module_args = {_modname(k): v for k, v in (module_args or {}).items()}
    c = Cpio()
    for d in ("bin", "sbin", "usr/bin", "usr/sbin", "usr/local/bin", "etc", "proc", "sys",
              "dev", "tmp", "run", "root", "var", "lib/modules/e2e", "lib/e2e", "e2e", "mnt"):
        c.mkdir(d)
    # /dev/console must exist in the archive: the kernel opens it for init's stdio before
    # /init has had a chance to mount devtmpfs.
    c.chardev("dev/console", 5, 1)
    c.chardev("dev/null", 1, 3, 0o666)

    c.file("bin/busybox", bb.read_bytes(), 0o755)
    applets = subprocess.run([str(bb), "--list-full"], capture_output=True, text=True,
                             check=True).stdout.split()
    for a in applets:
        if a != "bin/busybox" and a.strip("/") not in c.paths:
            c.symlink(a, "/bin/busybox")

    mods = resolve_modules(kdir, modules)
    lines = []
    for name, data in mods:
        c.file(f"lib/modules/e2e/{name}.ko", data)
        lines.append(f"{name} {module_args.get(name, '')}".rstrip())
    c.file("etc/e2e/modules", ("\n".join(lines) + "\n").encode())

    cfg = dict(config or {})
    cfg_text = "".join(f"export {k}='{v}'\n" for k, v in cfg.items())
    c.file("etc/e2e/config", cfg_text.encode())
    c.file("etc/passwd", b"root:x:0:0:root:/root:/bin/sh\n")
    c.file("etc/group", b"root:x:0:\nvideo:x:44:\n")
    c.file("init", INIT_SCRIPT.encode(), 0o755)
    c.file("lib/e2e/e2e.sh", E2E_LIB.encode())
    if isinstance(guest_script, str):
        guest_script = guest_script.encode()
    c.file("e2e/guest.sh", guest_script, 0o755)

    for guest_path, spec in (files or {}).items():
        data, mode = _file_payload(spec)
        c.file(guest_path, data, 0o644 if mode is None else mode)

    raw = c.finish()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    if compress == "gzip":
        out.write_bytes(gzip.compress(raw, compresslevel=1, mtime=0))
    elif compress == "none":
        out.write_bytes(raw)
    else:
        raise ValueError(f"unknown compression {compress!r}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--out", help="output initramfs (cpio.gz)")
    ap.add_argument("--file", action="append", default=[], metavar="HOST:GUEST",
                    help="add a host file at a guest path (repeatable)")
    ap.add_argument("--guest-script", help="shell script run by /init (host path)")
    ap.add_argument("--module", action="append", help="driver module to load (repeatable; "
                    f"default: {' '.join(DEFAULT_MODULES)})")
    ap.add_argument("--module-arg", action="append", default=[], metavar="MOD=OPTS",
                    help="options passed to insmod for MOD")
    ap.add_argument("--config", action="append", default=[], metavar="VAR=VALUE")
    ap.add_argument("--cache", default=str(DEFAULT_CACHE), help="cache made by fetch-deps.sh")
    ap.add_argument("--compress", choices=("gzip", "none"), default="gzip")
    ap.add_argument("--extract-vmlinux", action="store_true",
                    help="only extract the uncompressed kernel for PVH boot into the cache")
    a = ap.parse_args(argv)
    if a.extract_vmlinux:
        print(kernel_image(kernel_dir(Path(a.cache))))
        return 0

    if not a.out:
        ap.error("--out is required")
    files = {}
    for spec in a.file:
        host, _, guest = spec.partition(":")
        if not guest:
            ap.error(f"--file wants HOST:GUEST, got {spec!r}")
        files[guest] = host
    script = Path(a.guest_script).read_text() if a.guest_script else "echo no guest script\n"
    margs = dict(s.split("=", 1) for s in a.module_arg)
    cfg = dict(s.split("=", 1) for s in a.config)
    out = build_initramfs(a.out, files=files, guest_script=script,
                          modules=a.module or DEFAULT_MODULES, module_args=margs, config=cfg,
                          kdir=kernel_dir(Path(a.cache)), compress=a.compress)
    print(f"make-initramfs: wrote {out} ({out.stat().st_size} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

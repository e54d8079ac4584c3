#!/usr/bin/env python3
"""Boot Debian's kernel under QEMU with a virtual display, run a guest script, take screenshots.

The guest runs in a tiny initramfs (scripts/qemu/make-initramfs.py). Two serial ports:

  ttyS0  console: kernel messages and everything the guest prints -> serial.log
  ttyS1  control: the guest sends requests ("@@SHOT name", "@@SENDKEY name key...", "@@MARK name t", "@@DONE rc"),
         the host answers "@@ACK name" / "@@NAK name reason" after the screendump.

Both ports, and QMP, are Unix sockets on which the harness listens *before* QEMU starts;
QEMU connects to them as a client, so no early output is lost and no ack can be missed
(the guest keeps ttyS1 open for the whole run).

Python:

    from qemu_harness import run
    r = run(device="VGA", extra_device_args="xres=1024,yres=768",
            guest_files={"/bin/minimal-modeset": "build/e2e/minimal-modeset"},
            guest_script="spawn /tmp/mm.log /bin/minimal-modeset\\n"
                         "wait_for_line /tmp/mm.log @@FIRST_FRAME_US 30 || fail no frame\\n"
                         "shot filled\\n")
    r["screenshots"]["filled"]      # -> path of the PNG
    r["serial_log"]                 # -> console text
    r["ok"], r["guest_exit"], r["timings"]

CLI:

    python3 Tests/e2e/qemu_harness.py --device virtio-gpu-pci --device-args xres=800,yres=600 \\
        --file build/e2e/minimal-modeset:/bin/minimal-modeset --script guest.sh --out build/e2e/x
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import selectors
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Mapping

REPO = Path(__file__).resolve().parents[2]
sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
DEFAULT_CACHE = Path(os.environ.get("QEMU_CACHE", REPO / "build" / "qemu-cache"))
DEFAULT_OUT = REPO / "build" / "e2e"


def _load_make_initramfs():
    path = REPO / "scripts" / "qemu" / "make-initramfs.py"
    spec = importlib.util.spec_from_file_location("make_initramfs", path)
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    return mod


make_initramfs = _load_make_initramfs()


class HarnessError(RuntimeError):
    pass


class QMP:
    """Minimal synchronous QMP client over an accepted socket."""

    def __init__(self, sock: socket.socket, log) -> None:
        self.sock = sock
        self.buf = b""
        self.log = log
        self.events: list[dict] = []
        greeting = self._read_msg(10)
        if "QMP" not in greeting:
            raise HarnessError(f"unexpected QMP greeting {greeting}")
        self.execute("qmp_capabilities")

    def _read_msg(self, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise HarnessError("QMP timeout")
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                raise HarnessError("QMP timeout") from None
            if not chunk:
                raise HarnessError("QMP connection closed")
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return json.loads(line)

    def execute(self, cmd: str, args: Mapping[str, Any] | None = None, timeout: float = 30) -> Any:
        msg: dict[str, Any] = {"execute": cmd}
        if args:
            msg["arguments"] = dict(args)
        self.sock.sendall(json.dumps(msg).encode() + b"\n")
        deadline = time.monotonic() + timeout
        while True:
            resp = self._read_msg(max(0.0, deadline - time.monotonic()))
            if "event" in resp:
                self.events.append(resp)
                continue
            if "error" in resp:
                raise HarnessError(f"QMP {cmd}: {resp['error']}")
            return resp.get("return")


def _listen(path: Path) -> socket.socket:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(str(path))
    s.listen(1)
    return s


def _accept(server: socket.socket, proc: subprocess.Popen, what: str, timeout: float) -> socket.socket:
    deadline = time.monotonic() + timeout
    server.settimeout(0.1)
    while True:
        try:
            conn, _ = server.accept()
            conn.settimeout(None)
            return conn
        except socket.timeout:
            pass
        if proc.poll() is not None:
            raise HarnessError(f"QEMU exited ({proc.returncode}) before connecting {what}")
        if time.monotonic() > deadline:
            raise HarnessError(f"QEMU did not connect {what} within {timeout}s")


def _safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:80] or "shot"


def run(device: str = "VGA",
        extra_device_args: str = "",
        guest_files: Mapping[str, Any] | None = None,
        guest_script: str = "",
        out_dir: str | os.PathLike | None = None,
        name: str | None = None,
        timeout: float = 120,
        memory: str = "512M",
        smp: int = 1,
        append: str = "",
        quiet: bool = True,
        extra_qemu_args: list[str] | tuple[str, ...] = (),
        modules: list[str] | tuple[str, ...] | None = None,
        module_args: Mapping[str, str] | None = None,
        guest_config: Mapping[str, str] | None = None,
        compress: str = "none",
        cache: str | os.PathLike | None = None,
        qemu: str = "qemu-system-x86_64",
        pvh: bool = True,
        echo: bool = False) -> dict:
    """Boot QEMU, run guest_script in the initramfs, answer its screenshot requests.

    device / extra_device_args: `-device VGA,xres=1024,yres=768`; device=None or "" adds no
        display device (pass your own in extra_qemu_args, e.g. for two heads).
    guest_files: {guest path: host path | bytes | (path or bytes, mode)}.
    guest_script: shell text; helpers from /lib/e2e/e2e.sh are available (shot, mark,
        wait_for_line, spawn, fail). The run is "done" when the script exits.
    out_dir: where serial.log, the initramfs and <shot>.png go (default build/e2e/<name>).
    timeout: whole-run limit in seconds (boot included); QEMU is killed after it.
    pvh: boot the extracted vmlinux through QEMU's PVH entry (about 3 s faster under TCG
        than vmlinuz); pvh=False boots the compressed bzImage the classic way.
    compress: "none" (default: QEMU loads the initrd quickly, the kernel does not have to
        inflate it under TCG) or "gzip".
    echo: copy the console to stderr as it arrives.

    Returns a dict:
        ok            guest script exited 0, every shot succeeded, no timeout, no @@FAIL
        screenshots   {name: absolute PNG path}
        serial_log    console text;  serial_log_path
        guest_exit    exit status of the guest script (None if it never finished)
        timed_out     bool;  errors: [str]
        timings       host seconds since QEMU was started: first_output, init_start,
                      card_ready, guest_start, shots {name: t}, marks {name: t}, done, total
        guest_uptime  guest /proc/uptime at init_start, card_ready, shots and marks
        markers       [(host t, line)] for every console line starting with "@@"
        cmdline       the QEMU command line;  out_dir
    """
    t_begin = time.monotonic()
    name = _safe_name(name or f"{device or 'custom'}")
    out = Path(out_dir) if out_dir else DEFAULT_OUT / name
    out.mkdir(parents=True, exist_ok=True)
    kdir = make_initramfs.kernel_dir(Path(cache) if cache else None)
    initrd = out / ("initrd.cpio.gz" if compress == "gzip" else "initrd.cpio")
    make_initramfs.build_initramfs(
        initrd, files=guest_files or {}, guest_script=guest_script or "true\n",
        modules=modules or make_initramfs.DEFAULT_MODULES, module_args=module_args,
        config=guest_config, kdir=kdir, compress=compress)
    t_initrd = time.monotonic() - t_begin

    if not shutil.which(qemu):
        raise HarnessError(f"{qemu} not found (run scripts/qemu/fetch-deps.sh)")

    sockdir = Path(tempfile.mkdtemp(prefix="e2e-qemu-"))
    con_path, ctl_path, qmp_path = sockdir / "con", sockdir / "ctl", sockdir / "qmp"
    servers = {k: _listen(p) for k, p in (("con", con_path), ("ctl", ctl_path), ("qmp", qmp_path))}

    cmdline_append = "console=ttyS0,115200 panic=-1 " + ("quiet " if quiet else "") + append
    cmd = [qemu, "-accel", "tcg", "-m", str(memory), "-smp", str(smp),
           "-kernel", str(make_initramfs.kernel_image(kdir, pvh)), "-initrd", str(initrd),
           "-append", cmdline_append.strip(),
           "-nodefaults", "-display", "none", "-vga", "none",
           "-chardev", f"socket,id=con,path={con_path}", "-serial", "chardev:con",
           "-chardev", f"socket,id=ctl,path={ctl_path}", "-serial", "chardev:ctl",
           "-qmp", f"unix:{qmp_path}",
           "-monitor", "none", "-no-reboot", "-net", "none"]
    if device:
        dev = device + ("," + extra_device_args if extra_device_args else "")
        if not re.search(r"(^|,)id=", dev):
            dev += ",id=display0"  # lets a guest ask for `shot NAME device=display0 head=N`
        cmd += ["-device", dev]
    cmd += list(extra_qemu_args)

    result: dict[str, Any] = {
        "ok": False, "screenshots": {}, "serial_log": "", "serial_log_path": str(out / "serial.log"),
        "guest_exit": None, "timed_out": False, "errors": [],
        "timings": {"initramfs_build": round(t_initrd, 3), "shots": {}, "marks": {}},
        "guest_uptime": {"shots": {}, "marks": {}}, "markers": [], "cmdline": cmd,
        "out_dir": str(out), "initrd": str(initrd),
    }
    timings, guptime = result["timings"], result["guest_uptime"]
    stderr_path = out / "qemu.stderr"
    serial_file = open(out / "serial.log", "wb")
    ctl_log = open(out / "control.log", "wb")
    console_bytes = bytearray()
    conns: dict[str, socket.socket] = {}
    proc = None
    t0 = time.monotonic()
    try:
        with open(stderr_path, "wb") as errf:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=errf, stderr=errf)
        t0 = time.monotonic()
        # QEMU connects the chardevs in command-line order, then QMP.
        for key in ("con", "ctl", "qmp"):
            conns[key] = _accept(servers[key], proc, key, 20)
        qmp = QMP(conns["qmp"], None)

        sel = selectors.DefaultSelector()
        sel.register(conns["con"], selectors.EVENT_READ, "con")
        sel.register(conns["ctl"], selectors.EVENT_READ, "ctl")
        con_line = b""
        ctl_buf = b""
        done = False
        deadline = t0 + timeout
        shot_counts: dict[str, int] = {}

        def now() -> float:
            return round(time.monotonic() - t0, 3)

        def on_console_line(line: str) -> None:
            if "@@" not in line:
                return
            marker = line[line.index("@@"):].strip()
            result["markers"].append((now(), marker))
            parts = marker.split()
            key = parts[0][2:].lower()
            if key in ("init_start", "modules_loaded", "card_ready", "guest_start", "card_timeout"):
                timings.setdefault(key, now())
                if len(parts) > 1:
                    guptime.setdefault(key, float(parts[1]))
            elif key == "shot" and len(parts) > 2:
                try:
                    guptime["shots"].setdefault(_safe_name(parts[1]), float(parts[2]))
                except ValueError:
                    pass
            elif key == "guest_exit" and len(parts) > 1:
                result["guest_exit"] = int(parts[1])
            elif key == "fail":
                result["errors"].append("guest: " + marker)

        def take_shot(args: list[str]) -> None:
            raw = args[0] if args else "shot"
            opts = dict(a.split("=", 1) for a in args[1:] if "=" in a)
            base = _safe_name(raw)
            n = shot_counts.get(base, 0) + 1
            shot_counts[base] = n
            fname = base if n == 1 else f"{base}-{n}"
            path = (out / f"{fname}.png").resolve()
            qargs: dict[str, Any] = {"filename": str(path), "format": "png"}
            if "device" in opts:
                qargs["device"] = opts["device"]
            if "head" in opts:
                qargs["head"] = int(opts["head"])
            try:
                qmp.execute("screendump", qargs)
                result["screenshots"][fname] = str(path)
                timings["shots"][fname] = now()
                reply = f"@@ACK {raw}\n"
            except HarnessError as e:
                result["errors"].append(f"screendump {fname}: {e}")
                reply = f"@@NAK {raw} {str(e).replace(chr(10), ' ')}\n"
            conns["ctl"].sendall(reply.encode())
            ctl_log.write(f"{now():9.3f} > {reply}".encode())

        def on_ctl_line(line: str) -> bool:
            ctl_log.write(f"{now():9.3f} < {line}\n".encode())
            parts = line.strip().split()
            if not parts:
                return False
            if parts[0] == "@@SHOT":
                take_shot(parts[1:])
            elif parts[0] == "@@SENDKEY" and len(parts) > 2:
                # `@@SENDKEY name ctrl alt f2`: those keys pressed together (QMP send-key, QEMU's
                # qcodes), then "@@ACK name" as for a shot.
                keys = [{"type": "qcode", "data": k} for k in parts[2:]]
                try:
                    qmp.execute("send-key", {"keys": keys})
                    timings["marks"]["sendkey-" + parts[1]] = now()
                    reply = f"@@ACK {parts[1]}\n"
                except HarnessError as e:
                    result["errors"].append(f"send-key {parts[1]}: {e}")
                    reply = f"@@NAK {parts[1]} {str(e).replace(chr(10), ' ')}\n"
                conns["ctl"].sendall(reply.encode())
                ctl_log.write(f"{now():9.3f} > {reply}".encode())
            elif parts[0] == "@@MARK" and len(parts) > 1:
                timings["marks"][parts[1]] = now()
                if len(parts) > 2:
                    try:
                        guptime["marks"][parts[1]] = float(parts[2])
                    except ValueError:
                        pass
            elif parts[0] == "@@DONE":
                if len(parts) > 1 and result["guest_exit"] is None:
                    result["guest_exit"] = int(parts[1])
                timings["done"] = now()
                return True
            return False

        while not done:
            left = deadline - time.monotonic()
            if left <= 0:
                result["timed_out"] = True
                result["errors"].append(f"timeout after {timeout}s")
                break
            events = sel.select(min(left, 0.5))
            if not events and proc.poll() is not None:
                result["errors"].append(f"QEMU exited ({proc.returncode}) before the guest was done")
                break
            for key, _ in events:
                which = key.data
                try:
                    data = key.fileobj.recv(65536)
                except OSError:
                    data = b""
                if not data:
                    sel.unregister(key.fileobj)
                    # QEMU closed the socket: it is exiting (guest powered off or crashed).
                    if "done" not in timings and not any("before @@DONE" in e for e in result["errors"]):
                        result["errors"].append("QEMU closed the serial port before @@DONE")
                    done = True
                    continue
                if which == "con":
                    if "first_output" not in timings:
                        timings["first_output"] = now()
                    console_bytes.extend(data)
                    serial_file.write(data)
                    serial_file.flush()
                    if echo:
                        sys.stderr.write(data.decode("utf-8", "replace"))
                    con_line += data
                    *lines, con_line = con_line.split(b"\n")
                    for ln in lines:
                        on_console_line(ln.decode("utf-8", "replace").rstrip("\r"))
                else:
                    ctl_buf += data
                    *lines, ctl_buf = ctl_buf.split(b"\n")
                    for ln in lines:
                        if on_ctl_line(ln.decode("utf-8", "replace")):
                            done = True
        # Collect any console output still in flight (the last lines after @@DONE).
        end = time.monotonic() + 0.3
        conns["con"].settimeout(0.05)
        while time.monotonic() < end:
            try:
                data = conns["con"].recv(65536)
            except (socket.timeout, OSError):
                break
            if not data:
                break
            console_bytes.extend(data)
            serial_file.write(data)
        if con_line:
            on_console_line(con_line.decode("utf-8", "replace"))
        if proc.poll() is None:
            try:
                qmp.execute("quit", timeout=5)
            except (HarnessError, OSError):
                pass
    except HarnessError as e:
        result["errors"].append(str(e))
    finally:
        if proc is not None:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            result["qemu_returncode"] = proc.returncode
        for s in list(conns.values()) + list(servers.values()):
            try:
                s.close()
            except OSError:
                pass
        shutil.rmtree(sockdir, ignore_errors=True)
        serial_file.close()
        ctl_log.close()

    timings["total"] = round(time.monotonic() - t0, 3)
    result["serial_log"] = console_bytes.decode("utf-8", "replace")
    try:
        qemu_err = stderr_path.read_text(errors="replace").strip()
    except OSError:
        qemu_err = ""
    if qemu_err:
        result["qemu_stderr"] = qemu_err
    result["ok"] = (result["guest_exit"] == 0 and not result["timed_out"]
                    and not result["errors"])
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Run a guest script under QEMU and take screenshots.")
    ap.add_argument("--device", default="VGA", help="QEMU display device (VGA, virtio-gpu-pci, ...)")
    ap.add_argument("--device-args", default="", help="e.g. xres=1024,yres=768")
    ap.add_argument("--file", action="append", default=[], metavar="HOST:GUEST")
    ap.add_argument("--script", help="guest shell script (host path); '-' for stdin")
    ap.add_argument("-c", "--command", help="guest shell script text")
    ap.add_argument("--out", help="output directory (default build/e2e/<device>)")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--append", default="", help="extra kernel command line")
    ap.add_argument("--verbose-kernel", action="store_true", help="drop 'quiet'")
    ap.add_argument("--compress", choices=("gzip", "none"), default="none",
                    help="initramfs compression (none boots ~0.3 s faster under TCG)")
    ap.add_argument("--echo", action="store_true", help="copy the console to stderr")
    ap.add_argument("--no-pvh", action="store_true", help="boot vmlinuz instead of vmlinux")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    ap.add_argument("qemu_args", nargs="*", help="extra QEMU arguments (after --)")
    a = ap.parse_args(argv)
    if a.command is not None:
        script = a.command
    elif a.script == "-":
        script = sys.stdin.read()
    elif a.script:
        script = Path(a.script).read_text()
    else:
        script = "shot screen\n"
    files = {}
    for spec in a.file:
        host, _, guest = spec.partition(":")
        files[guest] = host
    r = run(device=a.device, extra_device_args=a.device_args, guest_files=files,
            guest_script=script, out_dir=a.out, timeout=a.timeout, append=a.append,
            quiet=not a.verbose_kernel, extra_qemu_args=a.qemu_args, compress=a.compress,
            pvh=not a.no_pvh, echo=a.echo)
    if a.json:
        print(json.dumps({k: v for k, v in r.items() if k != "serial_log"}, indent=2))
    else:
        if not a.echo:
            sys.stdout.write(r["serial_log"])
        for n, p in r["screenshots"].items():
            print(f"screenshot {n}: {p}")
        print(f"timings: {json.dumps(r['timings'])}")
        print(f"guest exit: {r['guest_exit']}  ok: {r['ok']}  errors: {r['errors']}")
    return 0 if r["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())

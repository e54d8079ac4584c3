#!/usr/bin/env python3
"""CPU time per second of animation under QEMU TCG (one vCPU, bochs at 1024x768), the daemon
alone in the e2e harness's minimal guest: no boot going on beside it, so the figure is the
animation's own. The daemon (the initramfs's executable unless `--exe`) shows LAYOUT at 30 fps
on the DRM output; after 3 s the guest reads `/proc/PID/schedstat` (the nanoseconds it ran),
`/proc/PID/stat` (user and system ticks) and `/proc/PID/status` (context switches, peak memory)
over `--seconds`.

    python3 scripts/qemu/animation-cpu.py [--layout PATH] [--exe PATH ...] [--seconds 10] [--runs 3] [--icount]

Prints each run's CPU seconds per second (schedstat's, and the user and system split of the
ticks), the whole machine's busy share over the same time (`/proc/stat`: the daemon with the
kernel's workers committing its page flips, and anything else), the context switches per second
(voluntary: the loop's sleeps; involuntary: mostly the kernel's worker committing a page flip)
and the peak RSS, then the medians. Several `--exe` are measured in turn, run by run, so that
a slower hour of the machine weighs on each alike. `--icount`: QEMU counts instructions for the
guest's clock (`-icount shift=3`: 8 ns each), so the figure is the instructions the daemon and
the kernel on its behalf ran, the same from run to run, where the wall clock's moves with the
host. `make bench-boot` gives the wall-clock figure beside Plymouth's, within a whole boot.

Needs build/static (scripts/build-static.sh) and scripts/qemu/fetch-deps.sh. Work files go to
build/e2e/animation-cpu/.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "Tests" / "e2e"))
sys.dont_write_bytecode = True

import qemu_harness  # noqa: E402

GUEST = r"""
spawn /tmp/d.log /bin/skeletond run --config /etc/skeletond.json --layouts /layouts --layout measured --backend drm --log-level info --frame-cache none
wait_for_line /tmp/d.log 'first frame on' 60 || fail "no frame"
sleep 3
pid=$SPAWNED_PID
counts() { echo "$(cut -d' ' -f1 /proc/uptime) $(sed 's/.*) //' /proc/$pid/stat | cut -d' ' -f12,13) $(grep ctxt_switches /proc/$pid/status | tr -dc '0-9 \n' | tr '\n' ' ') $(cut -d' ' -f1 /proc/$pid/schedstat)"; }
machine_before=$(head -1 /proc/stat)
before=$(counts)
sleep SECONDS
after=$(counts)
machine_after=$(head -1 /proc/stat)
echo "@@CPU $before $after $(grep VmHWM /proc/$pid/status | tr -dc '0-9')"
echo "@@MACHINE $machine_before / $machine_after"
"""

FIGURES = re.compile(r"@@CPU " + r"(\S+) +(\d+) +(\d+) +(\d+) +(\d+) +(\d+) +" * 2 + r"(\d+)")
# QEMU's guest clock from its instruction count: 2^3 ns an instruction.
ICOUNT = ["-icount", "shift=3,sleep=on"]


def measure(exe: Path, layout: Path, seconds: int, out: Path, icount: bool) -> dict:
    files = {"/bin/skeletond": (exe, 0o755), "/layouts/measured.json": layout,
             "/etc/skeletond.json": b'{"display": {"maxFps": 30}}'}
    r = qemu_harness.run(device="VGA", extra_device_args="xres=1024,yres=768", guest_files=files,
                         guest_script=GUEST.replace("SECONDS", str(seconds)), out_dir=out,
                         timeout=(300 if icount else 120) + seconds, extra_qemu_args=ICOUNT if icount else [])
    log = r["serial_log"] if isinstance(r["serial_log"], str) else Path(r["serial_log"]).read_text(errors="replace")
    m = FIGURES.search(log)
    if not m:
        raise SystemExit(f"no figures from the guest (see {out}/serial.log):\n{log[-2000:]}")
    t0, u0, s0, v0, n0, ns0, t1, u1, s1, v1, n1, ns1, peak = (float(m[i]) for i in range(1, 14))
    span = t1 - t0
    machine = re.search(r"@@MACHINE cpu +([\d ]+?) +/ +cpu +([\d ]+)", log)
    if not machine:
        raise SystemExit(f"no /proc/stat figures from the guest (see {out}/serial.log)")
    # /proc/stat's first line: user nice system idle iowait irq softirq steal ..., in ticks.
    first, last = ([int(x) for x in g.split()] for g in machine.groups())
    used = [b - a for a, b in zip(first, last)]
    machine_busy = (sum(used[:8]) - used[3] - used[4]) / 100 / span
    return {"total": (ns1 - ns0) / 1e9 / span, "user": (u1 - u0) / 100 / span, "system": (s1 - s0) / 100 / span,
            "machine": machine_busy, "voluntary": (v1 - v0) / span, "involuntary": (n1 - n0) / span, "peak_kib": peak}


def line(f: dict) -> str:
    return (f"{f['total']:.4f} CPU s/s (ticks: user {f['user']:.4f}, system {f['system']:.4f}); "
            f"machine busy {f['machine']:.4f}; switches {f['voluntary']:.0f} / {f['involuntary']:.0f} a second; "
            f"peak RSS {f['peak_kib'] / 1024:.1f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layout", type=Path, default=REPO / "config" / "layouts" / "default.json")
    parser.add_argument("--exe", type=Path, action="append",
                        help="the executable measured (repeatable); default build/static/skeletond-initramfs")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--icount", action="store_true", help="the guest's clock counts instructions (see above)")
    args = parser.parse_args()
    exes = args.exe or [REPO / "build" / "static" / "skeletond-initramfs"]
    for exe in exes:
        if not exe.exists():
            raise SystemExit(f"{exe} is missing: run scripts/build-static.sh")
    runs: dict[Path, list[dict]] = {exe: [] for exe in exes}
    for i in range(args.runs):
        for exe in exes:
            f = measure(exe, args.layout, args.seconds, REPO / "build" / "e2e" / "animation-cpu", args.icount)
            runs[exe].append(f)
            print(f"run {i + 1}{f', {exe}' if len(exes) > 1 else ''}: {line(f)}", flush=True)
    for exe, results in runs.items():
        med = {k: statistics.median(r[k] for r in results) for k in results[0]}
        spread = f"{min(r['total'] for r in results):.4f} to {max(r['total'] for r in results):.4f}"
        print(f"median of {len(results)}{f', {exe}' if len(exes) > 1 else ''}: {line(med)}; CPU s/s {spread}")


if __name__ == "__main__":
    main()

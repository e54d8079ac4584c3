#!/usr/bin/env python3
"""Instructions QEMU translates before the first frame: the C reference (a mode set and one
fill) and skeletond, both cold in one boot under bochs 1024x768. skeletond starts from its boot
record (every boot after the first), from the boot plan of an image builder's `skeletond cache`,
from a frame cache entry only, or with no cache at all. The executable is the initramfs's
(`skeletond-initramfs`, what starts at boot with the package's hook) unless `--product skeletond`.

    python3 scripts/qemu/footprint.py [--case boot-record|boot-plan|frame-cache|no-cache] [--product skeletond] [--top N] [--runs N]

Under emulation, and on a slow boot CPU, a start costs the code it runs for the first time;
this count (QEMU's `-d in_asm` logs each block of guest code when it is first translated) is
stable from run to run where wall-clock figures are not. skeletond is built for this with its
text at 0x20000000 (.build-prof), apart from busybox and the C program at 0x400000, so that its
blocks can be told from theirs. Two boots: the first writes the boot record (printed to the
host), the second starts from it (or from the plan, the frame cache entry alone, or nothing)
with `-d in_asm`. Counted from each program's entry point to its first frame: for the C program
its drmModeDirtyFB call, for skeletond from the boot record or plan the first thing after the
boot path (`ProcessArguments.argumentStrings`), otherwise `Daemon.logFirstFrame`. User and kernel blocks are
counted alike. `--top N` lists the N functions with the most instructions translated in that span (of
the last boot). `--runs N` counts N second boots and prints the medians and their ratio: the
kernel's share moves from boot to boot.

Needs scripts/qemu/fetch-deps.sh. Work files go to build/e2e/footprint/.
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "Tests" / "e2e"))
sys.dont_write_bytecode = True

import qemu_harness  # noqa: E402
from test_harness_minimal_c import build_c_program  # noqa: E402
from test_skeletond_drm import PRINT_BOOT_RECORD, SOLID, boot_record, run_arguments, start_both  # noqa: E402

OUT = REPO / "build" / "e2e" / "footprint"
PROFILE_BUILD = REPO / ".build-prof"
TEXT = 0x2000_0000
KERNEL = 0xFFFF_8000_0000_0000
# The first Swift code after the boot path: `ProcessArguments.argumentStrings()`, the `run` arguments as strings.
AFTER_BOOT_PATH = "argumentStrings"
# Called once the first frame is on screen, on the paths that do not start from the boot record.
FIRST_FRAME_LOGGED = "logFirstFrame"
CASES = {"boot-record": "from the boot record)", "boot-plan": "from the boot plan)", "frame-cache": "from the frame cache)", "no-cache": "first frame on drm ("}


def build(product: str, build_id: str | None = None) -> Path:
    # Linked as scripts/build-static.sh links it (which builds the libraries under build/), the
    # initramfs's executable with skeletond's build id, which keys the frame cache.
    libraries = [a for d in ("harfbuzz", "wayland", "input") for a in ("-Xlinker", f"-L{REPO / 'build' / d}")]
    same_id = ["-Xlinker", f"--build-id=0x{build_id}"] if build_id else []
    r = subprocess.run(["swift", "build", "-c", "release", "--product", product, "--scratch-path", str(PROFILE_BUILD),
                        "-Xswiftc", "-static-executable", "-Xlinker", f"-Ttext-segment={TEXT:#x}", *libraries, *same_id],
                       cwd=REPO, capture_output=True, text=True, env=os.environ | {"SKELETOND_STATIC": "1"})
    if r.returncode != 0:
        raise SystemExit(f"swift build failed:\n{r.stdout[-4000:]}{r.stderr[-4000:]}")
    return PROFILE_BUILD / "release" / product


def build_id(binary: Path) -> str:
    notes = subprocess.run(["readelf", "-n", str(binary)], check=True, capture_output=True, text=True).stdout
    return re.search(r"Build ID:\s*([0-9a-f]+)", notes).group(1)


def symbols(binary: Path) -> dict[str, int]:
    out = subprocess.run(["nm", str(binary)], check=True, capture_output=True, text=True).stdout
    return {parts[2]: int(parts[0], 16) for parts in (line.split() for line in out.splitlines()) if len(parts) == 3}


def entry_point(binary: Path) -> int:
    header = subprocess.run(["readelf", "-h", str(binary)], check=True, capture_output=True, text=True).stdout
    return int(re.search(r"Entry point address:\s+(0x[0-9a-f]+)", header).group(1), 16)


def translated_blocks(log: Path) -> list[tuple[int, int]]:
    """(address, instructions) of each block, in the order QEMU translated them."""
    blocks: list[list[int]] = []
    current: list[int] | None = None
    with open(log, errors="replace") as f:
        for line in f:
            if line.startswith("IN:"):
                current = []
                blocks.append(current)
            elif current is not None:
                m = re.match(r"0x([0-9a-f]+):\s", line)
                if m:
                    if not current:
                        current.append(int(m.group(1), 16))
                        current.append(0)
                    current[1] += 1
    return [(b[0], b[1]) for b in blocks if b]


def top_functions(blocks: list[tuple[int, int]], binary: Path, n: int) -> list[tuple[int, str]]:
    """The n functions of `binary` with the most instructions among `blocks`, demangled."""
    table = sorted((a, name) for name, a in symbols(binary).items())
    starts = [a for a, _ in table]
    totals: dict[str, int] = {}
    for a, count_ in blocks:
        if a >= KERNEL:
            name = "(kernel)"
        else:
            i = bisect.bisect_right(starts, a) - 1
            name = table[i][1] if i >= 0 else "(unknown)"
        totals[name] = totals.get(name, 0) + count_
    top = sorted(totals.items(), key=lambda kv: -kv[1])[:n]
    names = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(k for k, _ in top),
                           capture_output=True, text=True).stdout.splitlines()
    return [(v, names[i] if i < len(names) else k) for i, (k, v) in enumerate(top)]


def count(blocks: list[tuple[int, int]], start: int, end: int, after: int = 0) -> dict[str, int]:
    """Instructions from a program's entry to `end`: from the first translation of `end` after
    block `after` back to the last translation of `start` before it, by kind."""
    last = next(i for i, (a, _) in enumerate(blocks) if i > after and a == end)
    first = max(i for i, (a, _) in enumerate(blocks[:last]) if a == start)
    kinds = {"user": 0, "kernel": 0}
    for a, n in blocks[first:last + 1]:
        kinds["kernel" if a >= KERNEL else "user"] += n
    return kinds | {"first": first, "last": last}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--case", choices=list(CASES), default="boot-record")
    parser.add_argument("--top", type=int, default=0)
    parser.add_argument("--runs", type=int, default=1, help="boots counted (the second boot, again): medians and their ratio")
    parser.add_argument("--product", choices=["skeletond-initramfs", "skeletond"], default="skeletond-initramfs",
                        help="the executable that starts: the initramfs's (what boots with the package's hook) or the package's")
    options = parser.parse_args()
    # `cache` (the boot plan's frame) is the package's command.
    tools = build("skeletond")
    binary = tools if options.product == "skeletond" else build(options.product, build_id(tools))
    c_binary = build_c_program()
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "solid.json").write_text(json.dumps(SOLID))
    files = {"/bin/skeletond": (binary, 0o755), "/bin/minimal-modeset": (c_binary, 0o755),
             "/layouts/solid.json": OUT / "solid.json", "/etc/skeletond.json": b"{}"}
    run = dict(device="VGA", extra_device_args="xres=1024,yres=768", timeout=300, append="vt.global_cursor_default=0")
    first = qemu_harness.run(guest_files=files, guest_script=start_both("info") + PRINT_BOOT_RECORD,
                             out_dir=OUT / "writes-record", name="writes-record", **run)
    record = boot_record(first["serial_log"])
    if not first["ok"] or record is None:
        raise SystemExit(f"the first boot wrote no boot record (see {OUT / 'writes-record'})")
    entries = re.findall(r"frame cache: wrote /var/cache/skeletond/(\S+\.frame)", first["serial_log"])
    # The entry the record names, rendered on the host by the same executable.
    (OUT / "settings.json").write_text("{}")
    subprocess.run([str(tools), "cache", "--config", str(OUT / "settings.json"), "--layouts", str(OUT), "--layout", "solid",
                    "--size", "1024x768", "--frame-cache", str(OUT / "cache"), "--", *run_arguments("info")],
                   check=True, capture_output=True)
    if options.case != "no-cache":
        files[f"/var/cache/skeletond/{entries[0]}"] = OUT / "cache" / entries[0]
    if options.case == "boot-record":
        files[f"/var/cache/skeletond/{record[0]}"] = record[1]
    if options.case == "boot-plan":
        files[f"/var/cache/skeletond/{record[0]}"] = OUT / "cache" / record[0]
    log = OUT / "in_asm.log"
    c_symbols = symbols(c_binary)
    s_symbols = symbols(binary)
    end_name = AFTER_BOOT_PATH if options.case in ("boot-record", "boot-plan") else FIRST_FRAME_LOGGED
    end = min((len(name), a) for name, a in s_symbols.items() if end_name in name)[1]
    totals: list[tuple[int, int]] = []
    for _ in range(options.runs):
        second = qemu_harness.run(guest_files=files, guest_script=start_both("info"), out_dir=OUT / options.case,
                                  name=options.case, extra_qemu_args=["-d", "in_asm", "-D", str(log)], **run)
        if CASES[options.case] not in second["serial_log"]:
            raise SystemExit(f"the second boot's first frame did not come as expected ({options.case}; see {OUT / options.case})")
        blocks = translated_blocks(log)
        c = count(blocks, entry_point(c_binary), c_symbols["drmModeDirtyFB"])
        s = count(blocks, entry_point(binary), end, after=c["last"])
        print(f"C reference, _start to drmModeDirtyFB: {c['user'] + c['kernel']} instructions "
              f"({c['user']} user, {c['kernel']} kernel)")
        print(f"skeletond ({options.case}), _start to its first frame: {s['user'] + s['kernel']} instructions "
              f"({s['user']} user, {s['kernel']} kernel)")
        totals.append((c["user"] + c["kernel"], s["user"] + s["kernel"]))
    if options.runs > 1:
        # The kernel's share moves from boot to boot (whichever program first runs a kernel path
        # has it translated): the medians of the boots, and their ratio.
        c_median = statistics.median(t[0] for t in totals)
        s_median = statistics.median(t[1] for t in totals)
        print(f"medians of {options.runs} boots: C {c_median:.0f}, skeletond {s_median:.0f}: {s_median / c_median:.2f}x")
    if options.top:
        for n, name in top_functions(blocks[s["first"]:s["last"] + 1], binary, options.top):
            print(f"{n:8}  {name[:150]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

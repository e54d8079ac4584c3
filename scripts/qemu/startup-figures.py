#!/usr/bin/env python3
"""Process start to first frame under QEMU (bochs, 1024x768), over several boots: the C
reference (a mode set and one fill) and skeletond, each the first program of its kind in its
boot (cold, as at a real boot), in four cases: no cache (a first boot), a frame cache entry
prepared by `skeletond cache`, that entry with the boot plan `skeletond cache` writes for the
guest's command line (an image builder's first boot), and that entry with the boot record a
previous boot wrote (every boot after the first). Prints each boot's figures and the medians
with their ratios, and each case against the C program's median over all boots. Each program
is started through scripts/qemu/exec-timed.c, which writes the moment of its exec to the
microsecond (/proc's start time has a 10 ms grain), and the guest runs nothing else until a
second later; the C program's first frame is its own clock's, skeletond's its log's (to the
millisecond). The daemon is the initramfs's executable (`skeletond-initramfs`, what the
package's hook starts at boot), or with `--product skeletond` the package's, which
skeletond.service starts when no daemon came from the initramfs.

    python3 scripts/qemu/startup-figures.py [--boots 5] [--product skeletond]

Needs build/static/skeletond and skeletond-initramfs (scripts/build-static.sh), .build/debug/skeletond and
scripts/qemu/fetch-deps.sh. Work files go to build/e2e/startup/.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "Tests" / "e2e"))
sys.dont_write_bytecode = True

import qemu_harness  # noqa: E402
from test_harness_minimal_c import build_c_program  # noqa: E402
from test_skeletond_drm import PRINT_BOOT_RECORD, SOLID, boot_record, run_arguments, start_both, start_up_figures  # noqa: E402

OUT = REPO / "build" / "e2e" / "startup"
STATIC = REPO / "build" / "static"

GUEST = start_both(log_level="info", timed=True) + PRINT_BOOT_RECORD  # the production log level

# What the log says the first frame came from, per case.
CASES = {"no cache": None, "frame cache": "the frame cache", "boot plan": "the boot plan", "boot record": "the boot record"}


def boot(index: int, case: str, c_binary: Path, timer: Path, entry: Path, plan: Path, record: tuple[str, bytes] | None,
         product: str) -> tuple[dict, tuple[str, bytes] | None]:
    files = {
        "/bin/skeletond": (STATIC / product, 0o755),
        "/bin/minimal-modeset": (c_binary, 0o755),
        "/bin/exec-timed": (timer, 0o755),
        "/layouts/solid.json": OUT / "layouts" / "solid.json",
        "/etc/skeletond.json": b"{}",
    }
    if case != "no cache":
        files[f"/var/cache/skeletond/{entry.name}"] = entry
    if case == "boot plan":
        files[f"/var/cache/skeletond/{plan.name}"] = plan
    if case == "boot record" and record:
        files[f"/var/cache/skeletond/{record[0]}"] = record[1]
    # A start from the boot record writes none: nothing to wait for.
    script = GUEST if case != "boot record" else start_both(log_level="info", timed=True)
    name = f"{case.replace(' ', '-')}-{index}"
    r = qemu_harness.run(device="VGA", extra_device_args="xres=1024,yres=768", guest_files=files, guest_script=script,
                         out_dir=OUT / name, name=name, timeout=240, append="vt.global_cursor_default=0")
    if not r["ok"]:
        raise SystemExit(f"{name}: {r['errors']} (see {OUT / name})")
    log = r["serial_log"]
    source = CASES[case]
    if source and f"from {source})" not in log or not source and "first frame on drm (" not in log:
        raise SystemExit(f"{name}: the first frame did not come from {source or 'a draw'} (see {OUT / name})")
    return start_up_figures(log), boot_record(log)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boots", type=int, default=5)
    parser.add_argument("--product", choices=["skeletond-initramfs", "skeletond"], default="skeletond-initramfs")
    options = parser.parse_args()
    (OUT / "layouts").mkdir(parents=True, exist_ok=True)
    (OUT / "layouts" / "solid.json").write_text(json.dumps(SOLID))
    (OUT / "settings.json").write_text("{}")
    made = subprocess.run([str(STATIC / "skeletond"), "cache", "--config", str(OUT / "settings.json"), "--layouts", str(OUT / "layouts"),
                           "--layout", "solid", "--size", "1024x768", "--frame-cache", str(OUT / "cache"),
                           "--", *run_arguments("info")], check=True, capture_output=True, text=True)
    entry, plan = (Path(line) for line in made.stdout.split())
    c_binary, timer = build_c_program(), build_c_program("exec-timed", libdrm=False)
    rows: dict[str, list[dict]] = {case: [] for case in CASES}
    record = None
    for i in range(options.boots):
        for case in CASES:
            f, written = boot(i, case, c_binary, timer, entry, plan, record, options.product)
            # Every start after the first writes the same record: the first one's is kept.
            record = record or written
            rows[case].append(f)
            print(f"boot {i + 1} {case:11}: C {f['c_first_frame_ms']:.1f} ms, skeletond {f['skeletond_first_frame_ms']:.1f} ms, "
                  f"ratio {f['skeletond_first_frame_ms'] / f['c_first_frame_ms']:.2f}", flush=True)
    for case in CASES:
        c = statistics.median(f["c_first_frame_ms"] for f in rows[case])
        s = statistics.median(f["skeletond_first_frame_ms"] for f in rows[case])
        ratios = sorted(f["skeletond_first_frame_ms"] / f["c_first_frame_ms"] for f in rows[case])
        print(f"median, {case:11}: C {c:.1f} ms, skeletond {s:.1f} ms, ratio of medians {s / c:.2f} "
              f"(per boot {ratios[0]:.2f} to {ratios[-1]:.2f})")
    # The C program is the same first program in every boot, whatever the case: its times of all
    # boots make a steadier reference than one case's (they fall about 18 or 28 ms, from boot to boot).
    every = statistics.median(f["c_first_frame_ms"] for case in CASES for f in rows[case])
    print(f"the C program over all {options.boots * len(CASES)} boots: median {every:.1f} ms; skeletond against it: "
          + ", ".join(f"{case} {statistics.median(f['skeletond_first_frame_ms'] for f in rows[case]) / every:.2f}" for case in CASES))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Process start to first frame under QEMU (bochs, 1024x768), over several boots: the C
reference (a mode set and one fill) and skeletond, each the first program of its kind in its
boot (cold, as at a real boot), with and without a frame cache entry prepared by
`skeletond cache`. Prints each boot's figures and the medians with their ratios.

    python3 scripts/qemu/startup-figures.py [--boots 5]

Needs build/static/skeletond (scripts/build-static.sh), .build/debug/skeletond and
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
from test_minimal_c import build_c_program  # noqa: E402
from test_skeletond_drm import SOLID, start_both, start_up_figures  # noqa: E402

OUT = REPO / "build" / "e2e" / "startup"
STATIC = REPO / "build" / "static"

GUEST = start_both(log_level="info")  # the production log level


def boot(index: int, cached: bool, c_binary: Path, entry: Path | None) -> dict:
    files = {
        "/bin/skeletond": (STATIC / "skeletond", 0o755),
        "/bin/minimal-modeset": (c_binary, 0o755),
        "/layouts/solid.json": OUT / "layouts" / "solid.json",
        "/etc/skeletond.json": b"{}",
    }
    if cached and entry:
        files[f"/var/cache/skeletond/{entry.name}"] = entry
    name = f"{'cached' if cached else 'uncached'}-{index}"
    r = qemu_harness.run(device="VGA", extra_device_args="xres=1024,yres=768", guest_files=files, guest_script=GUEST,
                         out_dir=OUT / name, name=name, timeout=240, append="vt.global_cursor_default=0")
    if not r["ok"]:
        raise SystemExit(f"{name}: {r['errors']} (see {OUT / name})")
    figures = start_up_figures(r["serial_log"])
    if cached != ("from the frame cache" in r["serial_log"]):
        raise SystemExit(f"{name}: the frame cache was {'not ' if cached else ''}used")
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boots", type=int, default=5)
    options = parser.parse_args()
    (OUT / "layouts").mkdir(parents=True, exist_ok=True)
    (OUT / "layouts" / "solid.json").write_text(json.dumps(SOLID))
    (OUT / "settings.json").write_text("{}")
    made = subprocess.run([str(STATIC / "skeletond"), "cache", "--config", str(OUT / "settings.json"), "--layouts", str(OUT / "layouts"),
                           "--layout", "solid", "--size", "1024x768", "--frame-cache", str(OUT / "cache")],
                          check=True, capture_output=True, text=True)
    entry = Path(made.stdout.strip())
    c_binary = build_c_program()
    rows = {False: [], True: []}
    for i in range(options.boots):
        for cached in (False, True):
            f = boot(i, cached, c_binary, entry)
            rows[cached].append(f)
            print(f"boot {i + 1} {'cached  ' if cached else 'uncached'}: C {f['c_first_frame_ms']:.0f} ms, "
                  f"skeletond {f['skeletond_first_frame_ms']} ms, ratio {f['skeletond_first_frame_ms'] / f['c_first_frame_ms']:.2f}",
                  flush=True)
    for cached in (False, True):
        c = statistics.median(f["c_first_frame_ms"] for f in rows[cached])
        s = statistics.median(f["skeletond_first_frame_ms"] for f in rows[cached])
        ratios = sorted(f["skeletond_first_frame_ms"] / f["c_first_frame_ms"] for f in rows[cached])
        print(f"median {'from the frame cache' if cached else 'no frame cache      '}: C {c:.0f} ms, skeletond {s:.0f} ms, "
              f"ratio of medians {s / c:.2f} (per boot {ratios[0]:.2f} to {ratios[-1]:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

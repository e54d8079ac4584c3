#!/usr/bin/env python3
"""The docs stay readable: each page below its limit in bytes (issue 47's budget).

    scripts/doc-sizes.py    print each page's size against its limit; exit 1 when one is over
"""
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LIMITS = {
    "README.md": 14 * 1024,
    "docs/design.md": 30 * 1024,
    "docs/performance.md": 30 * 1024,
}


def main() -> int:
    over = 0
    for page, limit in LIMITS.items():
        size = (REPO / page).stat().st_size
        fits = size <= limit
        over += not fits
        print(f"{page}: {size:,} bytes of at most {limit:,}{'' if fits else ' — over: cut it (history goes to git, not the page)'}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())

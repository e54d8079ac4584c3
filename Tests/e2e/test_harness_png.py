#!/usr/bin/env python3
"""Self-test for Tests/e2e/png.py (no QEMU needed): python3 Tests/e2e/test_harness_png.py"""

import os
import random
import struct
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
import png  # noqa: E402


def _filter_row(ftype, line, prior, bpp):
    out = bytearray(len(line))
    for i, x in enumerate(line):
        a = line[i - bpp] if i >= bpp else 0
        b = prior[i]
        c = prior[i - bpp] if i >= bpp else 0
        pred = {0: 0, 1: a, 2: b, 3: (a + b) >> 1, 4: png._paeth(a, b, c)}[ftype]
        out[i] = (x - pred) & 0xFF
    return bytes([ftype]) + bytes(out)


def _encode_with_filters(img, ctype):
    bpp = img.channels
    raw = b""
    prior = bytes(img.stride)
    for y in range(img.height):
        line = img.row(y)
        raw += _filter_row(y % 5, line, prior, bpp)
        prior = line

    def chunk(t, body):
        return struct.pack(">I", len(body)) + t + body + struct.pack(">I", zlib.crc32(t + body))

    return (png.PNG_SIGNATURE
            + chunk(b"IHDR", struct.pack(">IIBBBBB", img.width, img.height, 8, ctype, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)[:40]) + chunk(b"IDAT", zlib.compress(raw)[40:])
            + chunk(b"IEND", b""))


def main():
    rng = random.Random(7)
    passed = failed = 0

    def check(name, cond, detail=""):
        nonlocal passed, failed
        if cond:
            passed += 1
            print(f"PASS {name}")
        else:
            failed += 1
            print(f"FAIL {name} {detail}")

    for channels, ctype in ((3, 2), (4, 6)):
        w, h = 37, 23
        data = bytes(rng.randrange(256) for _ in range(w * h * channels))
        img = png.Image(w, h, channels, data)
        back = png.decode(_encode_with_filters(img, ctype))
        check(f"all five filters, {channels} channels", back.data == data and back.channels == channels)
        back2 = png.decode(png.encode(img))
        check(f"encode/decode round trip, {channels} channels", back2.data == data)

    a = png.solid(64, 48, 0x3498DB)
    check("solid pixel", a.pixel(5, 5) == (0x34, 0x98, 0xDB))
    check("check_solid identical", png.check_solid(a, 0x3498DB, size=(64, 48)).ok)
    check("check_solid wrong size", png.check_solid(a, 0x3498DB, size=(64, 47)).size_mismatch is not None)
    b = bytearray(a.data)
    for (x, y) in ((10, 3), (20, 30), (12, 7)):
        i = (y * 64 + x) * 3
        b[i:i + 3] = b"\x00\x00\x00"
    with tempfile.TemporaryDirectory() as td:
        d = png.compare(png.Image(64, 48, 3, bytes(b)), a, diff_path=os.path.join(td, "d.png"))
        check("diff count", d.count == 3, str(d))
        check("diff bbox", d.bbox == (10, 3, 20, 30), str(d.bbox))
        dimg = png.read(d.diff_path)
        check("diff image marks red", dimg.pixel(20, 30) == (255, 0, 0) and dimg.pixel(0, 0) != (255, 0, 0))
    d = png.compare(png.Image(64, 48, 3, bytes(b)), a, tolerance=255)
    check("tolerance", d.ok)
    rgba = png.Image(2, 1, 4, bytes([1, 2, 3, 4, 5, 6, 7, 8]))
    check("rgba to rgb", rgba.rgb().data == bytes([1, 2, 3, 5, 6, 7]))
    grid = png.Image(4, 3, 3, bytes(range(36)))
    part = png.crop(grid, 1, 1, 2, 2)
    check("crop", (part.width, part.height) == (2, 2) and part.pixel(0, 0) == grid.pixel(1, 1)
          and part.pixel(1, 1) == grid.pixel(2, 2), str(part))
    try:
        png.crop(grid, 3, 0, 2, 1)
        check("crop outside the image is refused", False)
    except ValueError:
        check("crop outside the image is refused", True)

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

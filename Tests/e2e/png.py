"""Pure-python PNG reading, writing and pixel comparison for the end-to-end tests.

Reads non-interlaced 8-bit PNGs: RGB, RGBA, grey, grey+alpha and palette (the last three
are converted). Images are held as packed rows of RGB or RGBA bytes.

    img = png.read("build/e2e/vga/filled.png")
    img.width, img.height, img.channels, img.pixel(x, y)
    png.check_solid(img, 0x3498DB)       -> Diff (count, bbox)
    d = png.compare(actual, expected, diff_path="build/e2e/diff.png")
    d.count, d.bbox, d.ok
"""

from __future__ import annotations

import struct
import zlib
from itertools import accumulate
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence, Tuple, Union

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class PNGError(ValueError):
    pass


@dataclass
class Image:
    width: int
    height: int
    channels: int  # 3 (RGB) or 4 (RGBA)
    data: bytes    # height rows of width*channels bytes, no padding

    @property
    def stride(self) -> int:
        return self.width * self.channels

    def row(self, y: int) -> bytes:
        s = self.stride
        return self.data[y * s:(y + 1) * s]

    def pixel(self, x: int, y: int) -> Tuple[int, ...]:
        i = y * self.stride + x * self.channels
        return tuple(self.data[i:i + self.channels])

    def rgb(self) -> "Image":
        """The image without alpha (alpha is dropped, not composited)."""
        if self.channels == 3:
            return self
        out = bytearray(self.width * self.height * 3)
        out[0::3] = self.data[0::4]
        out[1::3] = self.data[1::4]
        out[2::3] = self.data[2::4]
        return Image(self.width, self.height, 3, bytes(out))

    def histogram(self, limit: int = 16) -> list:
        """The most frequent colours: [(count, (r, g, b[, a])), ...]."""
        counts: dict = {}
        c = self.channels
        for y in range(self.height):
            r = self.row(y)
            if r == r[:c] * self.width:
                counts[r[:c]] = counts.get(r[:c], 0) + self.width
                continue
            for i in range(0, len(r), c):
                k = r[i:i + c]
                counts[k] = counts.get(k, 0) + 1
        top = sorted(counts.items(), key=lambda kv: -kv[1])[:limit]
        return [(n, tuple(k)) for k, n in top]


# ---- reading ---------------------------------------------------------------------------------

def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def _unfilter(raw: bytes, width: int, height: int, bpp: int) -> bytes:
    stride = width * bpp
    out = bytearray(height * stride)
    prior = bytearray(stride)
    pos = 0
    for y in range(height):
        ftype = raw[pos]
        line = bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        if len(line) != stride:
            raise PNGError("truncated image data")
        if ftype == 0:
            pass
        elif ftype == 1:  # Sub: a running sum per channel (accumulate runs in C)
            for ch in range(bpp):
                line[ch::bpp] = bytes(v & 0xFF for v in accumulate(line[ch::bpp]))
        elif ftype == 2:  # Up
            line = bytearray((a + b) & 0xFF for a, b in zip(line, prior))
        elif ftype == 3:  # Average
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prior[i]) >> 1)) & 0xFF
        elif ftype == 4:  # Paeth
            for i in range(stride):
                if i >= bpp:
                    a, c = line[i - bpp], prior[i - bpp]
                else:
                    a = c = 0
                line[i] = (line[i] + _paeth(a, prior[i], c)) & 0xFF
        else:
            raise PNGError(f"bad filter type {ftype} on row {y}")
        out[y * stride:(y + 1) * stride] = line
        prior = line
    return bytes(out)


def decode(blob: bytes) -> Image:
    if blob[:8] != PNG_SIGNATURE:
        raise PNGError("not a PNG file")
    pos = 8
    ihdr = None
    idat = []
    palette = None
    trns = None
    while pos < len(blob):
        if pos + 8 > len(blob):
            raise PNGError("truncated chunk header")
        length, ctype = struct.unpack(">I4s", blob[pos:pos + 8])
        body = blob[pos + 8:pos + 8 + length]
        crc, = struct.unpack(">I", blob[pos + 8 + length:pos + 12 + length])
        if zlib.crc32(ctype + body) & 0xFFFFFFFF != crc:
            raise PNGError(f"CRC mismatch in {ctype!r}")
        pos += 12 + length
        if ctype == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif ctype == b"PLTE":
            palette = body
        elif ctype == b"tRNS":
            trns = body
        elif ctype == b"IDAT":
            idat.append(body)
        elif ctype == b"IEND":
            break
    if ihdr is None:
        raise PNGError("no IHDR")
    width, height, depth, ctype_, _comp, _filt, interlace = ihdr
    if depth != 8:
        raise PNGError(f"only 8-bit PNGs are supported (got {depth})")
    if interlace:
        raise PNGError("interlaced PNGs are not supported")
    bpp = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(ctype_)
    if bpp is None:
        raise PNGError(f"unsupported colour type {ctype_}")
    pixels = _unfilter(zlib.decompress(b"".join(idat)), width, height, bpp)
    if ctype_ == 2:
        return Image(width, height, 3, pixels)
    if ctype_ == 6:
        return Image(width, height, 4, pixels)
    if ctype_ == 0:
        out = bytearray(len(pixels) * 3)
        out[0::3] = pixels
        out[1::3] = pixels
        out[2::3] = pixels
        return Image(width, height, 3, bytes(out))
    if ctype_ == 4:
        out = bytearray(width * height * 4)
        out[0::4] = pixels[0::2]
        out[1::4] = pixels[0::2]
        out[2::4] = pixels[0::2]
        out[3::4] = pixels[1::2]
        return Image(width, height, 4, bytes(out))
    # palette
    if palette is None:
        raise PNGError("palette image without PLTE")
    if trns:
        alpha = trns + b"\xff" * (256 - len(trns))
        table = [palette[i * 3:i * 3 + 3] + alpha[i:i + 1] for i in range(len(palette) // 3)]
        return Image(width, height, 4, b"".join(table[i] for i in pixels))
    table = [palette[i * 3:i * 3 + 3] for i in range(len(palette) // 3)]
    return Image(width, height, 3, b"".join(table[i] for i in pixels))


def read(path: Union[str, Path]) -> Image:
    return decode(Path(path).read_bytes())


# ---- writing ---------------------------------------------------------------------------------

def encode(img: Image, level: int = 6) -> bytes:
    def chunk(t: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + t + body + struct.pack(">I", zlib.crc32(t + body) & 0xFFFFFFFF)

    ctype = {3: 2, 4: 6}[img.channels]
    raw = b"".join(b"\0" + img.row(y) for y in range(img.height))
    return (PNG_SIGNATURE
            + chunk(b"IHDR", struct.pack(">IIBBBBB", img.width, img.height, 8, ctype, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, level))
            + chunk(b"IEND", b""))


def write(path: Union[str, Path], img: Image) -> Path:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(encode(img))
    return p


def crop(img: Image, x: int, y: int, width: int, height: int) -> Image:
    """The rectangle (x, y, width, height) of the image, which must lie inside it."""
    if x < 0 or y < 0 or x + width > img.width or y + height > img.height:
        raise ValueError(f"crop {x},{y} {width}x{height} outside {img.width}x{img.height}")
    c = img.channels
    rows = (img.row(y + i)[x * c:(x + width) * c] for i in range(height))
    return Image(width, height, c, b"".join(rows))


def solid(width: int, height: int, color: Union[int, Sequence[int]]) -> Image:
    rgb = _rgb_bytes(color)
    return Image(width, height, 3, rgb * (width * height))


# ---- comparison ------------------------------------------------------------------------------

@dataclass
class Diff:
    count: int                                   # pixels that differ (beyond tolerance)
    total: int                                   # pixels compared
    bbox: Optional[Tuple[int, int, int, int]]    # (x0, y0, x1, y1) inclusive, or None
    size_mismatch: Optional[str] = None
    max_delta: int = 0                           # largest per-channel difference seen
    diff_path: Optional[str] = None
    samples: list = field(default_factory=list)  # up to 8 [(x, y, actual, expected)]

    @property
    def ok(self) -> bool:
        return self.size_mismatch is None and self.count == 0

    def __str__(self) -> str:
        if self.size_mismatch:
            return f"size mismatch: {self.size_mismatch}"
        if self.count == 0:
            return f"identical ({self.total} pixels)"
        s = (f"{self.count} of {self.total} pixels differ, bbox {self.bbox}, "
             f"max channel delta {self.max_delta}")
        if self.samples:
            s += ", e.g. " + "; ".join(f"({x},{y}) {a} != {e}" for x, y, a, e in self.samples[:3])
        if self.diff_path:
            s += f", diff image {self.diff_path}"
        return s


def _rgb_bytes(color: Union[int, Sequence[int]]) -> bytes:
    if isinstance(color, int):
        return bytes(((color >> 16) & 0xFF, (color >> 8) & 0xFF, color & 0xFF))
    return bytes(color[:3])


def compare(actual: Image, expected: Image, tolerance: int = 0,
            diff_path: Union[str, Path, None] = None) -> Diff:
    """Pixel-exact comparison of the RGB channels (alpha ignored); `tolerance` allows a
    per-channel difference. With diff_path, writes an image: differing pixels red, the rest
    a dimmed grey copy of the expected image."""
    a, e = actual.rgb(), expected.rgb()
    if (a.width, a.height) != (e.width, e.height):
        return Diff(0, 0, None, f"actual {a.width}x{a.height}, expected {e.width}x{e.height}")
    w, h = a.width, a.height
    count = 0
    max_delta = 0
    x0 = y0 = 1 << 30
    x1 = y1 = -1
    samples = []
    bad_rows: dict = {}
    for y in range(h):
        ra, re_ = a.row(y), e.row(y)
        if ra == re_:
            continue
        bad = []
        for x in range(w):
            i = x * 3
            if ra[i:i + 3] == re_[i:i + 3]:
                continue
            d = max(abs(ra[i] - re_[i]), abs(ra[i + 1] - re_[i + 1]), abs(ra[i + 2] - re_[i + 2]))
            if d <= tolerance:
                continue
            max_delta = max(max_delta, d)
            bad.append(x)
            if len(samples) < 8:
                samples.append((x, y, tuple(ra[i:i + 3]), tuple(re_[i:i + 3])))
        if bad:
            count += len(bad)
            bad_rows[y] = bad
            x0, x1 = min(x0, bad[0]), max(x1, bad[-1])
            y0, y1 = min(y0, y), max(y1, y)
    bbox = (x0, y0, x1, y1) if count else None
    result = Diff(count, w * h, bbox, None, max_delta, None, samples)
    if diff_path is not None and count:
        out = bytearray(w * h * 3)
        for y in range(h):
            re_ = e.row(y)
            grey = bytes(((re_[i] + re_[i + 1] + re_[i + 2]) // 6 for i in range(0, len(re_), 3)))
            row = bytearray(w * 3)
            row[0::3] = grey
            row[1::3] = grey
            row[2::3] = grey
            for x in bad_rows.get(y, ()):
                row[x * 3:x * 3 + 3] = b"\xff\x00\x00"
            out[y * w * 3:(y + 1) * w * 3] = row
        write(diff_path, Image(w, h, 3, bytes(out)))
        result.diff_path = str(diff_path)
    return result


def check_solid(actual: Image, color: Union[int, Sequence[int]], tolerance: int = 0,
                diff_path: Union[str, Path, None] = None,
                size: Optional[Tuple[int, int]] = None) -> Diff:
    """Compare against a solid colour (0xRRGGBB or (r, g, b)), optionally checking the size."""
    if size is not None and (actual.width, actual.height) != tuple(size):
        return Diff(0, 0, None, f"actual {actual.width}x{actual.height}, expected {size[0]}x{size[1]}")
    return compare(actual, solid(actual.width, actual.height, color), tolerance, diff_path)


def _main(argv: Sequence[str]) -> int:
    import sys
    if len(argv) == 2:
        img = read(argv[1])
        print(f"{argv[1]}: {img.width}x{img.height}, {img.channels} channels")
        for n, c in img.histogram(8):
            print(f"  {n:9d}  #{bytes(c[:3]).hex().upper()}{'' if len(c) == 3 else ' a=%d' % c[3]}")
        return 0
    if len(argv) in (3, 4):
        d = compare(read(argv[1]), read(argv[2]), diff_path=argv[3] if len(argv) == 4 else None)
        print(d)
        return 0 if d.ok else 1
    print("usage: png.py IMAGE | png.py ACTUAL EXPECTED [DIFF.png]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    import sys
    sys.exit(_main(sys.argv))

"""The text console in the end-to-end tests' screenshots.

The kernel's console, with nothing printed on it (the kernel and the guest print on the serial
port), is all black: a test that "the console is back" would pass on a black screen. So the
guests write CONSOLE_TEXT to /dev/tty1 before they take the console's picture, which must then
show it (text_pixels), and the console is back when the screen equals that picture again
(console_is_back).
"""

from __future__ import annotations

import png

CONSOLE_TEXT = "skeletond e2e: the text console before the start"


def background(img: png.Image) -> tuple:
    """The console's background: its most frequent colour."""
    return img.histogram(1)[0][1][:3]


def text_pixels(img: png.Image, x1: int | None = None, y1: int | None = None) -> int:
    """Pixels off the background (the console's text), in the rectangle (0, 0)-(x1, y1)."""
    rgb = img.rgb()
    bg = bytes(background(rgb))
    x1 = rgb.width if x1 is None else x1
    y1 = rgb.height if y1 is None else y1
    blank = bg * x1
    count = 0
    for y in range(y1):
        row = rgb.row(y)[:x1 * 3]
        if row != blank:
            count += sum(1 for i in range(0, len(row), 3) if row[i:i + 3] != bg)
    return count


def console_is_back(after: png.Image, console: png.Image, diff_path) -> tuple[bool, str]:
    """The screen shows the console as captured before the start, pixel for pixel. When the
    kernel's fbdev helper set another mode for the head than it had then (it may, for a connector
    without EDID), its console is drawn from the top left all the same: the part both pictures
    share must be equal, hold all of the console's text (an all-black screen has none), and the
    rest must be the console's background."""
    if (after.width, after.height) == (console.width, console.height):
        d = png.compare(after, console, diff_path=diff_path)
        text = text_pixels(console)
        return d.ok and text > 0, f"{d}; console text {text} pixels"
    w, h = min(after.width, console.width), min(after.height, console.height)
    d = png.compare(png.crop(after, 0, 0, w, h), png.crop(console, 0, 0, w, h), diff_path=diff_path)
    text_total, text_shared = text_pixels(console), text_pixels(console, w, h)
    bg = background(console)
    after_rgb = after.rgb()
    outside = 0
    for y in range(after.height):
        row = after_rgb.row(y)
        start = w if y < h else 0
        outside += sum(1 for x in range(start, after.width) if tuple(row[x * 3:x * 3 + 3]) != bg)
    ok = d.ok and text_total > 0 and text_shared == text_total and outside == 0
    return ok, (f"at {after.width}x{after.height} (the console was {console.width}x{console.height}): "
                f"the shared {w}x{h} {d}; console text {text_shared} of {text_total} pixels inside it; "
                f"{outside} pixels off the background {bg} outside it")

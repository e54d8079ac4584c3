"""The `luks` cases of the boot test (Tests/boot/test_debian_boot.py): the root file system on a
LUKS2 volume that the initramfs unlocks (Debian's cryptsetup-initramfs, `cryptroot` in crypttab
with the `initramfs` option, root=/dev/mapper/cryptroot), the passphrase typed on the keyboard
over QMP (`send-key`), a wrong one first: it must be refused and asked again, the right one must
unlock the root and the boot reach multi-user.target. askpass asks through /bin/plymouth (the
package's hook links it to skeletond where Plymouth is not installed), so the prompt is the
daemon's, drawn over the dimmed skeleton with one bullet per key, typed through evdev and
libinput with the console's keymap compiled into the initramfs. `luks-de`: the German keymap
(XKBLAYOUT=de) and a passphrase with ä, @ (AltGr+q) and ß. `luks-plymouth`: Debian's own plymouth
client in the initramfs as /bin/plymouth, as plymouth's hook puts it there, asking the daemon.

The volume is made on the host without device-mapper (none here): the root's ext4 image is
encrypted in place by `cryptsetup reencrypt --encrypt` (offline, with the userspace crypto),
a real LUKS2 header at its head; PBKDF2 at its lowest count, so that each try costs little
under TCG. /dev/console is the first VT (console=tty0 last); a guest script
(guest/e2e-luks-watch) says on the serial console when askpass waits, and the host takes its
screenshots and types."""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

import png

HERE = Path(__file__).resolve().parent
# What the cases need beyond the base root: cryptsetup in the root and its initramfs hook, the
# console keymap tools (the hook's KEYMAP=y makes the initramfs load the root's keymap), and
# libx11-data, which the package depends on since its prompts (xkb-data comes with console-setup).
PACKAGES = "cryptsetup,cryptsetup-initramfs,kbd,console-setup"
# case: (keyboard layout, the passphrase, the wrong one typed first).
CASES = {"luks": ("us", "correct horse", "correct horses"),
         "luks-de": ("de", "Bär@Fuß", "Bär@Fuss"),
         "luks-plymouth": ("us", "correct horse", "correct horses")}
UUID = "2b7e1516-28ae-4d2a-abf7-158809cf4f3c"
SIZE = "2G"
# The keys of a US and a German keyboard (QEMU's qcodes) for the characters the cases type.
US = {" ": ["spc"], "\n": ["ret"], "-": ["minus"], ".": ["dot"], "@": ["shift", "2"], "!": ["shift", "1"]}
DE = {" ": ["spc"], "\n": ["ret"], "-": ["slash"], ".": ["dot"], "@": ["alt_r", "q"], "!": ["shift", "1"],
      "ä": ["apostrophe"], "ö": ["semicolon"], "ü": ["bracket_left"], "ß": ["minus"], "y": ["z"], "z": ["y"]}
HOLD_MS = 30
# What is typed at systemd-ask-password's question in the real root.
AGENT_ANSWER = "data key"


def append(case: str) -> str:
    """The kernel's command line besides: /dev/console the first VT (the last console=), where
    askpass reads the keys; luks-plymouth keeps it on the serial line, whose log then holds the
    initramfs's console. A root that cannot be unlocked ends in initramfs-tools' panic: a reboot
    10 s later (QEMU stops)."""
    return "root=/dev/mapper/cryptroot panic=10" + ("" if case == "luks-plymouth" else " console=tty0")


def install(root: Path, case: str) -> None:
    """crypttab, the hook's settings, the keymap (luks-de), the watch script in the initramfs and
    a unit that says what the real root is on; the initramfs is made after this."""
    (root / "etc/crypttab").write_text(f"cryptroot UUID={UUID} none luks,initramfs\n")
    # Read by no hook of cryptsetup 2.6.1 (the `initramfs` option above includes the entry, which
    # a chroot cannot find from its root device); older hooks forced cryptsetup in with it.
    (root / "etc/cryptsetup-initramfs/conf-hook").write_text("CRYPTSETUP=y\n")
    if CASES[case][0] == "de":
        (root / "etc/default/keyboard").write_text('XKBMODEL="pc105"\nXKBLAYOUT="de"\nXKBVARIANT=""\nXKBOPTIONS=""\nBACKSPACE="guess"\n')
    scripts = root / "etc/initramfs-tools/scripts"
    guest = {scripts / "init-premount/e2e-luks-watch": "e2e-luks-watch", scripts / "local-bottom/e2e-luks-watch": "e2e-luks-watch"}
    if case == "luks-plymouth":
        guest[root / "etc/initramfs-tools/hooks/e2e-plymouth"] = "e2e-plymouth-hook"
    for path, name in guest.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text((HERE / "guest" / name).read_text())
        path.chmod(0o755)
    (root / "usr/local/bin/e2e-luks").write_text(
        "#!/bin/sh\nout() { echo \"$*\" > /dev/ttyS0; }\nout \"@@LUKS_ROOT $(findmnt -n -o SOURCE /)\"\n"
        "out \"@@LUKS_STATUS $(cryptsetup status cryptroot | tr -s ' ' | tr '\\n' '|')\"\n"
        # systemd's password agent protocol in the real root: a question of systemd-ask-password,
        # answered by the daemon (one agent among systemd's own) from the keyboard.
        "out \"@@AGENT_ASK\"\n"
        "answer=$(systemd-ask-password --timeout=90 --id=e2e:data 'Passphrase for the data disk:')\n"
        "out \"@@AGENT_ANSWER $answer\"\n")
    (root / "usr/local/bin/e2e-luks").chmod(0o755)
    (root / "etc/systemd/system/e2e-luks.service").write_text(
        "[Unit]\nDescription=boot test: what the root is on\nBefore=e2e-after.service\n"
        "[Service]\nType=oneshot\nExecStart=/usr/local/bin/e2e-luks\n[Install]\nWantedBy=multi-user.target\n")
    (root / "etc/systemd/system/multi-user.target.wants/e2e-luks.service").symlink_to("/etc/systemd/system/e2e-luks.service")


def initramfs_files(root: Path, version: str) -> list[str]:
    listed = subprocess.run(["chroot", str(root), "lsinitramfs", f"/boot/initrd.img-{version}"],
                            capture_output=True, text=True, check=True)
    return listed.stdout.split()


def encrypt(root: Path, work: Path, case: str) -> Path:
    """The root as an ext4 image, encrypted in place into a LUKS2 volume (its header at the head,
    the data moved behind it: 32 MiB more, half of it the header)."""
    image = work / "luks.img"
    image.unlink(missing_ok=True)
    subprocess.run(["mke2fs", "-q", "-t", "ext4", "-d", str(root), str(image), SIZE], check=True)
    with open(image, "r+b") as f:
        f.truncate(f.seek(0, 2) + (32 << 20))
    subprocess.run(["cryptsetup", "reencrypt", "--batch-mode", "--encrypt", "--type", "luks2", "--reduce-device-size", "32M",
                    "--uuid", UUID, "--pbkdf", "pbkdf2", "--pbkdf-force-iterations", "1000", "--key-file", "-", str(image)],
                   input=CASES[case][1].encode(), check=True)
    return image


def keys_for(char: str, layout: str) -> list[str]:
    """The qcodes of a character on a `layout` ("us" or "de") keyboard: capitals with shift."""
    keys = US if layout == "us" else DE
    if char in keys:
        return keys[char]
    if char.lower() != char:
        return ["shift"] + keys_for(char.lower(), layout)
    return [char]


def type_text(qmp, text: str, layout: str) -> None:
    """Each character as its keys pressed together, held HOLD_MS, one after the other."""
    for char in text:
        qmp.execute("send-key", {"keys": [{"type": "qcode", "data": k} for k in keys_for(char, layout)], "hold-time": HOLD_MS})
        time.sleep(HOLD_MS / 1000 + 0.05)


def prompt_geometry(width: int, height: int) -> tuple[tuple[int, int, int, int], int]:
    """Where PromptOverlay (Sources/SkeletonRender/PromptOverlay.swift) puts its panel centred on
    a `width` x `height` output, and the row through the middle of its entry; kept in step with
    it by hand (the unit tests pin the drawing, this finds it on a screenshot)."""
    scale = min(3, max(0.6, min(width, height) / 720))
    panel_w, panel_h = min(width - 32, 560 * scale), 168 * scale
    x, y = (width - panel_w) / 2, (height - panel_h) / 2
    entry_y = y + 20 * scale + 52 * scale + 8 * scale
    return (round(x), round(y), round(panel_w), round(panel_h)), round(entry_y + 20 * scale)


def message_ink(image: png.Image) -> int:
    """Dark pixels in the prompt's message box (the message is drawn there)."""
    (x, y, w, h), row = prompt_geometry(image.width, image.height)
    scale = min(3, max(0.6, min(image.width, image.height) / 720))
    top, bottom = round(y + 20 * scale), round(y + 72 * scale)
    return sum(sum(image.pixel(px, py)[:3]) < 300 for py in range(top, bottom) for px in range(x + 8, x + w - 8))


def bullets(image: png.Image) -> int | None:
    """The bullets in the prompt's entry on a screenshot (dark runs at least 5 pixels wide along
    the entry's middle row; the caret is narrower); None when no prompt panel is there."""
    (x, y, w, h), row = prompt_geometry(image.width, image.height)
    panel = image.pixel(x + w // 2, y + h - 4)[:3]
    if panel != (0xFA, 0xFA, 0xFA):
        return None
    runs, length = 0, 0
    for px in range(x, x + w):
        dark = sum(image.pixel(px, row)[:3]) < 300
        if dark:
            length += 1
        elif length:
            runs += length >= 5
            length = 0
    return runs


def reactor(case: str, work: Path):
    """What the host does on the guest's markers: at each askpass, screenshots until the prompt
    shows with no bullet, three characters, screenshots until three bullets show, the rest and
    Enter; the wrong passphrase at the first."""
    layout, right, wrong = CASES[case]

    def shoot(qmp, result: dict, name: str) -> png.Image:
        path = work / f"{name}.png"
        qmp.execute("screendump", {"filename": str(path), "format": "png"})
        result["shots"][name] = path
        return png.read(path)

    def until(qmp, result: dict, name: str, count: int, seconds: float = 20) -> None:
        """Screenshots until the prompt shows its message and `count` bullets (the last one
        kept as `name`)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            image = shoot(qmp, result, name)
            if bullets(image) == count and message_ink(image) > 100:
                return
            time.sleep(0.2)

    def react(qmp, line: str, result: dict) -> None:
        if line.startswith("@@AGENT_ASK"):
            until(qmp, result, "agent", 0)
            type_text(qmp, AGENT_ANSWER + "\n", layout)
            return
        if not line.startswith("@@ASKPASS "):
            return
        n = int(line.split()[1])
        text = wrong if n == 1 else right
        until(qmp, result, f"prompt-{n}", 0)
        type_text(qmp, text[:3], layout)
        until(qmp, result, f"prompt-{n}-typed-3", 3)
        type_text(qmp, text[3:] + "\n", layout)
    return react


def check_initramfs(c, case: str, files: list[str]) -> None:
    wanted = ["usr/sbin/cryptsetup", "usr/lib/cryptsetup/askpass", "cryptroot/crypttab", "*/dm-crypt.ko"]
    if CASES[case][0] == "de":
        # setupcon's micro-version with the keymap it compiled in the chroot (etc/console-setup/tmpkbd.*).
        wanted += ["usr/bin/setupcon", "usr/bin/loadkeys", "etc/console-setup/tmpkbd.*"]
    if case == "luks-plymouth":
        wanted += ["usr/bin/plymouth"]
    missing = [w for w in wanted if not any(Path(f).match(w) for f in files)]
    c.check(f"{case}: the initramfs has {', '.join(wanted)}", not missing, f"missing {missing}")


def check(c, case: str, result: dict, expected: png.Image, work: Path, marker) -> None:
    """The wrong passphrase refused and asked again, the right one unlocking the LUKS2 root,
    multi-user.target reached (e2e-after's markers) and the machine powered off; prints when the
    prompt came and when multi-user.target was reached, in seconds from QEMU's start."""
    at = {line.split()[0]: f"{t:.0f} s" for t, line in reversed(result["markers"])}
    asked = [line for _, line in result["markers"] if line.startswith("@@ASKPASS ")]
    print(f"  figure: {case}: askpass waiting at {at.get('@@ASKPASS', 'never')}, the root unlocked at "
          f"{at.get('@@UNLOCKED', 'never')}, multi-user.target at {at.get('@@HIDDEN', 'never')}, {len(asked)} prompts")
    shown = [line for _, line in result["markers"]
             if line.split()[0] in ("@@ASKPASS", "@@CONSOLE_TEXT", "@@UNLOCKED", "@@DAEMON_PROMPTS", "@@PLYMOUTH", "@@INPUT")]
    for line in shown[:12]:
        print(f"  {case}: {line.split('Booting from ROM... ')[-1][:600]}")
    if len(shown) > 12:
        print(f"  {case}: ... {len(shown) - 12} more in {work}/serial.txt")
    c.check(f"{case}: asked twice (the wrong passphrase, then the right one)", len(asked) == 2, f"{asked}")
    # A wrong passphrase taken would have unlocked the root at the first prompt.
    agent = marker(result, "AGENT_ANSWER")
    c.check(f"{case}: systemd-ask-password in the real root answered through the daemon, typed on the keyboard",
            agent == AGENT_ANSWER, f"{agent!r}")
    if "agent" in result["shots"]:
        shot = png.read(result["shots"]["agent"])
        c.check(f"{case}: the agent's question over the skeleton, its message drawn, no bullet yet",
                bullets(shot) == 0 and message_ink(shot) > 100, f"{bullets(shot)} bullets, {message_ink(shot)} dark pixels")
    c.check(f"{case}: the wrong passphrase was refused (asked again, unlocked after the second)",
            len(asked) == 2 and marker(result, "UNLOCKED") is not None)
    log = (marker(result, "DAEMON_PROMPTS") or "").split("|")
    for figure in ("on screen", "answer sent"):
        said = [re.search(r"([0-9.]+) ms", line).group(1) for line in log if f"prompt: {figure}" in line]
        print(f"  figure: {case}: {'asked to the prompt on screen' if figure == 'on screen' else 'Enter to the answer sent'}: "
              f"{', '.join(said) or 'not said'} ms")
    c.check(f"{case}: the daemon answered askpass's requests from the keyboard",
            sum("answered Plymouth's password request" in line for line in log) == 2, "|".join(log)[-600:])
    _, right, wrong = CASES[case]
    c.check(f"{case}: nothing typed is in the daemon's log", not any(w in "|".join(log) for w in (right, wrong)))
    unlocked = marker(result, "UNLOCKED") or ""
    c.check(f"{case}: the initramfs unlocked and mounted the root", "cryptroot" in unlocked.split(), f"{unlocked} (log {work}/serial.txt)")
    status = marker(result, "LUKS_STATUS") or ""
    c.check(f"{case}: the real root is /dev/mapper/cryptroot on LUKS2", marker(result, "LUKS_ROOT") == "/dev/mapper/cryptroot"
            and "type: LUKS2" in status, f"{marker(result, 'LUKS_ROOT')} {status}")
    c.check(f"{case}: multi-user.target reached and the machine powered off", marker(result, "HIDDEN") is not None
            and not result["timed_out"] and "poweroff" in result["shots"], f"timed out {result['timed_out']}")
    if "initramfs" in result["shots"]:
        d = png.compare(png.read(result["shots"]["initramfs"]), expected)
        c.check(f"{case}: the skeleton before the prompt (initramfs)", d.ok, str(d))
    check_prompt_frames(c, result, expected, case)


def dim(v: int) -> int:
    """A channel as PromptOverlay dims it (PixelMath.scale by 110)."""
    t = v * 110 + 0x80
    return (t + (t >> 8)) >> 8


def check_prompt_frames(c, result: dict, expected: png.Image, case: str) -> None:
    """The screenshots at the prompts: prompt-1 (askpass waiting), prompt-1-typed-3 (three
    characters typed), prompt-2 (asked again after the wrong one), prompt-2-typed-3: the prompt
    over the dimmed skeleton (outside the panel, each pixel the render's dimmed as
    PromptOverlay dims it) with 0, 3, 0 and 3 bullets."""
    (x, y, w, h), _ = prompt_geometry(expected.width, expected.height)
    for name, count in (("prompt-1", 0), ("prompt-1-typed-3", 3), ("prompt-2", 0), ("prompt-2-typed-3", 3)):
        if name not in result["shots"]:
            c.check(f"{case}: {name} screenshot taken", False)
            continue
        image = png.read(result["shots"][name])
        c.check(f"{case}: {name}: the prompt with {count} bullets", bullets(image) == count, f"{bullets(image)} bullets")
        c.check(f"{case}: {name}: its message drawn", message_ink(image) > 100, f"{message_ink(image)} dark pixels")
        outside = [(2, 2), (expected.width - 3, expected.height - 3), (x - 5, y + h // 2)]
        dimmed = all(image.pixel(px, py)[:3] == tuple(dim(v) for v in expected.pixel(px, py)[:3]) for px, py in outside)
        c.check(f"{case}: {name}: the skeleton dimmed around it", dimmed,
                f"{[image.pixel(px, py) for px, py in outside]} vs render {[expected.pixel(px, py) for px, py in outside]}")
    if "realroot" in result["shots"]:
        c.check(f"{case}: once unlocked, no prompt on screen (the real root)", bullets(png.read(result["shots"]["realroot"])) is None)

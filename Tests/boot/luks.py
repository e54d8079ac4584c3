"""The `luks` cases of the boot test (Tests/boot/test_debian_boot.py): the root file system on a
LUKS2 volume that the initramfs unlocks (Debian's cryptsetup-initramfs, `cryptroot` in crypttab
with the `initramfs` option, root=/dev/mapper/cryptroot), the passphrase typed on the keyboard
over QMP (`send-key`), a wrong one first: it must be refused and asked again, the right one must
unlock the root and the boot reach multi-user.target. `luks-de`: the German keymap
(XKBLAYOUT=de, loaded in the initramfs by console-setup's hook) and a passphrase with ä, @ and
ß. `luks-plymouth`: Debian's plymouth client in the initramfs as /bin/plymouth, as plymouth's
own hook puts it there, so that askpass asks the daemon over Plymouth's socket. It fails today:
`plymouth --ping` is answered, ask-for-password gets "no answer" and the client exits 1, and
askpass, which tries no other way once Plymouth answers the ping, hands cryptsetup an empty
passphrase ("Nothing to read on input."): the three tries fail at once, again at each of
initramfs-tools' local-block rounds, then "Gave up waiting for root file system device" and the
panic (see check_prompt_frames for what the daemon's prompt will add).

The volume is made on the host without device-mapper (none here): the root's ext4 image is
encrypted in place by `cryptsetup reencrypt --encrypt` (offline, with the userspace crypto),
a real LUKS2 header at its head; PBKDF2 at its lowest count, so that each try costs little
under TCG. /dev/console is the first VT (console=tty0 last), where askpass reads the keys; a
guest script (guest/e2e-luks-watch) says on the serial console when askpass waits, and the
host takes its screenshots and types."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import png

HERE = Path(__file__).resolve().parent
# What the cases need beyond the base root: cryptsetup in the root and its initramfs hook, the
# console keymap tools (the hook's KEYMAP=y makes the initramfs load the root's keymap).
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
        "out \"@@LUKS_STATUS $(cryptsetup status cryptroot | tr -s ' ' | tr '\\n' '|')\"\n")
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


def reactor(case: str, work: Path):
    """What the host does on the guest's markers: at each askpass, a screenshot, three
    characters, a screenshot, the rest and Enter; the wrong passphrase at the first."""
    layout, right, wrong = CASES[case]

    def shoot(qmp, result: dict, name: str) -> None:
        path = work / f"{name}.png"
        qmp.execute("screendump", {"filename": str(path), "format": "png"})
        result["shots"][name] = path

    def react(qmp, line: str, result: dict) -> None:
        if not line.startswith("@@ASKPASS "):
            return
        n = int(line.split()[1])
        text = wrong if n == 1 else right
        shoot(qmp, result, f"prompt-{n}")
        type_text(qmp, text[:3], layout)
        time.sleep(0.5)
        shoot(qmp, result, f"prompt-{n}-typed-3")
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
             if line.split()[0] in ("@@ASKPASS", "@@CONSOLE_TEXT", "@@UNLOCKED", "@@DAEMON_PROMPTS", "@@PLYMOUTH")]
    for line in shown[:12]:
        print(f"  {case}: {line.split('Booting from ROM... ')[-1][:600]}")
    if len(shown) > 12:
        print(f"  {case}: ... {len(shown) - 12} more in {work}/serial.txt")
    c.check(f"{case}: asked twice (the wrong passphrase, then the right one)", len(asked) == 2, f"{asked}")
    # cryptroot says so on the console, or as a Plymouth message when /bin/plymouth is answered.
    said = [line for _, line in result["markers"] if line.startswith(("@@CONSOLE_TEXT 2 ", "@@PLYMOUTH 0"))]
    c.check(f"{case}: the wrong passphrase was refused", any("bad password" in line for line in said), f"{said[:4]}")
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


def check_prompt_frames(c, result: dict, expected: png.Image, case: str) -> None:
    """The screenshots at the prompts: prompt-1 (askpass waiting), prompt-1-typed-3 (three
    characters typed), prompt-2 (asked again after the wrong one), prompt-2-typed-3.

    Today (no prompt drawn, askpass on the console): each is the skeleton, the console's prompt
    and its error hidden behind it. With the daemon's prompt (TODO): each is the skeleton with
    the prompt over it, its text the one askpass gave ("Please unlock disk cryptroot"), with 0, 3,
    0 and 3 bullets in turn; prompt-2 saying that the passphrase was wrong; the skeleton outside
    the prompt's box equal to the render; and, once unlocked, the prompt gone (the `realroot`
    shot equal to the render)."""
    for name in ("prompt-1", "prompt-1-typed-3", "prompt-2", "prompt-2-typed-3"):
        if name not in result["shots"]:
            c.check(f"{case}: {name} screenshot taken", False)
            continue
        d = png.compare(png.read(result["shots"][name]), expected)
        c.check(f"{case}: {name}: the skeleton, the console's prompt behind it (no prompt drawn yet)", d.ok, str(d))

#!/usr/bin/env python3
"""Debian's own `plymouth` client (package plymouth 22.02, unchanged) driving skeletond.

    python3 Tests/plymouth/test_plymouth_client.py [--skeletond PATH] [--skeletonctl PATH]

The client is not installed: `apt-get download plymouth libplymouth5` into build/plymouth-client/
and `dpkg-deb -x`, then run with LD_LIBRARY_PATH. Plymouth's socket is the abstract name
`/org/freedesktop/plymouthd`, one per network namespace, so the test runs in a network namespace
of its own (`unshare -n`) where no plymouthd can be. Checked with the client's exit codes and
`skeletonctl status --json`: ping; update --status; display-message and hide-message;
system-update --progress; change-mode; ask-for-password and ask-question answered at once
(no prompt to wait on); quit --retain-splash and quit; show-splash and hide-splash;
deactivate and reactivate; a client that is not root refused.

Not run as root, it prints `SKIPPED: <reason>` and exits 77 (the skip status that
scripts/test-all.sh counts as a skipped stage, not a pass).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SKIPPED = 77  # exit status of a skipped test (as automake's); scripts/test-all.sh lists it with its reason
CLIENT_DIR = REPO / "build" / "plymouth-client"
PACKAGES = ("plymouth", "libplymouth5")


def fetch_client() -> tuple[Path, Path]:
    """The `plymouth` executable and its library directory, downloaded once."""
    root = CLIENT_DIR / "root"
    executable = root / "usr" / "bin" / "plymouth"
    if not executable.exists():
        debs = CLIENT_DIR / "debs"
        debs.mkdir(parents=True, exist_ok=True)
        download = ["apt-get", "download", *PACKAGES]
        if subprocess.run(download, cwd=debs, capture_output=True).returncode != 0:
            subprocess.run(["apt-get", "update", "-qq"], check=True)
            subprocess.run(download, cwd=debs, check=True, capture_output=True)
        for deb in sorted(debs.glob("*.deb")):
            subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    libraries = next(root.rglob("libply-boot-client.so.5")).parent
    return executable, libraries


class Checker:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def check(self, name: str, ok: bool, detail: str = "") -> None:
        print(f"  {'PASS' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"))
        if ok:
            self.passed += 1
        else:
            self.failed += 1


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--skeletond", default=str(REPO / ".build" / "debug" / "skeletond"))
    parser.add_argument("--skeletonctl", default=str(REPO / ".build" / "debug" / "skeletonctl"))
    args = parser.parse_args()
    if os.environ.get("SKELETOND_PLYMOUTH_NETNS") != "1":
        if os.geteuid() != 0:
            print("SKIPPED: needs root: Plymouth's clients are answered for root only, and the test runs in a network namespace of its own")
            return SKIPPED
        executable, libraries = fetch_client()
        env = dict(os.environ, SKELETOND_PLYMOUTH_NETNS="1")
        return subprocess.run(["unshare", "-n", "--", sys.executable, __file__, *sys.argv[1:]], env=env).returncode
    executable, libraries = fetch_client()
    return run(executable, libraries, Path(args.skeletond), Path(args.skeletonctl))


def run(executable: Path, libraries: Path, skeletond: Path, skeletonctl: Path) -> int:
    c = Checker()
    work = Path(tempfile.mkdtemp(prefix="skeletond-plymouth-"))
    socket = work / "control.sock"
    (work / "input").mkdir()
    settings = {"socket": {"path": str(socket)}, "plymouth": {"listen": True}, "display": {"backend": "memory"},
                "frameCache": None, "prompts": {"agent": str(work / "ask-password"), "inputDevices": str(work / "input")}}
    (work / "settings.json").write_text(json.dumps(settings))
    log = open(work / "daemon.log", "w")
    daemon = subprocess.Popen([str(skeletond), "run", "--config", str(work / "settings.json"), "--layouts",
                               str(REPO / "config" / "layouts"), "--layout", "default", "--log-level", "debug"],
                              stdout=log, stderr=subprocess.STDOUT)
    client_env = dict(os.environ, LD_LIBRARY_PATH=str(libraries))

    def plymouth(*words: str, user: int | None = None, timeout: float = 10) -> subprocess.CompletedProcess:
        command = [str(executable), *words]
        if user is not None:
            command = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *command]
        return subprocess.run(command, env=client_env, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)

    def status() -> dict:
        r = subprocess.run([str(skeletonctl), "--socket", str(socket), "status", "--json"], capture_output=True, text=True)
        return json.loads(r.stdout) if r.returncode == 0 else {}

    def daemon_log() -> str:
        log.flush()
        return (work / "daemon.log").read_text()

    try:
        deadline = time.monotonic() + 20
        while "answering Plymouth's clients" not in daemon_log() and time.monotonic() < deadline and daemon.poll() is None:
            time.sleep(0.05)
        c.check("skeletond answers on Plymouth's socket", "answering Plymouth's clients on @/org/freedesktop/plymouthd" in daemon_log(),
                daemon_log()[-500:])
        print(f"== Debian's plymouth client ({executable.relative_to(REPO)})")
        c.check("plymouth --ping", plymouth("--ping").returncode == 0)
        c.check("plymouth update --status", plymouth("update", "--status=fsck /dev/sda2: 40%").returncode == 0)
        c.check("plymouth display-message", plymouth("display-message", "--text=Updating firmware, do not switch off").returncode == 0)
        c.check("plymouth display-message (a second)", plymouth("display-message", "--text=second").returncode == 0)
        c.check("plymouth hide-message", plymouth("hide-message", "--text=second").returncode == 0)
        c.check("plymouth system-update --progress", plymouth("system-update", "--progress=42").returncode == 0)
        c.check("plymouth change-mode --updates", plymouth("change-mode", "--updates").returncode == 0)
        notes = status().get("plymouth", {})
        c.check("status keeps the status line", notes.get("status") == "fsck /dev/sda2: 40%", json.dumps(notes))
        c.check("status keeps the messages shown", notes.get("messages") == ["Updating firmware, do not switch off"], json.dumps(notes))
        c.check("status keeps the progress", notes.get("progress") == 42, json.dumps(notes))
        c.check("status keeps the mode", notes.get("mode") == "updates", json.dumps(notes))

        # No keyboard in this test (its input directory is empty): each question waits 3 s for
        # one, then gets "no answer" and the client gives up.
        started = time.monotonic()
        password = plymouth("ask-for-password", "--prompt=Passphrase for /dev/sda2:")
        took = time.monotonic() - started
        c.check("ask-for-password waits 3 s for a keyboard, then no answer: the client gives up",
                password.returncode != 0 and 2.5 < took < 8, f"exit {password.returncode} after {took:.1f} s")
        c.check("the log says why the password got no answer",
                "prompt: no keyboard within 3 s; the questions are left to the console" in daemon_log(), daemon_log()[-400:])
        c.check("the password request was shown (with its message)",
                "prompt: Plymouth's password request (\"Passphrase for /dev/sda2:\")" in daemon_log(), daemon_log()[-400:])
        question = plymouth("ask-question", "--prompt=Continue?")
        c.check("ask-question likewise", question.returncode != 0, f"exit {question.returncode}")
        c.check("plymouth show-splash after the console was shown for them", plymouth("show-splash").returncode == 0)

        c.check("plymouth deactivate", plymouth("deactivate").returncode == 0)
        c.check("status: deactivated", status().get("deactivated") is True)
        c.check("plymouth reactivate", plymouth("reactivate").returncode == 0)
        c.check("status: reactivated", status().get("deactivated") is False)

        c.check("plymouth quit --retain-splash", plymouth("quit", "--retain-splash").returncode == 0)
        s = status()
        c.check("quit --retain-splash hides and keeps the frame", s.get("state") == "idle" and s.get("retained") is True, json.dumps(s)[:200])
        c.check("plymouth show-splash", plymouth("show-splash").returncode == 0)
        c.check("show-splash shows the skeleton again", status().get("state") == "showing")
        c.check("plymouth hide-splash", plymouth("hide-splash").returncode == 0)
        time.sleep(0.5)
        c.check("hide-splash hides it", status().get("state") == "idle")
        c.check("plymouth show-splash, then quit", plymouth("show-splash").returncode == 0 and plymouth("quit").returncode == 0)
        s = status()
        c.check("quit hides without keeping the frame", s.get("state") == "idle" and s.get("retained") is False, json.dumps(s)[:200])
        c.check("plymouth --ping while nothing shows: not running (askpass then asks on the console)", plymouth("--ping").returncode != 0)
        c.check("plymouth show-splash, then --ping answers again",
                plymouth("show-splash").returncode == 0 and plymouth("--ping").returncode == 0)

        # skeletond called `plymouth` (the initramfs hook's link where Plymouth is not installed):
        # the same requests from our own client.
        ours = work / "plymouth"
        ours.symlink_to(skeletond.resolve())

        def own(*words: str) -> subprocess.CompletedProcess:
            return subprocess.run([str(ours), *words], capture_output=True, text=True, timeout=15, stdin=subprocess.DEVNULL)

        c.check("skeletond as plymouth: --ping", own("--ping").returncode == 0)
        c.check("skeletond as plymouth: display-message", own("display-message", "--text=From skeletond's client").returncode == 0)
        c.check("skeletond as plymouth: the message is kept",
                "From skeletond's client" in status().get("plymouth", {}).get("messages", []), json.dumps(status().get("plymouth")))
        asked = own("ask-for-password", "--prompt", "Please unlock disk cryptroot:")
        c.check("skeletond as plymouth: ask-for-password with no keyboard: exit 1, nothing on stdout",
                asked.returncode == 1 and asked.stdout == "", f"exit {asked.returncode}, {asked.stdout!r}")
        unknown = own("frobnicate")
        c.check("skeletond as plymouth: an unknown command is exit 1 and says so",
                unknown.returncode == 1 and "unknown command \"frobnicate\"" in unknown.stderr, unknown.stderr)

        nobody = plymouth("--ping", user=65534)
        c.check("a client that is not root is refused", nobody.returncode != 0, f"exit {nobody.returncode}")
        c.check("the refusal is logged", "refused a request from uid 65534" in daemon_log(), daemon_log()[-300:])
        c.check("plymouth --ping after all of that", plymouth("--ping").returncode == 0)
    finally:
        daemon.terminate()
        try:
            code = daemon.wait(timeout=10)
        except subprocess.TimeoutExpired:
            daemon.kill()
            code = -9
        c.check("skeletond exited 0 on SIGTERM", code == 0, f"exit {code}")
        errors = [line for line in daemon_log().splitlines() if line.startswith("<3>")]
        c.check("no error in the daemon's log", not errors, "; ".join(errors[:3]))
        log.close()
        shutil.rmtree(work, ignore_errors=True)
    print(f"{c.passed} passed, {c.failed} failed")
    return 0 if c.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

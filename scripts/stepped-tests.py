#!/usr/bin/env python3
"""Sorts the daemon's tests (Tests/SkeletonDaemonTests) by what they run: a whole `Daemon` in
the test's process (a `SteppedDaemon`, a helper or fixture class that makes one, or a `Daemon`
made by hand), a daemon process (`DaemonProcess`), or a part with no daemon (the core value
`Screen` and `ScreenOnOutputs`, a protocol's room, the display host `HostOnCard`).

    python3 scripts/stepped-tests.py [REVISION] [-v]

REVISION: a git revision to count instead of the work tree; -v lists the tests that step a daemon."""
import collections
import glob
import os
import re
import subprocess
import sys

FOLDER = "Tests/SkeletonDaemonTests"


def sources(revision):
    if revision is None:
        return {path: open(path).read() for path in sorted(glob.glob(FOLDER + "/*.swift"))}
    names = subprocess.run(["git", "ls-tree", "--name-only", revision, FOLDER + "/"],
                           capture_output=True, text=True, check=True).stdout.split()
    return {name: subprocess.run(["git", "show", f"{revision}:{name}"], capture_output=True, text=True, check=True).stdout
            for name in names if name.endswith(".swift")}


def test_bodies(text):
    """Each @Test's text, up to the next member of its suite."""
    for chunk in re.split(r"\n[ \t]*@Test\b", text)[1:]:
        name = re.search(r"func (\w+)", chunk)
        if name:
            end = re.search(r"\n(    (func|static|final class|class|struct|let|var|init|deinit|// MARK|///)|\}\n)", chunk[name.end():])
            if end:
                chunk = chunk[:name.end() + end.start()]
        yield (name.group(1) if name else "?"), chunk


def calls_of(kind, everything):
    """A pattern for making `kind` in a test: directly, or through a helper function or fixture
    class that makes one (bare or on an object, `plymouth.daemon()`)."""
    makers = set(re.findall(r"func (\w+)\([^)]*\)[^{\n]*->[^{\n]*\b" + kind + r"\b", everything))
    makers |= {m.group(1) for m in re.finditer(
        r"class (\w+)[^{]*\{(?:(?!\nclass |\nfinal class ).){0,600}?let \w+: " + kind + r"\b", everything, re.S)}
    # The screen's own methods (`screen.hideAfterConsole`) share names with helpers.
    return re.compile(r"(?<![.\w])" + kind + r"\(|(?<![.\w])(?:(?!screen\.)\w+\.)?(" + "|".join(sorted(makers) or ["-"]) + r")\(")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    os.chdir(subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=here, capture_output=True, text=True, check=True).stdout.strip())
    arguments = [a for a in sys.argv[1:] if a != "-v"]
    texts = sources(arguments[0] if arguments else None)
    everything = "\n".join(texts.values())
    steps = [calls_of("SteppedDaemon", everything), calls_of("Daemon", everything)]
    runs = calls_of("DaemonProcess", everything)
    stepped, processes, total, listed = collections.Counter(), collections.Counter(), collections.Counter(), []
    for path, text in texts.items():
        for name, body in test_bodies(text):
            total[path] += 1
            if any(p.search(body) for p in steps):
                stepped[path] += 1
                listed.append(f"{path.split('/')[-1]}: {name}")
            elif runs.search(body):
                processes[path] += 1
    for path in sorted(total):
        if stepped[path]:
            print(f"{stepped[path]:3d} of {total[path]:3d}  {path.split('/')[-1]}")
    count, runs_count, all_count = sum(stepped.values()), sum(processes.values()), sum(total.values())
    print(f"{count} of {all_count} tests step a daemon; {runs_count} run a daemon process; "
          f"{all_count - count - runs_count} test a part with no daemon")
    if "-v" in sys.argv:
        print("\n".join(listed))


main()

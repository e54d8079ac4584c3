#!/usr/bin/env python3
"""Counts the daemon's tests that step a whole `Daemon` (a `SteppedDaemon`, or a helper or
fixture class that makes one) against those that test a part with no daemon: the core value
(`Screen`, `ScreenOnOutputs`), a protocol's room, the display host (`HostOnCard`).

    python3 scripts/stepped-tests.py [REVISION] [-v]

REVISION: a git revision to count instead of the work tree; -v lists the stepped tests."""
import collections
import glob
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


def main():
    arguments = [a for a in sys.argv[1:] if a != "-v"]
    texts = sources(arguments[0] if arguments else None)
    everything = "\n".join(texts.values())
    makers = set(re.findall(r"func (\w+)\([^)]*\)[^{\n]*->[^{\n]*SteppedDaemon", everything))
    makers |= {m.group(1) for m in re.finditer(
        r"class (\w+)[^{]*\{(?:(?!\nclass |\nfinal class ).){0,600}?let \w+: SteppedDaemon", everything, re.S)}
    # A call of a maker, bare or on an object (`plymouth.daemon()`), but not the screen's own methods.
    steps = re.compile(r"SteppedDaemon\(|(?<![.\w])(?:(?!screen\.)\w+\.)?(" + "|".join(sorted(makers) or ["-"]) + r")\(")
    stepped, total, listed = collections.Counter(), collections.Counter(), []
    for path, text in texts.items():
        for name, body in test_bodies(text):
            total[path] += 1
            if steps.search(body):
                stepped[path] += 1
                listed.append(f"{path.split('/')[-1]}: {name}")
    for path in sorted(total):
        if stepped[path]:
            print(f"{stepped[path]:3d} of {total[path]:3d}  {path.split('/')[-1]}")
    print(f"{sum(stepped.values())} of {sum(total.values())} tests step a daemon")
    if "-v" in sys.argv:
        print("\n".join(listed))


main()

#!/usr/bin/env python3
"""The module table of docs/design.md, made from Package.swift, and the imports held to it.

    scripts/module-table.py            rewrite the table in docs/design.md
    scripts/module-table.py --check    exit 1 (with the difference) when the page is stale, or
                                       when a source file imports what its module's row does not name

Each target of Package.swift (test targets and the fuzzers aside) is one row: its name, what
it depends on (as Package.swift says, in that order), and what it holds. The last column is
written by people: it is kept from the page by module name, and a module without one fails the
check, as does a row for a module Package.swift no longer has.

A module may import only what its row names (a module reached through another is not named, so
it may not be imported), besides the toolchain's own modules; every `import` line of every Swift
file under Sources/<module> is read, `@testable`, access levels and `import struct M.T` alike.
"""
import difflib
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PAGE = REPO / "docs" / "design.md"
BEGIN = "<!-- module table: made by scripts/module-table.py from Package.swift; edit the last column only -->"
END = "<!-- end of module table -->"


def calls(text: str, kinds: tuple[str, ...]):
    """Each `.kind(...)` call of Package.swift's targets list, with its balanced arguments."""
    for match in re.finditer(r"\.(%s)\(" % "|".join(kinds), text):
        depth, i = 1, match.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        yield match.group(1), text[match.end():i - 1]


def targets() -> list[tuple[str, str, list[str]]]:
    text = (REPO / "Package.swift").read_text()
    text = text.split("if Context.environment[\"SKELETOND_FUZZ\"]")[0]
    rows = []
    for kind, args in calls(text, ("target", "executableTarget", "systemLibrary")):
        name = re.search(r'name:\s*"([^"]+)"', args).group(1)
        deps = []
        args = re.sub(r'package:\s*"[^"]*"', "", args)
        block = re.search(r"dependencies:\s*\[(.*?)\]\s*(,|$)", args, re.S)
        if block:
            for dep in re.finditer(r'\.product\(name:\s*"([^"]+)"|"([^"]+)"', block.group(1)):
                if dep.group(1):
                    deps.append(dep.group(1))
                elif dep.group(2):
                    deps.append(dep.group(2))
        if kind == "systemLibrary":
            library = re.search(r'pkgConfig:\s*"([^"]+)"', args).group(1)
            deps = [f"system library {library} (pkg-config)"]
        rows.append((kind, name, deps))
    return rows


TOOLCHAIN = {"Glibc", "Musl", "Darwin", "Foundation", "FoundationEssentials", "Dispatch", "Synchronization"}
IMPORT = re.compile(r"^[ \t]*(?:@\w+[ \t]+)*(?:(?:public|package|internal|private|fileprivate)[ \t]+)?import[ \t]+"
                    r"(?:(?:struct|class|enum|protocol|func|var|let|typealias)[ \t]+)?(\w+)", re.M)


def appended_dependencies(text: str) -> dict[str, list[str]]:
    """Dependencies added after the targets list: `package.targets.first { $0.name == "T" }?.dependencies.append("M")`."""
    added: dict[str, list[str]] = {}
    pattern = r'\$0\.name == "([^"]+)"\s*\}\?\.dependencies\.append\("([^"]+)"\)'
    for target, module in re.findall(pattern, text):
        added.setdefault(target, []).append(module)
    return added


def import_problems(rows) -> list[str]:
    """Each import of a module its importer's row does not name, with the files that import it."""
    text = (REPO / "Package.swift").read_text().split("if Context.environment[\"SKELETOND_FUZZ\"]")[0]
    added = appended_dependencies(text)
    problems = []
    for _, name, deps in rows:
        allowed = set(deps) | set(added.get(name, [])) | TOOLCHAIN | {name}
        found: dict[str, list[str]] = {}
        for path in sorted((REPO / "Sources" / name).rglob("*.swift")):
            for module in IMPORT.findall(path.read_text()):
                if module not in allowed:
                    found.setdefault(module, []).append(str(path.relative_to(REPO)))
        for module, files in sorted(found.items()):
            shown = ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
            problems.append(f"{name} imports {module}, which its row does not name ({shown})")
    return problems


def held_texts(page: str) -> dict[str, str]:
    if BEGIN not in page:
        return {}
    table = page.split(BEGIN, 1)[1].split(END, 1)[0]
    held = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0].startswith("`"):
            held[cells[0].strip("`")] = "|".join(cells[2:]).strip()
    return held


def table(held: dict[str, str]) -> tuple[str, list[str]]:
    problems = []
    lines = ["| module | depends on | holds |", "| --- | --- | --- |"]
    names = set()
    for kind, name, deps in targets():
        names.add(name)
        holds = held.get(name, "")
        if not holds:
            problems.append(f"{name}: no text in the \"holds\" column")
        lines.append(f"| `{name}` | {', '.join(deps) if deps else 'nothing'} | {holds} |")
    for name in sorted(set(held) - names):
        problems.append(f"{name}: a row for a module Package.swift does not have")
    return "\n".join(lines), problems


def main() -> int:
    page = PAGE.read_text()
    if BEGIN not in page or END not in page:
        print(f"{PAGE}: no module table markers", file=sys.stderr)
        return 1
    made, problems = table(held_texts(page))
    imports = import_problems(targets())
    before, rest = page.split(BEGIN, 1)
    after = rest.split(END, 1)[1]
    fresh = f"{before}{BEGIN}\n{made}\n{END}{after}"
    if "--check" in sys.argv:
        for p in problems:
            print(f"docs/design.md module table: {p}", file=sys.stderr)
        if fresh != page:
            sys.stderr.writelines(difflib.unified_diff(page.splitlines(True), fresh.splitlines(True), "docs/design.md", "from Package.swift"))
            print("docs/design.md's module table is stale: run scripts/module-table.py", file=sys.stderr)
            return 1
        for p in imports:
            print(f"import: {p}", file=sys.stderr)
        if problems or imports:
            return 1
        print(f"docs/design.md: the module table matches Package.swift ({len(made.splitlines()) - 2} modules), "
              "and every import is one its module's row names")
        return 0
    PAGE.write_text(fresh)
    for p in problems:
        print(f"docs/design.md module table: {p}", file=sys.stderr)
    for p in imports:
        print(f"import: {p}", file=sys.stderr)
    return 1 if problems or imports else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Checks config/skeletond-layout.schema.json against the layouts that ship with skeletond.

- The schema itself is a valid draft 2020-12 schema.
- Every config/layouts/*.json and benchmarks/*.json is valid against it, and its "$schema"
  (when present) points at the schema file.
- Deliberately bad documents are rejected, and a few unusual but legal ones are accepted.
- Documents the schema cannot fault but that resolve beyond skeletond's limits (a grid of
  268 million items) are refused by `skeletond validate` in under a second.

With --decoder PATH (or the SKELETOND environment variable) naming a built `skeletond`, every
document is also run through `skeletond validate`, and the test fails when the Swift decoder
and the schema disagree.

Prints one line per failure and a last line "N passed, M failed"; exits 1 on any failure.
Needs python3 and the `jsonschema` package.
"""

import argparse
import copy
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMA_PATH = os.path.join(ROOT, "config", "skeletond-layout.schema.json")


def base_document():
    """A small valid layout that the cases below change one thing in."""
    return {
        "canvas": {"width": 640, "height": 480},
        "root": {"kind": "view", "frame": [0, 0, "100%", "100%"], "children": [
            {"kind": "text", "frame": [10, 10, 300, 40], "lines": 1},
            {"kind": "image", "frame": [10, 60, 64, 64], "shape": "circle"},
        ]},
    }


def with_change(change):
    doc = base_document()
    change(doc)
    return doc


def child(doc, i=0):
    return doc["root"]["children"][i]


def set_key(path, value):
    """A change that sets doc[path[0]][path[1]]... = value (creating objects on the way)."""
    def change(doc):
        target = doc
        for key in path[:-1]:
            target = target.setdefault(key, {}) if isinstance(key, str) else target[key]
        target[path[-1]] = value
    return change


def add_child(node):
    return lambda doc: doc["root"]["children"].append(node)


LIST_ROW = {"kind": "view", "children": [{"kind": "text", "frame": [0, 0, "fill", 20], "lines": 1}]}

# (name, document) pairs the schema must reject.
BAD = [
    ("unknown top-level key", with_change(set_key(["colour"], "clouds"))),
    ("unknown key in a node", with_change(lambda d: child(d).update({"colour": "clouds"}))),
    ("unknown key in canvas", with_change(set_key(["canvas", "scaling"], "fit"))),
    ("unknown key in animation", with_change(set_key(["presentation", "animation", "speed"], 2))),
    ("bad colour name", with_change(set_key(["canvas", "background"], "cloudz"))),
    ("colour name in the wrong case", with_change(set_key(["canvas", "background"], "Clouds"))),
    ("short hex colour", with_change(set_key(["appearance", "tint"], "#abc"))),
    ("rgb channel over 255", with_change(lambda d: child(d).update({"tint": "rgb(256, 0, 0)"}))),
    ("rgba alpha over 1", with_change(set_key(["appearance", "tint"], "rgba(1, 2, 3, 1.5)"))),
    ("rgba with 3 values", with_change(set_key(["appearance", "tint"], "rgba(1, 2, 3)"))),
    ("frame with 3 items", with_change(lambda d: child(d).update({"frame": [0, 0, 100]}))),
    ("frame with 5 items", with_change(lambda d: child(d).update({"frame": [0, 0, 100, 20, 1]}))),
    ("\"fill\" as x", with_change(lambda d: child(d).update({"frame": ["fill", 0, 100, 20]}))),
    ("\"fill\" as y", with_change(lambda d: child(d).update({"frame": [0, "fill", 100, 20]}))),
    ("negative width", with_change(lambda d: child(d).update({"frame": [0, 0, -1, 20]}))),
    ("negative percent height", with_change(lambda d: child(d).update({"frame": [0, 0, 10, "-5%"]}))),
    ("percent with a space", with_change(lambda d: child(d).update({"frame": [0, 0, " 50%", 20]}))),
    ("lines \"many\"", with_change(lambda d: child(d).update({"lines": "many"}))),
    ("lines 0", with_change(lambda d: child(d).update({"lines": 0}))),
    ("lines 1.5", with_change(lambda d: child(d).update({"lines": 1.5}))),
    ("lines 4097", with_change(lambda d: child(d).update({"lines": 4097}))),
    ("text node with children", with_change(lambda d: child(d).update({"children": []}))),
    ("image node with children", with_change(lambda d: child(d, 1).update({"children": [{"kind": "view"}]}))),
    ("lines on an image", with_change(lambda d: child(d, 1).update({"lines": 2}))),
    ("padding on a view", with_change(lambda d: d["root"].update({"padding": 4}))),
    ("rowHeight on a text", with_change(lambda d: child(d).update({"rowHeight": 20}))),
    ("itemSize on a list", with_change(add_child(
        {"kind": "list", "rowHeight": 20, "row": LIST_ROW, "itemSize": [10, 10]}))),
    ("node without kind", with_change(add_child({"frame": [0, 0, 10, 10]}))),
    ("unknown kind", with_change(add_child({"kind": "button"}))),
    ("unknown shape", with_change(lambda d: child(d, 1).update({"shape": "oval"}))),
    ("empty id", with_change(lambda d: child(d).update({"id": ""}))),
    ("list without row", with_change(add_child({"kind": "list", "rowHeight": 20}))),
    ("list without rowHeight", with_change(add_child({"kind": "list", "row": LIST_ROW}))),
    ("list with rowHeight 0", with_change(add_child({"kind": "list", "rowHeight": 0, "row": LIST_ROW}))),
    ("list with rows and sections", with_change(add_child(
        {"kind": "list", "rowHeight": 20, "row": LIST_ROW, "rows": 2, "sections": [{"rows": 1}]}))),
    ("unknown key in a section", with_change(add_child(
        {"kind": "list", "rowHeight": 20, "row": LIST_ROW, "sections": [{"rowz": 1}]}))),
    ("grid without itemSize", with_change(add_child({"kind": "grid", "items": 3}))),
    ("grid itemSize of 0", with_change(add_child({"kind": "grid", "itemSize": [0, 10]}))),
    ("grid spacing with 3 values", with_change(add_child({"kind": "grid", "itemSize": [10, 10], "spacing": [1, 2, 3]}))),
    ("list rows 4097", with_change(add_child({"kind": "list", "rowHeight": 20, "row": LIST_ROW, "rows": 4097}))),
    ("section rows 4097", with_change(add_child(
        {"kind": "list", "rowHeight": 20, "row": LIST_ROW, "sections": [{"rows": 4097}]}))),
    ("grid items 4097", with_change(add_child({"kind": "grid", "itemSize": [10, 10], "items": 4097}))),
    ("grid items \"all\"", with_change(add_child({"kind": "grid", "itemSize": [10, 10], "items": "all"}))),
    ("gradient list of one colour", with_change(set_key(["appearance", "gradient"], ["clouds"]))),
    ("gradient object without base", with_change(set_key(["appearance", "gradient"], {"secondary": "clouds"}))),
    ("padding with an unknown edge", with_change(lambda d: child(d).update({"padding": {"top": 1, "start": 2}}))),
    ("canvas without height", with_change(lambda d: d["canvas"].pop("height"))),
    ("canvas width 0", with_change(set_key(["canvas", "width"], 0))),
    ("canvas width 1.5", with_change(set_key(["canvas", "width"], 1.5))),
    ("no root", with_change(lambda d: d.pop("root"))),
    ("style \"shimmer\"", with_change(set_key(["presentation", "style"], "shimmer"))),
    ("animated \"yes\"", with_change(set_key(["presentation", "animated"], "yes"))),
    ("animation duration 0", with_change(set_key(["presentation", "animation", "duration"], 0))),
    ("direction \"leftToRight\"", with_change(set_key(["presentation", "animation", "direction"], "leftToRight"))),
    ("transition without kind", with_change(set_key(["presentation", "transition"], {"duration": 0.25}))),
    ("transition kind \"fade\"", with_change(set_key(["presentation", "transition"], {"kind": "fade"}))),
    ("textLineHeight 0", with_change(set_key(["appearance", "textLineHeight"], 0))),
    ("scheme \"night\"", with_change(set_key(["appearance", "scheme"], "night"))),
]

def hairline_text(doc):
    doc["appearance"] = {"textLineHeight": 0.0001, "textLineSpacing": 0}
    child(doc)["lines"] = "auto"


# (name, document) pairs the schema accepts (a schema cannot count what "auto" resolves to) but
# skeletond must refuse for going beyond its resolution limits, within LIMIT_SECONDS each.
LIMITS = [
    ("a grid of 268 million one-pixel items", {
        "canvas": {"width": 16384, "height": 16384},
        "root": {"kind": "view", "children": [{"kind": "grid", "itemSize": [1, 1], "items": "auto"}]}}),
    ("a text node 1e9 high with auto lines", with_change(add_child(
        {"kind": "text", "frame": [0, 0, 100, 1e9], "lines": "auto"}))),
    ("textLineHeight 0.0001 with auto lines", with_change(hairline_text)),
    ("a grid of lists, each within its limit, too many nodes together", {
        "canvas": {"width": 16384, "height": 4096},
        "root": {"kind": "grid", "itemSize": [1, 4096], "items": 4096,
                 "item": {"kind": "list", "rowHeight": 1, "row": {"kind": "view"}}}}),
]
LIMIT_SECONDS = 1.0

# (name, document) pairs the schema must accept: legal forms that are easy to get wrong.
GOOD = [
    ("the base document every bad case changes one thing in", base_document()),
    ("minimal document", {"canvas": {"width": 1, "height": 1}, "root": {"kind": "view"}}),
    ("every colour form", with_change(lambda d: d.update({
        "canvas": {"width": 640, "height": 480, "background": " midnightBlue "},
        "appearance": {"tint": "#ECF0F1", "gradient": ["#ECF0F180", "rgb(0,0,0)", "rgba( 255 , 255 , 255 , .5 )"]}}))),
    ("gradient object", with_change(set_key(["appearance", "gradient"], {"base": "clouds", "secondary": "silver"}))),
    ("gradient object with base only", with_change(set_key(["appearance", "gradient"], {"base": "darkClouds"}))),
    ("negative position and percents", with_change(lambda d: child(d).update({"frame": [-10, "-5%", "50.5%", "fill"]}))),
    ("lastLineFillPercent out of 0..100 (clamped)", with_change(lambda d: child(d).update({"lastLineFillPercent": 150}))),
    ("text keys", with_change(lambda d: child(d).update({
        "lines": "auto", "padding": {"top": 2, "bottom": 2}, "lastLineAlignment": "natural",
        "verticalAlignment": "top"}))),
    ("list with sections", with_change(add_child({
        "kind": "list", "frame": [0, 200, "100%", "fill"], "rowHeight": 20, "row": LIST_ROW,
        "sections": [{"header": {"kind": "view"}, "headerHeight": 30, "rows": 2,
                      "footer": {"kind": "image"}, "footerHeight": 0}, {"rows": "auto"}]}))),
    ("grid with a number spacing and no template", with_change(add_child(
        {"kind": "grid", "itemSize": [10.5, 10], "spacing": 4, "items": 0, "cornerRadius": 3}))),
    ("transition none with a duration", with_change(set_key(["presentation", "transition"],
                                                            {"kind": "none", "duration": 1}))),
    ("whole presentation", with_change(set_key(["presentation"], {
        "style": "gradient", "animated": True, "reducedMotion": True,
        "animation": {"direction": "bottomRightTopLeft", "duration": 600, "timing": "linear", "autoreverse": True,
                      "pause": 0, "space": "screen", "stagger": 60},
        "transition": {"kind": "crossDissolve"}}))),
    ("shape on a text node (accepted, unused)", with_change(lambda d: child(d).update({"shape": "circle"}))),
]


class Results:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, name, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL {name}" + (f": {detail}" if detail else ""))


def first_error(validator, doc):
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    if not errors:
        return None
    e = errors[0]
    where = ".".join(str(p) for p in e.absolute_path) or "(document)"
    return f"{where}: {e.message}"


def decoder_accepts(decoder, doc=None, path=None):
    """Runs `skeletond validate`; returns (accepted, output)."""
    if path is None:
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(doc, f)
            path = f.name
        try:
            return decoder_accepts(decoder, path=path)
        finally:
            os.unlink(path)
    run = subprocess.run([decoder, "validate", path], capture_output=True, text=True)
    return run.returncode == 0, (run.stdout + run.stderr).strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decoder", default=os.environ.get("SKELETOND"),
                        help="a built skeletond to cross-check every document with (default: $SKELETOND)")
    args = parser.parse_args()
    results = Results()

    with open(SCHEMA_PATH) as f:
        schema = json.load(f)
    try:
        Draft202012Validator.check_schema(schema)
        results.check(True, "schema")
    except SchemaError as e:
        results.check(False, "schema is not a valid draft 2020-12 schema", e.message)
        print(f"{results.passed} passed, {results.failed} failed")
        return 1
    validator = Draft202012Validator(schema)

    files = sorted(glob.glob(os.path.join(ROOT, "config", "layouts", "*.json"))
                   + glob.glob(os.path.join(ROOT, "benchmarks", "*.json")))
    results.check(len(files) > 0, "no layout files found")
    for path in files:
        name = os.path.relpath(path, ROOT)
        try:
            with open(path) as f:
                doc = json.load(f)
        except ValueError as e:
            results.check(False, name, f"not valid JSON: {e}")
            continue
        error = first_error(validator, doc)
        results.check(error is None, name, error or "")
        if isinstance(doc, dict) and "$schema" in doc:
            target = os.path.normpath(os.path.join(os.path.dirname(path), str(doc["$schema"])))
            results.check(target == SCHEMA_PATH, f"{name}: $schema",
                          f"\"{doc['$schema']}\" does not point at config/skeletond-layout.schema.json")
        if args.decoder:
            ok, out = decoder_accepts(args.decoder, path=path)
            results.check(ok, f"{name}: skeletond validate", out)

    for name, doc in BAD:
        error = first_error(validator, doc)
        results.check(error is not None, f"bad document accepted: {name}", json.dumps(doc))
        if args.decoder:
            ok, out = decoder_accepts(args.decoder, doc=doc)
            results.check(not ok, f"bad document accepted by skeletond: {name}", json.dumps(doc))

    for name, doc in LIMITS:
        error = first_error(validator, doc)
        results.check(error is None, f"schema rejects a document within its bounds: {name}", error or "")
        if args.decoder:
            started = time.monotonic()
            ok, out = decoder_accepts(args.decoder, doc=doc)
            seconds = time.monotonic() - started
            results.check(not ok and "the limit is" in out, f"skeletond accepted a layout beyond its limits: {name}", out)
            results.check(seconds < LIMIT_SECONDS, f"skeletond took {seconds:.2f} s to refuse: {name}")

    for name, doc in GOOD:
        error = first_error(validator, copy.deepcopy(doc))
        results.check(error is None, f"good document rejected: {name}", error or "")
        if args.decoder:
            ok, out = decoder_accepts(args.decoder, doc=doc)
            results.check(ok, f"good document rejected by skeletond: {name}", out)

    print(f"{results.passed} passed, {results.failed} failed")
    return 1 if results.failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""One figure, one place: every measured figure that README.md or a guide
quotes is defined once, in Documentation/Performance.md, and each quote must
still say what the definition says. No build; a second or so.

In Performance.md, where the figure is measured:
    **<!-- figure: squeezer-vs-pigz = 0.987x -->0.987x** (0.965–1.038)
Anywhere else in README.md, Documentation/*.md or Examples/**/README.md:
    took <!-- figure: squeezer-vs-pigz -->0.987x the time of pigz
The comment does not render. The text right after a definition or a quote
(after any `*` or `_` of emphasis) must begin with the figure's value, so a
re-measured figure whose quotes were not updated fails here, and so does a
quote edited without its definition. Every key is defined exactly once.
Usage: .ci/figures (this script: python3 .ci/figures.py)
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOME = "Documentation/Performance.md"
MARK = re.compile(r"<!-- figure: ([a-z0-9-]+)(?: = (.*?))? -->([*_]*)((?:(?!<!--).)*)")


def marks(path):
    for number, line in enumerate(open(os.path.join(ROOT, path), encoding="utf-8"), start=1):
        for m in MARK.finditer(line):
            yield number, m.group(1), m.group(2), m.group(4)


def main():
    failures, definitions = [], {}
    for number, key, value, after in marks(HOME):
        if value is None:
            failures.append(f"{HOME}:{number}: error: figure '{key}' quoted in its own home; define it (`= VALUE`) once")
        elif key in definitions:
            failures.append(f"{HOME}:{number}: error: figure '{key}' defined twice (also line {definitions[key][0]})")
        else:
            definitions[key] = (number, value)
            if not after.startswith(value):
                failures.append(f"{HOME}:{number}: error: figure '{key}' is defined as {value!r} "
                                f"but the text after it reads {after[:40]!r}")
    pages = ["README.md"] + sorted(glob.glob("Documentation/*.md", root_dir=ROOT)) + \
        sorted(glob.glob("Examples/**/README.md", root_dir=ROOT, recursive=True))
    quotes = 0
    for page in (p for p in pages if p != HOME):
        for number, key, value, after in marks(page):
            quotes += 1
            if value is not None:
                failures.append(f"{page}:{number}: error: figure '{key}' defined outside {HOME}; "
                                f"write <!-- figure: {key} --> and the value")
            elif key not in definitions:
                failures.append(f"{page}:{number}: error: figure '{key}' is not defined in {HOME}")
            elif not after.startswith(definitions[key][1]):
                failures.append(f"{page}:{number}: error: quotes figure '{key}' as {after[:40]!r}, but "
                                f"{HOME}:{definitions[key][0]} says {definitions[key][1]!r}")
    if failures:
        sys.exit("\n".join(failures))
    print(f"figures: {quotes} quotes of {len(definitions)} figures match {HOME}")


if __name__ == "__main__":
    main()

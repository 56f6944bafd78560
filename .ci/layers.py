#!/usr/bin/env python3
"""The layer check (.ci/layers runs this): reads the rooms from the tree.

ARCHITECTURE.md holds a fenced block with the info string `layers`; each line is
`<source root>: <level> <level> ...`, lowest level first, a level being one folder
or several joined by `|` (siblings that must never use each other). A folder may
use only folders of lower levels. Fails when
- a folder directly under a listed root is not in its line (documentation
  catalogues, `*.docc`, hold no code and are not listed), or a listed folder
  does not exist;
- a folder uses a name declared by a folder of its own level or a higher one.
A folder's names are its files' top-level declarations (types, functions,
globals; not private ones) and the members it adds in extensions of types it
does not declare itself, whether no folder of the root declares them
(`extension Sequence { func concurrentMap }`) or another folder does (a
Writer/ extension on Files/' `FilePlan`: a use of its member from Files/ is
a use of Writer/); not those of an extension that adds a conformance: they
implement its requirements.
A use is such a name appearing in code (comments and string literals ignored).
Usage: .ci/layers [--doc ARCHITECTURE.md] [--repo DIR]
"""
import argparse
import os
import re
import sys

MODIFIERS = r"(?:@\w+(?:\([^)]*\))?\s+|(?:public|package|internal|fileprivate|private|open|final|nonisolated|static|class|mutating|nonmutating|override|indirect|convenience|required|dynamic|lazy|weak|unowned|consuming|borrowing|isolated)(?:\([^)]*\))?\s+)*"
DECLARATION = re.compile(r"^" + MODIFIERS + r"(struct|enum|class|actor|protocol|typealias|func|let|var)\s+`?([A-Za-z_][A-Za-z0-9_]*)")
MEMBER = re.compile(r"^    " + MODIFIERS + r"(func|let|var)\s+`?([A-Za-z_][A-Za-z0-9_]*)")
EXTENSION = re.compile(r"^" + MODIFIERS + r"extension\s+([A-Za-z_][A-Za-z0-9_.]*)")
PRIVATE = re.compile(r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:\w+\s+)*?(private|fileprivate)\b")
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def code_lines(path):
    """The file's lines with comments and string literals blanked out."""
    text = open(path, encoding="utf-8", errors="replace").read()
    text = re.sub(r'"""(?:.|\n)*?"""', lambda m: "\n" * m.group(0).count("\n"), text)
    text = re.sub(r"/\*(?:.|\n)*?\*/", lambda m: "\n" * m.group(0).count("\n"), text)
    lines = []
    for line in text.split("\n"):
        out, i, quoted = [], 0, False
        while i < len(line):
            c = line[i]
            if quoted:
                if c == "\\":
                    i += 2
                    continue
                if c == '"':
                    quoted = False
                    out.append('""')
            elif c == '"':
                quoted = True
            elif line.startswith("//", i):
                break
            else:
                out.append(c)
            i += 1
        lines.append("".join(out))
    return lines


def swift_files(folder):
    for directory, subdirectories, files in os.walk(folder):
        subdirectories.sort()
        for name in sorted(files):
            if name.endswith(".swift"):
                yield os.path.join(directory, name)


def scan(folder):
    """(declared names, extension members by extended type, identifiers used)."""
    declared, members, used = set(), {}, set()
    for path in swift_files(folder):
        extended = None
        for line in code_lines(path):
            if extended is not None and line.startswith("}"):
                extended = None
            match = DECLARATION.match(line)
            if match and not PRIVATE.match(line):
                declared.add(match.group(2))
            match = EXTENSION.match(line)
            if match:
                # Members of a conformance (`extension Duration: P`) implement
                # P's requirements (`description`), used through P: not names.
                conforms = line[match.end():].lstrip().startswith(":")
                extended = "" if conforms else match.group(1).split(".")[0]
            match = MEMBER.match(line)
            if extended and match and not PRIVATE.match(line.strip()):
                members.setdefault(extended, set()).add(match.group(2))
            used.update(IDENTIFIER.findall(line))
    return declared, members, used


def parse_layers(doc):
    text = open(doc, encoding="utf-8").read()
    blocks = re.findall(r"^```layers[ \t]*\n(.*?)^```", text, re.M | re.S)
    if not blocks:
        sys.exit(f"error: {doc} has no ```layers block (see .ci/layers.py for its format)")
    lines = []
    for block in blocks:
        for line in block.splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                lines.append(line)
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--repo", default=os.path.dirname(here))
    parser.add_argument("--doc", default=None)
    arguments = parser.parse_args()
    repo = arguments.repo
    doc = arguments.doc or os.path.join(repo, "ARCHITECTURE.md")
    errors = []
    summaries = []
    roots_seen = set()
    for line in parse_layers(doc):
        root, colon, rest = line.partition(":")
        root = root.strip().rstrip("/")
        if not colon or not rest.split():
            errors.append(f"{doc}: layers line `{line}` is not `<root>: <level> <level> ...`")
            continue
        if root in roots_seen:
            errors.append(f"{doc}: the root {root} has two layers lines")
        roots_seen.add(root)
        directory = os.path.join(repo, root)
        if not os.path.isdir(directory):
            errors.append(f"{doc}: the layers root {root}/ does not exist")
            continue
        levels = [level.split("|") for level in rest.split()]
        level_of = {}
        for index, level in enumerate(levels):
            for folder in level:
                if folder in level_of:
                    errors.append(f"{doc}: {root}: {folder} is listed twice")
                level_of[folder] = index
        present = sorted(
            entry for entry in os.listdir(directory)
            if os.path.isdir(os.path.join(directory, entry))
            and not entry.startswith(".") and not entry.endswith(".docc"))
        for folder in present:
            if folder not in level_of:
                errors.append(f"error: {root}/{folder}/ is not in the layers block of {doc}: add it at its level")
        for folder in level_of:
            if folder not in present:
                errors.append(f"error: {doc} lists {root}/{folder}/ in its layers block, which does not exist")
        folders = [folder for folder in level_of if folder in present]
        scanned = {folder: scan(os.path.join(directory, folder)) for folder in folders}
        names = {}
        for folder in folders:
            declared, members, _ = scanned[folder]
            foreign = set()
            for extended, added in members.items():
                # A type of the toolkit's or of another folder: the members
                # this folder adds are its names (a Writer/ extension on
                # Files/' FilePlan is Writer's, so Files/ may not call it).
                if extended not in declared:
                    foreign |= added
            names[folder] = declared | foreign
        failed = False
        for folder in folders:
            used = scanned[folder][2]
            for other in folders:
                if other == folder or level_of[other] < level_of[folder]:
                    continue
                uses = sorted((used & names[other]) - names[folder])
                if uses:
                    failed = True
                    relation = "its sibling" if level_of[other] == level_of[folder] else "the higher"
                    errors.append(
                        f"error: {root}/{folder}/ uses {relation} {other}/ ({' '.join(uses[:12])}"
                        f"{' …' if len(uses) > 12 else ''}); see the layers block in {doc}")
        if not failed:
            summaries.append(f"{root}: {len(folders)} folders in {len(levels)} levels, each using only lower levels")
    for error in errors:
        print(error, file=sys.stderr)
    if errors:
        sys.exit(1)
    for summary in summaries:
        print(f"layers: {summary}")


if __name__ == "__main__":
    main()

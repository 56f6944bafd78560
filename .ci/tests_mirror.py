#!/usr/bin/env python3
"""The tests-mirror check (.ci/tests-mirror runs this): Tests/ mirrors the sources.

For each test target of TARGETS, every folder Tests/<Target>/<Folder>/ must
have a source folder of the same name, and every test file in it must test
code of that folder: use a name its source folder declares (as
.ci/layers.py reads names: top-level declarations and extension members),
or be named after one (`TraceSummaryTests.swift` for `TraceSummary`). A file in the
wrong folder (Run/RunContentionTests.swift testing Stalls/' RunContention)
fails, and so does a folder with no sources (Tests/FileSqueezerTests/Zstd/).
Exceptions are named in ARCHITECTURE.md, in a fenced block with the info
string `tests-mirror`, one path a line: a folder of tests with no source
folder (end-to-end runs of the binary), or a support file that tests nothing
itself.
Usage: .ci/tests-mirror [--repo DIR]
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from layers import scan, swift_files  # noqa: E402

TARGETS = {
    "Tests/ConcurrencyToolkitTests": "Sources/ConcurrencyToolkit",
    "Tests/ConcurrencyToolkitTestingTests": "Sources/ConcurrencyToolkitTesting",
    "Tests/FileSqueezerTests": "Examples/FileSqueezer/Sources/FileSqueezerCore",
}


def exceptions(doc):
    text = open(doc, encoding="utf-8").read()
    named = set()
    for block in re.findall(r"^```tests-mirror[ \t]*\n(.*?)^```", text, re.M | re.S):
        for line in block.splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                named.add(line.rstrip("/"))
    return named


def folders(directory):
    return sorted(e for e in os.listdir(directory)
                  if os.path.isdir(os.path.join(directory, e)) and not e.startswith(".") and not e.endswith(".docc"))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    repo = parser.parse_args().repo
    doc = os.path.join(repo, "ARCHITECTURE.md")
    named = exceptions(doc)
    errors, files_checked, used_exceptions = [], 0, set()
    for tests, sources in TARGETS.items():
        source_names = {}
        for folder in folders(os.path.join(repo, sources)):
            declared, members, _ = scan(os.path.join(repo, sources, folder))
            source_names[folder] = declared.union(*members.values()) if members else declared
        for folder in folders(os.path.join(repo, tests)):
            where = f"{tests}/{folder}"
            if folder not in source_names:
                if where in named:
                    used_exceptions.add(where)
                else:
                    errors.append(f"error: {where}/ has no source folder {sources}/{folder}/: tests mirror the "
                                  f"sources; put the tests beside the code they test, or name the folder in the "
                                  f"tests-mirror block of ARCHITECTURE.md with why")
                continue
            for path in swift_files(os.path.join(repo, where)):
                relative = os.path.relpath(path, repo)
                if relative in named:
                    used_exceptions.add(relative)
                    continue
                files_checked += 1
                _, _, used = scan_file(path)
                stem = os.path.basename(path)[:-len(".swift")]
                stem = stem[:-len("Tests")] if stem.endswith("Tests") else stem
                if used & source_names[folder] or stem in source_names[folder]:
                    continue
                elsewhere = sorted(f for f, names in source_names.items() if used & names or stem in names)
                errors.append(f"error: {relative} names nothing of {sources}/{folder}/"
                              f"{' (it names code of ' + ', '.join(elsewhere) + ')' if elsewhere else ''}: move it "
                              f"to the folder of the code it tests, or, for a support file or a suite that spans "
                              f"parts, name it in the tests-mirror block of ARCHITECTURE.md")
    for stale in sorted(named - used_exceptions):
        errors.append(f"error: ARCHITECTURE.md's tests-mirror block names {stale}, which is not an exception "
                      f"(gone, or it mirrors a source folder now): remove the line")
    for error in errors:
        print(error, file=sys.stderr)
    if errors:
        sys.exit(1)
    print(f"tests-mirror: {files_checked} test files, each in the folder of the code it tests; "
          f"{len(used_exceptions)} exceptions named in ARCHITECTURE.md")


def scan_file(path):
    """scan() of one file: its folder would mix in its siblings."""
    import layers
    declared, members, used = set(), {}, set()
    for line in layers.code_lines(path):
        used.update(layers.IDENTIFIER.findall(line))
    return declared, members, used


if __name__ == "__main__":
    main()

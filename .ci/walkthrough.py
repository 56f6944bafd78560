#!/usr/bin/env python3
"""Runs a Markdown page's ```sh blocks in order in one bash and checks the
```text block that follows each against what it printed (see .ci/walkthrough).

Output blocks show what the block printed, all of it, or say where they cut:
- ```text: each line must match a line the block printed, with every number
  free (and its unit: ms or s, kB or MB), runs of spaces free, and a shell
  variable such as `$scratch` standing for any word. A count of files
  (`17 files`) must match exactly: the corpus has 17 files at any size.
- ```text exact: each line must appear exactly as printed (a program whose
  output does not depend on timing or corpus size).
- A line `...` marks a cut: lines the block printed there are left out (a
  build's progress, the rest of a long summary, reports that differ from run
  to run). A block without one must show every non-blank line printed, in
  any order (standard error and a piped standard output interleave
  differently from run to run).
A ```text block not right after a ```sh block (a fenced block in between) is
an illustration, not checked.
"""
import os
import re
import subprocess
import sys

MARK = "@@walkthrough-block-{}@@"
NUMBER = r"-?[0-9]+(?:[.,][0-9]+)*"
UNIT = r"(?:\s*(?:ns|µs|us|ms|s|B|kB|MB|GB|KiB|MiB|GiB))?"


def blocks(path):
    """(line, info, text) of every fenced block, indented ones (in a list)
    included, their indent removed."""
    lines = open(path, encoding="utf-8").read().splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)```(\S*)\s*(.*)$", lines[i])
        if m and m.group(2):
            indent = len(m.group(1))
            j = i + 1
            while lines[j].strip() != "```":
                j += 1
            text = "\n".join(l[indent:] if l[:indent].strip() == "" else l for l in lines[i + 1:j])
            yield i + 1, (m.group(2) + " " + m.group(3)).strip(), text
            i = j
        i += 1


def pattern(line):
    """A regex for an output line: numbers (with units) free, file counts
    exact, a shell variable (`$scratch`) any word."""
    out, pos = [], 0
    for m in re.finditer(r"\$[A-Za-z_]\w*|" + NUMBER + UNIT, line):
        out.append(re.escape(line[pos:m.start()]))
        rest = line[m.end():]
        if m.group(0).startswith("$"):
            out.append(r"\S+")
        elif re.match(r"\s+files?\b", rest):
            out.append(re.escape(m.group(0)))
        else:
            out.append(NUMBER + UNIT)
        pos = m.end()
    out.append(re.escape(line[pos:]))
    return re.sub(r"(\\ )+", r"\\s+", "".join(out))


def main():
    page = sys.argv[1]
    found = list(blocks(page))
    runnable = [(n, line, text) for n, (line, info, text) in enumerate(found) if info == "sh"]
    expected = {}  # index in `found` of a sh block -> (line, exact, text)
    for n, (line, info, text) in enumerate(found):
        if info.startswith("text") and n > 0 and found[n - 1][1] == "sh":
            expected[n - 1] = (line, info == "text exact", text)

    script = ["set -euo pipefail"]
    for n, line, text in runnable:
        script += [f"printf '\\n{MARK.format(n)}\\n'", text]
    print(f"walkthrough: {len(runnable)} shell blocks of {page}, CORPUS_MB={os.environ.get('CORPUS_MB', 'unset')}",
          flush=True)
    process = subprocess.Popen(["bash", "-c", "\n".join(script)], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    outputs, current = {}, None
    for raw in process.stdout:
        m = re.match(r"^@@walkthrough-block-(\d+)@@$", raw.rstrip("\n"))
        if m:
            current = int(m.group(1))
            outputs[current] = []
            line, text = found[current][0], found[current][2]
            print(f"\n--- {page}:{line}")
            print("\n".join("$ " + l for l in text.splitlines()), flush=True)
            continue
        if current is not None:
            outputs[current].append(raw.rstrip("\n"))
        print(raw, end="", flush=True)
    status = process.wait()
    if status != 0:
        where = f"{page}:{found[current][0]}" if current is not None else page
        sys.exit(f"walkthrough: the block at {where} failed (exit {status})")

    failures, checked = [], 0
    for n, (line, exact, text) in expected.items():
        printed = outputs.get(n, [])
        shown = [p for p in printed if p.strip()]
        cut = any(w.strip() == "..." for w in text.splitlines())
        for offset, wanted in enumerate(text.splitlines(), start=1):
            if not wanted.strip() or wanted.strip() == "...":
                continue
            checked += 1
            if exact:
                matches = [p for p in printed if p == wanted]
            else:
                regex = re.compile("^\\s*" + pattern(wanted.strip()) + "\\s*$")
                matches = [p for p in printed if regex.match(p)]
            if not matches:
                failures.append(f"{page}:{line + offset}: not printed by the block at {page}:{found[n][0]}: {wanted}")
            shown = [p for p in shown if p not in matches]
        if shown and not cut:
            failures.append(f"{page}:{line}: the block at {page}:{found[n][0]} printed {len(shown)} more lines than "
                            f"its output block shows, which marks no cut (`...`); the first: {shown[0]}")
    if failures:
        print("\n".join(failures), file=sys.stderr)
        sys.exit(f"walkthrough: {len(failures)} output blocks or lines differ from what was printed ({checked} lines checked)")
    print(f"\nwalkthrough: {len(runnable)} shell blocks ran; {checked} output lines in "
          f"{len(expected)} blocks match what they printed, cuts marked")


if __name__ == "__main__":
    main()

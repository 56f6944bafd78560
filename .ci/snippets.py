#!/usr/bin/env python3
"""Checks every ```swift block of README.md and Documentation/*.md, every
```swift example in a `///` doc comment under Sources/ and every one-line
example there (`For example: `code``, a fragment), and every program in
Snippets/ against the package's built modules (see .ci/snippets for how to
run it). Two kinds of block, told apart by one rule a reader can see:

- A block that shows an `import` is complete: it compiles, and runs if it is
  a program, exactly as copied into a file of one's own, in Swift 6 mode,
  with no warning; under a heading "Under approachable concurrency" also
  with main-actor default isolation. See .ci/snippets_complete.py.
- A block without imports is a fragment: it says in its text what it
  assumes, and is type-checked with the stand-ins described below.

Each fragment becomes one file of a scratch module, compiled with the
stand-in declarations of .ci/snippets-standins.swift:
- A snippet with a top-level type, extension or protocol is a program of
  its own (script mode, `main.swift`), so its declarations sit at file scope.
- Any other snippet is the body of `func snippet_N() async throws`, so its
  top-level statements, `try` and `await` are legal; all of these share one
  compiler invocation.
Every fragment imports ConcurrencyToolkit, ConcurrencyToolkitTesting,
Foundation, Observation, Synchronization, Testing and XCTest. An example on a symbol that is not public
uses `@testable import ConcurrencyToolkit`.

A complete block whose first line is `// Snippets/NAME.swift...` quotes that
program whole: it must be the file, character for character (the file is
compiled and run as a program in Snippets/ is).

A block is checked whole, as a reader copies it: a "Before" and an "After"
that declare the same names are two blocks, or the copy redeclares them.
A guide's fragment that declares types and runs code (a program) and compiles with
nothing but `import ConcurrencyToolkit` added is a complete sample missing
its import: it fails, so that it shows the import and is checked as copied.
A block, skipped or not, may import only modules a user can: a module of
this package that no library product holds (`FileSqueezerCore`, `CZlib`,
`TestSupport`) fails.

Elided code: a line holding only `...` is dropped and `{ ... }` reads as `{}`.
A block containing `// snippet: does-not-compile` (a "Before" that shows an
error) is checked to fail; `// snippet: skip` leaves a block out, with the
reason beside it. `// snippet: excerpt` marks lines quoted from File
Squeezer: each code line must still appear, as it is, in a file under
Examples/, Sources/ or Snippets/ (the package build compiles them there).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import snippets_complete as complete

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMPORTS = ["ConcurrencyToolkitTesting", "Foundation", "Observation", "Synchronization", "Testing", "XCTest",
           "SnippetStandins"]
STANDALONE = re.compile(
    r"^(@\w+(\([^)]*\))?\s+)*((public|private|fileprivate|internal|package|nonisolated|final)\s+)*"
    r"(struct|class|actor|enum|extension|protocol)\b|^(private|fileprivate) ")
class Snippet:
    def __init__(self, origin, line, code, public=True, approachable=False):
        self.origin, self.line, self.code, self.public = origin, line, code, public
        self.complete = complete.is_complete(code)
        self.approachable = approachable
        self.expect_failure = "snippet: does-not-compile" in code
        self.skip = "snippet: skip" in code
        self.excerpt = "snippet: excerpt" in code
        self.has_main = re.search(r"^\s*@(main|Test|Suite)\b", code, re.M) is not None
        self.standalone = self.has_main or any(STANDALONE.match(l) for l in code.splitlines())

    def where(self, offset):
        return f"{self.origin}:{self.line + offset}"


def elide(code):
    lines = ["" if l.strip() == "..." else l for l in code.splitlines()]
    return "\n".join(l.replace("{ ... }", "{}") for l in lines) + "\n"


def markdown_snippets(path):
    lines = open(path, encoding="utf-8").read().splitlines()
    i, heading = 0, ""
    while i < len(lines):
        if lines[i].startswith("#"):
            heading = lines[i]
        if lines[i].strip() == "```swift":
            start = i + 1
            j = start
            while lines[j].strip() != "```":
                j += 1
            approachable = re.search(r"under approachable concurrency", heading, re.I) is not None
            # A block in a list item: its fence's indent is not part of the code.
            indent = len(lines[i]) - len(lines[i].lstrip())
            body = [l[indent:] if not l[:indent].strip() else l for l in lines[start:j]]
            yield Snippet(os.path.relpath(path, ROOT), start + 1, "\n".join(body) + "\n", approachable=approachable)
            i = j
        i += 1


def documents_public(lines, after):
    """Whether the declaration a doc comment documents, the first line from
    `after` on that is neither comment nor attribute, is public."""
    k = after
    while k < len(lines) and re.match(r"^\s*(///|@)", lines[k]):
        k += 1
    return k < len(lines) and re.search(r"\b(public|open)\b", lines[k]) is not None


def doc_snippets(path):
    lines = open(path, encoding="utf-8").read().splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)/// ?```swift\s*$", lines[i])
        if m:
            start = i + 1
            j = start
            while not re.match(r"^\s*/// ?```\s*$", lines[j]):
                j += 1
            body = [re.sub(r"^\s*/// ?", "", l) for l in lines[start:j]]
            yield Snippet(os.path.relpath(path, ROOT), start + 1, "\n".join(body) + "\n",
                          documents_public(lines, j))
            i = j
        i += 1


def inline_snippets(path):
    """The one-line examples of doc comments, `For example: `code``: fragments
    like the blocks, so an inline example type-checks as a block does."""
    lines = open(path, encoding="utf-8").read().splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^\s*///.*\bFor example: `([^`]+)`\.?\s*$", line)
        if not m:
            continue
        yield Snippet(os.path.relpath(path, ROOT), i + 1, m.group(1) + "\n", documents_public(lines, i + 1))


def collect():
    snippets = []
    for name in ["README.md"] + sorted(
            os.path.join("Documentation", f) for f in os.listdir(os.path.join(ROOT, "Documentation"))
            if f.endswith(".md")):
        snippets += markdown_snippets(os.path.join(ROOT, name))
    for directory, _, files in sorted(os.walk(os.path.join(ROOT, "Sources"))):
        for f in sorted(files):
            if f.endswith(".swift"):
                snippets += doc_snippets(os.path.join(directory, f))
                snippets += inline_snippets(os.path.join(directory, f))
    for path in complete.program_files(ROOT):
        snippets.append(Snippet(os.path.relpath(path, ROOT), 1, open(path, encoding="utf-8").read()))
    return snippets


def header(snippet):
    toolkit = "import ConcurrencyToolkit" if snippet.public else "@testable import ConcurrencyToolkit"
    return [toolkit] + [f"import {m}" for m in IMPORTS]


def write(snippet, path, index):
    """Writes the snippet's file; returns the line of the file where the
    snippet's first line is."""
    lines = header(snippet)
    lines.append(f"// {snippet.origin}:{snippet.line}")
    code = elide(snippet.code)
    if not snippet.standalone:
        lines.append(f"func snippet_{index}() async throws {{")
    first = len(lines) + 1
    lines += code.splitlines()
    if not snippet.standalone:
        lines.append("}")
    open(path, "w", encoding="utf-8").write("\n".join(lines) + "\n")
    return first


def code_lines(text):
    """The code of each line, comments and indentation left out."""
    out = []
    for line in text.splitlines():
        code = re.sub(r"\s+//.*$", "", line).strip()
        if code and not code.startswith("//") and code != "...":
            out.append(code)
    return out


def check_excerpt(snippet):
    known = set()
    for top in ("Examples", "Sources", "Snippets"):
        for directory, _, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                if f.endswith(".swift"):
                    known.update(code_lines(open(os.path.join(directory, f), encoding="utf-8").read()))
    lines = snippet.code.splitlines()
    return [f"{snippet.where(i)}: error: excerpt line not found in Examples/, Sources/ or Snippets/: {line.strip()}"
            for i, line in enumerate(lines)
            if code_lines(line) and code_lines(line)[0] not in known]


def swiftc(files, modules, script):
    command = ["swiftc", "-typecheck", "-I", os.path.dirname(STANDINS_MODULE[0]),
               # SwiftPM's package name (the folder's, lowercased): `package` API is visible.
               "-package-name", re.sub(r"[^a-z0-9_]", "_", os.path.basename(ROOT).lower()), "-swift-version", "6", "-suppress-warnings", "-continue-building-after-errors",
               "-I", modules, "-module-name", "Snippets"]
    if not script:
        command.append("-parse-as-library")
    result = subprocess.run(command + files, capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


def translate(output, origins):
    """Rewrites `file:line:` of generated files into the snippet's origin."""
    out = []
    for line in output.splitlines():
        m = re.match(r"^(/\S+?):(\d+):(\d+): (error|note): (.*)$", line)
        if m and m.group(1) in origins:
            snippet, first = origins[m.group(1)]
            out.append(f"{snippet.where(int(m.group(2)) - first)}: {m.group(4)}: {m.group(5)}")
        elif m and m.group(4) == "error":
            out.append(line)
    return out


STANDINS_MODULE = [""]


def build_standins(modules, scratch):
    """The stand-ins are a module of their own, so that a snippet's own
    declaration of a name shadows the stand-in instead of clashing with it."""
    STANDINS_MODULE[0] = os.path.join(scratch, "SnippetStandins.swiftmodule")
    result = subprocess.run(
        ["swiftc", "-emit-module", "-parse-as-library", "-swift-version", "6", "-module-name", "SnippetStandins",
         "-I", modules, os.path.join(ROOT, ".ci", "snippets-standins.swift"),
         "-emit-module-path", STANDINS_MODULE[0]], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(".ci/snippets-standins.swift does not compile:\n" + result.stdout + result.stderr)


def main():
    modules = sys.argv[1]
    snippets = collect()
    scratch = tempfile.mkdtemp(prefix="snippets-")
    try:
        check(snippets, modules, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


QUOTE = re.compile(r"^// (Snippets/\w+\.swift)\b")


def quoted_program(snippet):
    """The Snippets/ file a complete block quotes whole, if it names one."""
    m = QUOTE.match(snippet.code)
    return m.group(1) if m and not snippet.origin.startswith("Snippets/") else None


def check_quote(snippet, path):
    full = os.path.join(ROOT, path)
    if not os.path.exists(full):
        return f"{snippet.where(0)}: error: quotes {path}, which does not exist"
    if open(full, encoding="utf-8").read() != snippet.code:
        return f"{snippet.where(0)}: error: quotes {path} but differs from it; copy the file into the block"
    return None


def unavailable_modules():
    """Modules of Package.swift that no library product holds: a user of the
    package cannot import them."""
    text = open(os.path.join(ROOT, "Package.swift"), encoding="utf-8").read()
    targets = set(re.findall(r"\.(?:target|systemLibrary|executableTarget|testTarget)\(\s*name:\s*\"(\w+)\"", text))
    products = set()
    for listed in re.findall(r"\.library\(\s*name:\s*\"\w+\",\s*targets:\s*\[([^\]]*)\]", text):
        products |= set(re.findall(r"\"(\w+)\"", listed))
    return targets - products


def check_imports(snippets):
    unavailable = unavailable_modules()
    failures = []
    for snippet in snippets:
        if snippet.origin.startswith("Snippets/"):
            continue  # the package's own snippet programs, built by SwiftPM
        for offset, line in enumerate(snippet.code.splitlines()):
            m = re.match(r"^\s*(?:@testable\s+)?import\s+(\w+)", line)
            if m and m.group(1) in unavailable:
                failures.append(f"{snippet.where(offset)}: error: imports {m.group(1)}, which no library product of "
                                f"Package.swift holds: a reader's copy cannot import it")
    return failures


def missing_import(snippet, modules, folder):
    """A fragment program that compiles with only `import ConcurrencyToolkit`
    added is a complete sample that forgot its import."""
    os.makedirs(folder, exist_ok=True)
    source = os.path.join(folder, "main.swift")
    open(source, "w", encoding="utf-8").write("import ConcurrencyToolkit\n" + elide(snippet.code))
    result = subprocess.run(["swiftc", "-typecheck", "-swift-version", "6", "-I", modules, source],
                            capture_output=True, text=True)
    if result.returncode == 0:
        return (f"{snippet.where(0)}: error: a complete program that lacks only `import ConcurrencyToolkit`: "
                f"add the import, so the block is checked as a reader copies it")
    return None


def check(snippets, modules, scratch):
    build_standins(modules, scratch)
    batch, origins, singles, completes = [], {}, [], []
    quotes = [(s, quoted_program(s)) for s in snippets if s.complete and not s.skip and quoted_program(s)]
    for index, snippet in enumerate(snippets):
        if snippet.skip or snippet.excerpt or quoted_program(snippet):
            continue
        if snippet.complete:
            completes += [(snippet, os.path.join(scratch, f"complete_{index}_{n}"), mode)
                          for n, mode in enumerate(complete.modes_of(snippet))]
        elif snippet.standalone or snippet.expect_failure:
            folder = os.path.join(scratch, f"snippet_{index}")
            os.mkdir(folder)
            script = snippet.standalone and not snippet.has_main
            path = os.path.join(folder, "main.swift" if script else f"snippet_{index}.swift")
            origins[path] = (snippet, write(snippet, path, index))
            singles.append((snippet, path))
        else:
            path = os.path.join(scratch, f"snippet_{index}.swift")
            origins[path] = (snippet, write(snippet, path, index))
            batch.append(path)

    failures = ["\n".join(e) for e in (check_excerpt(s) for s in snippets if s.excerpt) if e]
    failures += check_imports(snippets)
    programs_without_import = [(s, os.path.join(scratch, f"import_{i}")) for i, s in enumerate(snippets)
                               if not (s.complete or s.skip or s.excerpt or s.expect_failure or s.has_main)
                               and s.standalone and complete.kind(s.code) == "script" and s.origin.endswith(".md")]
    failures += [f for f in (check_quote(s, path) for s, path in quotes) if f]
    status, output = swiftc(batch, modules, script=False)
    if status != 0:
        failures.append(("\n".join(translate(output, origins)) or output))

    def single(item):
        snippet, path = item
        status, output = swiftc([path], modules, script=snippet.standalone and not snippet.has_main)
        if snippet.expect_failure:
            return None if status != 0 else f"{snippet.where(0)}: error: marked does-not-compile, but compiles"
        return None if status == 0 else ("\n".join(translate(output, origins)) or output)

    def whole(item):
        snippet, folder, mode = item
        return complete.compile_and_run(snippet, modules, os.path.dirname(modules), folder, mode)

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        failures += [f for f in pool.map(single, singles) if f]
        failures += [f for f in pool.map(whole, completes) if f]
        failures += [f for f in pool.map(lambda item: missing_import(item[0], modules, item[1]),
                                         programs_without_import) if f]

    fragments = len(batch) + len(singles)
    whole_blocks = sum(1 for s in snippets if s.complete and not s.skip)
    programs = sum(1 for s, _, _ in completes if complete.kind(s.code) != "library")
    approachable = sum(1 for _, _, mode in completes if mode == "approachable")
    skipped = sum(1 for s in snippets if s.skip)
    excerpts = sum(1 for s in snippets if s.excerpt)
    expected = sum(1 for s in snippets if s.expect_failure)
    if failures:
        print("\n".join(failures))
        failed_sites = {l.split(": error:")[0].rsplit(":", 1)[0] for f in failures for l in f.splitlines()
                        if ": error:" in l and re.match(r"^[\w./-]+\.(md|swift):\d+: error:", l)}
        print(f"snippets: {len(snippets)} blocks, failures in: {', '.join(sorted(failed_sites))}")
        sys.exit(1)
    print(f"snippets: {whole_blocks} complete samples compile as copied, with no warning "
          f"({programs} program runs exit 0; {approachable} also built under main-actor default isolation); "
          f"{fragments} fragments type-check with the stand-ins ({len(singles) - expected} as programs of their own, "
          f"{expected} fail as marked); {excerpts} excerpts match File Squeezer's source; "
          f"{len(quotes)} quote a program of Snippets/ whole; {skipped} skipped")


if __name__ == "__main__":
    main()

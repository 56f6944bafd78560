"""Complete samples for .ci/snippets.py: a ```swift block that shows an
`import`, and every program in Snippets/.

A complete sample is what a user gets who pastes it into a new file of their
own target: it is compiled on its own, as its own module, with nothing added
(no stand-ins, no extra imports, no wrapper), in Swift 6 mode with warnings
as errors, against the modules and object files of the package's debug
build. A sample with top-level code or `@main` is a program: it is linked
and run (from an empty folder, 60 s at most) and must exit 0. A sample in a
section titled "Under approachable concurrency" is also compiled (and run)
the way an Xcode 26 app target builds: `.defaultIsolation(MainActor.self)`
with `NonisolatedNonsendingByDefault` and `InferIsolatedConformances`, the
settings IntegrationTests/Consumer uses in that mode.
"""
import glob
import os
import re
import subprocess

MODES = {
    "swift 6": [],
    "approachable": ["-default-isolation", "MainActor",
                     "-enable-upcoming-feature", "NonisolatedNonsendingByDefault",
                     "-enable-upcoming-feature", "InferIsolatedConformances"],
}
# A line at the left margin that declares rather than runs.
DECLARATION = re.compile(
    r"^(import|@|//|/\*|\*|\}|\)|\]|#if|#else|#endif|"
    r"((public|private|fileprivate|internal|package|nonisolated|final|indirect|static)\s+)*"
    r"(struct|class|actor|enum|extension|protocol|func|typealias)\b)")


def is_complete(code):
    return re.search(r"^import \w+", code, re.M) is not None


def kind(code):
    """'main' (an @main type), 'script' (top-level code) or 'library'."""
    if re.search(r"^@main\b", code, re.M):
        return "main"
    for line in code.splitlines():
        if line.strip() and not line[0].isspace() and not DECLARATION.match(line):
            return "script"
    return "library"


def program_files(root):
    """Snippets/*.swift: the programs the guides quote."""
    return sorted(glob.glob(os.path.join(root, "Snippets", "*.swift")))


def compile_and_run(sample, modules, build, folder, mode):
    """Returns None, or the failure as text with lines of the sample's origin."""
    os.makedirs(folder, exist_ok=True)
    what = kind(sample.code)
    source = os.path.join(folder, "main.swift" if what == "script" else "sample.swift")
    open(source, "w", encoding="utf-8").write(sample.code)
    command = ["swiftc", "-swift-version", "6", "-warnings-as-errors", "-module-name", "Sample",
               "-I", modules] + MODES[mode]
    if what != "script":
        command.append("-parse-as-library")
    if what == "library":
        command += ["-c", source, "-o", os.path.join(folder, "sample.o")]
    else:
        command += [source, "-o", os.path.join(folder, "sample")]
        for module in ("ConcurrencyToolkit", "ConcurrencyToolkitTesting"):
            if re.search(rf"^import {module}$", sample.code, re.M) or module == "ConcurrencyToolkit":
                command += sorted(glob.glob(os.path.join(build, f"{module}.build", "*.o")))
    result = subprocess.run(command, capture_output=True, text=True)
    output = translate(result.stdout + result.stderr, source, sample)
    if sample.expect_failure:
        return None if result.returncode != 0 else \
            f"{sample.where(0)}: error: marked does-not-compile, but compiles ({mode})"
    if result.returncode != 0:
        return f"{sample.where(0)}: error: does not compile as copied ({mode}, {what}):\n{output}"
    if what == "library":
        return None
    run_in = os.path.join(folder, "run")
    os.makedirs(run_in, exist_ok=True)
    try:
        ran = subprocess.run([os.path.join(folder, "sample")], cwd=run_in, capture_output=True,
                             text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return f"{sample.where(0)}: error: the program did not end within 60 s ({mode})"
    if ran.returncode != 0:
        return (f"{sample.where(0)}: error: the program exited with {ran.returncode} ({mode}):\n"
                + ran.stdout + ran.stderr)
    return None


def translate(output, source, sample):
    """`source:line:` of the scratch file becomes the sample's own line."""
    out = []
    for line in output.splitlines():
        m = re.match(r"^(/\S+?):(\d+):(\d+): (error|warning|note): (.*)$", line)
        if m and m.group(1) == source:
            out.append(f"{sample.where(int(m.group(2)) - 1)}: {m.group(4)}: {m.group(5)}")
        elif m or ": error:" in line:
            out.append(line)
    return "\n".join(out) or output


def modes_of(sample):
    return ["swift 6", "approachable"] if sample.approachable else ["swift 6"]

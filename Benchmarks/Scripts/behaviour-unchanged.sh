#!/usr/bin/env bash
# "Behaviour does not change" (issue 26), shown for two revisions: each is
# built (debug, with its tests) in a scratch git worktree, and then compared:
#
#   1. the app's .gz bytes: both binaries compress the same inputs (BEFORE's
#      --make-corpus demo folder, and slices of it at the sizes the golden
#      end-to-end test uses: empty, 1 byte, 1000, the 256 KiB chunk and one
#      more, 800,000 random bytes, the 1 MiB segment, 3 MB), every input's
#      mtime fixed, with each strategy both know and a few options; every
#      .gz must be byte-identical (cmp). The demo folders the two write are
#      compared too.
#   2. the trace exports: a test file this script drops into both worktrees
#      renders one fixed hand-built trace (the 0.1.0 sample trace of
#      Tests/ConcurrencyToolkitTests/Diagnostics/SampleTraces.swift) to Chrome
#      JSON, the SVG timeline and the text summary; each must be
#      byte-identical. It also writes each revision's own SampleTraces.mixed,
#      compared for information (the sample itself may have grown).
#   3. the tests: `swift test list` of each, counted, with the names only one
#      side has (a test moved to another file keeps its name; a suite renamed
#      or a test added shows up here).
#
#   Benchmarks/Scripts/behaviour-unchanged.sh [BEFORE [AFTER]]
#
# BEFORE defaults to the tag 0.1.0, or, without that tag, to the commit the
# 0.1.0 release was (the last before CHANGELOG.md got an "Unreleased"
# section above "## 0.1.0"); AFTER to HEAD. KEEP=DIR keeps the two worktrees
# (and their builds) in DIR and reuses them next time, so a second run
# rebuilds only what changed. CORPUS_MB=20 sizes the demo folder. Exit 0
# when everything compared equal, 1 when something differed (each named).
#
# Known, on purpose: the SVG legend lists every kind of mark, so against a
# revision before issue 28 the fixed trace's SVG gains the "actor
# contention" entry (two lines); and 0.1.0's KillTests/liveWriter became
# TemporaryOwnershipTests' test of the new temporary-name shape.
set -euo pipefail
source "$(dirname "$0")/common.sh"
repo=$(git -C "$scripts_dir" rev-parse --show-toplevel)
megabytes=${CORPUS_MB:-20}
positive_integers "CORPUS_MB=$megabytes"
need_tools cmp

release_commit() {
    if git -C "$repo" rev-parse -q --verify '0.1.0^{commit}' >/dev/null; then echo 0.1.0; return; fi
    local added
    added=$(git -C "$repo" log --reverse --format=%H -S'## Unreleased' -- CHANGELOG.md |
        while read -r commit; do
            git -C "$repo" show "$commit^:CHANGELOG.md" 2>/dev/null | grep -q '^## 0\.1\.0' && { echo "$commit"; break; }
        done)
    [ -n "$added" ] || { echo "error: no tag 0.1.0 and no commit that opened Unreleased after 0.1.0" >&2; exit 2; }
    git -C "$repo" rev-parse --short "$added^"
}
before=${1:-$(release_commit)} after=${2:-HEAD}
before_commit=$(git -C "$repo" rev-parse --short "$before^{commit}")
after_commit=$(git -C "$repo" rev-parse --short "$after^{commit}")
echo "Comparing $before ($before_commit) with $after ($after_commit)"

if [ -n "${KEEP:-}" ]; then
    work=$KEEP
    mkdir -p "$work"
else
    work=$(scratch_dir behaviour)
    trap 'git -C "$repo" worktree remove --force "$work/before" 2>/dev/null; git -C "$repo" worktree remove --force "$work/after" 2>/dev/null; rm -rf "$work"' EXIT
fi

# The fixed sample trace and the revision's own, rendered; runs only when
# BEHAVIOUR_EXPORTS names a folder. Written into each worktree, never committed.
export_test() {
    cat <<'SWIFT'
@testable import ConcurrencyToolkit
import Foundation
import Testing

@Test func behaviourExports() throws {
    guard let folder = ProcessInfo.processInfo.environment["BEHAVIOUR_EXPORTS"] else { return }
    let ms: UInt64 = 1_000_000
    let waitSite = CallSite(function: "fetch()", fileID: "App/Fetch.swift", line: 12)
    let stuckSite = CallSite(function: "stuck()", fileID: "App/Stuck.swift", line: 40)
    let threads = [
        TraceThread(id: 1, name: "main", systemName: "app", isMain: true),
        TraceThread(id: 10, name: "io lane 0", systemName: "-qos.overcommit", isMain: false),
        TraceThread(id: 11, name: "io lane 1", systemName: "-qos.overcommit", isMain: false),
        TraceThread(id: 20, name: "cooperative pool · 20", systemName: "oot.default-qos", isMain: false),
    ]
    let misuse = ContinuationMisuse(kind: .resumedMoreThanOnce, creationSite: waitSite, resumeSite: waitSite)
    let events: [TraceEvent] = [
        TraceEvent(kind: .spanStarted(name: "outer"), id: 5, time: 0, threadID: 1),
        TraceEvent(kind: .jobQueued(executor: "io"), id: 1, time: 0, threadID: 1),
        TraceEvent(kind: .jobQueued(executor: "io"), id: 2, time: 0, threadID: 1),
        TraceEvent(kind: .jobStarted(executor: "io", lane: 0), id: 1, time: 1 * ms, threadID: 10),
        TraceEvent(kind: .continuationCreated(site: waitSite), id: 3, time: 1 * ms, threadID: 20),
        TraceEvent(kind: .spanStarted(name: "inner"), id: 6, time: 1 * ms, threadID: 1),
        TraceEvent(kind: .jobStarted(executor: "io", lane: 1), id: 2, time: 2 * ms, threadID: 11),
        TraceEvent(kind: .continuationCreated(site: stuckSite), id: 4, time: 2 * ms, threadID: 20),
        TraceEvent(kind: .spanFinished, id: 6, time: 2 * ms, threadID: 1),
        TraceEvent(kind: .marker(name: #"scan <done> & "quoted" 'ok'"#), id: 0, time: 3 * ms, threadID: 1),
        TraceEvent(kind: .continuationResumed, id: 3, time: 4 * ms, threadID: 10),
        TraceEvent(kind: .continuationMisused(misuse), id: 3, time: 4 * ms + ms / 2, threadID: 10),
        TraceEvent(kind: .jobFinished(failed: false), id: 1, time: 5 * ms, threadID: 10),
        TraceEvent(kind: .jobFinished(failed: true), id: 2, time: 6 * ms, threadID: 11),
        TraceEvent(kind: .stalled(ConcurrencyStall(kind: .mainActorBlocked, duration: .milliseconds(300))),
            id: 0, time: 7 * ms, threadID: 1),
        TraceEvent(kind: .spanFinished, id: 5, time: 8 * ms, threadID: 1),
    ]
    let traces = [
        ("fixed", Trace(events: events, threads: threads, duration: 10 * ms, discardedEventCount: 0)),
        ("own", SampleTraces.mixed),
    ]
    for (name, trace) in traces {
        try trace.chromeTraceJSON().write(toFile: "\(folder)/\(name).json", atomically: true, encoding: .utf8)
        try trace.svgTimeline().write(toFile: "\(folder)/\(name).svg", atomically: true, encoding: .utf8)
        try trace.summary().write(toFile: "\(folder)/\(name).txt", atomically: true, encoding: .utf8)
    }
}
SWIFT
}

# build SIDE REVISION: a worktree of REVISION in $work/SIDE (reused when
# kept), the export test dropped in, built with its tests; the test list and
# the exports written to $work/SIDE-*.
build() {
    local side=$1 revision=$2 tree=$work/$1
    if [ -d "$tree" ]; then
        git -C "$tree" checkout -q --detach "$revision"
    else
        git -C "$repo" worktree add -q --detach "$tree" "$revision"
    fi
    export_test >"$tree/Tests/ConcurrencyToolkitTests/BehaviourExports.swift"
    echo "Building $side ($revision) in $tree ..." >&2
    swift build --package-path "$tree" --build-tests >"$work/$side-build.log" 2>&1 ||
        { tail -30 "$work/$side-build.log" >&2; exit 1; }
    swift test --package-path "$tree" --skip-build list 2>/dev/null | grep -v 'behaviourExports' | sort >"$work/$side-tests.txt"
    rm -rf "$work/$side-exports"
    mkdir -p "$work/$side-exports"
    BEHAVIOUR_EXPORTS=$work/$side-exports swift test --package-path "$tree" --skip-build \
        --filter behaviourExports >"$work/$side-exports.log" 2>&1 || { cat "$work/$side-exports.log" >&2; exit 1; }
    rm "$tree/Tests/ConcurrencyToolkitTests/BehaviourExports.swift"
    echo "$(swift build --package-path "$tree" --show-bin-path)/file-squeezer" >"$work/$side-binary"
}
build before "$before_commit"
build after "$after_commit"
before_binary=$(cat "$work/before-binary") after_binary=$(cat "$work/after-binary")

differences=0
differs() { echo "DIFFERS: $*"; differences=$((differences + 1)); }

# 1. The .gz bytes.
inputs=$work/inputs
rm -rf "$inputs" "$work/after-corpus"
"$before_binary" --make-corpus "$inputs/demo" --corpus-mb "$megabytes" >/dev/null
"$after_binary" --make-corpus "$work/after-corpus" --corpus-mb "$megabytes" >/dev/null
diff -rq "$inputs/demo" "$work/after-corpus" >/dev/null || differs "the demo folder (--make-corpus --corpus-mb $megabytes)"
text=$(ls -S "$inputs"/demo/*.txt | head -1) noise=$(ls -S "$inputs"/demo/*.bin | head -1)
mkdir -p "$inputs/fixtures"
: >"$inputs/fixtures/empty.txt"
for size in 1 1000 262144 262145 1048576 3000000; do head -c $size "$text" >"$inputs/fixtures/text-$size.txt"; done
head -c 800000 "$noise" >"$inputs/fixtures/noise.bin"
find "$inputs" -type f -exec touch -d '2024-01-02 03:04:05 UTC' {} +

runs=("--strategy main-actor" "--strategy actor" "--strategy parallel" "--strategy main-actor --level 1 --no-name"
    "--strategy actor --level 9" "--strategy parallel --level 9 --no-name --segment-kib 64" "--strategy parallel --jobs 1")
compared=0
for input in demo fixtures; do
    for options in "${runs[@]}"; do
        for side in before after; do
            rm -rf "$work/out-$side"
            cp -a "$inputs/$input" "$work/out-$side"
            binary=$([ $side = before ] && echo "$before_binary" || echo "$after_binary")
            # shellcheck disable=SC2086 # the options are words
            "$binary" -q $options "$work/out-$side" >/dev/null || differs "$side failed on $input with $options"
        done
        for gz in "$work"/out-before/*.gz; do
            compared=$((compared + 1))
            cmp -s "$gz" "$work/out-after/${gz##*/}" || differs "$input/${gz##*/} with $options"
        done
        [ "$(ls "$work"/out-before/*.gz | wc -l)" = "$(ls "$work"/out-after/*.gz | wc -l)" ] ||
            differs "how many .gz $input gives with $options"
    done
done
echo ".gz files compared byte for byte: $compared"

# 2. The trace exports.
for export in fixed.json fixed.svg fixed.txt; do
    cmp -s "$work/before-exports/$export" "$work/after-exports/$export" || {
        differs "the fixed sample trace's $export:"
        diff "$work/before-exports/$export" "$work/after-exports/$export" | head -20 || true
    }
done
for export in own.json own.svg own.txt; do
    cmp -s "$work/before-exports/$export" "$work/after-exports/$export" ||
        echo "note: each revision's own SampleTraces.mixed renders differently in $export (the sample changed; not counted)"
done
echo "Exports kept in $work/before-exports and $work/after-exports"

# 3. The tests.
echo "Tests: $(wc -l <"$work/before-tests.txt") in $before_commit, $(wc -l <"$work/after-tests.txt") in $after_commit"
# A test only BEFORE has whose function name AFTER has under another suite
# or module was moved or its suite renamed; the rest are named.
only_before=$(comm -23 "$work/before-tests.txt" "$work/after-tests.txt")
only_after=$(comm -13 "$work/before-tests.txt" "$work/after-tests.txt")
moved=0 gone=()
while IFS= read -r test; do
    [ -n "$test" ] || continue
    if grep -qxF -- "${test##*/}" < <(sed 's|.*/||' <<<"$only_after"); then moved=$((moved + 1)); else gone+=("$test"); fi
done <<<"$only_before"
echo "Tests of $before_commit under another suite or module in $after_commit (same function name): $moved"
if [ ${#gone[@]} -gt 0 ]; then
    echo "Tests of $before_commit whose name $after_commit does not have (renamed or removed):"
    printf '  %s\n' "${gone[@]}"
fi
echo "Tests only in $after_commit: $(comm -13 "$work/before-tests.txt" "$work/after-tests.txt" | wc -l) (names in $work/after-tests.txt)"

if [ $differences -eq 0 ]; then
    echo "Behaviour unchanged: every .gz, the demo folder and the fixed trace's exports are byte-identical."
else
    echo "$differences difference(s), named above."
    exit 1
fi

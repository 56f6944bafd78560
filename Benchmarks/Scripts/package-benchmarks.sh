#!/usr/bin/env bash
# The package-benchmark suite (the ToolkitBenchmarks target: continuations,
# blocking work, progress reporting, the parallel map) run the honest way:
# ROUNDS full runs one after another, each a complete run of every selected
# benchmark (A, B, C, A, B, C, ...), so a slow stretch of the machine lands on
# all of them alike. For every benchmark and metric the report gives the
# **median of the rounds' p50s, with min and max**: no best-of-N. Where ours
# has peers (same name prefix before the last ": ", the peer's name ending in
# "(peer)"), it also gives ours ÷ peer, taken within each round and then
# median, min and max over the rounds. The load average is printed before and
# after every round and in the report: state it next to every figure.
#
#   Benchmarks/Scripts/package-benchmarks.sh
#   ROUNDS=2 FILTER='Continuation round trip: .*' Benchmarks/Scripts/package-benchmarks.sh
#
# Environment (all optional):
#   ROUNDS=5           full runs of the selected benchmarks
#   FILTER=regex       passed as --filter (a whole-name regex): only those benchmarks
#   OUT=dir            where each round's output goes (default: a new directory
#                      under /tmp, printed at the start); the Markdown report
#                      is written there too, as report.md
#
# Each round is `swift package benchmark --target ToolkitBenchmarks --format
# markdown --time-units nanoseconds`, saved as OUT/round-N.md (its log as
# round-N.log); loads and times per round in OUT/rounds.tsv. The target is
# named because package-benchmark runs every executable under
# Benchmarks/Benchmarks, the plain harnesses included. Nanoseconds put every
# time in one unit, to the nanosecond (three significant figures from 10 ms
# up, which package-benchmark prints as 1.30e+08); without it, it picks a
# unit per benchmark and run and rounds into it (8 µs). Counts still come in
# the unit it picks per run (K, M); the report turns them into plain numbers.
# Ours and its peers are paired by name (PEERS in the .py where the name
# prefix is not enough). package-benchmarks.py, beside this script, makes the
# report with method.py's statistics (the one method: common.sh, method.py)
# and can be re-run on saved rounds:
#   python3 Benchmarks/Scripts/package-benchmarks.py OUT
#
# How long: 120–123 s a round for the full suite on 2 cores (measured,
# 2026-11-25), so about 10 minutes with the defaults, plus the build. The 7
# continuation round trips alone take 26–28 s a round.
# Run it on a quiet machine: package-benchmark runs async benchmarks on the
# cooperative pool, and other processes' load moves every figure.
set -euo pipefail

rounds=${ROUNDS:-5}
filter=${FILTER:-}
source "$(dirname "$0")/common.sh"
positive_integers "ROUNDS=$rounds"
need_tools python3
cd "$scripts_dir/.."
out=${OUT:-$(mktemp -d /tmp/package-benchmarks.XXXXXX)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out"/round-*.md "$out"/round-*.log "$out/rounds.tsv" "$out/report.md"

arguments=(--target ToolkitBenchmarks --format markdown --no-progress --time-units nanoseconds)
[ -z "$filter" ] || arguments+=(--filter "$filter")

echo "Rounds go to $out" >&2
# Build first, so no round pays for compiling (the plugin builds again each
# round, a no-op by then). `list` builds the target and names what it has.
echo "Building ToolkitBenchmarks (release) ..." >&2
swift package --allow-writing-to-package-directory benchmark list --target ToolkitBenchmarks \
    >"$out/build.log" 2>&1 || {
    tail -40 "$out/build.log" >&2
    echo "error: the benchmark build failed (log: $out/build.log)" >&2
    exit 1
}

printf 'round\tload before\tload after\tseconds\n' >"$out/rounds.tsv"
for round in $(seq 1 "$rounds"); do
    before=$(load_average)
    echo "round $round of $rounds: load before $before (1/5/15 min), $(nproc) cores" >&2
    start=$(date +%s)
    if ! swift package --allow-writing-to-package-directory benchmark "${arguments[@]}" \
        >"$out/round-$round.md" 2>"$out/round-$round.log"; then
        tail -40 "$out/round-$round.md" "$out/round-$round.log" >&2
        echo "error: round $round failed (output: $out/round-$round.md)" >&2
        exit 1
    fi
    seconds=$(($(date +%s) - start))
    after=$(load_average)
    echo "round $round of $rounds: load after $after, ${seconds} s" >&2
    printf '%s\t%s\t%s\t%s\n' "$round" "$before" "$after" "$seconds" >>"$out/rounds.tsv"
done

python3 "$scripts_dir/package-benchmarks.py" "$out" | tee "$out/report.md"

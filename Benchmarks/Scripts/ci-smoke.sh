#!/usr/bin/env bash
# CI mode for the benchmarks: builds the Benchmarks package (release, as the
# plugin always does) and runs ONE short benchmark, so the package never rots.
# The full runs stay out of CI; see Documentation/Performance.md.
#
#   Benchmarks/Scripts/ci-smoke.sh
#
# Fails when the build fails, when the benchmark fails, or when it did not
# run at all (a filter that matches nothing makes the plugin exit 0 silently).
# The target is named: package-benchmark runs every executable under
# Benchmarks/Benchmarks, and without it the plain harnesses (HandOffHarness,
# StallLatencyHarness) would run in full too: 40 s or more (two 10 s idle
# measurements and 22 blocks of 900 ms in the stall harness alone).
# A smoke run, not a measurement: one run, no rounds (the method, common.sh
# and method.py, is for figures); the load is printed so a slow CI run reads.
set -euo pipefail
source "$(dirname "$0")/common.sh"
cd "$scripts_dir/.."
echo "load before: $(load_average) (1/5/15 min), $(nproc) cores" >&2

benchmark='Continuation round trip: SafeContinuation'
output=$(swift package --allow-writing-to-package-directory benchmark --target ToolkitBenchmarks \
    --filter "^${benchmark}\$" --format markdown --no-progress 2>&1) || {
    echo "$output"
    echo "error: the benchmark smoke run failed" >&2
    exit 1
}
echo "$output" | grep -v '^\[[0-9]*/[0-9]*\]'
if ! grep -q "^### ${benchmark}\$" <<<"$output" || ! grep -q 'Time (wall clock)' <<<"$output"; then
    echo "error: '${benchmark}' did not run (renamed? then update this script)" >&2
    exit 1
fi
echo "Benchmark smoke run OK: '${benchmark}' built and ran (load after: $(load_average))."

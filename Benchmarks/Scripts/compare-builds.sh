#!/usr/bin/env bash
# Two builds of File Squeezer against each other: does a change make it
# slower? Both binaries run once per round on the same inputs, the order
# flipped every round, and the verdict is the median of the per-round
# ratios (after ÷ before), with min and max: drift slower than a round
# cancels out. Two inputs: the app's own corpus (large files, the
# walkthrough's bytes) and 2,000 real small text files (see common.sh).
#
#   Benchmarks/Scripts/compare-builds.sh BEFORE AFTER [CORPUS_MB]   (default 150)
#
# BEFORE and AFTER are file-squeezer binaries, e.g. release builds of two
# checkouts (`swift build -c release --product file-squeezer --scratch-path
# /tmp/before-build` in each). Environment: ROUNDS=7 interleaved rounds,
# JOBS=2 (--jobs). Inputs go to /dev/shm (tmpfs) when it is writable, so the
# disk does not decide the result. About 2 minutes with the defaults.
set -euo pipefail

if [ $# -lt 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
    echo "usage: $0 BEFORE AFTER [CORPUS_MB]   (two file-squeezer binaries)" >&2
    exit 2
fi
before=$1 after=$2 megabytes=${3:-150}
rounds=${ROUNDS:-7}
jobs=${JOBS:-2}
for setting in "CORPUS_MB=$megabytes" "ROUNDS=$rounds" "JOBS=$jobs"; do
    if ! [[ ${setting#*=} =~ ^[1-9][0-9]*$ ]]; then
        echo "error: ${setting%%=*} must be a positive integer, not '${setting#*=}'" >&2
        exit 2
    fi
done
source "$(dirname "$0")/common.sh"

base=/dev/shm
[ -d "$base" ] && [ -w "$base" ] || base=${TMPDIR:-/tmp}
work=$(mktemp -d "$base/compare-builds.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$after" --make-corpus "$work/large" --corpus-mb "$megabytes" >&2
make_small "$work/small"

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min), $(nproc) cores" >&2
python3 - "$rounds" "$jobs" "$work" "$before" "$after" <<'PY'
import os, shutil, statistics, subprocess, sys, time
rounds, jobs, work, before, after = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
inputs = {"large": f"{work}/large", "small": f"{work}/small"}
def timed(binary, folder):
    out = f"{work}/out"
    shutil.rmtree(out, ignore_errors=True)
    start = time.monotonic()
    subprocess.run([binary, "--jobs", jobs, "--level", "6", "--quiet", "--output", out, folder],
                   check=True, stdout=subprocess.DEVNULL)
    return time.monotonic() - start
walls = {(name, build): [] for name in inputs for build in ("before", "after")}
for number in range(rounds):
    for name, folder in inputs.items():
        order = [("before", before), ("after", after)]
        if number % 2: order.reverse()
        for build, binary in order:
            walls[(name, build)].append(timed(binary, folder))
    print(f"round {number + 1}/{rounds} done", file=sys.stderr)
print(f"| input | before median (min–max) | after median (min–max) | after ÷ before, median of rounds (min–max) |")
print("|---|---|---|---|")
for name in inputs:
    b, a = walls[(name, "before")], walls[(name, "after")]
    ratios = sorted(x / y for x, y in zip(a, b))
    span = lambda v: f"{statistics.median(v):.3f} s ({min(v):.3f}–{max(v):.3f})"
    print(f"| {name} | {span(b)} | {span(a)} | **{statistics.median(ratios):.3f}x** ({ratios[0]:.3f}–{ratios[-1]:.3f}) |")
print(f"\n{rounds} interleaved rounds, --jobs {jobs}, level 6; large: the app's corpus, small: 2,000 text files of 1–64 KiB.")
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min); $(date -u '+%Y-%m-%d %H:%M UTC')" >&2

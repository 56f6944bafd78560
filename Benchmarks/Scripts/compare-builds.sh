#!/usr/bin/env bash
# Two builds of File Squeezer against each other: does a change make it
# slower? By the one method (common.sh, method.py): both binaries once per
# round on the same input, the order rotating, ROUNDS rounds; the verdict is
# "after ÷ before", the median of the per-round ratios, with min and max:
# drift slower than a round cancels out. Two inputs: the app's own corpus
# (large files, the walkthrough's bytes) and 2,000 real small text files
# (common.sh's make_small). Every run writes to an empty --output folder
# (emptied outside the timing).
#
#   Benchmarks/Scripts/compare-builds.sh BEFORE AFTER [CORPUS_MB]   (default 150)
#
# BEFORE and AFTER are file-squeezer binaries, e.g. release builds of two
# checkouts (`swift build -c release --product file-squeezer --scratch-path
# /tmp/before-build` in each). Environment: ROUNDS=7 interleaved rounds,
# JOBS=2 (--jobs), SMALL_FILES=2000. Inputs go to /dev/shm (tmpfs) when it is
# writable, so the disk does not decide the result. About 2 minutes with the
# defaults; short mode: ROUNDS=2 SMALL_FILES=100 ... BEFORE AFTER 10.
set -euo pipefail

if [ $# -lt 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
    echo "usage: $0 BEFORE AFTER [CORPUS_MB]   (two file-squeezer binaries)" >&2
    exit 2
fi
before=$1 after=$2 megabytes=${3:-150}
rounds=${ROUNDS:-7} jobs=${JOBS:-2} small_files=${SMALL_FILES:-2000}
source "$(dirname "$0")/common.sh"
positive_integers "CORPUS_MB=$megabytes" "ROUNDS=$rounds" "JOBS=$jobs" "SMALL_FILES=$small_files"
need_tools time python3

work=$(scratch_dir compare-builds)
trap 'rm -rf "$work"' EXIT
"$after" --make-corpus "$work/large" --corpus-mb "$megabytes" >&2
make_small "$work/small" "$small_files"

export OUT=$work/out
empty_output() { rm -rf "$OUT"; }
for name in large small; do
    before_each=empty_output run_rounds "$rounds" "$work/$name.tsv" \
        before "$(printf '%q --jobs %s --level 6 --quiet --output "$OUT" %q' "$before" "$jobs" "$work/$name")" \
        after "$(printf '%q --jobs %s --level 6 --quiet --output "$OUT" %q' "$after" "$jobs" "$work/$name")"
    echo
    report_rounds "$work/$name.tsv" --ours after \
        --title "$name: $(find "$work/$name" -type f | wc -l) files, --jobs $jobs, level 6 (ours ÷ this = after ÷ before)"
    echo
done
echo "large: the app's corpus ($megabytes MB); small: $small_files text files of 1–64 KiB."
machine_line

#!/usr/bin/env bash
# Makes the timelines Documentation/Walkthrough.md shows
# (Documentation/Images/timeline-STRATEGY.svg): one run of each strategy on
# the walkthrough's corpus, --jobs 2. Every run goes to a scratch folder
# first; the images are replaced only if every run exited 0 with every file
# compressed, so a failed run never becomes a picture. Takes under a minute
# after the build.
#
#   Benchmarks/Scripts/make-walkthrough-images.sh [CORPUS_MB]   (default 24)
#
# Environment: FILE_SQUEEZER=/path/to/file-squeezer uses that binary;
# IMAGES=dir writes the images there instead (e.g. to try the script).
set -euo pipefail
megabytes=${1:-24}
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$(dirname "$0")/common.sh"
need_tools python3
bin=$(file_squeezer_binary "$root")

images=${IMAGES:-$root/Documentation/Images}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" --make-corpus "$work/corpus" --corpus-mb "$megabytes" >&2

strategies=(main-actor actor concurrent parallel)
for strategy in "${strategies[@]}"; do
    status=0
    "$bin" --json --jobs 2 --strategy "$strategy" --output "$work/out-$strategy" \
        --timeline "$work/timeline-$strategy.svg" "$work/corpus" >"$work/$strategy.json" || status=$?
    if [ "$status" -ne 0 ]; then
        echo "error: --strategy $strategy exited $status; the images are left as they were" >&2
        exit 1
    fi
    # Every file compressed, none failed, nothing interrupted (method.py check-run).
    python3 "$method_py" check-run "$work/$strategy.json" "--strategy $strategy" >&2 ||
        { echo "error: the images are left as they were" >&2; exit 1; }
    [ -s "$work/timeline-$strategy.svg" ] || { echo "error: no timeline for $strategy" >&2; exit 1; }
done
for strategy in "${strategies[@]}"; do
    cp "$work/timeline-$strategy.svg" "$images/timeline-$strategy.svg"
done
echo "Wrote $images/timeline-{$(IFS=,; echo "${strategies[*]}")}.svg" \
    "($(nproc) cores, load average $(load_average))" >&2

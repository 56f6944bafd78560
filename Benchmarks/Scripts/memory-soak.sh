#!/usr/bin/env bash
# Memory over time (issue 39, item 7): is the RSS creep of a long-running
# process with the detectors on a leak? Runs the MemorySoakHarness target
# (a process that uses every part of the toolkit request after request, and
# every 10 s makes both detectors report with stacks) in three variants at
# once, each its own process:
#
#   on            StallDetector and ActorContentionDetector started
#   off           neither
#   on-arena1     detectors on, MALLOC_ARENA_MAX=1 (one malloc arena for
#                 every thread: what the detectors' threads add in arenas)
#
# Each samples its VmRSS and malloc's bytes in use (mallinfo2) every second
# and prints a line every PRINT_EVERY seconds, then the RSS after warm-up,
# at the end, the peak, and the least-squares slope after warm-up of both.
# A leak is bytes in use that grow with the requests; RSS above them that
# stops growing once every thread has its arena is the allocator's cache.
#
#   Benchmarks/Scripts/memory-soak.sh                    one hour each (3600 s)
#   SECONDS_TO_RUN=1800 Benchmarks/Scripts/memory-soak.sh
#
# Environment (all optional):
#   SECONDS_TO_RUN=3600   how long each variant runs
#   WARMUP_SECONDS=300    the slope and the "after warm-up" figures start here
#   RATE=200              requests per second (about 5% of one core each)
#   PRINT_EVERY=60        seconds between printed samples
#   TRANSIENT_EVERY=50    a monitored actor made and dropped every N requests
#                         (0: never; 1: every request, to magnify what an
#                         executor leaves behind)
#   VARIANTS="on off on-arena1"
#   OUT=DIR               where each variant's output goes (default: a new
#                         folder in /tmp, printed)
#   HARNESS=/path/to/MemorySoakHarness   use this binary instead of building one
#
# The load average is printed before and after: state it with the figures.
# The three run side by side, so they share the machine's load alike.
set -euo pipefail
source "$(dirname "$0")/common.sh"

seconds=${SECONDS_TO_RUN:-3600}
warmup=${WARMUP_SECONDS:-300}
rate=${RATE:-200}
print_every=${PRINT_EVERY:-60}
variants=${VARIANTS:-on off on-arena1}
positive_integers SECONDS_TO_RUN="$seconds" WARMUP_SECONDS="$warmup" RATE="$rate" PRINT_EVERY="$print_every"
root=$(cd "$(dirname "$0")/../.." && pwd)

harness=${HARNESS:-}
if [ -z "$harness" ]; then
    echo "Building MemorySoakHarness (release) ..." >&2
    swift build --package-path "$root/Benchmarks" -c release --product MemorySoakHarness >&2
    harness="$(swift build --package-path "$root/Benchmarks" -c release --show-bin-path)/MemorySoakHarness"
fi
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/memory-soak.XXXXXX")}
mkdir -p "$out"
echo "Memory soak: $seconds s each, warm-up $warmup s, $rate requests/s; output in $out"
machine_line

pids=()
for variant in $variants; do
    case $variant in
        on) settings=(DETECTORS=1) ;;
        off) settings=(DETECTORS=0) ;;
        on-arena1) settings=(DETECTORS=1 MALLOC_ARENA_MAX=1) ;;
        *) echo "error: unknown variant '$variant' (on, off or on-arena1)" >&2; exit 2 ;;
    esac
    env "${settings[@]}" SECONDS_TO_RUN="$seconds" WARMUP_SECONDS="$warmup" RATE="$rate" PRINT_EVERY="$print_every" \
        nice -n 5 "$harness" >"$out/$variant.txt" 2>"$out/$variant.stderr" &
    pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done

for variant in $variants; do
    echo ""
    echo "== $variant"
    cat "$out/$variant.txt"
done
echo ""
machine_line
exit $status

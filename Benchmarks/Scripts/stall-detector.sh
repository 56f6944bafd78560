#!/usr/bin/env bash
# StallDetector's two targets (issue 15), measured as a program sees them:
#
#   latency   a stall is reported within threshold + 2 probe intervals
#             (450 ms at the defaults): a plain release program
#             (the StallLatencyHarness target) blocks the main actor, then
#             every .medium pool thread, at a random phase of the watchdog's
#             cycle, and times each "ongoing" report from the block's start.
#             It first measures the idle cost (≤ 1% of one core wanted): its
#             own CPU time over IDLE_SECONDS of sleep, detector off, then on.
#   overhead  File Squeezer's wall time with the detector on
#             (--detect-stalls) against off, ≤ 1% wanted: both run once per
#             round, in alternating order, on the app's own corpus; the
#             table gives each one's median, min and max over the rounds and
#             the ratio of the medians, and the same for the process's CPU
#             time (user + system, GNU time), which other processes on the
#             machine disturb less than the wall time.
#
#   Benchmarks/Scripts/stall-detector.sh [latency|overhead ...]   (default: both)
#
# Environment (all optional):
#   ROUNDS=11                              blocks per latency case; runs per variant
#   IDLE_SECONDS=10                        idle time measured off and on (0: skip)
#   CORPUS_MB=64                           size of the overhead corpus
#   JOBS=2                                 --jobs for file-squeezer
#   FILE_SQUEEZER=/path/to/file-squeezer   use this binary instead of building one
#   HARNESS=/path/to/StallLatencyHarness   likewise for the latency harness
#   WORK=/dev/shm                          where the corpus goes (tmpfs by default,
#                                          so the disk does not decide the result)
#
# The load average is printed before and after: state it next to every
# figure (a 1% difference drowns in a busy machine's noise). Needs GNU time
# (apt-get install -y time). About three minutes with the defaults, plus the
# release builds.
set -euo pipefail

rounds=${ROUNDS:-11}
megabytes=${CORPUS_MB:-64}
jobs=${JOBS:-2}
root=$(cd "$(dirname "$0")/../.." && pwd)
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(latency overhead)
for setting in "ROUNDS=$rounds" "CORPUS_MB=$megabytes" "JOBS=$jobs"; do
    if ! [[ ${setting#*=} =~ ^[1-9][0-9]*$ ]]; then
        echo "error: ${setting%%=*} must be a positive integer, not '${setting#*=}'" >&2
        exit 2
    fi
done
for part in "${parts[@]}"; do
    case $part in latency | overhead) ;; *)
        echo "error: unknown part '$part' (latency or overhead)" >&2
        exit 2
        ;;
    esac
done

source "$(dirname "$0")/common.sh"
require_tools awk sort time

load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "load before: $(load) (1/5/15 min), $(nproc) cores" >&2

for part in "${parts[@]}"; do
    if [ "$part" = latency ]; then
        harness=${HARNESS:-}
        if [ -z "$harness" ]; then
            # A new source file in the root package is not seen by an
            # existing build plan of this package: plan again.
            rm -f "$root/Benchmarks/.build/release.yaml"
            swift build --package-path "$root/Benchmarks" -c release --product StallLatencyHarness >&2
            harness="$(swift build --package-path "$root/Benchmarks" -c release --show-bin-path)/StallLatencyHarness"
        fi
        ROUNDS=$rounds "$harness"
        echo
        continue
    fi

    bin=$(file_squeezer_binary "$root")
    base=${WORK:-/dev/shm}
    [ -d "$base" ] && [ -w "$base" ] || base=${TMPDIR:-/tmp}
    work=$(mktemp -d "$base/stall-bench.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    "$bin" --make-corpus "$work/in" --corpus-mb "$megabytes" >&2

    # One run, appended to $1.wall and $1.cpu (seconds); the output is
    # removed outside the timing.
    run() {
        local name=$1
        shift
        /usr/bin/time -o "$work/time" -f "%e %U %S" \
            "$bin" --quiet --jobs "$jobs" --output "$work/out" "$@" "$work/in" >/dev/null
        rm -rf "$work/out"
        awk '{ print $1 >> "'"$work/$name.wall"'"; print $2 + $3 >> "'"$work/$name.cpu"'" }' "$work/time"
    }
    run warm-up  # page cache, binary
    for ((round = 0; round < rounds; round++)); do
        if ((round % 2 == 0)); then
            run off
            run on --detect-stalls
        else
            run on --detect-stalls
            run off
        fi
    done
    # median, min, max of a file of numbers
    stats() { sort -g "$1" | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f %.3f %.3f\n", m, v[1], v[NR] }'; }
    files=$(find "$work/in" -type f | wc -l)
    echo "File Squeezer, $files files, $megabytes MB, --jobs $jobs, level 6, $rounds interleaved rounds:"
    echo
    echo "| file-squeezer | wall median | min | max | CPU (user + sys) median | min | max |"
    echo "|---|---|---|---|---|---|---|"
    for name in off on; do
        read -r wall_median wall_min wall_max <<<"$(stats "$work/$name.wall")"
        read -r cpu_median cpu_min cpu_max <<<"$(stats "$work/$name.cpu")"
        label="detector off"
        [ $name = on ] && label="--detect-stalls"
        echo "| $label | $wall_median s | $wall_min s | $wall_max s | $cpu_median s | $cpu_min s | $cpu_max s |"
        eval "${name}_wall=$wall_median ${name}_cpu=$cpu_median"
    done
    awk -v on="$on_wall" -v off="$off_wall" -v con="$on_cpu" -v coff="$off_cpu" 'BEGIN {
        printf "\nratio of the medians, on / off: wall %.4fx (%+.2f%%), CPU %.4fx (%+.2f%%)\n",
            on / off, (on / off - 1) * 100, con / coff, (con / coff - 1) * 100 }'
    echo
    rm -rf "$work"
    trap - EXIT
done
echo "load after: $(load) (1/5/15 min)" >&2

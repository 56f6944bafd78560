#!/usr/bin/env bash
# StallDetector's two targets (issue 15), measured as a program sees them:
#
#   latency   each stall is reported once, when it ends, within three
#             probe intervals of its end: a plain release program
#             (the StallLatencyHarness target) blocks the main actor, then
#             every .medium pool thread, at a random phase of the watchdog's
#             cycle, and times each ended report from the block's end.
#             It first measures the idle cost (≤ 1% of one core wanted): its
#             own CPU time over IDLE_SECONDS of sleep, detector off, then on.
#   overhead  File Squeezer's wall time with the detector on
#             (--detect-stalls) against off, ≤ 1% wanted, by the one method
#             (common.sh, method.py): both once per round, in alternating
#             order, on the app's own corpus; the table gives each one's
#             median, min and max over the rounds, and on ÷ off taken within
#             each round (median, min, max) for the wall time and for the
#             process's CPU time (user + system, GNU time), which other
#             processes on the machine disturb less than the wall time.
#
#   watchdog  what the detector itself costs a File Squeezer run: the CPU
#             time of its watchdog thread (/proc/PID/task/TID/schedstat,
#             read by thread-cpu.py while the run lasts) against the whole
#             process's, ROUNDS runs with --detect-stalls. The load does not
#             inflate a thread's CPU time the way it spreads wall time, so
#             this shows a fraction of 1% where the overhead part cannot.
#             (The probe jobs themselves run on pool threads: four per
#             interval, a few microseconds each, not counted here.)
#
#   Benchmarks/Scripts/stall-detector.sh [latency|overhead|watchdog ...]   (default: latency overhead)
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
# figure (a 1% difference drowns in a busy machine's noise); the overhead
# table gives the load at the start of every round. Needs GNU time (it
# prints the install command when missing). About three minutes with the defaults,
# plus the release builds; short mode: ROUNDS=2 CORPUS_MB=5 ... overhead.
set -euo pipefail

rounds=${ROUNDS:-11}
megabytes=${CORPUS_MB:-64}
jobs=${JOBS:-2}
root=$(cd "$(dirname "$0")/../.." && pwd)
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(latency overhead)
for part in "${parts[@]}"; do
    case $part in latency | overhead | watchdog) ;; *)
        echo "error: unknown part '$part' (latency, overhead or watchdog)" >&2
        exit 2
        ;;
    esac
done

source "$(dirname "$0")/common.sh"
positive_integers "ROUNDS=$rounds" "CORPUS_MB=$megabytes" "JOBS=$jobs"
need_tools time python3
echo "load before: $(load_average) (1/5/15 min), $(nproc) cores" >&2

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
    work=$(scratch_dir stall-bench)
    trap 'rm -rf "$work"' EXIT
    "$bin" --make-corpus "$work/in" --corpus-mb "$megabytes" >&2
    export OUT=$work/out
    empty_output() { rm -rf "$OUT"; }
    if [ "$part" = watchdog ]; then
        for ((round = 1; round <= rounds; round++)); do
            empty_output
            python3 "$scripts_dir/thread-cpu.py" StallDetector "$bin" --quiet --jobs "$jobs" --output "$OUT" \
                --detect-stalls "$work/in" 2>/dev/null >>"$work/watchdog.txt.raw"
        done
        grep -P '^[0-9.]+\t[0-9.]+\t[0-9.]+$' "$work/watchdog.txt.raw" >"$work/watchdog.txt"
        echo "File Squeezer --detect-stalls, $(find "$work/in" -type f | wc -l) files, $megabytes MB, --jobs $jobs: the watchdog thread's CPU"
        echo
        python3 "$method_py" thread-share "$work/watchdog.txt" StallDetector
        echo
        rm -rf "$work"
        trap - EXIT
        continue
    fi
    command="$(printf '%q --quiet --jobs %s --output "$OUT"' "$bin" "$jobs")"
    before_each=empty_output run_rounds "$rounds" "$work/overhead.tsv" \
        "detector off" "$command $(printf %q "$work/in")" \
        "--detect-stalls" "$command --detect-stalls $(printf %q "$work/in")"
    echo
    report_rounds "$work/overhead.tsv" --ours --detect-stalls --cpu-ratio \
        --title "File Squeezer, $(find "$work/in" -type f | wc -l) files, $megabytes MB, --jobs $jobs, level 6: --detect-stalls ÷ off"
    echo
    rm -rf "$work"
    trap - EXIT
done
echo "load after: $(load_average) (1/5/15 min)" >&2

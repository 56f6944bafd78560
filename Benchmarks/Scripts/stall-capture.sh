#!/usr/bin/env bash
# The stall capture (issue 27), measured as a program sees it: a detector that
# changes nothing in the program it watches. StallCaptureHarness (a plain
# release program of this package) with the detector on at 100 ms:
#
#   matrix    each of usleep, nanosleep, poll, select, sem_timedwait,
#             pthread_cond_timedwait and read() on a pipe blocks the main
#             actor, then every pool thread at once, for 600 ms and for 2 s:
#             every call must return after its full length (±2%) without
#             EINTR, and give exactly one ended report of the right kind, at
#             least 0.9 of the block, whose backtrace names the caller.
#   repeat    200 blocks of 150–300 ms in one process, cycling through the
#             calls and places: no call interrupted (EINTR), none returned
#             early, no capture that found a thread at a system call.
#   strace    REPEATS_STRACE (28: each call and place twice) blocks of repeat
#             under `strace -f`: every system call of every thread that
#             returned EINTR or was restarted (ERESTART*) is listed, and the
#             signals delivered; fails if there is one. The harness's own
#             count (interruptedCalls) also counts calls that had just
#             returned by themselves when the signal came; this does not.
#   cost      one capture's wall time on the watchdog's thread: a thread
#             asleep in poll (read from memory), a running thread
#             (signalled), the memory map (once per stall); ROUNDS rounds,
#             each a median of CAPTURES captures, reported by method.py
#             (median, min, max over the rounds).
#   idle      the idle process's CPU time, detector off and on (≤ 1% of one
#             core): stall-detector.sh latency, reused (ROUNDS=1 there).
#   overhead  File Squeezer with --detect-stalls ÷ off (≤ 1%), by the one
#             method: stall-detector.sh overhead, reused.
#   ci        matrix 600 and repeat 200 only (about 1–2 minutes): exits 1
#             on any failure. For .ci/run.
#
#   Benchmarks/Scripts/stall-capture.sh [ci | all | matrix | repeat | strace | cost | idle | overhead ...]
#                                                             (default: all = the six above)
# Environment (all optional):
#   MATRIX_MS="600 2000"   block lengths for matrix
#   REPEATS=200            blocks for repeat
#   REPEATS_STRACE=28      blocks for strace
#   ROUNDS=11              cost rounds; File Squeezer runs per variant (overhead)
#   CAPTURES=200           captures per kind per cost round
#   ALLOW_LATE=1           matrix: a call that came back late (> 102%) is printed, not a
#                          failure (for a busy CI runner; early or EINTR still fails)
#   HARNESS=/path/to/StallCaptureHarness   use this binary instead of building one
#   (and stall-detector.sh's: IDLE_SECONDS, CORPUS_MB, JOBS, FILE_SQUEEZER)
#
# The load average is printed before and after: state it next to every
# figure. A loaded machine can make a call come back late (> 102%): the
# matrix counts that as a failure too, since the criterion is ±2%; the
# line says "long". Do not edit this script while it runs.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
scripts=$root/Benchmarks/Scripts
source "$scripts/common.sh"
repeats=${REPEATS:-200}
rounds=${ROUNDS:-11}
captures=${CAPTURES:-200}
read -r -a lengths <<<"${MATRIX_MS:-600 2000}"
traced=${REPEATS_STRACE:-28}
positive_integers "REPEATS=$repeats" "REPEATS_STRACE=$traced" "ROUNDS=$rounds" "CAPTURES=$captures"
for length in "${lengths[@]}"; do positive_integers "MATRIX_MS=$length"; done

parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(all)
expanded=()
for part in "${parts[@]}"; do
    case $part in
        all) expanded+=(matrix repeat strace cost idle overhead) ;;
        ci) expanded+=(ci) ;;
        matrix | repeat | strace | cost | idle | overhead) expanded+=("$part") ;;
        *)
            echo "error: unknown part '$part' (ci, all, matrix, repeat, strace, cost, idle or overhead)" >&2
            exit 2
            ;;
    esac
done
need_tools python3
echo "load before: $(load_average) (1/5/15 min), $(nproc) cores" >&2

harness=${HARNESS:-}
build_harness() {
    [ -z "$harness" ] || return 0
    # A new source file in the root package is not seen by an existing build
    # plan of this package: plan again.
    rm -f "$root/Benchmarks/.build/release.yaml"
    swift build --package-path "$root/Benchmarks" -c release --product StallCaptureHarness >&2
    harness="$(swift build --package-path "$root/Benchmarks" -c release --show-bin-path)/StallCaptureHarness"
}

failures=0
run_harness() { # a failing check is counted, and the other parts still run
    "$harness" "$@" || failures=$((failures + 1))
    echo
}

for part in "${expanded[@]}"; do
    case $part in
        ci)
            build_harness
            run_harness matrix 600
            run_harness repeat "$repeats"
            ;;
        matrix)
            build_harness
            for length in "${lengths[@]}"; do run_harness matrix "$length"; done
            ;;
        repeat)
            build_harness
            run_harness repeat "$repeats"
            ;;
        strace)
            need_tools strace
            build_harness
            trace=$(mktemp)
            run_harness_traced() { strace -f -qq -o "$trace" "$harness" repeat "$traced"; }
            run_harness_traced || failures=$((failures + 1))
            signals=$(grep -c -- '--- SIG' "$trace" || true)
            interrupted=$(grep -cE '= \? ERESTART|= -1 EINTR' "$trace" || true)
            echo "Under strace -f, $traced blocks: $signals signals delivered; system calls that returned EINTR or were restarted, in every thread: $interrupted"
            grep -E '= \? ERESTART|= -1 EINTR' "$trace" | head -20 || true
            [ "$interrupted" = 0 ] || failures=$((failures + 1))
            rm -f "$trace"
            echo
            ;;
        cost)
            build_harness
            rows=$(mktemp)
            ROUNDS=$rounds CAPTURES=$captures run_harness cost "$rows"
            echo "### One capture, wall time on the capturing thread (s per capture)"
            echo
            python3 "$method_py" report-operations "$rows"
            rm -f "$rows"
            echo
            machine_line
            echo
            ;;
        idle)
            ROUNDS=1 IDLE_SECONDS=${IDLE_SECONDS:-10} "$scripts/stall-detector.sh" latency
            ;;
        overhead)
            ROUNDS=$rounds "$scripts/stall-detector.sh" overhead
            ;;
    esac
done
echo "load after: $(load_average) (1/5/15 min)" >&2
if [ "$failures" -gt 0 ]; then
    echo "stall-capture: $failures part(s) failed" >&2
    exit 1
fi

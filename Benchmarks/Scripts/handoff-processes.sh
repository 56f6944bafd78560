#!/usr/bin/env bash
# `run` against Dispatch, one short process per case, for comparing builds
# whose difference is smaller than a process's luck. On this 2-core VM a
# process lands in a fast or a slow mode for its whole life (Dispatch's round
# trip took 6.1 µs in most processes and 14–19 µs in some, before the toolkit
# ran anything). primitives.sh with BUSY runs a process per round that times
# every case; here every sample is two processes of one case each,
# `DispatchQueue.async` + checked continuation, then
# `BlockingExecutor(width: 2).run { i }` back to back (HandOffHarness, 3 rounds
# of SLOW round trips, the best of the two timed rounds), the builds
# alternating sample by sample; the table gives, per build, the median over
# the samples of each side and the ratio of the medians (Performance.md, "A
# quiet machine, and the parked hand-off's bookkeeping").
#
#   HARNESSES="before=/path/HandOffHarness after=/path/HandOffHarness" \
#       Benchmarks/Scripts/handoff-processes.sh
#
# Environment: HARNESSES (required: NAME=BINARY pairs, HandOffHarness binaries
# built against the checkouts to compare, as primitives.sh's HARNESS takes),
# SAMPLES=20, SLOW=3000, BUSY=1 (the `yes` processes beside every sample, one
# level; common.sh). The load is printed before and after.
set -euo pipefail
source "$(dirname "$0")/common.sh"

[ -n "${HARNESSES:-}" ] || { echo "error: set HARNESSES=\"NAME=BINARY ...\" (see the header)" >&2; exit 2; }
positive_integers "SAMPLES=${SAMPLES:=20}" "SLOW=${SLOW:=3000}"
rows=$(mktemp)
trap 'busy_stop; rm -f "$rows"' EXIT

# The fastest of the process's timed rounds (its first round is the warm-up).
best_round() {
    ONLY="$1" ROUNDS=3 SLOW="$SLOW" "$2" 2>/dev/null | awk -F'\t' '
        $2 !~ /p99/ && $1 ~ /^[0-9]+$/ && $1 > 1 { if (best == "" || $3 < best) best = $3 }
        END { print best }'
}

BUSY=${BUSY:-1}
busy_levels=("${BUSY%%,*}")
echo "load before: $(load_average) (1/5/15 min), $(nproc) cores, ${busy_levels[0]} busy" >&2
busy_start "${busy_levels[0]}"
for ((sample = 1; sample <= SAMPLES; sample++)); do
    for pair in $HARNESSES; do
        name=${pair%%=*} binary=${pair#*=}
        printf '%s\t%s\t%s\n' "$name" "$(best_round "DispatchQueue.async" "$binary")" \
            "$(best_round "BlockingExecutor(width: 2).run" "$binary")" >>"$rows"
    done
done
busy_stop
python3 - "$rows" "$SAMPLES" <<'PY'
import statistics, sys
from collections import defaultdict
samples = defaultdict(list)
for line in open(sys.argv[1]):
    name, dispatch, run = line.split("\t")
    samples[name].append((float(dispatch), float(run)))
print("| build | Dispatch | `run` | ratio of the medians | processes |")
print("|---|---|---|---|---|")
for name, pairs in samples.items():
    dispatch = statistics.median(d for d, _ in pairs)
    run = statistics.median(r for _, r in pairs)
    print(f"| {name} | {dispatch * 1e6:.2f} µs | {run * 1e6:.2f} µs | **{run / dispatch:.3f}x** | {len(pairs)} × 2 |")
PY
echo "load after: $(load_average) (1/5/15 min)" >&2

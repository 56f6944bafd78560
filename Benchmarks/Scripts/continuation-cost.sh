#!/usr/bin/env bash
# SafeContinuation against the standard library (issue 40): each of our
# continuation shapes paired with its peer in every round, the order
# alternating round by round (HandOffHarness's CONTINUATION_PAIRS mode,
# ContinuationPairs.swift), and per pair the round's ratio ours ÷ peer:
# median, 99th percentile, min and max over the rounds (method.py
# report-pairs). Goals: plain ≤ 1.00x `withCheckedThrowingContinuation`;
# `onCancel:` ≤ 1.05x checked inside `withTaskCancellationHandler`. The load
# is printed before and after and summarised under the table: state it next
# to every figure.
#
#   Benchmarks/Scripts/continuation-cost.sh
#
# Environment (all optional):
#   ROUNDS=201        rounds (each runs every pair once, both sides)
#   OPERATIONS=20000  round trips per side and round
#   HARNESS=/path     use this HandOffHarness binary instead of building one
#                     (e.g. one built against another checkout)
#   ROWS=/path        also keep the rows there
#   ONLY=substring    run only the pairs with a side whose name contains it
#   PROCESSES=1       split the rounds over this many harness processes, one
#                     after another (ROUNDS each; the table pools every
#                     process's rounds): on this VM a process keeps a fast or
#                     slow mode for its life, which one process per run
#                     carries into every round of it (Performance.md,
#                     "SafeContinuation against the stdlib (issue 40)")
set -euo pipefail
source "$(dirname "$0")/common.sh"
cd "$scripts_dir/.."

harness=$(handoff_harness)
rows=${ROWS:-$(mktemp)}
[ -n "${ROWS:-}" ] || trap 'rm -f "$rows"' EXIT
echo "load before: $(load_average) (1/5/15 min), $(nproc) cores" >&2
positive_integers "PROCESSES=${PROCESSES:=1}" "ROUNDS=${ROUNDS:=201}"
: >"$rows"
for ((process = 0; process < PROCESSES; process++)); do
    # Rounds numbered across the processes, so each stays one round of the table.
    CONTINUATION_PAIRS=1 ROUNDS=$ROUNDS OPERATIONS=${OPERATIONS:-20000} "$harness" |
        awk -F'\t' -v OFS='\t' -v first="$process" -v rounds="$ROUNDS" \
            'NR == 1 { if (first == 0) print; next } { $1 = $1 + first * rounds; print }' >>"$rows"
done
python3 "$method_py" report-pairs "$rows" \
    --pair '`withSafeThrowingContinuation`' '`withCheckedThrowingContinuation`' \
    --pair '`withSafeThrowingContinuation`, not inlined' '`withCheckedThrowingContinuation`, not inlined' \
    --pair '`withSafeThrowingContinuation(onCancel:)`, not inlined' \
    'checked inside `withTaskCancellationHandler`, not inlined' \
    --pair '`withSafeThrowingContinuation(onCancel:)`' 'checked inside `withTaskCancellationHandler`'
echo "load after: $(load_average) (1/5/15 min)" >&2

#!/usr/bin/env bash
# The primitives timed as a user would: a plain release program (the
# HandOffHarness target), not package-benchmark. Continuation round trips,
# blocking round trips against Dispatch and NIOThreadPool, ThrottledProgress
# delivery and a default actor's hop (DeliveryCases.swift), and this machine's
# hand-off limit (two threads passing a token through a futex, parking or
# spinning first). Every case runs once per round in a rotating order; the
# table (method.py report-operations, from the harness's rows) gives
# per-operation medians over the rounds with min and max, each hand-off also
# as a multiple of the two limits, taken within each round. The load is
# printed before and after, and at the start of every round under the table:
# state it next to every figure.
#
#   Benchmarks/Scripts/primitives.sh
#
# Environment (all optional):
#   ROUNDS=7          interleaved rounds
#   FAST=200000       continuation round trips per round
#   SLOW=5000         thread round trips per round
#   HANDOFFS=5000     futex ping-pong round trips per round
#   ONLY=substring    run only the cases whose name contains it
#   HARNESS=/path     use this HandOffHarness binary instead of building one
#                     (e.g. one built against another checkout)
#   BUSY=0,1,2,4      measure at each of these loads: that many `yes`
#                     processes beside every round (common.sh); then
#                     tables of `run`, `ThrottledProgress` delivery and
#                     the two executors' hops against Dispatch and against
#                     a default actor's hop, with p99, per load come first. The back-to-back cases are timed call
#                     by call: their rows ", p99" are each round's 99th
#                     percentile call.
#   IDLE=1            also measure an idle BlockingExecutor's CPU use over
#                     10 s after its last job (getrusage; HandOffHarness/Idle.swift)
#
# The rounds run inside the harness (a round is milliseconds of work: timing
# it from a shell would time the process start), rotating as common.sh's
# run_rounds does, and it prints method.py's rows. Short mode:
# ROUNDS=2 FAST=2000 SLOW=200 HANDOFFS=200 Benchmarks/Scripts/primitives.sh
set -euo pipefail
source "$(dirname "$0")/common.sh"
cd "$scripts_dir/.."

harness=$(handoff_harness)
rows=$(mktemp)
trap 'busy_stop; rm -f "$rows"' EXIT
echo "load before: $(load_average) (1/5/15 min), $(nproc) cores" >&2
harness_rounds "${ROUNDS:-7}" "$rows" env -u IDLE "$harness"
if [ -n "${BUSY:-}" ]; then
    dispatch='`DispatchQueue.async` + checked continuation, back to back'
    actor='default actor hop, back to back'
    for ours in '`BlockingExecutor(width: 2).run { i }`, back to back' \
        '`ThrottledProgress` delivery, interval zero, back to back' \
        '`MonitoredActorExecutor` hop, back to back' '`BlockingSerialExecutor` hop, back to back'; do
        grep -qF "	$ours	" "$rows" || continue
        for peer in "$dispatch" "$actor"; do
            python3 "$method_py" report-busy "$rows" --ours "$ours" --versus "$peer"
            echo
        done
    done
fi
python3 "$method_py" report-operations "$rows" \
    --versus "parking limit" "two threads handing a token through a futex, both parking (C)" \
    --versus "spinning limit" "the same, spinning up to 2,000 pauses before parking (C)" \
    --versus-rows 'back to back|^two threads|^the same, spinning'
if [ -n "${IDLE:-}" ]; then
    IDLE=1 "$harness"
fi
echo "load after: $(load_average) (1/5/15 min)" >&2

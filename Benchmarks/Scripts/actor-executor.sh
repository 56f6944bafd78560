#!/usr/bin/env bash
# What adopting MonitoredActorExecutor costs an actor (issue 28, item 6),
# beside a default actor and BlockingSerialExecutor: an uncontended hop, a
# contended hop (8 tasks calling at once), 10,000 jobs from 8 tasks, and the
# bookkeeping per job. A plain release program (HandOffHarness with ACTORS=1,
# cases in HandOffHarness/ActorCases.swift): package-benchmark runs its cases
# one after another, so it cannot interleave them.
#
# The method (common.sh): every case runs once per round, in an order that
# rotates each round; per case the median over the rounds with min and max;
# each executor's figure ÷ the default actor's taken within each round, then
# their median, min and max; the load at the start of every round. The
# 10,000 jobs run also on monitored actors made in a trace recording (one
# that has ended: what an adopting actor pays with nothing recording; one
# that runs meanwhile: what recording costs). The
# bookkeeping per job is a case of its own: in each round, the queue step
# with measures and the bare heap back to back, the difference per job.
#
#   ROUNDS=11 Benchmarks/Scripts/actor-executor.sh
#
# Environment (all optional):
#   ROUNDS=11        interleaved rounds
#   HOPS=100000      hops per round, per hop case
#   BATCHES=10       batches of 10,000 jobs per round
#   JOBS=1000000     queue steps per round for the bookkeeping
#   HARNESS=/path    use this HandOffHarness binary instead of building one
#   BUSY=0,1,2,4     each round at each of these loads (common.sh)
# Short mode: ROUNDS=2 HOPS=2000 BATCHES=1 JOBS=10000 Benchmarks/Scripts/actor-executor.sh
set -euo pipefail
source "$(dirname "$0")/common.sh"
cd "$scripts_dir/.."

harness=$(handoff_harness)
work=$(mktemp -d)
trap 'busy_stop; rm -rf "$work"' EXIT
echo "load before: $(load_average) (1/5/15 min), $(nproc) cores" >&2
harness_rounds "${ROUNDS:-11}" "$work/rows.tsv" env ACTORS=1 "$harness"
head -1 "$work/rows.tsv" >"$work/header"
for case in "uncontended hop" "contended hop, 8 tasks" "10,000 jobs from 8 tasks, per job"; do
    echo
    echo "### $case"
    echo
    { cat "$work/header"; grep -F "	$case: " "$work/rows.tsv"; } >"$work/case.tsv"
    versus=(--versus "default actor" "$case: default actor")
    # The 10,000 jobs also made in a recording: beside the same actor made outside one.
    grep -qF "$case: \`MonitoredActorExecutor\`, " "$work/case.tsv" &&
        versus+=(--versus "made outside a recording" "$case: \`MonitoredActorExecutor\`")
    python3 "$method_py" report-operations "$work/case.tsv" "${versus[@]}" --versus-rows 'Executor`'
done
echo
echo "### Bookkeeping per job"
echo
{ cat "$work/header"; grep -E "	(queue step|bare priority heap|one clock read|bookkeeping)" "$work/rows.tsv"; } >"$work/book.tsv"
python3 "$method_py" report-operations "$work/book.tsv"
echo "load after: $(load_average) (1/5/15 min)" >&2

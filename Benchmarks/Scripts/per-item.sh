#!/usr/bin/env bash
# The toolkit's cost per item (issue 29): `concurrentForEach` over trivial
# items, and tiny `BlockingExecutor.run` jobs through it (what File Squeezer
# does per batch of tiny files), each beside the hand-written task group and
# the hand-written Dispatch loop a user would write instead, 2 at a time.
# A plain release program (HandOffHarness with PER_ITEM=1, cases in
# HandOffHarness/PerItemCases.swift, the peers in
# HarnessSupport/PerItemPeers.swift): package-benchmark runs its cases one
# after another, so it cannot interleave them.
#
# The method (common.sh): every case runs once per round, in an order that
# rotates each round; per case the median over the rounds with min and max;
# the toolkit's figure ÷ each peer's taken within each round, then their
# median, min and max; the load at the start of every round. Issue 29's
# target: the toolkit within 1.2x of the hand-written task group.
#
#   ROUNDS=21 Benchmarks/Scripts/per-item.sh
#
# Environment (all optional):
#   ROUNDS=21        interleaved rounds
#   ITEMS=100000     items per round, per case
#   HARNESS=/path    use this HandOffHarness binary instead of building one
#   BUSY=0,1,2,4     each round at each of these loads (common.sh)
# Short mode: ROUNDS=2 ITEMS=2000 Benchmarks/Scripts/per-item.sh
set -euo pipefail
source "$(dirname "$0")/common.sh"
cd "$scripts_dir/.."

harness=$(handoff_harness)
work=$(mktemp -d)
trap 'busy_stop; rm -rf "$work"' EXIT
echo "load before: $(load_average) (1/5/15 min), $(nproc) cores" >&2
harness_rounds "${ROUNDS:-21}" "$work/rows.tsv" env PER_ITEM=1 ITEMS="${ITEMS:-100000}" "$harness"
head -1 "$work/rows.tsv" >"$work/header"
# Each workload's task-group peer, as the harness names it.
declare -A group_peer=(
    ["trivial items, 2 at a time"]="hand-written TaskGroup (peer)"
    ["tiny io.run jobs, 2 at a time"]="hand-written TaskGroup + continuation + serial queues (peer)"
)
for case in "trivial items, 2 at a time" "tiny io.run jobs, 2 at a time"; do
    echo
    echo "### $case (per item)"
    echo
    { cat "$work/header"; grep -F "	$case: " "$work/rows.tsv"; } >"$work/case.tsv"
    python3 "$method_py" report-operations "$work/case.tsv" \
        --versus "task group" "$case: ${group_peer[$case]}" \
        --versus "Dispatch loop" "$case: hand-written Dispatch loop (peer)" \
        --versus-rows '`concurrentForEach`'
done
echo "load after: $(load_average) (1/5/15 min)" >&2

#!/usr/bin/env python3
"""The report of Benchmarks/Scripts/package-benchmarks.sh: median of the
rounds' p50s, with min and max, per benchmark and metric, and ours ÷ peer
taken within each round. Reads the rounds a run saved:

    python3 Benchmarks/Scripts/package-benchmarks.py DIR

DIR holds round-1.md, round-2.md, ... (`swift package benchmark --format
markdown --time-units nanoseconds`) and rounds.tsv (load before and after
each round). Prints Markdown: one table per group of benchmarks (the name
before the last ": "), then the ratios to peers.
"""

import math
import re
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
from method import spread, times  # noqa: E402 (the one method's statistics, beside this file)

# Who is compared with whom. By default every benchmark of a group whose name
# does not end in "(peer)" is compared with every peer of its group; where a
# group holds several of ours that answer different peers, the pairs are
# named here (as Documentation/Performance.md's tables pair them).
ROUND = "Continuation round trip: "
PEERS = {
    ROUND + "SafeContinuation": [ROUND + "CheckedContinuation (peer)", ROUND + "UnsafeContinuation (peer)"],
    ROUND + "SafeContinuation with creation backtraces": [ROUND + "CheckedContinuation (peer)"],
    ROUND + "SafeContinuation onCancel": [ROUND + "CheckedContinuation in withTaskCancellationHandler (peer)"],
    ROUND + "SafeContinuation timeout": [ROUND + "CheckedContinuation (peer)"],
}

# Throughput is the inverse of the wall clock; it adds nothing here.
SKIPPED_METRICS = ("Throughput",)
WALL_CLOCK = "Time (wall clock)"


def parse_round(path):
    """{benchmark: {metric label: p50}} from one round's Markdown output."""
    results, name, columns = {}, None, None
    for line in path.read_text(errors="replace").splitlines():
        if line.startswith("### "):
            name, columns = line[4:].strip(), None
            results[name] = {}
            continue
        if name is None or not line.startswith("|"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if cells[0] == "Metric":
            columns = cells
        elif columns and not set(cells[0]) <= set(":-") and "p50" in columns:
            label, factor = counted_in(cells[0].removesuffix("*").strip())
            if not label.startswith(SKIPPED_METRICS):
                results[name][label] = float(cells[columns.index("p50")]) * factor
    return {name: metrics for name, metrics in results.items() if metrics}


# package-benchmark picks the unit of a count per run ("Malloc (total) (K)" in
# one round, plain in another); --time-units fixes only the times. Counts are
# kept as plain numbers here.
SI = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}


def counted_in(label):
    """('Malloc (total) (K)') -> ('Malloc (total)', 1000.0); other labels with factor 1."""
    match = re.fullmatch(r"(.*) \(([KMGTP])\)", label)
    return (match[1], SI[match[2]]) if match else (label, 1.0)


def metric_name(label):
    """'Time (wall clock) (ns)' -> 'Time (wall clock)'; other labels as they are."""
    return label.removesuffix(" (ns)")


def show(label, value):
    """A value in the unit its label names, three significant figures."""
    if label.endswith("(ns)"):
        for unit, size in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
            if value >= size:
                return f"{significant(value / size)} {unit}"
        return f"{significant(value, scaled=False)} ns"
    if value >= 1e4:
        for unit, size in (("G", 1e9), ("M", 1e6), ("K", 1e3)):
            if value >= size:
                return f"{significant(value / size)} {unit}"
    return significant(value, scaled=False)


def significant(value, scaled=True):
    """Three significant figures (2.10, 34.0, 623); unscaled whole numbers as they are (61 ns, 7)."""
    if value == int(value) and (not scaled or value >= 100):
        return f"{int(value)}"
    decimals = max(0, 2 - math.floor(math.log10(abs(value))))
    return f"{value:.{decimals}f}"


def group_of(name):
    return name.rsplit(": ", 1)[0] if ": " in name else name


def short(name):
    return name.rsplit(": ", 1)[1] if ": " in name else name


def peers_of(name, names):
    if name.endswith("(peer)"):
        return []
    if name in PEERS:
        return [peer for peer in PEERS[name] if peer in names]
    return [other for other in names if group_of(other) == group_of(name) and other.endswith("(peer)")]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    folder = Path(sys.argv[1])
    files = sorted(folder.glob("round-*.md"), key=lambda path: int(re.sub(r"\D", "", path.name)))
    rounds = [parse_round(path) for path in files]
    if not rounds or not any(rounds):
        sys.exit(f"error: no benchmark results in {folder}/round-*.md")

    names = []  # in the order package-benchmark printed them
    for results in rounds:
        names += [name for name in results if name not in names]

    loads = []
    table = folder / "rounds.tsv"
    if table.exists():
        for row in table.read_text().splitlines()[1:]:
            number, before, after, seconds = row.split("\t")
            loads.append(f"round {number}: {before} → {after}, {seconds} s")
    print(f"{len(rounds)} rounds, each a full run of every selected benchmark; per benchmark and metric, "
          "the median of the rounds' p50s, with min and max. Ratios are ours ÷ peer within each round "
          "(wall clock p50), then median, min and max over the rounds.")
    if loads:
        print(f"\nLoad average (1/5/15 min) before → after: {'; '.join(loads)}.")

    groups = []
    for name in names:
        if group_of(name) not in groups:
            groups.append(group_of(name))
    for group in groups:
        members = [name for name in names if group_of(name) == group]
        members.sort(key=lambda name: name.endswith("(peer)"))  # ours first, as in Performance.md
        print(f"\n### {group}\n")
        print("| benchmark | metric (p50) | median | min | max | rounds |")
        print("|---|---|---|---|---|---|")
        for name in members:
            labels = []
            for results in rounds:
                labels += [label for label in results.get(name, {}) if label not in labels]
            labels.sort(key=lambda label: (not label.startswith(WALL_CLOCK), label))
            for index, label in enumerate(labels):
                values = [results[name][label] for results in rounds if label in results.get(name, {})]
                median, low, high = spread(values)
                shown = f"**{short(name)}**" if not name.endswith("(peer)") else short(name)
                print(f"| {shown if index == 0 else ''} | {metric_name(label)} | {show(label, median)} "
                      f"| {show(label, low)} | {show(label, high)} | {len(values)} |")

        pairs = [(ours, peer) for ours in members for peer in peers_of(ours, names)]
        if not pairs:
            continue
        print("\n| ours ÷ peer, wall clock p50 per round | median | min | max | rounds |")
        print("|---|---|---|---|---|")
        for ours, peer in pairs:
            ratios = []
            for results in rounds:
                mine = next((v for k, v in results.get(ours, {}).items() if k.startswith(WALL_CLOCK)), None)
                theirs = next((v for k, v in results.get(peer, {}).items() if k.startswith(WALL_CLOCK)), None)
                if mine is not None and theirs:
                    ratios.append(mine / theirs)
            if ratios:
                median, low, high = spread(ratios)
                print(f"| {short(ours)} ÷ {short(peer)} | {times(median)} | {times(low)} | {times(high)} "
                      f"| {len(ratios)} |")


if __name__ == "__main__":
    main()

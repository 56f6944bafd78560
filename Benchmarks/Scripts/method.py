#!/usr/bin/env python3
"""The benchmark method's statistics and reports: the one place every script
in Benchmarks/Scripts takes a median, a ratio or a load figure from.

The method (common.sh runs it, this module reads what it recorded):
  - interleaved rounds: every command runs once per round, in an order that
    rotates every round, so a slow stretch of the machine falls on all alike;
  - each figure is the median over the rounds, with min and max (no best-of-N);
  - a ratio "ours ÷ this" is taken within each round (ours in round r ÷ this
    in round r), then its median, min and max over the rounds: drift slower
    than a round cancels out;
  - the load average is recorded at the start of every round and printed.

Rows (common.sh's run_rounds writes them, tab-separated, with a header):
    round  label  wall_s  user_s  sys_s  rss_kib  load1  [busy]
busy, when present, is how many busy processes ran beside the round
(BUSY=0,1,2,4 in common.sh); every report then gives each level on its own.

Commands:
    method.py report ROWS [--ours LABEL] [--title TEXT] [--per COUNT] [--cpu-ratio]
        Markdown table: wall, CPU (user + sys) and peak memory per command,
        ours ÷ each other command within the rounds, and the load per round;
        with --per, also the wall and system time per file (µs); with
        --cpu-ratio, also ours ÷ this for the CPU time, within the rounds.
    method.py report-operations ROWS [--versus NAME LABEL ...] [--versus-rows REGEX]
        For rows whose wall time is seconds per operation (HandOffHarness):
        median, min and max per operation; for the labels matching REGEX,
        also this ÷ LABEL within each round, in a column "× NAME".
    method.py report-busy ROWS --ours LABEL --versus LABEL
        For harness rows measured at several busy levels (BUSY, common.sh):
        per level, ours and the peer per operation, ours ÷ peer within each
        round, and the same for their rows "LABEL, p99" (each round's
        99th-percentile call), with the load.
    method.py report-pairs ROWS --pair OURS PEER [--pair OURS PEER ...]
        For harness rows where each OURS ran beside its PEER in every round
        (ContinuationPairs.swift): per pair, both per operation (median over
        the rounds), and OURS ÷ PEER within each round: the median, the 99th
        percentile (the round ratio 1% of rounds exceed), min and max.
    method.py thread-share LINES NAME
        LINES holds one line per run from thread-cpu.py (NAME's CPU s, the
        process's CPU s, wall s): NAME's CPU, the process's, and NAME's
        share of the process's CPU, median (min–max) over the runs.
    method.py tiny-corpus DIR FILES FOLDERS
        FILES tiny files of 1–300 bytes, slices of /usr/share/doc's text, in
        FOLDERS folders (the issue-29 "tiny" corpus).
    method.py check-run JSON NAME
        Checks a `file-squeezer --json` report: every file compressed, none
        failed or unfinished; prints a one-line summary (exit 1 otherwise).
"""

import json
import math
import os
import re
import statistics
import sys


# --- statistics -------------------------------------------------------------

def spread(values):
    """(median, min, max) of a non-empty sequence of numbers."""
    values = list(values)
    if not values:
        raise ValueError("spread of no values")
    return statistics.median(values), min(values), max(values)


def cpu_s(row):
    return row["user_s"] + row["sys_s"]


def wall_s(row):
    return row["wall_s"]


def ratios_within_rounds(rows, ours, other, measure=wall_s):
    """ours ÷ other (wall time, or another measure of a row) for every round
    that ran both, in round order."""
    by_round = {}
    for row in rows:
        by_round.setdefault(row["round"], {})[row["label"]] = measure(row)
    return [runs[ours] / runs[other] for _, runs in sorted(by_round.items())
            if ours in runs and other in runs and runs[other] > 0]


def loads_per_round(rows):
    """[(round, 1-minute load at its start)] in round order."""
    seen = {}
    for row in rows:
        seen.setdefault(row["round"], row["load1"])
    return sorted(seen.items())


# --- formatting -------------------------------------------------------------

def times(ratio, decimals=2):
    """1.07x, 0.92x; below 0.1x two significant figures (0.0043x), not 0.00x."""
    return f"{ratio:.{decimals}f}x" if ratio >= 0.1 else f"{ratio:.2g}x"


def cell(label):
    """A label for a Markdown table cell: a "|" would end the cell, even in `code`."""
    return label.replace("|", "\\|")


def seconds(value):
    return f"{value:.3f}" if value < 100 else f"{value:.1f}"


def shown_spread(values, show):
    median, low, high = spread(values)
    return f"{show(median)} ({show(low)}–{show(high)})"


def load_line(rows):
    loads = loads_per_round(rows)
    if not loads:
        return ""
    median, low, high = spread(load for _, load in loads)
    listed = ", ".join(f"{load:.2f}" for _, load in loads)
    return (f"Load average (1 min) at the start of each round: median {median:.2f} "
            f"({low:.2f}–{high:.2f}); by round: {listed}. {os.cpu_count()} cores.")


# --- rows -------------------------------------------------------------------

FIELDS = {"round": int, "label": str, "wall_s": float, "user_s": float,
          "sys_s": float, "rss_kib": float, "load1": float}
# Optional: how many busy processes ran beside the round (BUSY, common.sh).
OPTIONAL_FIELDS = {"busy": (int, "0")}


def read_rows(path):
    with open(path) as source:
        lines = source.read().splitlines()
    if not lines:
        return []
    header = lines[0].split("\t")
    rows = []
    for line in lines[1:]:
        cells = dict(zip(header, line.split("\t")))
        row = {name: kind(cells[name]) for name, kind in FIELDS.items()}
        row.update({name: kind(cells.get(name, default)) for name, (kind, default) in OPTIONAL_FIELDS.items()})
        rows.append(row)
    return rows


def busy_levels(rows):
    """The busy-process counts the rows were measured at, ascending."""
    return sorted({row["busy"] for row in rows})


def per_busy_level(rows, make, title=None):
    """make(rows) once per busy level, each under a heading naming it; just
    make(rows) when every row ran at one level."""
    levels = busy_levels(rows)
    if len(levels) <= 1:
        return make(rows)
    parts = []
    for level in levels:
        heading = f"{title}, " if title else ""
        parts += [f"#### {heading}{level} busy process{'es' if level != 1 else ''} beside it", "",
                  make([row for row in rows if row["busy"] == level]), ""]
    return "\n".join(parts).rstrip()


def labels_of(rows):
    labels = []
    for row in rows:
        if row["label"] not in labels:
            labels.append(row["label"])
    return labels


def shown_ratio(ratios):
    if not ratios:
        return "–"
    median, low, high = spread(ratios)
    return f"**{times(median, 3)}** ({times(low, 3)}–{times(high, 3)})"


def report(rows, ours=None, title=None, per=None, cpu_ratio=False):
    """The Markdown report of one set of interleaved rounds; with `per` (a
    count of files or items), also the median wall and system time per item;
    with `cpu_ratio`, also ours ÷ this for the CPU time (user + system)."""
    labels = labels_of(rows)
    if not labels:
        raise SystemExit("error: no rows to report")
    ours = ours or labels[0]
    if ours not in labels:
        raise SystemExit(f"error: --ours '{ours}' is none of: {', '.join(labels)}")
    rounds = len({row["round"] for row in rows})
    out = []
    if title:
        out += [f"### {title}", ""]
    out += [f"{rounds} interleaved rounds; median (min–max) over the rounds. "
            f"ours ÷ this: {ours}'s wall time ÷ this command's in the same round, "
            "median (min–max) of the rounds' ratios; below 1.00x ours is faster.", ""]
    header = "| command | wall (s) | CPU user + sys (s) | peak memory (MiB) | ours ÷ this |"
    if cpu_ratio:
        header += " ours ÷ this, CPU |"
    if per:
        header += " wall per file (µs) | system per file (µs) |"
    out += [header, "|---" * header.count(" | ") + "|---|"]
    for label in labels:
        mine = [row for row in rows if row["label"] == label]
        wall = shown_spread((row["wall_s"] for row in mine), seconds)
        cpu = shown_spread((cpu_s(row) for row in mine), seconds)
        rss = shown_spread((row["rss_kib"] / 1024 for row in mine), lambda v: f"{v:.1f}")
        ratio = "(ours)" if label == ours else shown_ratio(ratios_within_rounds(rows, ours, label))
        line = f"| `{cell(label)}` | {wall} | {cpu} | {rss} | {ratio} |"
        if cpu_ratio:
            line += " (ours) |" if label == ours else f" {shown_ratio(ratios_within_rounds(rows, ours, label, cpu_s))} |"
        if per:
            line += (f" {statistics.median(row['wall_s'] for row in mine) * 1e6 / per:.1f} |"
                     f" {statistics.median(row['sys_s'] for row in mine) * 1e6 / per:.1f} |")
        out.append(line)
    out += ["", load_line(rows)]
    return "\n".join(out)


def per_operation(seconds_):
    """A time per operation: 51.9 ns, 8.4 µs."""
    nanoseconds = seconds_ * 1e9
    return f"{nanoseconds / 1e3:.1f} µs" if nanoseconds >= 1000 else f"{nanoseconds:.1f} ns"


def operations_report(rows, versus=(), versus_rows=None):
    """The report of rows whose wall time is seconds per operation (the
    harnesses' rounds): median, min and max per operation, and for the labels
    matching `versus_rows`, this ÷ each (name, label) of `versus`, within
    each round."""
    labels = labels_of(rows)
    rounds = len({row["round"] for row in rows})
    header = "| operation | median | min | max |" + "".join(f" × {name} |" for name, _ in versus)
    out = [header, "|---" * header.count(" | ") + "|---|"]
    for label in labels:
        median, low, high = spread(row["wall_s"] for row in rows if row["label"] == label)
        line = f"| {cell(label)} | {per_operation(median)} | {per_operation(low)} | {per_operation(high)} |"
        for _, limit in versus:
            ratios = ratios_within_rounds(rows, label, limit)
            line += (f" {shown_ratio(ratios).replace('**', '')} |"
                     if versus_rows and re.search(versus_rows, label) and ratios else " |")
        out.append(line)
    out += ["", f"{rounds} interleaved rounds; per-operation median, min and max over the rounds; "
            "× a limit: this ÷ the limit within each round, median (min–max).", "", load_line(rows)]
    return "\n".join(out)


def busy_report(rows, ours, versus):
    """One line per busy level: ours and versus per operation (median over
    the rounds), ours ÷ versus within each round, and the same for their
    rows "LABEL, p99" (each round's 99th-percentile call) where present."""
    tail = ", p99"
    header = ("| busy processes | ours | peer | ours ÷ peer | ours p99 | peer p99 | ours p99 ÷ peer p99 "
              "| load (1 min) |")
    out = [f"ours: {cell(ours)}; peer: {cell(versus)}.", "", header, "|---" * header.count(" | ") + "|---|"]
    for level in busy_levels(rows):
        mine = [row for row in rows if row["busy"] == level]
        def median_of(label):
            values = [row["wall_s"] for row in mine if row["label"] == label]
            return shown_spread(values, per_operation) if values else "–"
        def ratio(a, b):
            return shown_ratio(ratios_within_rounds(mine, a, b))
        load = shown_spread((load for _, load in loads_per_round(mine)), lambda v: f"{v:.2f}")
        out.append(f"| {level} | {median_of(ours)} | {median_of(versus)} | {ratio(ours, versus)} "
                   f"| {median_of(ours + tail)} | {median_of(versus + tail)} | {ratio(ours + tail, versus + tail)} "
                   f"| {load} |")
    rounds = len({row["round"] for row in rows})
    out += ["", f"{rounds} interleaved rounds, the busy levels rotating within each; median (min–max) over "
            "the rounds; ratios taken within each round and level. Load: the 1-minute load average at the "
            f"start of each round, busy processes included. {os.cpu_count()} cores."]
    return "\n".join(out)


def percentile(values, fraction):
    """The value `fraction` of `values` are at or below (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(len(ordered) * fraction) - 1))]


def pairs_report(rows, pairs):
    """One line per (ours, peer) pair: each per operation, and ours ÷ peer
    within each round: median, p99, min and max over the rounds."""
    header = "| ours | peer | ours | peer | ours ÷ peer, median | p99 | min–max |"
    out = [header, "|---" * header.count(" | ") + "|---|"]
    for ours, peer in pairs:
        ratios = ratios_within_rounds(rows, ours, peer)
        if not ratios:
            continue  # not run (the harness's ONLY)
        median, low, high = spread(ratios)
        def per_op(label):
            return per_operation(statistics.median(row["wall_s"] for row in rows if row["label"] == label))
        out.append(f"| {cell(ours)} | {cell(peer)} | {per_op(ours)} | {per_op(peer)} | **{times(median, 3)}** "
                   f"| {times(percentile(ratios, 0.99), 3)} | {times(low, 3)}–{times(high, 3)} |")
    rounds = len({row["round"] for row in rows})
    out += ["", f"{rounds} rounds, each running both sides of every pair back to back, the order alternating "
            "round by round; per operation: median over the rounds; ours ÷ peer: taken within each round, "
            "then its median, 99th percentile, min and max over the rounds. Below 1.00x ours is faster.",
            "", "Load average (1 min) at the start of each round: median {:.2f} ({:.2f}–{:.2f}). {} cores."
            .format(*spread(load for _, load in loads_per_round(rows)), os.cpu_count())]
    return "\n".join(out)


def thread_share(path, name):
    """What one thread (the stall detector's watchdog) cost each run."""
    runs = [tuple(float(field) for field in line.split("\t")) for line in open(path) if line.strip()]
    if not runs:
        raise SystemExit(f"error: no runs in {path}")
    def shown(values, unit):
        median, low, high = spread(values)
        return f"{median:.{unit}f} ({low:.{unit}f}–{high:.{unit}f})"
    return "\n".join([
        f"| runs | {name} CPU (ms) | process CPU (s) | wall (s) | {name} ÷ process CPU |",
        "|---|---|---|---|---|",
        f"| {len(runs)} | {shown([run[0] * 1000 for run in runs], 2)} | {shown([run[1] for run in runs], 3)} "
        f"| {shown([run[2] for run in runs], 3)} | {shown([run[0] / run[1] * 100 for run in runs], 3)} % |",
    ])


# --- corpora and run checks -------------------------------------------------

def tiny_corpus(root, files, folders, sources="/usr/share/doc"):
    """FILES files of 1–300 bytes (sizes spread by a fixed stride, so every
    run makes the same corpus), slices of real text, in FOLDERS folders."""
    text = bytearray()
    paths = []
    for folder, _, names in os.walk(sources):
        paths += [os.path.join(folder, name) for name in names if not name.endswith(".gz")]
    for path in sorted(paths):
        if os.path.islink(path) or not 1024 < os.path.getsize(path) < 65536:
            continue
        with open(path, "rb") as source:
            text += source.read()
        if len(text) > 4_000_000:
            break
    if len(text) < 300:
        raise SystemExit(f"error: no text files under {sources}")
    offset = 0
    per_folder = -(-files // folders)
    for number in range(files):
        folder = os.path.join(root, f"d{number // per_folder:03d}")
        if number % per_folder == 0:
            os.makedirs(folder, exist_ok=True)
        size = 1 + number * 7919 % 300
        if offset + size > len(text):
            offset = 0
        with open(os.path.join(folder, f"f{number % per_folder:05d}.txt"), "wb") as out:
            out.write(text[offset:offset + size])
        offset += size


def check_run(path, name):
    report_ = json.load(open(path))
    if report_["failed"] or report_["notFinished"] or report_["interrupted"] or not report_["compressed"]:
        raise SystemExit(f"error: {name}: {report_['compressed']} compressed, {report_['failed']} failed, "
                         f"{report_['notFinished']} not finished")
    print(f"{name}: {report_['compressed']} files in {report_['wallSeconds']:.2f} s, "
          f"parallelism {report_['parallelism']:.2f}x, longest main-actor stall "
          f"{report_['longestMainActorStallMilliseconds']:.0f} ms")


def main(arguments):
    if not arguments:
        raise SystemExit(__doc__)
    command, rest = arguments[0], arguments[1:]
    if command == "report":
        ours = title = per = None
        cpu_ratio = False
        paths = []
        while rest:
            item = rest.pop(0)
            if item == "--ours":
                ours = rest.pop(0)
            elif item == "--cpu-ratio":
                cpu_ratio = True
            elif item == "--per":
                per = int(rest.pop(0))
            elif item == "--title":
                title = rest.pop(0)
            else:
                paths.append(item)
        if len(paths) != 1:
            raise SystemExit("usage: method.py report ROWS [--ours LABEL] [--title TEXT] [--per COUNT] [--cpu-ratio]")
        rows = read_rows(paths[0])
        print(per_busy_level(rows, lambda level: report(level, ours, None, per, cpu_ratio), title)
              if len(busy_levels(rows)) > 1 else report(rows, ours, title, per, cpu_ratio))
    elif command == "report-operations" and rest:
        path, versus, versus_rows = rest.pop(0), [], None
        while len(rest) >= 2:
            item = rest.pop(0)
            if item == "--versus" and len(rest) >= 2:
                versus.append((rest.pop(0), rest.pop(0)))
            elif item == "--versus-rows":
                versus_rows = rest.pop(0)
            else:
                raise SystemExit(__doc__)
        if rest:
            raise SystemExit(__doc__)
        print(per_busy_level(read_rows(path), lambda level: operations_report(level, versus, versus_rows)))
    elif command == "report-busy" and len(rest) == 5 and rest[1] == "--ours" and rest[3] == "--versus":
        print(busy_report(read_rows(rest[0]), rest[2], rest[4]))
    elif command == "report-pairs" and len(rest) >= 4 and len(rest) % 3 == 1:
        path, pairs = rest.pop(0), []
        while rest:
            if rest[0] != "--pair":
                raise SystemExit(__doc__)
            pairs.append((rest[1], rest[2]))
            rest = rest[3:]
        print(pairs_report(read_rows(path), pairs))
    elif command == "thread-share" and len(rest) == 2:
        print(thread_share(rest[0], rest[1]))
    elif command == "tiny-corpus" and len(rest) == 3:
        tiny_corpus(rest[0], int(rest[1]), int(rest[2]))
    elif command == "check-run" and len(rest) == 2:
        check_run(rest[0], rest[1])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])

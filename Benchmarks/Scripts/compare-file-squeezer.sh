#!/usr/bin/env bash
# File Squeezer against gzip and pigz on the same mixed corpus: wall clock
# with hyperfine, peak memory with /usr/bin/time -v, and whether memory stays
# flat from a 10 MB to a 1 GiB file. Prints Markdown tables for
# Documentation/Performance.md.
#
#   Benchmarks/Scripts/compare-file-squeezer.sh [CORPUS_MB]      (default 150)
#
# Environment:
#   FILE_SQUEEZER=/path/to/file-squeezer   use this binary instead of building one
#   RUNS=5                                 hyperfine runs per command
#   ROUNDS=10                              interleaved rounds (file-squeezer and pigz;
#                                          an even number gives each the first slot equally)
#   JOBS=2                                 --jobs for file-squeezer, -p for pigz
#
# Needs hyperfine, pigz and GNU time: it names what is missing and stops
# (apt-get install -y hyperfine pigz time). Takes about 8 minutes with
# RUNS=5 ROUNDS=20 (Documentation/Performance.md). Temporary files (~1.5 GiB at most) go under ${TMPDIR:-/tmp}
# and are removed on exit.
set -euo pipefail

megabytes=${1:-150}
runs=${RUNS:-5}
rounds=${ROUNDS:-10}
jobs=${JOBS:-2}
root=$(cd "$(dirname "$0")/../.." && pwd)
for setting in "CORPUS_MB=$megabytes" "RUNS=$runs" "ROUNDS=$rounds" "JOBS=$jobs"; do
    if ! [[ ${setting#*=} =~ ^[1-9][0-9]*$ ]]; then
        echo "error: ${setting%%=*} must be a positive integer, not '${setting#*=}'" >&2
        exit 2
    fi
done

source "$(dirname "$0")/common.sh"
require_tools hyperfine pigz time
bin=$(file_squeezer_binary "$root")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The app's own corpus generator, so every figure here uses the bytes the
# walkthrough uses: text-like files (deflate to about a third) and random ones.
"$bin" --make-corpus "$work/in" --corpus-mb "$megabytes" >&2
files=$(find "$work/in" -maxdepth 1 -type f ! -name '*.gz' | sort | tr '\n' ' ')
corpus_bytes=$(cat $files | wc -c)
file_count=$(echo $files | wc -w)

# Every command overwrites its previous outputs (-f / --force), so no run
# pays for deleting files and all three write the same amount.
hyperfine --warmup 1 --runs "$runs" -N --export-json "$work/times.json" --style basic \
    -n "file-squeezer --jobs $jobs --level 6" "$bin --jobs $jobs --level 6 --quiet --force --output $work/out $work/in" \
    -n "pigz -6 -p $jobs" "pigz -6 -p $jobs -k -f $files" \
    -n "gzip -6 (sequential)" "gzip -6 -k -f $files" >&2

# The same two commands interleaved. hyperfine times every run of one command
# before the next, and this machine's speed drifts by up to ±10% within a
# minute (the same command: 3.1 s, then 3.8 s), so one command's block can
# land in a slow stretch. Here each round runs both, the order flipped every
# round, and the verdict is the median of the per-round ratios: drift slower
# than a round cancels out.
python3 - "$rounds" "$work/rounds.json" \
    "$bin --jobs $jobs --level 6 --quiet --force --output $work/out $work/in" \
    "pigz -6 -p $jobs -k -f $files" <<'PY' >&2
import json, resource, subprocess, sys, time
rounds, out, squeezer, pigz = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
def timed(command):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    subprocess.run(command, shell=True, check=True, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"wall": wall, "user": after.ru_utime - before.ru_utime, "sys": after.ru_stime - before.ru_stime}
results = []
for number in range(rounds):
    order = [("squeezer", squeezer), ("pigz", pigz)]
    if number % 2: order.reverse()
    result = {name: timed(command) for name, command in order}
    results.append(result)
    print(f"round {number + 1}/{rounds}: file-squeezer {result['squeezer']['wall']:.3f} s, "
          f"pigz {result['pigz']['wall']:.3f} s", file=sys.stderr)
json.dump(results, open(out, "w"))
PY

# Peak resident memory, from GNU time's "Maximum resident set size" (KiB).
peak_kib() {
    /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ { print $2 }'
}
rm -rf "$work/out"
mem_squeezer=$(peak_kib "$bin" --jobs "$jobs" --level 6 --quiet --force --output "$work/out" "$work/in")
mem_pigz=$(peak_kib pigz -6 -p "$jobs" -k -f $files)
mem_gzip=$(peak_kib gzip -6 -k -f $files)

# One text-like file of 10 MB and one of 1 GiB, cut from the corpus's largest text file.
# (No `cmd | head` here: under pipefail the writer's SIGPIPE would end the script.)
seed=$(find "$work/in" -maxdepth 1 -name '*.txt' -printf '%s %p\n' | sort -rn | awk 'NR == 1 { print $2 }')
mkdir -p "$work/small" "$work/big"
cp "$seed" "$work/small/ten-mb.txt"
truncate -s 10000000 "$work/small/ten-mb.txt"  # the seed is larger than 10 MB for any corpus of 20 MB or more
seed_size=$(stat -c %s "$seed")
for _ in $(seq 1 $(( (1 << 30) / seed_size + 1 ))); do cat "$seed"; done > "$work/big/one-gib.txt"
truncate -s $((1 << 30)) "$work/big/one-gib.txt"
rm -f "$work"/in/*.gz
single_file() {  # $1 = small|big
    local folder=$work/$1
    printf '%s %s %s\n' \
        "$(peak_kib "$bin" --jobs "$jobs" --level 6 --quiet --force --output "$work/out-$1" "$folder")" \
        "$(peak_kib pigz -6 -p "$jobs" -k -f "$folder"/*.txt)" \
        "$(peak_kib gzip -6 -k -f "$folder"/*.txt)"
}
read -r small_squeezer small_pigz small_gzip < <(single_file small)
read -r big_squeezer big_pigz big_gzip < <(single_file big)

python3 - "$work/times.json" "$work/rounds.json" <<PY
import json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
rounds = json.load(open(sys.argv[2]))
by_name = {r["command"]: r for r in results}
pigz = next(r for r in results if r["command"].startswith("pigz"))
gzip = next(r for r in results if r["command"].startswith("gzip"))
print(f"Corpus: $file_count files, {$corpus_bytes / 1e6:.0f} MB; hyperfine, $runs runs after 1 warm-up.")
print()
print("| command | mean ± σ (s) | min (s) | time vs pigz -p $jobs | speed-up vs gzip |")
print("|---|---|---|---|---|")
for r in results:
    print(f"| \`{r['command']}\` | {r['mean']:.2f} ± {r['stddev'] or 0:.2f} | {r['min']:.2f} "
          f"| {r['mean'] / pigz['mean']:.2f}x | {gzip['mean'] / r['mean']:.2f}x |")
print()
print(f"Interleaved: {len(rounds)} rounds, file-squeezer and pigz -p $jobs in each, the order flipped every round.")
print()
print("| command | wall median (s) | wall mean (s) | user mean (s) | sys mean (s) |")
print("|---|---|---|---|---|")
for key, name in (("squeezer", "file-squeezer --jobs $jobs --level 6"), ("pigz", "pigz -6 -p $jobs")):
    walls = [r[key]["wall"] for r in rounds]
    print(f"| \`{name}\` | {statistics.median(walls):.3f} | {statistics.mean(walls):.3f} "
          f"| {statistics.mean(r[key]['user'] for r in rounds):.2f} | {statistics.mean(r[key]['sys'] for r in rounds):.2f} |")
ratios = sorted(r["squeezer"]["wall"] / r["pigz"]["wall"] for r in rounds)
faster = sum(1 for ratio in ratios if ratio < 1)
print()
print(f"file-squeezer ÷ pigz per round: **median {statistics.median(ratios):.3f}x**, "
      f"mean {statistics.mean(ratios):.3f}x, range {ratios[0]:.3f}x–{ratios[-1]:.3f}x; "
      f"faster in {faster} of {len(ratios)} rounds.")
print()
mib = lambda kib: f"{int(kib) / 1024:.1f}"
print("Peak resident memory (MiB), /usr/bin/time -v:")
print()
print("| input | file-squeezer | pigz -p $jobs | gzip |")
print("|---|---|---|---|")
print(f"| corpus ({$corpus_bytes / 1e6:.0f} MB, $file_count files) | {mib($mem_squeezer)} | {mib($mem_pigz)} | {mib($mem_gzip)} |")
print(f"| one 10 MB text file | {mib($small_squeezer)} | {mib($small_pigz)} | {mib($small_gzip)} |")
print(f"| one 1 GiB text file | {mib($big_squeezer)} | {mib($big_pigz)} | {mib($big_gzip)} |")
PY
echo
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')"

#!/usr/bin/env bash
# File Squeezer against gzip and pigz, by the one method (common.sh,
# method.py): every command once per round, ROUNDS interleaved rounds, the
# order rotating; median with min and max; ours ÷ each peer taken within
# each round; peak memory (GNU time %M, the largest process); the load at the
# start of every round. Every run starts from a fresh copy of the corpus, made
# outside the timing (no .gz left by another tool), and afterwards its output
# is checked: one .gz per input file, or the script stops.
#
#   Benchmarks/Scripts/compare-file-squeezer.sh [--measure-limit] [CASE ...]
#
# Cases (default: tiny small large mixed), all in tmpfs (/dev/shm):
#   tiny    TINY_FILES (100,000) files of 1–300 bytes of real text in
#           TINY_FOLDERS (100) folders
#   small   SMALL_FILES (2,000) real files of 1–64 KiB from /usr/share/doc
#   large   the app's own corpus, CORPUS_MB (150) MB of text-like and random
#           files (`file-squeezer --make-corpus`, the walkthrough's bytes)
#   mixed   /usr/share/doc as installed (its .gz files and links removed)
#           plus the ten largest shared libraries of 1–16 MB in /usr/lib
#   memory  peak memory for one 10 MB and one MEMORY_MB (1,024) MiB text file
#           (MEMORY_ROUNDS, 3, rounds): flat memory whatever the file size; not
#           in the default
#
# Commands, each on a fresh copy $D of the corpus:
#   file-squeezer -r --jobs J --level 6 -q $D                        (ours)
#   find $D -type f -print0 | xargs -0 -P J -n 1000 gzip -6 -k
#   gzip -6 -rk $D
#   pigz -6 -p J -rk $D
#
# --measure-limit adds, to every case but memory, the limit a compressor of
# one file at a time cannot beat on this machine, measured rather than
# estimated: syscall-floor.c (beside this script, compiled with cc -O2 -lz)
# does exactly the per-file work any `gzip -k` must do (10 system calls for a
# tiny file: open, fstat, create, 2 reads, write, futimens, fchmod, 2 closes;
# see its header), run as `find | xargs -0 -P J -n 1000` like the xargs
# peer. Two rows: "limit: syscalls + deflate" (a reused z_stream, real .gz
# output) and "limit: syscalls only" (bytes copied, no deflate: the kernel
# time alone). "ours ÷ limit" is then the ratio issue 29's "within 1.5x of the
# limit" asks for, taken within each round like every ratio here. It also
# counts system calls per file once per command with `strace -f -c` on a
# fresh copy (counts only: strace slows every call, so its times are not
# used). For tiny and small, the tables give µs per file (wall, system time).
#
# Environment: ROUNDS=21, JOBS=2, TINY_FILES=100000, TINY_FOLDERS=100,
# SMALL_FILES=2000, CORPUS_MB=150, MEMORY_ROUNDS=3, MEMORY_MB=1024, BATCH=1000 (xargs -n),
# FILE_SQUEEZER=/path (else a release build of this checkout), WORK=/dev/shm,
# KEEP=dir (keep each case's rows there, method.py's format), PEERS=xargs,gzip,pigz
# (the peers to run: pigz -p 2 pays a thread hand-off per file, 0.1–0.5 ms
# measured here, so on 100,000 tiny files it takes minutes a run; leave it
# out of tiny with PEERS=xargs,gzip if the time matters). Needs pigz, GNU
# time and strace: when one is missing it stops and prints the command that
# installs it.
# Short mode, about a minute: ROUNDS=3 TINY_FILES=5000 SMALL_FILES=200 CORPUS_MB=20
set -euo pipefail

limit=0
cases=()
for argument in "$@"; do
    case $argument in
        --measure-limit) limit=1 ;;
        tiny | small | large | mixed) cases+=("$argument") ;;
        memory) cases+=(memory-10mb memory-big) ;; # one file each: peak memory alone
        *) echo "error: unknown argument '$argument' (--measure-limit, tiny, small, large, mixed, memory)" >&2; exit 2 ;;
    esac
done
[ ${#cases[@]} -gt 0 ] || cases=(tiny small large mixed)
rounds=${ROUNDS:-21} jobs=${JOBS:-2} batch=${BATCH:-1000} peers=${PEERS:-xargs,gzip,pigz}
tiny_files=${TINY_FILES:-100000} tiny_folders=${TINY_FOLDERS:-100} small_files=${SMALL_FILES:-2000}
megabytes=${CORPUS_MB:-150} memory_rounds=${MEMORY_ROUNDS:-3} memory_mb=${MEMORY_MB:-1024}
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$(dirname "$0")/common.sh"
positive_integers "ROUNDS=$rounds" "JOBS=$jobs" "BATCH=$batch" "TINY_FILES=$tiny_files" \
    "TINY_FOLDERS=$tiny_folders" "SMALL_FILES=$small_files" "CORPUS_MB=$megabytes" "MEMORY_ROUNDS=$memory_rounds" \
    "MEMORY_MB=$memory_mb"
need_tools pigz gzip time python3
[ $limit = 0 ] || need_tools strace cc
bin=$(file_squeezer_binary "$root")
work=$(scratch_dir compare-file-squeezer)
trap 'rm -rf "$work"' EXIT
export D=$work/run
if [ $limit = 1 ]; then
    [ -e /usr/include/zlib.h ] || need_tools zlib1g-dev
    cc -O2 -o "$work/syscall-floor" "$scripts_dir/syscall-floor.c" -lz
fi

# Every command writes NAME.gz beside NAME; no corpus has a .gz of its own.
# After a run, $D must hold one .gz per input file.
check_outputs() {
    local outputs
    outputs=$(find "$D" -type f -name '*.gz' | wc -l)
    if [ "$outputs" != "$expected" ]; then
        echo "error: '$1' left $outputs .gz files for $expected inputs" >&2
        exit 1
    fi
}

commands_for() {  # label<TAB>command lines for a case
    local ours="file-squeezer -r --jobs $jobs --level 6 -q"
    printf '%s\t%q -r --jobs %s --level 6 -q "$D"\n' "$ours" "$bin" "$jobs"
    [[ ,$peers, != *,xargs,* ]] ||
        printf 'find | xargs -0 -P %s -n %s gzip -6 -k\tfind "$D" -type f -print0 | xargs -0 -P %s -n %s gzip -6 -k\n' \
            "$jobs" "$batch" "$jobs" "$batch"
    [[ ,$peers, != *,gzip,* ]] || printf 'gzip -6 -rk\tgzip -6 -rk "$D"\n'
    [[ ,$peers, != *,pigz,* ]] || printf 'pigz -6 -p %s -rk\tpigz -6 -p %s -rk "$D"\n' "$jobs" "$jobs"
    if [ $limit = 1 ] && [[ $1 != memory* ]]; then
        printf 'limit: syscalls + deflate\tfind "$D" -type f -print0 | xargs -0 -P %s -n %s %q\n' "$jobs" "$batch" "$work/syscall-floor"
        printf 'limit: syscalls only\tfind "$D" -type f -print0 | xargs -0 -P %s -n %s %q -s\n' "$jobs" "$batch" "$work/syscall-floor"
    fi
}

make_corpus() {  # case folder
    case $1 in
        tiny) make_tiny "$2" "$tiny_files" "$tiny_folders" ;;
        small) make_small "$2" "$small_files" ;;
        large) "$bin" --make-corpus "$2" --corpus-mb "$megabytes" >&2 ;;
        mixed) make_mixed "$2" ;;
        memory-*)
            # One text file of 10 MB or MEMORY_MB MiB, /usr/share/doc's text
            # repeated. (No `cmd | head`: under pipefail SIGPIPE would end the script.)
            local size=10000000 seed_size
            [ "$1" = memory-10mb ] || size=$((memory_mb << 20))
            mkdir -p "$2"
            find /usr/share/doc -type f ! -name '*.gz' -size +1k -size -64k -exec cat {} + >"$work/seed"
            seed_size=$(stat -c %s "$work/seed")
            for _ in $(seq 1 $((size / seed_size + 1))); do cat "$work/seed"; done >"$2/one.txt"
            truncate -s "$size" "$2/one.txt"
            rm "$work/seed"
            ;;
    esac
}

# strace_counts LABEL COMMAND: system calls per input file, and the five
# most frequent, from one run under `strace -f -c` on a fresh copy.
strace_counts() {
    fresh_copy
    strace -f -c -o "$work/strace" bash -c "$2" >/dev/null 2>&1 || true
    awk -v label="${1//|/\\|}" -v files="$expected" '
        $NF == "total" { total = $4; next }
        $1 ~ /^[0-9.]+$/ && NF >= 5 { calls[$NF] = $4 }
        END {
            n = 0; for (name in calls) sorted[++n] = name
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
                if (calls[sorted[j]] + 0 > calls[sorted[i]] + 0) { t = sorted[i]; sorted[i] = sorted[j]; sorted[j] = t }
            top = ""; for (i = 1; i <= 5 && i <= n; i++) top = top sprintf("%s %.1f, ", sorted[i], calls[sorted[i]] / files)
            printf "| `%s` | %.1f | %s |\n", label, total / files, substr(top, 1, length(top) - 2)
        }' "$work/strace"
}

run_case() {
    local name=$1 source=$work/corpus-$1 lines=() arguments=() line
    echo "Building the '$name' corpus ..." >&2
    make_corpus "$name" "$source"
    expected=$(find "$source" -type f | wc -l)
    local bytes
    bytes=$(find "$source" -type f -printf '%s\n' | awk '{ s += $1 } END { printf "%.1f", s / 1e6 }')
    mapfile -t lines < <(commands_for "$name")
    for line in "${lines[@]}"; do arguments+=("${line%%$'\t'*}" "${line#*$'\t'}"); done
    local case_rounds=$rounds
    [[ $name != memory* ]] || case_rounds=$memory_rounds
    FRESH_SOURCE=$source before_each=fresh_copy after_each=check_outputs \
        run_rounds "$case_rounds" "$work/$name.tsv" "${arguments[@]}"
    echo
    local per=()  # µs per file, where the files are many
    [ "$name" != tiny ] && [ "$name" != small ] || per=(--per "$expected")
    report_rounds "$work/$name.tsv" --ours "${arguments[0]}" "${per[@]}" \
        --title "$name: $expected files, $bytes MB, --jobs $jobs, level 6, in $(df --output=fstype "$work" | tail -1)"
    if [ $limit = 1 ] && [[ $name != memory* ]]; then
        echo
        echo "System calls per input file, one run under \`strace -f -c\` (counts; strace's times are not used):"
        echo
        echo "| command | calls per file | most frequent, per file |"
        echo "|---|---|---|"
        for line in "${lines[@]}"; do
            FRESH_SOURCE=$source strace_counts "${line%%$'\t'*}" "${line#*$'\t'}"
        done
    fi
    echo
    [ -z "${KEEP:-}" ] || { mkdir -p "$KEEP" && cp "$work/$name.tsv" "$KEEP/"; }
    rm -rf "$source" "$D"
}

echo "file-squeezer: $bin" >&2
for name in "${cases[@]}"; do run_case "$name"; done
machine_line

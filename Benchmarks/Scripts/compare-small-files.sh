#!/usr/bin/env bash
# File Squeezer against gzip and pigz where most files are small: the common
# case for a folder of logs, sources or documents. Three corpora, all built
# from files this machine already has (no download):
#
#   small   2,000 real text files (1–64 KiB, from /usr/share/doc) in one folder
#   tiny    100,000 tiny text files (64–1,024 bytes) in 100 subfolders
#   mixed   a real tree: /usr/share/doc as it is (without its own .gz files),
#           plus the ten largest shared libraries under 16 MB in /usr/lib
#           (large files), recursively
#
# Every command of a case runs once per round, in a rotating order, and the
# table gives each command's median wall time over the rounds, its ratio to
# file-squeezer measured in the same rounds, and its median peak memory
# (GNU time's maximum resident set). Outputs are removed between runs, outside
# the timing. Prints Markdown tables for Documentation/Performance.md.
#
#   Benchmarks/Scripts/compare-small-files.sh [small|tiny|mixed ...]   (default: all)
#
# Environment:
#   FILE_SQUEEZER=/path/to/file-squeezer   use this binary instead of building one
#   ROUNDS=7                               interleaved rounds per case
#   JOBS=2                                 --jobs for file-squeezer, -P/-p for the peers
#   WORK=/dev/shm                          where the corpora go (tmpfs by default, so the
#                                          disk does not decide the result)
#
# Needs pigz and GNU time: it names what is missing and stops (apt-get install
# -y pigz time). With the defaults it takes about 5 minutes on 2 cores, most of
# it the 100,000-file case; `small` alone takes under a minute.
set -euo pipefail

rounds=${ROUNDS:-7}
jobs=${JOBS:-2}
root=$(cd "$(dirname "$0")/../.." && pwd)
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(small tiny mixed)
for setting in "ROUNDS=$rounds" "JOBS=$jobs"; do
    if ! [[ ${setting#*=} =~ ^[1-9][0-9]*$ ]]; then
        echo "error: ${setting%%=*} must be a positive integer, not '${setting#*=}'" >&2
        exit 2
    fi
done
for name in "${cases[@]}"; do
    case $name in small | tiny | mixed) ;; *)
        echo "error: unknown case '$name' (small, tiny or mixed)" >&2
        exit 2
        ;;
    esac
done

source "$(dirname "$0")/common.sh"
require_tools pigz time
bin=$(file_squeezer_binary "$root")

base=${WORK:-/dev/shm}
[ -d "$base" ] && [ -w "$base" ] || base=${TMPDIR:-/tmp}
work=$(mktemp -d "$base/squeeze-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# make_small (2,000 real text files) is in common.sh: compare-builds.sh uses it too.

# 100,000 tiny files: slices of the same real text, 64–1,024 bytes each.
make_tiny() {
    local dir=$1
    mkdir -p "$dir"
    find /usr/share/doc -type f ! -name '*.gz' -size +1k -size -64k | sort >"$work/sources"
    python3 - "$dir" "$work/sources" <<'EOF'
import os, sys
root, listing = sys.argv[1], sys.argv[2]
text = b""
for path in open(listing).read().splitlines():
    with open(path, 'rb') as source:
        text += source.read()
    if len(text) > 4_000_000:
        break
offset = 0
for d in range(100):
    folder = os.path.join(root, f"d{d:03d}")
    os.mkdir(folder)
    for f in range(1000):
        size = 64 + (d * 1000 + f) * 7919 % 961
        if offset + size > len(text): offset = 0
        with open(os.path.join(folder, f"f{f:04d}.txt"), 'wb') as out:
            out.write(text[offset:offset + size])
        offset += size
EOF
}

# A real tree: /usr/share/doc as installed, without its own .gz files (so
# every .gz in the corpus afterwards is a command's output), plus the ten
# largest shared libraries.
make_mixed() {
    local dir=$1
    mkdir -p "$dir/lib"
    cp -a /usr/share/doc "$dir/doc"
    find "$dir/doc" \( -name '*.gz' -o -type l \) -delete
    find /usr/lib -type f -name '*.so*' -size +1M -size -16M -printf '%s %p\n' 2>/dev/null | sort -rn | head -10 |
        while read -r _ path; do cp "$path" "$dir/lib/"; done
}

# Every command writes NAME.gz beside NAME, and no corpus has a .gz of its own.
remove_outputs() { find "$1" -type f -name '*.gz' -delete; }

# One command per line: "label<TAB>shell command". $D is the corpus folder.
commands_for() {
    case $1 in
        small)
            printf 'file-squeezer --jobs %s\t%q --jobs %s --level 6 --quiet "$D"\n' "$jobs" "$bin" "$jobs"
            printf 'xargs -P %s -n 250 gzip -6 -k\tcd "$D" && ls | xargs -P %s -n 250 gzip -6 -k\n' "$jobs" "$jobs"
            printf 'pigz -6 -p %s -k\tcd "$D" && pigz -6 -p %s -k -- *\n' "$jobs" "$jobs"
            printf 'gzip -6 -k (one process)\tcd "$D" && gzip -6 -k -- *\n'
            ;;
        tiny)
            printf 'file-squeezer -r --jobs %s\t%q -r --jobs %s --level 6 --quiet "$D"\n' "$jobs" "$bin" "$jobs"
            printf 'gzip -6 -rk\tgzip -6 -rk "$D"\n'
            printf 'find, xargs -P %s -n 250 gzip -6 -k\tfind "$D" -type f -print0 | xargs -0 -P %s -n 250 gzip -6 -k\n' "$jobs" "$jobs"
            ;;
        mixed)
            printf 'file-squeezer -r --jobs %s\t%q -r --jobs %s --level 6 --quiet "$D"\n' "$jobs" "$bin" "$jobs"
            printf 'find, xargs -P %s -n 250 gzip -6 -k\tfind "$D" -type f -print0 | xargs -0 -P %s -n 250 gzip -6 -k\n' "$jobs" "$jobs"
            printf 'pigz -6 -p %s -rk\tpigz -6 -p %s -r -k "$D" 2>/dev/null; true\n' "$jobs" "$jobs"
            ;;
    esac
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

run_case() {
    local name=$1 dir=$work/$1
    echo "Building the '$name' corpus in $dir ..." >&2
    "make_$name" "$dir"
    local files bytes
    files=$(find "$dir" -type f ! -name '*.gz' | wc -l)
    bytes=$(find "$dir" -type f ! -name '*.gz' -printf '%s\n' | awk '{ s += $1 } END { print s }')

    mapfile -t lines < <(commands_for "$name")
    local count=${#lines[@]}
    for ((round = 0; round < rounds; round++)); do
        for ((k = 0; k < count; k++)); do
            local index=$(((round + k) % count))
            local command=${lines[$index]#*$'\t'}
            remove_outputs "$dir"
            sync
            D=$dir /usr/bin/time -f '%e %M' -o "$work/time" bash -c "$command" >/dev/null 2>"$work/stderr" ||
                { echo "error: '${lines[$index]%%$'\t'*}' failed:" >&2; cat "$work/stderr" >&2; exit 1; }
            read -r wall rss <"$work/time"
            echo "$round $wall $rss" >>"$work/$name.$index"
        done
    done
    remove_outputs "$dir"

    printf '\n### %s: %s files, %s MB, --jobs %s, %s interleaved rounds (median)\n\n' \
        "$name" "$files" "$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')" "$jobs" "$rounds"
    echo "| command | wall (s) | vs file-squeezer | peak memory (MiB) |"
    echo "|---|---|---|---|"
    for ((index = 0; index < count; index++)); do
        local wall rss ratio
        wall=$(awk '{ print $2 }' "$work/$name.$index" | median)
        rss=$(awk '{ print $3 }' "$work/$name.$index" | median)
        # The ratio is taken round by round (each round ran every command
        # back to back), then its median: file-squeezer / peer.
        ratio=$(paste "$work/$name.0" "$work/$name.$index" | awk '{ if ($5 > 0) print $2 / $5 }' | median)
        printf '| %s | %.3f | %s | %.0f |\n' "${lines[$index]%%$'\t'*}" "$wall" \
            "$([ "$index" = 0 ] && echo '1.00x' || printf '%.2fx' "$ratio")" "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')"
    done
    rm -rf "$dir"
}

echo "file-squeezer: $bin" >&2
for name in "${cases[@]}"; do run_case "$name"; done
echo
echo "vs file-squeezer = file-squeezer's wall time / the command's, median of per-round ratios (below 1.00x: file-squeezer is faster)."

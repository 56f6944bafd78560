#!/usr/bin/env bash
# Compares File Squeezer with pigz and gzip on the same corpus, and measures
# peak memory for a small and a large file. Needs: pigz hyperfine time
# (apt-get install -y pigz hyperfine time).
#
#   Examples/FileSqueezer/Scripts/benchmark.sh [CORPUS_MB]   (default 150)
set -euo pipefail
cd "$(dirname "$0")/../../.."
megabytes=${1:-150}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --product file-squeezer
bin=$(swift build -c release --show-bin-path)/file-squeezer

"$bin" --make-corpus "$work/in" --corpus-mb "$megabytes"
files=("$work"/in/*)

hyperfine --warmup 1 --runs 5 -N \
    --prepare "rm -rf $work/out" "$bin --jobs 2 --level 6 --quiet --output $work/out $work/in" \
    --prepare "sh -c 'rm -f $work/in/*.gz'" "sh -c 'pigz -6 -p 2 -k -f ${files[*]}'" \
    --prepare "sh -c 'rm -f $work/in/*.gz'" "sh -c 'gzip -6 -k -f ${files[*]}'"
rm -f "$work"/in/*.gz

echo "The three strategies (see Documentation/Walkthrough.md):"
for strategy in "main-actor" "actor" "parallel" "parallel --deflate-on pool"; do
    rm -rf "$work/out"
    # shellcheck disable=SC2086
    "$bin" --jobs 2 --quiet --strategy $strategy --output "$work/out" "$work/in"
done

echo "Peak memory, 10 MB file vs 1 GiB file:"
mkdir -p "$work/small" "$work/big"
head -c 10000000 "$work/in/notes-07.txt" > "$work/small/ten-mb.txt"
for _ in $(seq 1 $(( (1 << 30) / $(stat -c %s "$work/in/notes-07.txt") + 1 ))); do cat "$work/in/notes-07.txt"; done \
    | head -c $((1 << 30)) > "$work/big/one-gib.txt"
for folder in small big; do
    /usr/bin/time -v "$bin" --quiet "$work/$folder" 2>&1 | grep -E "Squeezed|Maximum resident"
done

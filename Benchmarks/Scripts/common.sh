# The benchmark method, shell side: sourced by every script in this folder,
# never run. method.py, beside it, does the statistics and the reports.
#
# The method: every command of a comparison runs once per round, ROUNDS
# rounds, the order rotating every round (A B C, B C A, C A B, ...), so a slow
# stretch of the machine falls on all alike. Each run is timed with
# `date +%s%N` (wall) around GNU time (user, system, peak resident memory of
# the largest process, %M), and the 1-minute load average is recorded at the
# start of every round. BUSY=0,1,2,4 repeats every round at each of these
# loads (busy processes beside it; "a busy machine" below). method.py
# reports the median over the rounds with min and max, and ratios taken
# within each round, then their median, min, max.
#
#   source "$(dirname "$0")/common.sh"
#   need_tools pigz time
#   export D=$work/run FRESH_SOURCE=$corpus before_each=fresh_copy  # optional: a fresh copy per run
#   run_rounds 21 "$work/rows.tsv" \
#       "ours" 'file-squeezer -r "$D"' "gzip" 'gzip -rk "$D"'
#   report_rounds "$work/rows.tsv" --ours ours --title "tiny files"

scripts_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
method_py=$scripts_dir/method.py

# need_tools TOOL...: stops (exit 1) naming what is missing and the command
# that installs it: a benchmark never installs packages on the machine it
# measures (CI's .ci/run installs what its steps need before they run).
# "time" is GNU time at /usr/bin/time (package time); "cc" comes with gcc;
# a name with a "-" is a package (zlib1g-dev).
need_tools() {
    local missing=() tool
    for tool in "$@"; do
        case $tool in
            time) [ -x /usr/bin/time ] || missing+=(time) ;;
            cc) command -v cc >/dev/null || missing+=(gcc) ;;
            *-*) dpkg -s "$tool" >/dev/null 2>&1 || missing+=("$tool") ;;
            *) command -v "$tool" >/dev/null || missing+=("$tool") ;;
        esac
    done
    [ ${#missing[@]} -gt 0 ] || return 0
    echo "error: missing ${missing[*]}; install it, then run this again:" >&2
    echo "    sudo apt-get install -y ${missing[*]}" >&2
    exit 1
}

# positive_integers NAME=VALUE...: stops (exit 2) naming the first setting
# that is not a positive integer.
positive_integers() {
    local setting
    for setting in "$@"; do
        if ! [[ ${setting#*=} =~ ^[1-9][0-9]*$ ]]; then
            echo "error: ${setting%%=*} must be a positive integer, not '${setting#*=}'" >&2
            exit 2
        fi
    done
}

# load_average: "1.23/1.10/0.95", the 1/5/15-minute load.
load_average() { cut -d' ' -f1-3 /proc/loadavg | tr ' ' '/'; }

# machine_line: cores, CPU, load and the time, to print under every table.
machine_line() {
    echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //');" \
        "load average $(load_average) (1/5/15 min); $(date -u '+%Y-%m-%d %H:%M UTC')"
}

# scratch_dir NAME: a new folder in $WORK, else /dev/shm (tmpfs, so the disk
# does not decide the result), else $TMPDIR or /tmp. The caller removes it.
scratch_dir() {
    local base=${WORK:-/dev/shm}
    [ -d "$base" ] && [ -w "$base" ] || base=${TMPDIR:-/tmp}
    mktemp -d "$base/$1.XXXXXX"
}

# file_squeezer_binary ROOT: prints $FILE_SQUEEZER, or the path of a release
# build of ROOT's file-squeezer, built first (its log goes to stderr).
file_squeezer_binary() {
    if [ -n "${FILE_SQUEEZER:-}" ]; then
        echo "$FILE_SQUEEZER"
        return
    fi
    echo "Building file-squeezer (release) in $1 ..." >&2
    swift build --package-path "$1" -c release --product file-squeezer >&2
    echo "$(swift build --package-path "$1" -c release --show-bin-path)/file-squeezer"
}

# handoff_harness: prints $HARNESS, or the path of a release build of the
# Benchmarks package's HandOffHarness, built first (its log goes to stderr).
# Run from the Benchmarks package. The build plan is made again: a new source
# file in the root package is not seen by an existing plan of this package.
handoff_harness() {
    if [ -n "${HARNESS:-}" ]; then
        echo "$HARNESS"
        return
    fi
    rm -f .build/release.yaml
    swift build -c release --product HandOffHarness >&2
    echo "$(swift build -c release --show-bin-path)/HandOffHarness"
}

# ---- a busy machine ----------------------------------------------------------

# BUSY=0,1,2,4: measure every round at each of these loads. Before a round's
# runs at load N, N `yes > /dev/null` processes start (each keeps a core
# busy, as a compiler or another service would) and they are killed after
# them; the levels rotate every round like the commands, and every row
# records its level (method.py reports each level on its own, ratios within
# the same round and level). Default 0: the machine as it is.
busy_levels=()
IFS=',' read -r -a busy_levels <<<"${BUSY:-0}"
for level in "${busy_levels[@]}"; do
    [[ $level =~ ^[0-9]+$ ]] || { echo "error: BUSY must be counts such as 0,1,2,4, not '${BUSY}'" >&2; exit 2; }
done

busy_pids=()

# busy_start COUNT: starts COUNT busy processes, and a watchdog that ends
# them if this script dies without running its EXIT trap.
busy_start() {
    local count=$1 i owner=$$
    ((count > 0)) || return 0
    for ((i = 0; i < count; i++)); do
        yes >/dev/null &
        busy_pids+=($!)
    done
    (while kill -0 "$owner" 2>/dev/null; do sleep 1; done; kill "${busy_pids[@]}" 2>/dev/null) >/dev/null 2>&1 &
    busy_pids+=($!)
}

# busy_stop: ends what busy_start started. Runs on exit (a script that sets
# its own EXIT trap calls it there too) and after every round.
busy_stop() {
    [ ${#busy_pids[@]} -gt 0 ] || return 0
    kill "${busy_pids[@]}" 2>/dev/null || true
    wait "${busy_pids[@]}" 2>/dev/null || true
    busy_pids=()
}
trap busy_stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# harness_rounds ROUNDS ROWS COMMAND...: for a harness that runs its rounds
# itself and prints method.py's rows (HandOffHarness). Without BUSY, one run
# of ROUNDS rounds. With BUSY, one run of one round per round and level, the
# levels rotating as in run_rounds, with the busy processes around each run;
# the round number and the level are written into its rows.
harness_rounds() {
    local rounds=$1 rows=$2 round k busy levels=${#busy_levels[@]}
    shift 2
    positive_integers ROUNDS="$rounds"
    if [ -z "${BUSY:-}" ]; then
        ROUNDS=$rounds "$@" >"$rows"
        return
    fi
    printf 'round\tlabel\twall_s\tuser_s\tsys_s\trss_kib\tload1\tbusy\n' >"$rows"
    for ((round = 1; round <= rounds; round++)); do
        for ((k = 0; k < levels; k++)); do
            busy=${busy_levels[$(((round + levels - 1 + k) % levels))]}
            busy_start "$busy"
            ROUNDS=1 "$@" | awk -F'\t' -v OFS='\t' -v round="$round" -v busy="$busy" \
                'NR > 1 { $1 = round; print $0, busy }' >>"$rows"
            busy_stop
            echo "round $round/$rounds, $busy busy processes: load $(load_average)" >&2
        done
    done
}

# ---- the rounds --------------------------------------------------------------

# before_each, after_each: function names run (untimed) before and after
# every run, with the command's label as $1: `fresh_copy` below, a check of
# the run's output, or `:` (nothing).
before_each=: after_each=:

# fresh_copy: replaces $D with a fresh copy of $FRESH_SOURCE, so no run
# sees another's outputs (the copy is made outside the timing). $D is the
# folder the commands work on.
fresh_copy() {
    rm -rf "$D"
    cp -a "$FRESH_SOURCE" "$D"
}

# run_rounds ROUNDS ROWS LABEL COMMAND [LABEL COMMAND ...]: the method. One
# warm-up run of each command (not recorded; WARMUP=0 skips it), then ROUNDS
# rounds, each running every COMMAND once (`bash -c`, exported variables such
# as D visible, stdout discarded) in a rotating order. Appends a row per run
# to ROWS (method.py's format; the header is written when ROWS is new). A
# failing command stops the script with its standard error.
run_rounds() {
    local rounds=$1 rows=$2
    shift 2
    local labels=() commands=()
    while [ $# -ge 2 ]; do
        labels+=("$1")
        commands+=("$2")
        shift 2
    done
    local count=${#labels[@]} timing errors
    timing=$(mktemp) errors=$(mktemp)
    [ -s "$rows" ] || printf 'round\tlabel\twall_s\tuser_s\tsys_s\trss_kib\tload1\tbusy\n' >"$rows"
    local round k index load start end user sys rss summary level_index busy levels=${#busy_levels[@]}
    for ((round = ${WARMUP:-1} > 0 ? 0 : 1; round <= rounds; round++)); do
      for ((level_index = 0; level_index < (round == 0 ? 1 : levels); level_index++)); do
        busy=${busy_levels[$(((round + levels - 1 + level_index) % levels))]}
        busy_start "$busy"
        load=$(cut -d' ' -f1 /proc/loadavg)
        summary=""
        for ((k = 0; k < count; k++)); do
            index=$(((round + count - 1 + k) % count)) # round 1: the order given
            "$before_each" "${labels[$index]}"
            start=$(date +%s%N)
            /usr/bin/time -f '%U %S %M' -o "$timing" bash -c "${commands[$index]}" >/dev/null 2>"$errors" || {
                echo "error: '${labels[$index]}' failed: ${commands[$index]}" >&2
                cat "$errors" >&2
                rm -f "$timing" "$errors"
                exit 1
            }
            end=$(date +%s%N)
            "$after_each" "${labels[$index]}"
            read -r user sys rss <"$timing"
            local wall
            wall=$(awk -v ns=$((end - start)) 'BEGIN { printf "%.4f", ns / 1e9 }')
            summary+=" ${labels[$index]} ${wall} s;"
            ((round == 0)) ||
                printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "${labels[$index]}" "$wall" "$user" "$sys" "$rss" "$load" "$busy" >>"$rows"
        done
        busy_stop
        if ((round == 0)); then
            echo "warm-up (load $load, $busy busy):$summary" >&2
        else
            echo "round $round/$rounds (load $load, $busy busy):$summary" >&2
        fi
      done
    done
    rm -f "$timing" "$errors"
}

# report_rounds ROWS [--ours LABEL] [--title TEXT]: method.py's Markdown report.
report_rounds() { python3 "$method_py" report "$@"; }

# ---- corpora -----------------------------------------------------------------

# make_small DIR [COUNT]: COUNT (2,000) real text files, the docs' plain files
# of 1–64 KiB, repeated with a numbered prefix until there are COUNT.
make_small() {
    local dir=$1 count=${2:-2000} i=0 sources
    mkdir -p "$dir"
    mapfile -t sources < <(find /usr/share/doc -type f ! -name '*.gz' -size +1k -size -64k | sort)
    [ ${#sources[@]} -gt 0 ] || { echo "error: no text files under /usr/share/doc" >&2; exit 1; }
    while [ $i -lt "$count" ]; do
        local source=${sources[$((i % ${#sources[@]}))]}
        local plain # letters, digits, '.', '-' and '_' only, so `ls | xargs` reads the names back
        plain=$(basename "$source" | tr -c 'A-Za-z0-9._\n-' '_')
        cp "$source" "$dir/$(printf '%05d' $i)-$plain"
        i=$((i + 1))
    done
}

# make_tiny DIR [FILES] [FOLDERS]: FILES (100,000) files of 1–300 bytes of real
# text in FOLDERS (100) folders.
make_tiny() { python3 "$method_py" tiny-corpus "$1" "${2:-100000}" "${3:-100}"; }

# make_mixed DIR: a real tree: /usr/share/doc as installed, without its own
# .gz files and links (so every .gz afterwards is an output), plus the ten
# largest shared libraries of 1–16 MB under /usr/lib (large files).
make_mixed() {
    local dir=$1
    mkdir -p "$dir/lib"
    cp -a /usr/share/doc "$dir/doc"
    find "$dir/doc" \( -name '*.gz' -o -type l \) -delete
    find /usr/lib -type f -name '*.so*' -size +1M -size -16M -printf '%s %p\n' 2>/dev/null | sort -rn | awk 'NR <= 10' |
        while read -r _ path; do cp "$path" "$dir/lib/"; done
}

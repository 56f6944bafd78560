# Shared by the comparison scripts (sourced, not run).

# require_tools TOOL...: stops naming every tool that is missing; "time" is
# GNU time at /usr/bin/time. A benchmark does not install system packages
# behind the reader's back.
require_tools() {
    local missing=() tool
    for tool in "$@"; do
        if [ "$tool" = time ]; then
            [ -x /usr/bin/time ] || missing+=(time)
        else
            command -v "$tool" >/dev/null || missing+=("$tool")
        fi
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "error: missing ${missing[*]}; install with: apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
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

# 2,000 real text files: the docs' plain files of 1–64 KiB, repeated with a
# numbered prefix until there are 2,000.
make_small() {
    local dir=$1 i=0
    mkdir -p "$dir"
    mapfile -t sources < <(find /usr/share/doc -type f ! -name '*.gz' -size +1k -size -64k | sort)
    [ ${#sources[@]} -gt 0 ] || { echo "error: no text files under /usr/share/doc" >&2; exit 1; }
    while [ $i -lt 2000 ]; do
        local source=${sources[$((i % ${#sources[@]}))]}
        local plain # letters, digits, '.', '-' and '_' only, so `ls | xargs` reads the names back
        plain=$(basename "$source" | tr -c 'A-Za-z0-9._\n-' '_')
        cp "$source" "$dir/$(printf '%04d' $i)-$plain"
        i=$((i + 1))
    done
}

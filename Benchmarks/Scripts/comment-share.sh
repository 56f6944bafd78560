#!/usr/bin/env bash
# The share of comment lines among the non-blank lines of the Swift files, per
# folder (issue 26, item 9: comments keep the why, not the measurement
# history). A comment line starts with `//` (doc comments `///` included) or
# lies inside `/* … */`; a line of code with a trailing comment counts as code.
#
#   Benchmarks/Scripts/comment-share.sh [FOLDER ...]
#
# Without folders: every folder directly under the library, the testing
# module and File Squeezer's sources. Prints one line per folder:
# comment lines, non-blank lines, the share, and the doc-comment (`///`) lines;
# then one line for each module taken together, "(all)".
set -euo pipefail
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"

totals=no
if [ $# -eq 0 ]; then
    totals=yes
    set -- Sources/ConcurrencyToolkit/*/ Sources/ConcurrencyToolkitTesting/ \
        Examples/FileSqueezer/Sources/FileSqueezerCore/*/ Examples/FileSqueezer/Sources/file-squeezer/
fi
# Prints one line for the Swift files under $1, labelled $2.
measure() {
    find "$1" -name '*.swift' -print0 | xargs -0 -r cat | awk -v folder="$2" '
        /^[ \t]*$/ { next }
        { total++ }
        inBlock { comments++; if (index($0, "*/")) inBlock = 0; next }
        /^[ \t]*\/\/\// { comments++; doc++; next }
        /^[ \t]*\/\// { comments++; next }
        /^[ \t]*\/\*/ { comments++; if (!index($0, "*/")) inBlock = 1; next }
        END {
            if (total == 0) exit
            printf "%-58s %8d %8d %5.1f%% %6d\n", folder, comments, total, 100 * comments / total, doc
        }'
}

printf '%-58s %8s %8s %6s %6s\n' folder comments nonblank share doc
for folder in "$@"; do
    measure "${folder%/}" "${folder%/}"
done
if [ "$totals" = yes ]; then
    # Issue 42, item 6: at most 35% for each module taken together.
    measure Sources/ConcurrencyToolkit "Sources/ConcurrencyToolkit (all)"
    measure Sources/ConcurrencyToolkitTesting "Sources/ConcurrencyToolkitTesting (all)"
fi

#!/usr/bin/env bash
# The peer table: imgsniff against the other content detectors a user might reach for, on the
# same warm tree, in one hyperfine run. See Benchmarks/README.md.
#
#   Benchmarks/peers.sh [N] [--runs R] [--imgsniff BIN]
#
#   N             files in the tree (default 20000; the same tree as table.sh)
#   --runs R      hyperfine runs of each command (default 10, after 2 warm-ups)
#   --imgsniff B  measure this imgsniff instead of .build-bench/release/imgsniff (built if missing)
#
# Peers: `file --mime-type -f LIST` (libmagic, one process for the whole list), Go's
# gabriel-vasile/mimetype (reads 3 KiB a file) and h2non/filetype (8 KiB a file), each a small
# walker in Benchmarks/peers/ printing one line per file, built offline from Debian's Go packages:
#   apt-get install golang-go golang-github-gabriel-vasile-mimetype-dev golang-gopkg-h2non-filetype.v1-dev
# A peer that cannot be built is left out with a message. All run on one thread except imgsniff's
# default (one worker a core); `imgsniff scan --jobs 1` is the like-for-like row.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
N=20000 RUNS=10 IMGSNIFF=""
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) RUNS=$2; shift ;;
        --imgsniff) IMGSNIFF=$2; shift ;;
        -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
        *) if [[ "$1" =~ ^[0-9]+$ ]]; then N=$1; else echo "peers.sh: unknown argument $1" >&2; exit 64; fi ;;
    esac
    shift
done
command -v hyperfine >/dev/null || { echo "peers.sh: hyperfine is needed (apt-get install hyperfine)" >&2; exit 1; }
command -v jq >/dev/null || { echo "peers.sh: jq is needed (apt-get install jq)" >&2; exit 1; }
OUT="$here/.build-floors"
mkdir -p "$OUT"
if [ -z "$IMGSNIFF" ]; then
    IMGSNIFF="$root/.build-bench/release/imgsniff"
    [ -x "$IMGSNIFF" ] || nice -n 5 swift build -c release --package-path "$root" --scratch-path "$root/.build-bench" --product imgsniff 2>&1 | grep -E "error|Build" || true
fi
[ -x "$IMGSNIFF" ] || { echo "peers.sh: $IMGSNIFF was not built" >&2; exit 1; }

TREE="${BENCH_TMP:-/tmp}/imgsniff-table-$N"
python3 "$here/make-tree.py" "$N" "$TREE" --per-dir 100 --max-bytes 1000000000
LIST="$OUT/peers-list-$N"
find "$TREE" -type f -not -name '.*' | sort > "$LIST"

NAMES=() CMDS=()
row() { NAMES+=("$1"); shift; CMDS+=("$*"); }
row "imgsniff scan (default: one worker a core)" "$IMGSNIFF scan --format ndjson $TREE"
row "imgsniff scan --jobs 1" "$IMGSNIFF scan --format ndjson --jobs 1 $TREE"
row "file --mime-type -f LIST (libmagic $(file --version | head -1 | sed 's/.*-//'))" "file --mime-type -f $LIST"
if command -v go >/dev/null; then
    for peer in mimetype-scan filetype-scan; do
        if (cd "$here/peers/$peer" && GO111MODULE=off GOPATH=/usr/share/gocode GOCACHE="$OUT/gocache" \
                go build -o "$OUT/$peer" . 2>/dev/null); then
            row "Go $peer (one goroutine)" "$OUT/$peer $TREE"
        else
            echo "peers.sh: $peer left out: it did not build (its Debian package missing?)"
        fi
    done
else
    echo "peers.sh: the Go peers are left out: no Go toolchain (apt-get install golang-go ...)"
fi

printf '\n== Tree: %s (%s files), %s cores; hyperfine medians, %s runs after 2 warm-ups, warm cache ==\n' \
    "$TREE" "$(wc -l < "$LIST")" "$(nproc)" "$RUNS"
json=$(mktemp)
declare -a MED
for i in "${!NAMES[@]}"; do
    ${CMDS[i]} > /dev/null 2>&1 || true
    hyperfine -N -i --warmup 2 --runs "$RUNS" --output null --export-json "$json" "${CMDS[i]}" > /dev/null 2>&1
    MED[$i]=$(jq '.results[0].median' "$json")
done
rm -f "$json"
printf '\n| %-52s | %10s | %16s |\n' "run" "median" "/ imgsniff scan"
printf '|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..54})" "------------" "------------------"
for i in "${!NAMES[@]}"; do
    printf '| %-52s | %7.1f ms | %15.2fx |\n' "${NAMES[i]}" "$(awk -v s="${MED[$i]}" 'BEGIN {print s * 1000}')" \
        "$(awk -v a="${MED[$i]}" -v b="${MED[0]}" 'BEGIN {print a / b}')"
done

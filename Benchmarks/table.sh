#!/usr/bin/env bash
# Issue 28's table, warm and cold, with hyperfine. See Benchmarks/README.md.
#
#   Benchmarks/table.sh [N] [--runs R] [--cold-runs C] [--no-build] [--warm-only] [--imgsniff BIN]
#
#   N             files in the tree (default 20000; made once by make-tree.py, 100 a folder, whole
#                 copies of the files in TestImages/, in $BENCH_TMP/imgsniff-table-N)
#   --runs R      warm rounds (default 10, after 2 rounds of warm-up): each round runs every row
#                 once, so that a noisy spell on a shared machine slows all rows alike
#   --cold-runs C cold-tree rounds (default 5)
#   --no-build    use the binaries already built
#   --warm-only   leave out the cold half
#   --imgsniff B  measure this imgsniff instead of .build-bench/release/imgsniff
#
# Warm: the tree in the page cache. Cold tree: before each run, `sync; echo 3 >
# /proc/sys/vm/drop_caches`, then the measured program is run once with --version/no operands so
# that its binary and libraries are back in the cache (the binary warm, the tree cold). The cold
# half needs root and a writable /proc/sys; without them it is skipped, with a message. Cold
# start: the page cache dropped and nothing warmed, one file scanned (static imgsniff vs `file`).
#
# The library-alone row (`bench scan`: detection with a bare walk, no output) needs this package's
# bench (built here unless --no-build); it is left out, with a message, when it is missing.
#
# The floors are built here with cc (the io_uring one with liburing: apt-get install
# liburing-dev); the rows of a floor that cannot run (no liburing, io_uring disabled) say so.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
N=20000 RUNS=10 COLD_RUNS=5 BUILD=1 COLD=1 IMGSNIFF=""
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) RUNS=$2; shift ;;
        --cold-runs) COLD_RUNS=$2; shift ;;
        --no-build) BUILD=0 ;;
        --warm-only) COLD=0 ;;
        --imgsniff) IMGSNIFF=$2; shift ;;
        -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
        *) if [[ "$1" =~ ^[0-9]+$ ]]; then N=$1; else echo "table.sh: unknown argument $1" >&2; exit 64; fi ;;
    esac
    shift
done
TMPROOT=${BENCH_TMP:-/tmp}
OUT="$here/.build-floors"          # ignored by git (.build-*/)
FLOOR="$OUT/floor"
IMGSNIFF=${IMGSNIFF:-$root/.build-bench/release/imgsniff}
STATIC="$root/.build-dist/imgsniff"
BENCH="$here/.build/release/bench"   # the library alone (Benchmarks/Package.swift)
section() { printf '\n== %s ==\n' "$*"; }

command -v hyperfine >/dev/null || { echo "table.sh: hyperfine is needed (apt-get install hyperfine)" >&2; exit 1; }
command -v jq >/dev/null || { echo "table.sh: jq is needed (apt-get install jq)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "table.sh: /usr/bin/time is needed (apt-get install time)" >&2; exit 1; }

# --- Build ---------------------------------------------------------------------------------
mkdir -p "$OUT"
URING=0
if [ "$BUILD" = 1 ] || [ ! -x "$FLOOR" ]; then
    if [ -f /usr/include/liburing.h ] && cc -O2 -DFLOOR_URING -o "$FLOOR" "$here/Sources/floor/floor.c" -luring -lpthread; then
        URING=1
    else
        echo "table.sh: liburing not found (apt-get install liburing-dev): the io_uring floor is left out" >&2
        cc -O2 -o "$FLOOR" "$here/Sources/floor/floor.c" -lpthread
    fi
fi
if [ "$BUILD" = 1 ] && [ "$IMGSNIFF" = "$root/.build-bench/release/imgsniff" ]; then
    nice -n 5 swift build -c release --package-path "$root" --scratch-path "$root/.build-bench" --product imgsniff 2>&1 | grep -E "error|Build" || true
fi
if [ "$BUILD" = 1 ]; then
    nice -n 5 swift build -c release --package-path "$here" --scratch-path "$here/.build" --product bench 2>&1 | grep -E "error|Build" || true
fi
[ -x "$IMGSNIFF" ] || { echo "table.sh: $IMGSNIFF was not built" >&2; exit 1; }

# --- Tree ----------------------------------------------------------------------------------
TREE="$TMPROOT/imgsniff-table-$N"
python3 "$here/make-tree.py" "$N" "$TREE" --per-dir 100 --max-bytes 1000000000
COUNT=$(find "$TREE" -type f -not -name '.*' | wc -l)
SEEN=$("$IMGSNIFF" scan --format ndjson "$TREE" | wc -l)
[ "$SEEN" = "$COUNT" ] || echo "WARNING: imgsniff printed $SEEN records for $COUNT files"

# io_uring: built, and allowed by this kernel?
if msg=$("$FLOOR" --uring 8 "$TREE/d000000" 2>&1 > /dev/null); then URING=1; else
    URING=0; echo "table.sh: the io_uring floor rows are left out: ${msg:-it failed}"
fi

# Can the page cache be dropped?
if [ "$COLD" = 1 ]; then
    if ! { sync && echo 3 > /proc/sys/vm/drop_caches; } 2>/dev/null; then
        echo "table.sh: COLD HALF SKIPPED: cannot write /proc/sys/vm/drop_caches (needs root and a writable /proc/sys;"
        echo "          containers usually mount it read-only). Only the warm columns are measured."
        COLD=0
    fi
fi
DROP="$OUT/drop-and-warm.sh"
cat > "$DROP" <<'EOF'
#!/bin/sh
# Drop the page cache, then run "$@" once (its own binary and libraries back in the cache).
sync
echo 3 > /proc/sys/vm/drop_caches
[ $# -gt 0 ] && "$@" > /dev/null 2>&1
exit 0
EOF
chmod +x "$DROP"

# Bytes read from the tree's block device (approximate: anything else reading meanwhile counts).
DEV=$(basename "$(df --output=source "$TREE" | tail -1)")
STAT="/sys/class/block/$DEV/stat"
sectors() { if [ -r "$STAT" ]; then awk '{print $3}' "$STAT"; else echo 0; fi; }

# --- Rows ----------------------------------------------------------------------------------
NAMES=() CMDS=() WARMERS=()
row() {  # row NAME WARMER -- CMD...   (WARMER: what brings the binary back after a drop)
    NAMES+=("$1"); WARMERS+=("$2"); shift 3; CMDS+=("$*")
}
row "floor, 1 thread: readdir walk + open + read 4 KiB + close" "$FLOOR" -- "$FLOOR $TREE"
row "floor --checked, 1 thread: + fstatat + fstat" "$FLOOR" -- "$FLOOR --checked $TREE"
row "floor, 2 threads (bare calls)" "$FLOOR" -- "$FLOOR --threads 2 $TREE"
row "floor --checked, 2 threads" "$FLOOR" -- "$FLOOR --checked --threads 2 $TREE"
row "floor --checked, 64 threads in flight" "$FLOOR" -- "$FLOOR --checked --inflight 64 $TREE"
row "floor --checked, 64 threads, fadvise(RANDOM)" "$FLOOR" -- "$FLOOR --checked --inflight 64 --fadvise $TREE"
row "floor, 64 threads, fadvise(RANDOM) (bare calls)" "$FLOOR" -- "$FLOOR --inflight 64 --fadvise $TREE"
if [ "$URING" = 1 ]; then
    row "floor, io_uring 128 in flight, 2 submitters, fadvise" "$FLOOR" -- "$FLOOR --uring 128 --fadvise $TREE"
    row "floor --checked, io_uring 128, 2 submitters, fadvise" "$FLOOR" -- "$FLOOR --checked --uring 128 --fadvise $TREE"
fi
FIRST_SCAN=${#NAMES[@]}
row "imgsniff scan (default)" "$IMGSNIFF --version" -- "$IMGSNIFF scan --format ndjson $TREE"
row "imgsniff scan --jobs 1" "$IMGSNIFF --version" -- "$IMGSNIFF scan --format ndjson --jobs 1 $TREE"
# The default without io_uring: the pool grows threads (up to 64) while reads wait.
row "imgsniff scan, IMGSNIFF_IO_URING=0 (threads grow)" "$IMGSNIFF --version" -- "env IMGSNIFF_IO_URING=0 $IMGSNIFF scan --format ndjson $TREE"
row "imgsniff scan --jobs 2" "$IMGSNIFF --version" -- "$IMGSNIFF scan --format ndjson --jobs 2 $TREE"
row "imgsniff scan --jobs 16" "$IMGSNIFF --version" -- "$IMGSNIFF scan --format ndjson --jobs 16 $TREE"
row "imgsniff scan --jobs 64" "$IMGSNIFF --version" -- "$IMGSNIFF scan --format ndjson --jobs 64 $TREE"
# The static release binary (what the .deb and the tarball install), when `make release` built it.
STATIC_ROW=""
if [ -x "$STATIC" ]; then
    STATIC_ROW=${#NAMES[@]}
    row "static release binary: scan (default)" "$STATIC --version" -- "$STATIC scan --format ndjson $TREE"
    row "static release binary: scan --jobs 1" "$STATIC --version" -- "$STATIC scan --format ndjson --jobs 1 $TREE"
else
    echo "table.sh: no static binary at $STATIC (make release): its rows are left out"
fi
# The library alone on one thread: a bare readdir walk calling FileSniffer.detect on each file,
# no sorting, no records, no output (`bench scan`). What detection itself costs above the checked
# floor's calls, and the least any `--jobs 1` built on this library can take.
LIB_ROW=""
if [ -x "$BENCH" ]; then
    LIB_ROW=${#NAMES[@]}
    # Its warmer scans an empty folder: bench with no arguments runs every benchmark.
    mkdir -p "$OUT/empty"
    row "library alone, 1 thread: bench scan (detect, no output)" "$BENCH scan $OUT/empty" -- "$BENCH scan $TREE"
else
    echo "table.sh: no $BENCH (swift build -c release --package-path Benchmarks --scratch-path Benchmarks/.build): the library-alone row is left out"
fi

declare -A WARM COLDT RSS DEVMB
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
# measure MODE: rounds, each running every row once (one hyperfine run), so that a noisy spell on a
# shared machine slows all rows of a round alike rather than the rows that happened to run in it;
# each row's median over the rounds. Warm: 2 rounds of warm-up first. Cold: the drop before each.
measure() {
    local mode=$1 i round rounds warmups json t
    local -A times=()
    json=$(mktemp)
    if [ "$mode" = warm ]; then rounds=$RUNS warmups=2; else rounds=$COLD_RUNS warmups=0; fi
    for ((round = -warmups; round < rounds; round++)); do
        for i in "${!NAMES[@]}"; do
            if [ "$mode" = warm ]; then
                hyperfine -N --runs 1 --output null --export-json "$json" "${CMDS[i]}" > /dev/null 2>&1
            else
                hyperfine -N --runs 1 --prepare "$DROP ${WARMERS[i]}" --output null --export-json "$json" "${CMDS[i]}" > /dev/null 2>&1
            fi
            t=$(jq '.results[0].times[0]' "$json")
            if [ "$round" -ge 0 ]; then times[$i]+="$t "; fi
        done
    done
    rm -f "$json"
    for i in "${!NAMES[@]}"; do
        # shellcheck disable=SC2086  # the times, one word each
        if [ "$mode" = warm ]; then
            WARM[$i]=$(median ${times[$i]})
            # Peak RSS of one more run.
            RSS[$i]=$(/usr/bin/time -f '%M' ${CMDS[i]} 2>&1 > /dev/null | tail -1)
        else
            COLDT[$i]=$(median ${times[$i]})
            # Device bytes of one more cold run.
            "$DROP" ${WARMERS[i]}
            local s0; s0=$(sectors)
            ${CMDS[i]} > /dev/null
            DEVMB[$i]=$(( ($(sectors) - s0) * 512 / 1000000 ))
        fi
    done
}

section "Tree: $TREE ($COUNT files, $(du -sh "$TREE" | cut -f1)), $(nproc) cores, $(uname -r)"
echo "medians of rounds that run every row once (hyperfine, one run each); warm: $RUNS rounds after 2 of warm-up; cold tree: $COLD_RUNS rounds, page cache dropped before each run, the binary re-warmed"
"$FLOOR" "$TREE" > /dev/null; "$IMGSNIFF" scan --format ndjson "$TREE" > /dev/null   # warm the tree
measure warm
[ "$COLD" = 1 ] && measure cold

ms() { if [ -n "${1:-}" ]; then awk -v s="$1" 'BEGIN {printf "%.1f ms", s * 1000}'; else echo "-"; fi; }
ratio() { if [ -n "${1:-}" ] && [ -n "${2:-}" ]; then awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2fx", a / b}'; else echo "-"; fi; }
printf '\n| %-58s | %10s | %10s | %9s | %12s |\n' "run" "warm" "cold tree" "peak RSS" "device MB"
printf '|%s|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..60})" "------------" "------------" "-----------" "--------------"
for i in "${!NAMES[@]}"; do
    printf '| %-58s | %10s | %10s | %6s KiB | %12s |\n' "${NAMES[i]}" "$(ms "${WARM[$i]}")" "$(ms "${COLDT[$i]:-}")" \
        "${RSS[$i]}" "${DEVMB[$i]:-"-"}"
done

section "Ratios (issue 28's targets)"
D=$FIRST_SCAN J1=$((FIRST_SCAN + 1))
F2=2 FC=1
echo "warm:  default / 2-thread floor          $(ratio "${WARM[$D]}" "${WARM[$F2]}")   (the bare calls)"
echo "warm:  default / checked 2-thread floor  $(ratio "${WARM[$D]}" "${WARM[3]}")   target <= 1.5 (issue 28: against the floor that makes the same calls)"
echo "warm:  --jobs 1 / checked floor          $(ratio "${WARM[$J1]}" "${WARM[$FC]}")   (issue 28's first target, <= 1.15: below what the library alone takes)"
if [ -n "$LIB_ROW" ]; then
    echo "warm:  library alone / checked floor     $(ratio "${WARM[$LIB_ROW]}" "${WARM[$FC]}")   (what detection costs above the calls)"
    echo "warm:  --jobs 1 / library alone          $(ratio "${WARM[$J1]}" "${WARM[$LIB_ROW]}")   target <= 1.15 (what the CLI adds: sorted walk, records, output)"
fi
if [ -n "$STATIC_ROW" ]; then
    echo "warm:  static default / checked 2-thread floor  $(ratio "${WARM[$STATIC_ROW]}" "${WARM[3]}")"
    echo "warm:  static --jobs 1 / checked floor          $(ratio "${WARM[$((STATIC_ROW + 1))]}" "${WARM[$FC]}")"
    [ -n "$LIB_ROW" ] && echo "warm:  static --jobs 1 / library alone          $(ratio "${WARM[$((STATIC_ROW + 1))]}" "${WARM[$LIB_ROW]}")"
fi
if [ "$COLD" = 1 ]; then
    best=""; bestname=""
    for ((i = 4; i < FIRST_SCAN; i++)); do
        if [ -z "$best" ] || awk -v a="${COLDT[$i]}" -v b="$best" 'BEGIN {exit !(a < b)}'; then best=${COLDT[$i]}; bestname=${NAMES[i]}; fi
    done
    bestc=""
    for ((i = 4; i < FIRST_SCAN; i++)); do
        [[ "${NAMES[i]}" == *--checked* ]] || continue
        if [ -z "$bestc" ] || awk -v a="${COLDT[$i]}" -v b="$bestc" 'BEGIN {exit !(a < b)}'; then bestc=${COLDT[$i]}; fi
    done
    echo "cold:  best concurrent floor: $bestname, $(ms "$best")"
    echo "cold:  default / best concurrent floor   $(ratio "${COLDT[$D]}" "$best")   target <= 1.1"
    echo "cold:  default / best checked concurrent floor (the same calls)  $(ratio "${COLDT[$D]}" "$bestc")"
    echo "cold:  --jobs 1 / checked floor          $(ratio "${COLDT[$J1]}" "${COLDT[$FC]}")"
    for ((i = FIRST_SCAN + 2; i < ${#NAMES[@]}; i++)); do
        [ "$i" = "$LIB_ROW" ] && continue
        echo "cold:  ${NAMES[i]#imgsniff scan } / best floor $(ratio "${COLDT[$i]}" "$best")"
    done
else
    echo "cold:  (skipped)"
fi

# --- Cold start ----------------------------------------------------------------------------
section "Cold start: one file, page cache dropped before each run (nothing re-warmed)"
ONE=$(find "$TREE/d000000" -type f | head -1)
if [ "$COLD" = 0 ]; then
    echo "skipped: the page cache cannot be dropped"
else
    json=$(mktemp)
    cold_start() {  # cold_start NAME CMD
        hyperfine -N --runs "$COLD_RUNS" --prepare "$DROP" --output null --export-json "$json" "$2" > /dev/null 2>&1
        CS=$(jq '.results[0].median' "$json")
        printf '%-40s %s\n' "$1" "$(ms "$CS")"
    }
    cold_start "file --mime-type ONE" "file --mime-type $ONE"; FILE_CS=$CS
    cold_start "imgsniff (this build, dynamic)" "$IMGSNIFF scan --format ndjson $ONE"
    if [ -x "$STATIC" ]; then
        cold_start "imgsniff static ($STATIC)" "$STATIC scan --format ndjson $ONE"
        echo "static imgsniff / file: $(ratio "$CS" "$FILE_CS")   target <= 1.5"
    else
        echo "no static binary at $STATIC (build it with \`make release\`): its row is left out"
    fi
    rm -f "$json"
fi

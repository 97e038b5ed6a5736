#!/usr/bin/env bash
# ImageSniff benchmarks, side by side (issue 7). See Benchmarks/README.md.
#
#   Benchmarks/run.sh [N] [--rss-check [M]] [--runs R] [--skip-file] [--skip-micro] [--no-build]
#
#   N             files in the scan tree (default 20000)
#   --rss-check   also scan a tree of M files (default 200000) once, to show that peak RSS does
#                 not grow with the number of files in NDJSON mode
#   --runs R      repetitions of each scan measurement (default 5; `file` gets min(R, 3))
#   --skip-file   leave out `file --mime-type` (the slowest: about 2-3 s a run on 20,000 files)
#   --skip-micro  leave out the in-memory and per-file micro-benchmarks
#   --no-build    use the binaries already built
#   --compare BIN another imgsniff (say, a build of an earlier commit) measured in the same runs
#
# Environment: BENCH_TMP (default /tmp) holds the trees, /tmp/imgsniff-bench-N/, made once and
# reused; BENCH_NICE (default 0) is the nice level of the measured commands.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
N=20000
RSS_CHECK=0
M=200000
RUNS=5
SKIP_FILE=0
SKIP_MICRO=0
BUILD=1
COMPARE=""
while [ $# -gt 0 ]; do
    case "$1" in
        --compare) COMPARE=$2; shift ;;
        --rss-check) RSS_CHECK=1; if [[ "${2:-}" =~ ^[0-9]+$ ]]; then M=$2; shift; fi ;;
        --runs) RUNS=$2; shift ;;
        --skip-file) SKIP_FILE=1 ;;
        --skip-micro) SKIP_MICRO=1 ;;
        --no-build) BUILD=0 ;;
        -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
        *) if [[ "$1" =~ ^[0-9]+$ ]]; then N=$1; else echo "run.sh: unknown argument $1" >&2; exit 64; fi ;;
    esac
    shift
done
TMPROOT=${BENCH_TMP:-/tmp}
NICE=${BENCH_NICE:-0}
BENCH_BIN="$here/.build/release"
CLI_SCRATCH="$root/.build-bench"   # matches .build-*/ in .gitignore
IMGSNIFF="$CLI_SCRATCH/release/imgsniff"

say() { printf '%s\n' "$*"; }
section() { printf '\n== %s ==\n' "$*"; }

# --- Build ---------------------------------------------------------------------------------
if [ "$BUILD" = 1 ]; then
    section "Building (release)"
    nice -n 10 swift build -c release --package-path "$here" --scratch-path "$here/.build" 2>&1 | grep -E "error|Compiling|Build" || true
    nice -n 10 swift build -c release --package-path "$root" --scratch-path "$CLI_SCRATCH" --product imgsniff 2>&1 | grep -E "error|Build" || true
fi
for b in "$BENCH_BIN/bench" "$BENCH_BIN/floor" "$IMGSNIFF"; do
    [ -x "$b" ] || { echo "run.sh: $b was not built" >&2; exit 1; }
done

# --- Tools ---------------------------------------------------------------------------------
if [ ! -x /usr/bin/time ] || ! command -v hyperfine >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        pkgs=""; [ -x /usr/bin/time ] || pkgs="time"; command -v hyperfine >/dev/null || pkgs="$pkgs hyperfine"
        apt-get install -y -qq $pkgs >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq $pkgs >/dev/null 2>&1; } || true
    fi
fi
[ -x /usr/bin/time ] || { echo "run.sh: /usr/bin/time is needed (apt-get install time)" >&2; exit 1; }

# --- Helpers -------------------------------------------------------------------------------
now_ns() { date +%s%N; }

# make_tree COUNT -> path of a tree of COUNT extensionless copies of TestImages (100 a folder)
make_tree() {
    local count=$1 dir="$TMPROOT/imgsniff-bench-$1"
    local sources; sources=$(find "$root/TestImages" -mindepth 2 -type f -not -name '.*' | wc -l)
    if [ ! -f "$dir/.bench-tree" ] || [ "$(cat "$dir/.bench-tree")" != "$count $sources" ]; then
        rm -rf "$dir"
        "$BENCH_BIN/bench" make-tree "$root/TestImages" "$dir" "$count" >&2
        echo "$count $sources" > "$dir/.bench-tree"
    fi
    echo "$dir"
}

# One measured run: wall nanoseconds and peak RSS (KiB) of CMD (stdout to /dev/null), under
# /usr/bin/time -v ("Maximum resident set size").
run_once() {  # run_once CMD... -> "NS KIB"
    local t0 t1 log; log=$(mktemp)
    t0=$(now_ns)
    nice -n "$NICE" /usr/bin/time -v -o "$log" "$@" > /dev/null
    t1=$(now_ns)
    echo "$(( t1 - t0 )) $(awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$log")"
    rm -f "$log"
}

# Scan measurements are interleaved (round robin over the commands, RUNS rounds), so that a
# burst of load from elsewhere hits all of them alike; each reports its median.
NAMES=(); CMDS=(); REPS=()
add() { NAMES+=("$1"); REPS+=("$2"); shift 2; CMDS+=("$(printf '%q ' "$@")"); }
declare -A WALL MINW RSS FILES SAMPLES_T SAMPLES_M
run_all() {  # run_all FILES: runs every added command, prints a row each, clears the list
    local count=$1 max=0 r i
    for r in "${REPS[@]}"; do (( r > max )) && max=$r; done
    for ((r = 0; r < max; r++)); do
        for i in "${!NAMES[@]}"; do
            (( r < REPS[i] )) || continue
            read -r ns kib < <(eval "run_once ${CMDS[i]}")
            SAMPLES_T[${NAMES[i]}]+="$ns "; SAMPLES_M[${NAMES[i]}]+="$kib "
        done
    done
    for i in "${!NAMES[@]}"; do
        local name=${NAMES[i]} med mn rss all
        med=$(printf '%s\n' ${SAMPLES_T[$name]} | sort -n | awk '{a[NR]=$1} END {m = NR % 2 ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.4f", m / 1e9}')
        mn=$(printf '%s\n' ${SAMPLES_T[$name]} | sort -n | head -1 | awk '{printf "%.4f", $1 / 1e9}')
        rss=$(printf '%s\n' ${SAMPLES_M[$name]} | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
        all=$(printf '%s\n' ${SAMPLES_T[$name]} | awk '{printf "%s%.3f", (NR > 1 ? " " : ""), $1 / 1e9}')
        WALL[$name]=$med; MINW[$name]=$mn; RSS[$name]=$rss; FILES[$name]=$count
        printf '%-46s %8s s %8s s %10s files/s %8s KiB   runs: %s\n' "$name" "$med" "$mn" \
            "$(awk -v n="$count" -v s="$med" 'BEGIN {printf "%.0f", n / s}')" "$rss" "$all"
    done
    NAMES=(); CMDS=(); REPS=()
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

# --- Micro-benchmarks ----------------------------------------------------------------------
say "machine: $(nproc) cores, $(uname -r); load average now: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$SKIP_MICRO" = 0 ]; then
    section "Micro-benchmarks (bench memory, bench files, bench stream)"
    (cd "$root" && nice -n "$NICE" "$BENCH_BIN/bench" all --corpus TestImages)
    (cd "$root" && nice -n "$NICE" "$BENCH_BIN/bench" stream --corpus TestImages)
fi

# --- Directory scan ------------------------------------------------------------------------
section "Directory scan of $N files"
TREE=$(make_tree "$N")
LIST="$TMPROOT/imgsniff-bench-$N.list"
find "$TREE" -type f -not -name '.*' | sort > "$LIST"
COUNT=$(wc -l < "$LIST")
say "tree: $TREE ($COUNT files, $(du -sh "$TREE" | cut -f1)); warming the page cache"
for _ in 1 2; do "$BENCH_BIN/floor" "$TREE" > /dev/null; "$IMGSNIFF" scan --format ndjson "$TREE" > /dev/null; done

# A sanity check: imgsniff must see every file.
SEEN=$("$IMGSNIFF" scan --format ndjson "$TREE" | wc -l)
[ "$SEEN" = "$COUNT" ] || say "WARNING: imgsniff printed $SEEN records for $COUNT files"

FILE_RUNS=$(( RUNS < 3 ? RUNS : 3 ))
say "wall time includes process start-up; median of $RUNS interleaved runs (file: $FILE_RUNS)"
printf '%-46s %10s %10s %18s %12s\n' "command" "median" "min" "throughput" "peak RSS"
add "floor (C, 1 thread)"                   "$RUNS" "$BENCH_BIN/floor" "$TREE"
add "floor (C, 2 threads)"                  "$RUNS" "$BENCH_BIN/floor" --threads 2 "$TREE"
add "floor --checked (C, 1 thread)"         "$RUNS" "$BENCH_BIN/floor" --checked "$TREE"
add "imgsniff scan --format ndjson"         "$RUNS" "$IMGSNIFF" scan --format ndjson "$TREE"
add "imgsniff scan --format ndjson --jobs 1" "$RUNS" "$IMGSNIFF" scan --format ndjson --jobs 1 "$TREE"
add "imgsniff scan --format ndjson --properties" "$RUNS" "$IMGSNIFF" scan --format ndjson --properties "$TREE"
add "imgsniff scan --properties --jobs 1"   "$RUNS" "$IMGSNIFF" scan --format ndjson --properties --jobs 1 "$TREE"
add "imgsniff scan --format ndjson --verify" "$RUNS" "$IMGSNIFF" scan --format ndjson --verify "$TREE"
if [ -n "$COMPARE" ]; then
    add "compared: scan --format ndjson"         "$RUNS" "$COMPARE" scan --format ndjson "$TREE"
    add "compared: scan --format ndjson --jobs 1" "$RUNS" "$COMPARE" scan --format ndjson --jobs 1 "$TREE"
fi
add "bench scan (in-process, 1 thread)"     "$RUNS" "$BENCH_BIN/bench" scan "$TREE"
add "bench scan (in-process, 2 threads)"    "$RUNS" "$BENCH_BIN/bench" scan --threads 2 "$TREE"
add "bench scan --ndjson (1 thread)"        "$RUNS" "$BENCH_BIN/bench" scan --ndjson "$TREE"
[ "$SKIP_FILE" = 1 ] || add "file --mime-type -f LIST" "$FILE_RUNS" file --mime-type -f "$LIST"
run_all "$COUNT"

section "Ratios (targets from issues 7, 12 and 17): median (min) of the runs"
r2() { printf '%s (%s)' "$(ratio "${WALL[$1]}" "${WALL[$2]}")" "$(ratio "${MINW[$1]}" "${MINW[$2]}")"; }
F1="floor (C, 1 thread)"; F2="floor (C, 2 threads)"
IM="imgsniff scan --format ndjson"; IM1="imgsniff scan --format ndjson --jobs 1"
say "imgsniff / floor(1 thread)           $(r2 "$IM" "$F1")   target <= 1.5 (aim 1.0; Go mimetype ~2.5)"
say "imgsniff --jobs 1 / floor(1 thread)  $(r2 "$IM1" "$F1")"
say "imgsniff / floor(2 threads)          $(r2 "$IM" "$F2")"
FC="floor --checked (C, 1 thread)"
say "floor --checked / floor(1 thread)    $(r2 "$FC" "$F1")   (fstatat before, fstat after openat: issue 15)"
say "imgsniff / floor --checked           $(r2 "$IM" "$FC")"
say "imgsniff --jobs 1 / floor --checked  $(r2 "$IM1" "$FC")"
say "--properties / plain scan            $(r2 "imgsniff scan --format ndjson --properties" "$IM")   target <= 1.25 (issue 17)"
say "--properties --jobs 1 / --jobs 1     $(r2 "imgsniff scan --properties --jobs 1" "$IM1")"
say "--verify / plain scan                $(r2 "imgsniff scan --format ndjson --verify" "$IM")   target <= 1.5 (issue 26)"
if [ -n "$COMPARE" ]; then
    say "compared / floor(1 thread)           $(r2 "compared: scan --format ndjson" "$F1")"
    say "compared --jobs 1 / floor(1 thread)  $(r2 "compared: scan --format ndjson --jobs 1" "$F1")"
    say "imgsniff / compared                  $(r2 "$IM" "compared: scan --format ndjson")"
fi
say "bench scan 1 thread / floor(1)       $(r2 "bench scan (in-process, 1 thread)" "$F1")   (library alone, no CLI)"
say "bench scan 2 threads / floor(1)      $(r2 "bench scan (in-process, 2 threads)" "$F1")"
if [ "$SKIP_FILE" = 0 ]; then
    say "file / imgsniff                      $(r2 "file --mime-type -f LIST" "$IM")   target >= 30"
fi
say "imgsniff peak RSS                    ${RSS[$IM]} KiB   target < 65536 KiB (64 MiB)"

section "Reads and bytes per file over the tree (issue 26)"
nice -n "$NICE" "$BENCH_BIN/bench" reads "$TREE"

# --- Start-up ------------------------------------------------------------------------------
section "Start-up: imgsniff scan of a single file, 50 runs"
ONE=$(head -1 "$LIST")
if command -v hyperfine >/dev/null; then
    json=$(mktemp)
    hyperfine -N --warmup 5 --runs 50 --export-json "$json" "$IMGSNIFF scan --format ndjson $ONE" > /dev/null 2>&1
    med=$(jq '.results[0].median * 1000' "$json"); mean=$(jq '.results[0].mean * 1000' "$json")
    mn=$(jq '.results[0].min * 1000' "$json"); mx=$(jq '.results[0].max * 1000' "$json")
    printf 'imgsniff scan ONE FILE (hyperfine -N): median %.2f ms, mean %.2f, min %.2f, max %.2f   target < 20 ms\n' "$med" "$mean" "$mn" "$mx"
    hyperfine -N --warmup 5 --runs 50 --export-json "$json" "$BENCH_BIN/floor $TREE/d0" > /dev/null 2>&1
    printf 'for scale, floor over one folder of 100:   median %.2f ms\n' "$(jq '.results[0].median * 1000' "$json")"
    rm -f "$json"
else
    times=()
    for ((i = 0; i < 55; i++)); do
        t0=$(now_ns); "$IMGSNIFF" scan --format ndjson "$ONE" > /dev/null; t1=$(now_ns)
        [ $i -ge 5 ] && times+=("$(( t1 - t0 ))")
    done
    printf 'imgsniff scan ONE FILE (shell loop): median %s ms   target < 20 ms\n' \
        "$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.2f", (a[25] + a[26]) / 2e6}')"
fi

# --- RSS check -----------------------------------------------------------------------------
if [ "$RSS_CHECK" = 1 ]; then
    section "Peak RSS on $M files (NDJSON mode must not grow with the number of files)"
    BIG=$(make_tree "$M")
    BIGCOUNT=$(find "$BIG" -type f -not -name '.*' | wc -l)
    "$BENCH_BIN/floor" "$BIG" > /dev/null   # warm
    add "imgsniff scan --format ndjson ($M)"         1 "$IMGSNIFF" scan --format ndjson "$BIG"
    add "imgsniff scan --format ndjson --jobs 1 ($M)" 1 "$IMGSNIFF" scan --format ndjson --jobs 1 "$BIG"
    add "floor (C, 1 thread) ($M)"                   1 "$BENCH_BIN/floor" "$BIG"
    add "bench scan (in-process, 1 thread) ($M)"     1 "$BENCH_BIN/bench" scan "$BIG"
    run_all "$BIGCOUNT"
    say "peak RSS: $N files ${RSS["imgsniff scan --format ndjson"]} KiB -> $M files ${RSS["imgsniff scan --format ndjson ($M)"]} KiB"
    say "imgsniff / floor(1 thread) on $M files: $(r2 "imgsniff scan --format ndjson ($M)" "floor (C, 1 thread) ($M)")"
    say "imgsniff --jobs 1 / floor(1 thread) on $M files: $(r2 "imgsniff scan --format ndjson --jobs 1 ($M)" "floor (C, 1 thread) ($M)")"
fi

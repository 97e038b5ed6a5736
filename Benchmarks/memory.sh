#!/usr/bin/env bash
# Peak memory and open descriptors of `imgsniff scan`, by tree size and job count (issue 24).
#
#   Benchmarks/memory.sh [--sizes "10000 200000 2000000"] [--jobs "1 2 16 64"] [--runs 3] [--bin PATH]
#
# For each tree size N (made once by Benchmarks/make-tree.py under $BENCH_TMP, default /tmp:
# 1,000 files a folder, each the first 4 KiB of a TestImages file) and each --jobs value, runs
# `imgsniff scan --format ndjson TREE > /dev/null` R times under Benchmarks/peaks.py and prints the
# largest peak RSS (exact: wait4's high-water mark) and the largest number of open descriptors seen
# (sampled from /proc: several runs, since a short peak can be missed) over the runs. The growth
# this guards against came and went with thread timing, so one run proves nothing.
# The 2,000,000-file tree takes about 8 GB of disk and a few minutes to make.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
SIZES="10000 200000 2000000"
JOBS="1 2 16 64"
RUNS=3
BIN=""
while [ $# -gt 0 ]; do
    case "$1" in
        --sizes) SIZES=$2; shift ;;
        --jobs) JOBS=$2; shift ;;
        --runs) RUNS=$2; shift ;;
        --bin) BIN=$2; shift ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        *) echo "memory.sh: unknown argument $1" >&2; exit 64 ;;
    esac
    shift
done
if [ -z "$BIN" ]; then
    swift build -c release --package-path "$root" --scratch-path "$root/.build-bench" --product imgsniff 2>&1 | grep -E "error|Build" || true
    BIN="$root/.build-bench/release/imgsniff"
fi
TMPROOT=${BENCH_TMP:-/tmp}
printf '%-10s %-5s %14s %10s %10s\n' files jobs "peak RSS MiB" "peak fds" "max s"
for n in $SIZES; do
    tree="$TMPROOT/imgsniff-memory-$n"
    python3 "$here/make-tree.py" "$n" "$tree" --per-dir 1000
    for j in $JOBS; do
        rss=0; fds=0; secs=0
        for _ in $(seq "$RUNS"); do
            line=$(python3 "$here/peaks.py" -- "$BIN" scan --format ndjson --jobs "$j" "$tree")
            r=$(sed -n 's/.*rss_kib=\([0-9]*\).*/\1/p' <<<"$line")
            f=$(sed -n 's/.*fds=\([0-9]*\).*/\1/p' <<<"$line")
            s=$(sed -n 's/.*seconds=\([0-9.]*\).*/\1/p' <<<"$line")
            [ "$r" -gt "$rss" ] && rss=$r
            [ "$f" -gt "$fds" ] && fds=$f
            secs=$(python3 -c "print(max($secs, $s))")
        done
        printf '%-10s %-5s %14.1f %10s %10s\n' "$n" "$j" "$(python3 -c "print($rss/1024)")" "$fds" "$secs"
    done
done

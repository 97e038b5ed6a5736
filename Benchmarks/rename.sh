#!/usr/bin/env bash
# imgsniff rename --apply against a bare os.rename loop over the same files (issue 14), side by
# side in one run: N extensionless PNG copies, 100 a folder; each run renames a fresh copy of the
# tree. imgsniff detects every file, plans, journals (each batch's intents fdatasync'ed before its
# renames) and checks each renamed file; the baseline only renames, from a precomputed list.
#
#   Benchmarks/rename.sh [N] [--runs R]        # default 20000 files, 5 runs
#
# Environment: BENCH_TMP (default /tmp). Needs python3; builds imgsniff (release) into .build-bench/
# first, as Benchmarks/run.sh does.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
N=20000
RUNS=5
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) RUNS=$2; shift ;;
        -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
        *) [[ "$1" =~ ^[0-9]+$ ]] && N=$1 || { echo "rename.sh: unknown argument $1" >&2; exit 64; } ;;
    esac
    shift
done
IMGSNIFF="$root/.build-bench/release/imgsniff"
nice -n 10 swift build -c release --package-path "$root" --scratch-path "$root/.build-bench" --product imgsniff 2>&1 | grep -E "error|Build" || true
[ -x "$IMGSNIFF" ] || { echo "rename.sh: no imgsniff at $IMGSNIFF" >&2; exit 1; }
TMPROOT=${BENCH_TMP:-/tmp}/imgsniff-rename-bench
rm -rf "$TMPROOT" && mkdir -p "$TMPROOT"
png="$root/TestImages/png/alpha"

# The master tree, made once: N copies of a PNG, no extension.
python3 - "$TMPROOT/master" "$N" "$png" <<'PY'
import os, sys, shutil
root, n, src = sys.argv[1], int(sys.argv[2]), sys.argv[3]
data = open(src, 'rb').read()
for i in range(n):
    d = os.path.join(root, 'd%03d' % (i // 100))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'f%05d' % i), 'wb') as f: f.write(data)
PY

fresh() { rm -rf "$TMPROOT/work" && cp -a "$TMPROOT/master" "$TMPROOT/work" && sync; }
ms() { python3 -c "import sys; print(int((int(sys.argv[2]) - int(sys.argv[1])) / 1e6))" "$1" "$2"; }

declare -a T_IMG T_PY
for run in $(seq 1 "$RUNS"); do
    fresh
    t0=$(date +%s%N)
    "$IMGSNIFF" rename --apply --format ndjson --journal "$TMPROOT/journal-$run.jsonl" "$TMPROOT/work" > /dev/null
    t1=$(date +%s%N)
    renamed=$(find "$TMPROOT/work" -name '*.png' | wc -l)
    [ "$renamed" = "$N" ] || { echo "rename.sh: imgsniff renamed $renamed of $N" >&2; exit 1; }
    T_IMG+=("$(ms "$t0" "$t1")")

    fresh
    find "$TMPROOT/work" -type f > "$TMPROOT/list"
    t0=$(date +%s%N)
    python3 -c '
import os, sys
for line in open(sys.argv[1]):
    p = line.rstrip("\n"); os.rename(p, p + ".png")' "$TMPROOT/list"
    t1=$(date +%s%N)
    T_PY+=("$(ms "$t0" "$t1")")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mi=$(median "${T_IMG[@]}"); mp=$(median "${T_PY[@]}")
echo "machine: $(nproc) cores; $N files; $RUNS runs (interleaved)"
echo "imgsniff rename --apply (detect, plan, journal, rename, verify): ${T_IMG[*]} ms  median $mi"
echo "python os.rename loop (precomputed list, rename only):           ${T_PY[*]} ms  median $mp"
python3 -c "import sys; print('ratio imgsniff / os.rename loop: %.2f   target <= 5' % (float(sys.argv[1]) / max(float(sys.argv[2]), 1)))" "$mi" "$mp"
rm -rf "$TMPROOT"

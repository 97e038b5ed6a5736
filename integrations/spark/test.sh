#!/usr/bin/env bash
# The Spark job's test, in local mode: the job's Parquet records against `imgsniff scan`'s NDJSON
# for the same roots, a task whose imgsniff is killed and retried, the output-location guards,
# and the benchmark (the job against imgsniff alone on a 20,000-file tree).
#
#   bash integrations/spark/test.sh
#
# IMGSNIFF: the binary to test (default .build-dist/imgsniff, the static one `make release` and
# `make dist` make, else .build/release/imgsniff, else .build/debug/imgsniff; relative to the
# repository).
# PYTHON: the Python that has or gets PySpark (default python3). Needs Java 17 or newer.
# Exits non-zero on any difference. Closes with "spark-test: N passed, M failed".
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo"
t_start=$(date +%s.%N)

bin="${IMGSNIFF:-}"
if [ -z "$bin" ]; then
    for c in .build-dist/imgsniff .build/release/imgsniff .build/debug/imgsniff; do
        if [ -x "$c" ]; then bin="$c"; break; fi
    done
fi
if [ -z "$bin" ] || [ ! -x "$bin" ]; then
    echo "spark-test: no imgsniff binary: build one (make release) or set IMGSNIFF" >&2
    exit 1
fi

PY="${PYTHON:-python3}"
if ! "$PY" -c 'import pyspark' 2>/dev/null; then
    echo "spark-test: installing pyspark from PyPI"
    PIP_ROOT_USER_ACTION=ignore "$PY" -m pip install -q --disable-pip-version-check 'pyspark>=3.5,<5'
fi
if ! java -version >/dev/null 2>&1; then
    echo "spark-test: no java on PATH (Spark needs Java 17 or newer)" >&2
    exit 1
fi
PYEXE="$("$PY" -c 'import sys; print(sys.executable)')"
SPARK_HOME="$("$PY" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')"
export SPARK_HOME PYSPARK_PYTHON="$PYEXE" PYSPARK_DRIVER_PYTHON="$PYEXE"
export SPARK_LOCAL_IP=127.0.0.1     # stay on the loopback interface
submit="$SPARK_HOME/bin/spark-submit"
job="$here/imgsniff_spark.py"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/imgsniff-spark-test.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
# A copy of the binary, named imgsniff (the name the job looks for among the --files), that no
# rebuild can replace halfway.
mkdir "$tmp/bin"
cp "$bin" "$tmp/bin/imgsniff"
B="$tmp/bin/imgsniff"
echo "spark-test: $("$B" --version 2>/dev/null || echo '?') from $bin; pyspark $("$PY" -c 'import pyspark; print(pyspark.__version__)'); $(java -version 2>&1 | head -1)"

passed=0
failed=0
ok()   { passed=$((passed + 1)); echo "ok    $*"; }
bad()  { failed=$((failed + 1)); echo "FAIL  $*"; }
now()  { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# The JVM with its quick compiler only (C1) and the serial collector: these jobs are short, and
# the optimizing compiler's threads took more processor time than the jobs (the 20,000-file tree
# alone: 36 s wall and 58 s of CPU with the JVM's defaults, 26 s and 30 s with these; beside
# CI's other steps the difference is larger). What the job does is the same.
jvm_opts="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
spark_common=(--driver-memory 512m
    --conf "spark.driver.extraJavaOptions=$jvm_opts"
    --conf spark.ui.enabled=false
    --conf spark.log.level=WARN
    --conf spark.sql.shuffle.partitions=2
    --conf spark.default.parallelism=2
    --files "$B")

# run_job LOG MASTER ARGS...: spark-submit the job; its exit status is returned.
run_job() {
    local log="$1" master="$2"
    shift 2
    "$submit" --master "$master" "${spark_common[@]}" "$job" "$@" >"$log.out" 2>"$log.err"
}

# imgsniff's own answer: exit 0 (all read) or 2 (some file had an error) is an answer.
reference() {
    local out="$1"
    shift
    local rc=0
    "$B" scan --format ndjson "$@" >"$out" 2>/dev/null || rc=$?
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ]; then
        echo "spark-test: imgsniff scan $* exited $rc" >&2
        exit 1
    fi
}

# A copy of TestImages, so that edits to the repository during the test change nothing.
cp -R "$repo/TestImages" "$tmp/TestImages"
ti="$tmp/TestImages"

# ---- the 20,000-file tree: extensionless copies of TestImages' files, 100 per folder, in
# 10 x 20 folders; and a folder of awkward names beside them.
tree="$tmp/tree"
"$PY" - "$ti" "$tree" <<'EOF'
import os, shutil, sys
src, dst = sys.argv[1], sys.argv[2]
files = []
for d, dirs, names in os.walk(src):
    dirs.sort()
    files += [os.path.join(d, n) for n in sorted(names) if not n.startswith(".")]
i = 0
for g in range(10):
    for s in range(20):
        d = os.path.join(dst, "g%02d" % g, "d%02d" % s)
        os.makedirs(d)
        for f in range(100):
            shutil.copyfile(files[i % len(files)], os.path.join(d, "f%02d" % f))
            i += 1
png = next(f for f in files if os.sep + "png" + os.sep in f)
e = os.fsencode(os.path.join(dst, "edge"))
os.makedirs(e + b"/empty-dir")
os.makedirs(e + b"/.hidden-dir")
os.makedirs(e + b"/deep/a/b/c/d/e/f")
for name in (b"photo.jpg", b"50%off", b"caf\xc3\xa9", b"bad\xff\xfename", b"pc%\xff",
             b"new\nline", b".hidden", b".hidden-dir/x", b"deep/a/b/c/d/e/f/g"):
    shutil.copyfile(png, e + b"/" + name)
open(e + b"/zero", "wb").close()
os.symlink("photo.jpg", e + b"/link")
os.symlink("deep", e + b"/dirlink")
os.symlink("/nonexistent", e + b"/dangling")
os.mkfifo(e + b"/fifo")
EOF
echo "spark-test: generated $(find "$tree/g"* -type f | wc -l) copies in $(find "$tree/g"* -mindepth 1 -type d | wc -l) folders, and $tree/edge"

list="$tmp/list0"
{ find "$tree/edge" -print0; printf '%s\0' "$tmp/no-such-file"; } >"$list"

reference "$tmp/ref-ti.ndjson" --properties "$ti"
reference "$tmp/ref-list.ndjson" --properties --files-from "$list" -0
reference "$tmp/ref-tree.ndjson" "$tree"

# ---- A: TestImages and a list of paths, with small limits so that the work goes in several
# rounds, directories are split into name ranges and the list into byte ranges. The driver
# stops after the first round (as if it had been killed); --resume finishes the run.
a_args=("$ti" --files-from "$list" -0 --properties --split-entries 8 --task-budget 100
    --max-tasks 4 --driver-depth 1 --list-chunk-bytes 200 --out "$tmp/out-a")
t0=$(now)
rc=0
run_job "$tmp/a1" "local[2]" "${a_args[@]}" --test-stop-after-round 0 || rc=$?
if [ "$rc" -eq 3 ] && grep -q "test hook: stopping after round 0" "$tmp/a1.out"; then
    ok "A: TestImages + list, split small: stopped after round 0 ($(secs "$t0" "$(now)") s)"
else
    bad "A: the first run did not stop after round 0 (exit $rc)"; tail -20 "$tmp/a1.out" "$tmp/a1.err"
fi
t0=$(now)
if run_job "$tmp/a" "local[2]" "${a_args[@]}" --resume &&
        grep -q "round 0 done already" "$tmp/a.out"; then
    ok "A: --resume skipped round 0 and ran $(grep -c '^imgsniff-spark: round [1-9]' "$tmp/a.out") more rounds ($(secs "$t0" "$(now)") s)"
else
    bad "A: the resumed run failed"; tail -20 "$tmp/a.out" "$tmp/a.err"
fi

# ---- B: the tree with the default settings (the benchmark run).
TIMEFORMAT='%R %U %S'   # bash's `time`: wall, user and system seconds (children included)
if { time run_job "$tmp/b" "local[2]" "$tree" --out "$tmp/out-b"; } 2>"$tmp/b.time"; then
    read -r t_job u s <"$tmp/b.time"
    cpu_job=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
    ok "B: the 20,000-file tree: the job ran ($t_job s)"
else
    t_job=0; cpu_job=0
    bad "B: the job failed"; tail -20 "$tmp/b.out" "$tmp/b.err"
fi

# ---- the guards: no output inside a scanned root, no silent overwrite.
if run_job "$tmp/g1" "local[2]" "$tree" --out "$tree/g00/spark-out"; then
    bad "an output inside the scanned tree was accepted"
elif grep -q "inside the scanned tree" "$tmp/g1.out" && [ ! -e "$tree/g00/spark-out" ]; then
    ok "an output inside the scanned tree is refused: $(grep -o 'the output.*' "$tmp/g1.out" | head -1 | cut -c1-80)..."
else
    bad "an output inside the scanned tree failed without the expected message"; tail -5 "$tmp/g1.out"
fi
if run_job "$tmp/g2" "local[2]" "$tree" --out "$tmp/out-b"; then
    bad "an existing output was overwritten without --overwrite"
elif grep -q "exists: pass --overwrite" "$tmp/g2.out"; then
    ok "an existing output is kept unless --overwrite or --resume"
else
    bad "an existing output: no expected message"; tail -5 "$tmp/g2.out"
fi

# ---- C: the same as B, but the first attempt of one task has its imgsniff killed (SIGKILL)
# after 300 records; local[2,4] lets Spark retry a task.
if run_job "$tmp/c" "local[2,4]" "$tree" --test-kill-after 300 --out "$tmp/out-c"; then
    ok "C: the job with a killed task ran"
else
    bad "C: the job with a killed task failed"; tail -20 "$tmp/c.out" "$tmp/c.err"
fi
if grep -q "test hook: SIGKILL" "$tmp/c.err" && grep -q "killed by signal 9" "$tmp/c.err"; then
    ok "C: a task's imgsniff was killed and the task failed: $(grep -o 'test hook: .*' "$tmp/c.err" | head -1)"
else
    bad "C: no task was killed"
fi
if grep -Eq "Lost task [0-9.]+ in stage" "$tmp/c.err"; then
    ok "C: Spark retried it: $(grep -Eo 'Lost task [0-9.]+ in stage [0-9.]+' "$tmp/c.err" | head -1)"
else
    bad "C: no retry seen in Spark's log"
fi

# ---- compare everything (one Spark session).
if "$submit" --master "local[2]" --driver-memory 512m --conf "spark.driver.extraJavaOptions=$jvm_opts" \
        --conf spark.ui.enabled=false \
        --conf spark.log.level=WARN --conf spark.sql.shuffle.partitions=2 \
        "$here/compare.py" \
        --case "A testimages+list" "$tmp/out-a" "$tmp/ref-ti.ndjson,$tmp/ref-list.ndjson" \
        --case "B tree" "$tmp/out-b" "$tmp/ref-tree.ndjson" \
        --case "C tree, task killed" "$tmp/out-c" "$tmp/ref-tree.ndjson" \
        --same "C = B" "$tmp/out-b" "$tmp/out-c" \
        --future "$B" "$tmp" >"$tmp/compare.out" 2>"$tmp/compare.err"; then
    :
fi
sed -n '/^ok\|^FAIL\|^  /p' "$tmp/compare.out"
if line=$(grep -E '^compare: [0-9]+ passed, [0-9]+ failed$' "$tmp/compare.out"); then
    read -r p f <<<"$(echo "$line" | awk '{ print $2, $4 }')"
    passed=$((passed + p))
    failed=$((failed + f))
else
    bad "compare.py did not finish"; tail -20 "$tmp/compare.err"
fi

# ---- the benchmark: imgsniff alone on the same tree, warm, best of three.
best=""; best_cpu=""
for _ in 1 2 3; do
    { time "$B" scan --format ndjson "$tree" >/dev/null 2>&1 || true; } 2>"$tmp/s.time"
    read -r t u s <"$tmp/s.time"
    if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
        best=$t; best_cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
    fi
done
n=$(wc -l <"$tmp/ref-tree.ndjson")
round_s=$("$PY" -c 'import json,sys; print(sum(r["seconds"] for r in json.load(open(sys.argv[1]))["rounds"]))' "$tmp/out-b/summary.json" 2>/dev/null || echo 0)
echo "benchmark: $n files, local[2] on $(nproc) cores (load average $(cut -d' ' -f1-3 /proc/loadavg)):"
echo "  imgsniff scan alone (best of 3):   $best s wall, $best_cpu s CPU"
echo "  Spark job (spark-submit to exit):  $t_job s wall, $cpu_job s CPU; its scanning round: $round_s s wall"
awk -v j="$t_job" -v c="$cpu_job" -v s="$best" -v sc="$best_cpu" -v r="$round_s" -v n="$n" 'BEGIN {
    printf "  Spark path overhead per file:      %.0f us wall, %.0f us CPU over the whole run (start-up included); %.0f us wall in the scanning round\n",
        (j - s) / n * 1e6, (c - sc) / n * 1e6, (r - s) / n * 1e6 }'

echo "spark-test: took $(secs "$t_start" "$(now)") s"
echo "spark-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

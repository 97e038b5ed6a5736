#!/usr/bin/env bash
# Builds the libFuzzer target for the detector and runs it.
#
#   Fuzz/run.sh                 # 10,000,000 runs
#   Fuzz/run.sh 50000000        # that many runs
#   Fuzz/run.sh 600s            # for 600 seconds
#   Fuzz/run.sh 1000000 -jobs=2 -workers=2   # anything after the first argument goes to libFuzzer
#   Fuzz/run.sh build           # build only
#   Fuzz/run.sh repro FILE...   # run the target once on each FILE (to replay a crash)
#   Fuzz/run.sh minimize FILE   # shrink a crashing FILE to FILE.min
#   Fuzz/run.sh sweep           # every seed whole, cut and flipped, once each, every read plan
#                               # (deterministic: CI's AddressSanitizer run; sweep.py makes them)
#
# FUZZ_SWIFTC_FLAGS adds compiler flags.
#
# The core sources, the invariants shared with the test suite
# (Tests/TestSupport/DetectionInvariants.swift) and Fuzz/FuzzDetector.swift are compiled into one
# module (ImageSniff, with -D IMAGESNIFF_FUZZ). Outputs: Fuzz/build/ (binary), Fuzz/corpus/ (the working
# corpus, seeded from TestImages/, Fuzz/seeds/ and the test suite's FuzzRegressions/),
# Fuzz/crashes/ (crash, timeout, leak and
# out-of-memory inputs). None of them is committed. Set NICE=0 to run at normal priority.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
build="$here/build"
corpus="$here/corpus"
crashes="$here/crashes"
nice_level="${NICE:-19}"
mode="${1:-10000000}"
shift || true

mkdir -p "$build" "$corpus" "$crashes"
# The Swift runtime's backtracer reads memory ASan flags; libFuzzer and ASan print the stack.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"

build_target() {
    local sources=()
    while IFS= read -r -d '' f; do sources+=("$f"); done \
        < <(find "$root/Sources/ImageSniff" -name '*.swift' -print0 | sort -z)
    sources+=("$root/Tests/TestSupport/DetectionInvariants.swift")
    local bin="$build/fuzz-detector"
    local flags="${FUZZ_SWIFTC_FLAGS:-}"
    local newest
    newest="$(ls -t "${sources[@]}" "$here/FuzzDetector.swift" "$0" | head -1)"
    if [[ ! -x "$bin" || "$newest" -nt "$bin" || "$(cat "$build/flags" 2>/dev/null)" != "$flags" ]]; then
        echo "building $bin" >&2
        # shellcheck disable=SC2086
        nice -n "$nice_level" swiftc -sanitize=fuzzer,address -parse-as-library -O \
            -swift-version 6 -module-name ImageSniff -package-name imagesniff -D IMAGESNIFF_FUZZ -g -use-ld=lld $flags \
            "${sources[@]}" "$here/FuzzDetector.swift" -o "$bin.tmp"
        mv "$bin.tmp" "$bin"
        printf '%s' "$flags" > "$build/flags"
    fi
}

seed_corpus() {
    # Every file of TestImages (except the manifest), the hand-made seeds and the regressions, named by content
    # hash as libFuzzer names its own finds, so that reseeding adds no duplicates.
    local f
    while IFS= read -r -d '' f; do
        local sum
        # (Other work may change TestImages/ meanwhile: a file gone is skipped.)
        sum="$(sha1sum "$f" 2>/dev/null | cut -d' ' -f1)" || continue
        [[ -n "$sum" && ! -e "$corpus/$sum" ]] || continue
        head -c 1048576 "$f" > "$corpus/$sum" 2>/dev/null || rm -f "$corpus/$sum"
    done < <(find "$root/TestImages" "$here/seeds" "$root/Tests/ImageSniffTests/FuzzRegressions" -type f ! -name 'manifest.tsv' ! -name '*.md' -print0 2>/dev/null)
}

build_target
bin="$build/fuzz-detector"

case "$mode" in
    build) exit 0 ;;
    repro) exec "$bin" -runs=1 "$@" ;;
    minimize)
        exec nice -n "$nice_level" "$bin" -minimize_crash=1 -runs=200000 \
            -exact_artifact_path="$1.min" "$1" ;;
    sweep)
        inputs="$(mktemp -d)"
        log="$(mktemp)"
        trap 'rm -rf "$inputs" "$log"' EXIT
        python3 "$here/sweep.py" "$inputs" "$root/TestImages" "$here/seeds" "$root/Tests/ImageSniffTests/FuzzRegressions"
        echo "sweep: $(find "$inputs" -type f | wc -l) inputs" >&2
        # -runs=0: each input once, no mutation; a violated invariant or a memory error fails.
        rc=0
        IMAGESNIFF_FUZZ_SWEEP=1 "$bin" -runs=0 -max_len=2000000 -timeout=30 -rss_limit_mb=2048 \
            -artifact_prefix="$crashes/" "$inputs" >"$log" 2>&1 || rc=$?
        grep -vE '^#[0-9]+[[:space:]]+(pulse|INITED|DONE)' "$log" | tail -60 >&2 || true
        echo "sweep: exit $rc" >&2
        exit "$rc" ;;
esac

seed_corpus
if [[ "$mode" == *s ]]; then
    limit=(-max_total_time="${mode%s}")
else
    limit=(-runs="$mode")
fi

cd "$build"   # libFuzzer writes fuzz-*.log here with -jobs
# Inputs up to past the read cap (512 KiB): the cap's own edge is fuzzed too. FUZZ_MAX_LEN changes it.
exec nice -n "$nice_level" "$bin" "${limit[@]}" -max_len="${FUZZ_MAX_LEN:-600000}" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$crashes/" -print_final_stats=1 "$@" "$corpus"

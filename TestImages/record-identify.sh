#!/usr/bin/env bash
# Records what ImageMagick's identify says of each test image (width, height, frames of the
# first line of `identify -format '%w %h %n'`), for the property tests to compare with when
# identify is not installed: writes identify-sizes.tsv. Files identify cannot read, or reads only
# with a coder prefix, are left out (identify picks coders by content or name; these files have no
# name to go by).
#
#   bash TestImages/record-identify.sh
set -euo pipefail
cd "$(dirname "$0")"
command -v identify >/dev/null || { echo "record-identify: ImageMagick's identify is not installed" >&2; exit 1; }
out=identify-sizes.tsv
{
    printf '# identify -format "%%w %%h %%n" (first line) for each test image it reads: %s\n' "$(identify -version | head -1 | cut -d' ' -f2-3)"
    printf 'file\twidth\theight\tframes\tcoder\n'
    tail -n +2 manifest.tsv | cut -f1 | while IFS= read -r f; do
        line=$(timeout 10 identify -format '%w %h %n %m\n' "$f" 2>/dev/null | head -1) || continue
        set -- $line
        [ $# -eq 4 ] || continue
        printf '%s\t%s\t%s\t%s\t%s\n' "$f" "$1" "$2" "$3" "$4"
    done
} > "$out"
echo "record-identify: $(($(wc -l < "$out") - 2)) files in $out" >&2

#!/usr/bin/env bash
# Records what ImageMagick's identify says of each test image (width, height, frames of the
# first line of `identify -format '%w %h %n'`), for the property tests to compare with when
# identify is not installed: writes identify-sizes.tsv. Files identify cannot read, or reads only
# with a coder prefix, are left out (identify picks coders by content or name; these files have no
# name to go by). For JPEG XL, which ImageMagick 6 cannot read, libjxl's jxlinfo: jxlinfo.tsv.
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

# ImageMagick 6 has no JPEG XL coder: for JPEG XL, libjxl's jxlinfo is the reference (width,
# height, bits per sample, still or animation): writes jxlinfo.tsv.
if command -v jxlinfo >/dev/null; then
    out=jxlinfo.tsv
    {
        printf '# jxlinfo (libjxl-tools %s): "JPEG XL image|animation, WxH, ..., N-bit ..." for each JPEG XL test image\n' \
            "$(dpkg-query -W -f '${Version}' libjxl-tools 2>/dev/null || echo '?')"
        printf 'file\twidth\theight\tbits\tanimation\n'
        tail -n +2 manifest.tsv | awk -F'\t' '$2 == "public.jpeg-xl" {print $1}' | while IFS= read -r f; do
            line=$(jxlinfo "$f" 2>/dev/null | grep -m1 -E '^JPEG XL (image|animation), ') || continue
            kind=$(sed -E 's/^JPEG XL (image|animation), .*/\1/' <<<"$line")
            size=$(sed -E 's/^JPEG XL [a-z]+, ([0-9]+)x([0-9]+),.*/\1 \2/' <<<"$line")
            bits=$(grep -oE '[0-9]+-bit' <<<"$line" | head -1 | tr -d -c 0-9)
            set -- $size
            printf '%s\t%s\t%s\t%s\t%s\n' "$f" "$1" "$2" "$bits" "$([ "$kind" = animation ] && echo yes || echo no)"
        done
    } > "$out"
    echo "record-identify: $(($(wc -l < "$out") - 2)) files in $out" >&2
else
    echo "record-identify: jxlinfo (libjxl-tools) is not installed; jxlinfo.tsv left as it is" >&2
fi

#!/usr/bin/env bash
# Records what ImageMagick's identify says of each test image (width, height, frames of the
# first line of `identify -format '%w %h %n'`), for the property tests to compare with when
# identify is not installed: writes identify-sizes.tsv. identify picks coders by content or name,
# and these files have no name to go by: formats it does not know by content are read with a coder
# prefix (below); files it cannot read are left out. For JPEG XL, which ImageMagick 6 cannot read,
# libjxl's jxlinfo: jxlinfo.tsv.
#
#   bash TestImages/record-identify.sh
set -euo pipefail
cd "$(dirname "$0")"
command -v identify >/dev/null || { echo "record-identify: ImageMagick's identify is not installed" >&2; exit 1; }
# Formats identify does not recognise by content: read with a coder prefix ("MTV:file"), noted in
# the last column ("prefix"; "content" otherwise). A headerless DIB is a BMP without its file header.
declare -A PREFIX=([org.brainwagon.mtv]=MTV [com.dec.sixel]=SIXEL [com.sony.psx-tim]=TIM
                   [com.palm.imageviewer-pdb]=PDB [com.microsoft.bmp]=DIB [com.apple.pict]=PICT
                   [com.wavefront.rla-image]=RLA)
out=identify-sizes.tsv
{
    printf '# identify -format "%%w %%h %%n" (first line) for each test image it reads: %s\n' "$(identify -version | head -1 | cut -d' ' -f2-3)"
    printf 'file\twidth\theight\tframes\tcoder\tread\n'
    tail -n +2 manifest.tsv | cut -f1,2 | while IFS=$'\t' read -r f id; do
        read=content
        line=$(timeout 10 identify -format '%w %h %n %m\n' "$f" 2>/dev/null | head -1) || line=""
        if [ -z "$line" ] && [ -n "${PREFIX[$id]:-}" ]; then
            read=prefix
            line=$(timeout 10 identify -format '%w %h %n %m\n' "${PREFIX[$id]}:$f" 2>/dev/null | head -1) || continue
        fi
        set -- $line
        [ $# -eq 4 ] || continue
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$f" "$1" "$2" "$3" "$4" "$read"
    done
} > "$out"
echo "record-identify: $(($(wc -l < "$out") - 2)) files in $out" >&2

# ImageMagick 6 has no JPEG XL coder: for JPEG XL, libjxl's jxlinfo is the reference (width,
# height, bits per sample, still or animation, channels: RGB, RGBA, Grayscale, ...): writes
# jxlinfo.tsv.
if command -v jxlinfo >/dev/null; then
    out=jxlinfo.tsv
    {
        printf '# jxlinfo (libjxl-tools %s): "JPEG XL image|animation, WxH, ..., N-bit CHANNELS" for each JPEG XL test image\n' \
            "$(dpkg-query -W -f '${Version}' libjxl-tools 2>/dev/null || echo '?')"
        printf 'file\twidth\theight\tbits\tanimation\tchannels\n'
        tail -n +2 manifest.tsv | awk -F'\t' '$2 == "public.jpeg-xl" {print $1}' | while IFS= read -r f; do
            line=$(jxlinfo "$f" 2>/dev/null | grep -m1 -E '^JPEG XL (image|animation), ') || continue
            kind=$(sed -E 's/^JPEG XL (image|animation), .*/\1/' <<<"$line")
            size=$(sed -E 's/^JPEG XL [a-z]+, ([0-9]+)x([0-9]+),.*/\1 \2/' <<<"$line")
            bits=$(grep -oE '[0-9]+-bit' <<<"$line" | head -1 | tr -d -c 0-9)
            channels=$(sed -E 's/.*[0-9]+-bit (float \([^)]*\) )?([A-Za-z+]+).*/\2/' <<<"$line")
            set -- $size
            printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$f" "$1" "$2" "$bits" "$([ "$kind" = animation ] && echo yes || echo no)" "$channels"
        done
    } > "$out"
    echo "record-identify: $(($(wc -l < "$out") - 2)) files in $out" >&2
else
    echo "record-identify: jxlinfo (libjxl-tools) is not installed; jxlinfo.tsv left as it is" >&2
fi

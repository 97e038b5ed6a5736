#!/usr/bin/env bash
# Regenerates the ImageSniff test corpus from scratch.
#
#   bash TestImages/make-test-images.sh                      # everything
#   bash TestImages/make-test-images.sh --only longtail regress   # just these folders
#
# --only FAMILY...: deletes and regenerates only the listed family folders, replaces
# only their rows in manifest.tsv and file-report.tsv (other folders and rows are left
# untouched), and tolerates failing source-building commands (logged in .make.log).
#
# Every corpus file is produced by one `make` (or `synth` / `text`) line below;
# the helper runs the command and appends a row to manifest.tsv:
#   file <TAB> expected identifier <TAB> animated yes/no <TAB> how
# where "how" is the exact command that was run (placeholders substituted).
# Files have no filename extension.  Encoders that insist on an extension write
# to FILE.ext (placeholder @OUT.ext@) and the helper then moves it to FILE.
# Formats no encoder here can write are made by synthesize.py ("synthetic: ..."
# rows).  Needed packages: see README.md.
set -euo pipefail

cd "$(dirname "$0")"
ROOT=$PWD
ONLY=()
if [[ ${1:-} == --only ]]; then
  shift; ONLY=("$@")
  ((${#ONLY[@]})) || { echo "usage: $0 [--only FAMILY...]" >&2; exit 2; }
elif (($#)); then
  echo "usage: $0 [--only FAMILY...]" >&2; exit 2
fi
# selected FILE: true when FILE's family folder is being regenerated
selected() {
  ((${#ONLY[@]} == 0)) && return 0
  local fam=${1%%/*} o
  for o in "${ONLY[@]}"; do [[ $fam == "$o" ]] && return 0; done
  return 1
}
MANIFEST=manifest.tsv
LOG=$ROOT/.make.log
FAILED=()

# ---------------------------------------------------------------- helpers
quote() {  # quote one word the way a reader would type it
  local a=$1
  if [[ $a =~ ^[A-Za-z0-9_./:=,@%+^-]+$ ]]; then printf '%s' "$a"
  else printf "'%s'" "${a//\'/\'\\\'\'}"; fi
}

_run() {  # _run FILE ID ANIM PREFIX SUFFIX -- cmd...   (PREFIX/SUFFIX wrap "how")
  local file=$1 id=$2 anim=$3 prefix=$4 suffix=$5; shift 5
  selected "$file" || return 0
  [[ $1 == -- ]] && shift
  local args=() tmp="" a ext
  for a in "$@"; do
    if [[ $a =~ @OUT\.([A-Za-z0-9]+)@ ]]; then
      ext=${BASH_REMATCH[1]}; tmp="$file.$ext"; a=${a//@OUT.$ext@/$tmp}
    fi
    args+=("${a//@OUT@/$file}")
  done
  mkdir -p "$(dirname "$file")"
  rm -f "$file" ${tmp:+"$tmp"}
  echo "== $file: ${args[*]}" >>"$LOG"
  if ! "${args[@]}" >>"$LOG" 2>&1; then
    echo "FAILED: $file (see $LOG)" >&2; FAILED+=("$file"); rm -f "$file" ${tmp:+"$tmp"}; return 0
  fi
  if [[ -n $tmp ]]; then mv "$tmp" "$file"; fi
  if [[ ! -s $file ]]; then echo "EMPTY: $file" >&2; FAILED+=("$file"); rm -f "$file"; return 0; fi
  local how="" w
  for w in "${args[@]}"; do how+="${how:+ }$(quote "$w")"; done
  [[ -n $tmp ]] && how+=" && mv $tmp $file"
  how=${how//$'\t'/ }; how=${how//$'\n'/ }
  printf '%s\t%s\t%s\t%s%s%s\n' "$file" "$id" "$anim" "$prefix" "$how" "$suffix" >>"$MANIFEST"
}

# make FILE IDENTIFIER yes|no -- command args...   (real encoder)
make() { _run "$1" "$2" "$3" "" "" "${@:4}"; }
# synth FILE IDENTIFIER yes|no 'what structure' -- python3 synthesize.py KIND @OUT@ ...
synth() { _run "$1" "$2" "$3" "synthetic: $4 [" "]" "${@:5}"; }
# text FILE IDENTIFIER 'description' <<'EOF' ... EOF   (hand-written text file)
text() {
  if ! selected "$1"; then cat >/dev/null; return 0; fi
  mkdir -p "$(dirname "$1")"; cat >"$1"
  printf '%s\t%s\tno\t%s\n' "$1" "$2" "hand-written text (heredoc in make-test-images.sh): $3" >>"$MANIFEST"
}

FF=(ffmpeg -nostdin -hide_banner -loglevel error -y)
BX=(-fflags +bitexact -flags +bitexact)   # output options: no timestamps / random UIDs / version strings
NOPNGDATE=(-define png:exclude-chunk=date,time)
PY=python3
SY=(python3 synthesize.py)
PE=(python3 pyencode.py)

# ---------------------------------------------------------------- fresh start
FAMILIES=(jpeg png gif tiff bmp ico icns jpeg2000 jxl jxr webp heif psd tga pict exr hdr netpbm sgi dds
          ktx astc pvr x11 pcx qoi fits dicom svg wbmp sun dpx cineon flif bpg farbfeld xcf ora miff mng
          macpaint djvu ps raw video audio archive document text data)
FAMILIES+=(longtail appleraw lookalike regress)   # long-tail formats, Apple-only RAW ids, neighbours, regressions
FAMILIES+=(realworld)   # formats and edge cases met in real-world files (Xfig, WPG, NIfTI, PGF, ANI, TIM, sixel, DIB, traps)
FAMILIES+=(far)   # facts past the first 512 KiB: TIFF IFDs at the end, a large ICC profile before SOF, long GIF/WebP, HEIF meta after mdat
FAMILIES+=(foreign)   # what other projects' test files hold (issue 29): image origins, tolerant headers, chunk order, old versions, OS/2 bitmaps
FAMILIES+=(orientation)   # HEIF rotations (irot) and mirrors (imir), alone and together, as a stranger met them in Pillow's AVIF tests
rm -rf .src "$LOG"
if ((${#ONLY[@]})); then
  for o in "${ONLY[@]}"; do
    [[ " ${FAMILIES[*]} " == *" $o "* ]] || { echo "unknown family: $o (known: ${FAMILIES[*]})" >&2; exit 2; }
    rm -rf "$o"
  done
  # keep every other family's rows; the selected families' rows are appended again below
  if [[ -s $MANIFEST ]]; then
    { head -n 1 "$MANIFEST"; tail -n +2 "$MANIFEST" | while IFS= read -r row; do selected "${row%%$'\t'*}" || printf '%s\n' "$row"; done; } >"$MANIFEST.tmp"
    mv "$MANIFEST.tmp" "$MANIFEST"
  else
    printf 'file\tidentifier\tanimated\thow\n' >"$MANIFEST"
  fi
else
  for d in "${FAMILIES[@]}"; do rm -rf "$d"; done
  printf 'file\tidentifier\tanimated\thow\n' >"$MANIFEST"
fi
mkdir -p .src

# ---------------------------------------------------------------- sources (not part of the corpus)
S=.src
((${#ONLY[@]})) && set +e   # --only: a source that cannot be built only fails the files that need it
{
  convert rose: -resize '32x32!' -strip "${NOPNGDATE[@]}" PNG24:$S/rose.png
  convert rose: -resize '16x16!' -strip "${NOPNGDATE[@]}" PNG24:$S/rose16.png
  convert rose: -resize '8x8!' -strip -quality 80 JPEG:$S/thumb8.jpg
  convert $S/rose.png -strip -quality 80 JPEG:$S/rose.jpg
  convert $S/rose.png -colorspace Gray -strip "${NOPNGDATE[@]}" PNG8:$S/gray.png
  convert -size 32x32 gradient:white-black -depth 16 -strip "${NOPNGDATE[@]}" PNG:$S/gray16.png
  convert $S/rose.png \( -size 32x32 radial-gradient:white-none \) -compose CopyOpacity -composite \
          -strip "${NOPNGDATE[@]}" PNG32:$S/alpha.png
  convert -size 32x32 xc:skyblue -fill navy -draw 'rectangle 0,0 15,31' -strip "${NOPNGDATE[@]}" PNG24:$S/flat.png
  for i in 1 2 3 4; do
    convert $S/rose.png -roll +$((i*8))+0 -strip "${NOPNGDATE[@]}" PNG24:$S/f$i.png
  done
  convert -delay 20 -loop 0 $S/f1.png $S/f2.png $S/f3.png $S/anim.gif
  convert $S/rose.png $S/rose.ppm
  convert $S/rose.png $S/rose.pgm
  convert $S/rose.png -threshold 50% $S/rose.pbm
  convert $S/rose.png BMP3:$S/rose.bmp
  convert $S/rose.png -compress none TIFF:$S/rose.tif
  python3 pyencode.py ic ljpeg $S/gray.png $S/gray.ljpeg
  "${FF[@]}" -f lavfi -i testsrc=size=32x32:rate=1 -frames:v 1 -c:v libx264 -x264-params log-level=none "${BX[@]}" \
      -pix_fmt yuv420p -f h264 $S/still.h264
  "${FF[@]}" -f lavfi -i testsrc=size=32x32:rate=5:duration=0.6 -c:v jpeg2000 -pix_fmt rgb24 "${BX[@]}" -f mov $S/j2k.mov
  python3 pyencode.py astc $S/rose.png $S/rose.astcblocks 4 4
  convert $S/rose.png -resize 16x16 "${NOPNGDATE[@]}" PNG:$S/thumb16.png
  # sources for the longtail / lookalike / regress families
  convert $S/rose.png TGA:$S/rose.tga
  convert -size 1x1 xc:'#c03030' -strip "${NOPNGDATE[@]}" PNG24:$S/one.png
  convert -size 33x33 gradient:red-blue -strip "${NOPNGDATE[@]}" PNG24:$S/g33.png
  convert -size 64x64 xc:gray -seed 1 +noise Random -strip "${NOPNGDATE[@]}" PNG24:$S/noise1.png
  convert -size 64x64 xc:gray -seed 2 +noise Random -strip "${NOPNGDATE[@]}" PNG24:$S/noise2.png
  printf '%s\n' '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">' \
    '<rect x="2" y="2" width="28" height="28" fill="#c33"/><circle cx="16" cy="16" r="8" fill="navy"/></svg>' >$S/vector.svg
  printf '%s\n' '%!PS-Adobe-3.0' '%%BoundingBox: 0 0 32 32' 'newpath 2 2 moveto 30 2 lineto 16 30 lineto closepath' \
    '0.8 0.2 0.2 setrgbcolor fill' 'newpath 16 12 6 0 360 arc 0 0 0.5 setrgbcolor fill' 'showpage' >$S/vector.ps
  # sources for the realworld family: a 16x16 PPM, and a command-line front end to libpgf (Debian's
  # libpgf-dev ships the encoder library but no program): pgfenc IN.ppm OUT rgb|gray|indexed|rgba
  convert $S/rose16.png $S/rose16.ppm
  cat >$S/pgfenc.cpp <<'EOF'
#include <libpgf/PGFimage.h>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <vector>
int main(int argc, char **argv) {
  if (argc != 4) { fprintf(stderr, "usage: pgfenc IN.ppm OUT rgb|gray|indexed|rgba\n"); return 2; }
  FILE *f = fopen(argv[1], "rb"); int w, h, maxv;
  if (!f || fscanf(f, "P6 %d %d %d", &w, &h, &maxv) != 3 || maxv != 255) { fprintf(stderr, "need P6, maxval 255\n"); return 1; }
  fgetc(f);
  std::vector<UINT8> rgb(w * h * 3);
  if (fread(rgb.data(), 1, rgb.size(), f) != rgb.size()) return 1;
  fclose(f);
  const char *m = argv[3];
  PGFHeader hd; hd.width = w; hd.height = h; hd.quality = 0; hd.nLevels = 0;  // lossless, levels chosen by libpgf
  std::vector<UINT8> buf; int pitch; int map3[3] = {2, 1, 0}; int map4[4] = {2, 1, 0, 3}; int *map = nullptr;
  RGBQUAD clut[256];
  if (!strcmp(m, "rgb")) { hd.bpp = 24; hd.channels = 3; hd.mode = ImageModeRGBColor; buf = rgb; pitch = w * 3; map = map3; }
  else if (!strcmp(m, "rgba")) {  // alpha: horizontal ramp
    hd.bpp = 32; hd.channels = 4; hd.mode = ImageModeRGBA; pitch = w * 4; map = map4; buf.resize(w * h * 4);
    for (int i = 0; i < w * h; i++) { memcpy(&buf[i * 4], &rgb[i * 3], 3); buf[i * 4 + 3] = (UINT8)(255 - (i % w) * 4); }
  } else if (!strcmp(m, "gray") || !strcmp(m, "indexed")) {  // indexed: 3-3-2 palette of 256 entries
    bool idx = m[0] == 'i';
    hd.bpp = 8; hd.channels = 1; hd.mode = idx ? ImageModeIndexedColor : ImageModeGrayScale; pitch = w; buf.resize(w * h);
    for (int i = 0; i < w * h; i++)
      buf[i] = idx ? (UINT8)((rgb[i * 3] & 0xE0) | ((rgb[i * 3 + 1] >> 3) & 0x1C) | (rgb[i * 3 + 2] >> 6))
                   : (UINT8)((rgb[i * 3] * 77 + rgb[i * 3 + 1] * 150 + rgb[i * 3 + 2] * 29) >> 8);
    for (int c = 0; c < 256; c++) { clut[c].rgbRed = c & 0xE0; clut[c].rgbGreen = (c & 0x1C) << 3; clut[c].rgbBlue = (c & 3) << 6; clut[c].rgbReserved = 0; }
  } else { fprintf(stderr, "unknown mode %s\n", m); return 2; }
  hd.usedBitsPerChannel = 0;
  try {
    CPGFImage pgf;
    pgf.SetHeader(hd);
    if (hd.mode == ImageModeIndexedColor) pgf.SetColorTable(0, 256, clut);
    pgf.ImportBitmap(pitch, buf.data(), hd.bpp, map);
    int fd = open(argv[2], O_CREAT | O_TRUNC | O_WRONLY, 0644);
    if (fd < 0) { perror(argv[2]); return 1; }
    CPGFFileStream stream(fd);
    pgf.Write(&stream);
    close(fd);
  } catch (IOException &e) { fprintf(stderr, "libpgf error %d\n", (int)e.error); return 1; }
  return 0;
}
EOF
  g++ -O1 -o $S/pgfenc $S/pgfenc.cpp $(pkg-config --cflags --libs libpgf)
  # sources for the far family: a 64x48 rose, a 512x512 gradient, a 1200x1000 gradient with the rose on it
  convert rose: -resize '64x48!' -strip "${NOPNGDATE[@]}" PNG24:$S/rose64x48.png
  convert -size 512x512 gradient:red-blue -strip "${NOPNGDATE[@]}" PNG24:$S/grad512.png
  convert -size 1200x1000 gradient:navy-orange \( rose: -resize 600x \) -gravity center -composite \
          -strip "${NOPNGDATE[@]}" PNG24:$S/grad1200.png
} >>"$LOG" 2>&1
set -e

# ================================================================ JPEG family
make jpeg/baseline                 public.jpeg no -- convert $S/rose.png -strip -quality 85 JPEG:@OUT@
make jpeg/progressive              public.jpeg no -- convert $S/rose.png -strip -interlace Plane JPEG:@OUT@
make jpeg/cmyk                     public.jpeg no -- convert $S/rose.png -strip -colorspace CMYK JPEG:@OUT@
make jpeg/grayscale                public.jpeg no -- convert $S/rose.png -strip -colorspace Gray JPEG:@OUT@
make jpeg/exif-after-jfif          public.jpeg no -- bash -c "convert $S/rose.png -strip JPEG:@OUT@ && exiftool -q -overwrite_original -Make=Canon '-Model=Canon EOS 5D' '-DateTimeOriginal=2024:01:01 00:00:00' @OUT@"
make jpeg/exif-only                public.jpeg no -- bash -c "convert $S/rose.png -strip JPEG:@OUT@ && exiftool -q -overwrite_original -JFIF:all= -Make=NIKON '-Model=NIKON D850' @OUT@"
make jpeg/no-appn                  public.jpeg no -- bash -c "convert $S/rose.png -strip JPEG:@OUT@ && exiftool -q -overwrite_original -all= @OUT@"
make jpeg/cjpeg-baseline           public.jpeg no -- cjpeg -quality 80 -outfile @OUT@ $S/rose.ppm
make jpeg/cjpeg-progressive        public.jpeg no -- cjpeg -progressive -outfile @OUT@ $S/rose.ppm
make jpeg/cjpeg-arithmetic         public.jpeg no -- cjpeg -arithmetic -outfile @OUT@ $S/rose.ppm
make jpeg/jpegtran-optimized       public.jpeg no -- jpegtran -optimize -copy none -outfile @OUT@ $S/rose.jpg
make jpeg/pillow                   public.jpeg no -- "${PE[@]}" pil $S/rose.png @OUT@ JPEG quality=80
make jpeg/pillow-progressive-exif  public.jpeg no -- "${PE[@]}" pil $S/rose.png @OUT@ JPEG progressive=True 'exif=b"Exif\x00\x00II*\x00\x08\x00\x00\x00\x00\x00\x00\x00\x00\x00"'
make jpeg/ffmpeg-mjpeg             public.jpeg no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v mjpeg -pix_fmt yuvj420p "${BX[@]}" -f image2 -update 1 @OUT@
make jpeg/lossless-ffmpeg-ljpeg    public.jpeg no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v ljpeg -pix_fmt bgr24 "${BX[@]}" -f image2 -update 1 @OUT@
make jpeg/lossless-imagecodecs-sof3 public.jpeg no -- "${PE[@]}" ic ljpeg $S/gray.png @OUT@
make jpeg/lossless-libjpeg-turbo   public.jpeg no -- "${PE[@]}" ic jpeg8 $S/rose.png @OUT@ lossless=True
# Pillow's MPO writer marks the frames after the first "undefined" (type 0x000000), as gain-map
# JPEGs do: by CIPA DC-007 these are JPEGs with extra images, not multi-frame MPOs.
make jpeg/mpf-pillow-undefined     public.mpo-image no -- "${PE[@]}" pilall @OUT@ MPO $S/f1.png $S/f2.png
make jpeg/mpf-pillow-3frames-undefined public.mpo-image no -- "${PE[@]}" pilall @OUT@ MPO $S/f1.png $S/f2.png $S/f3.png quality=70
# Multi-frame MPOs (type 0x02xxxx), as stereo and panorama cameras write them: no writer here, so
# Pillow's output with its entries' types set by the spec.
synth jpeg/mpo-stereo-disparity    public.mpo-image no 'Pillow MPO (two frames) with MPEntry attributes set to 0x20020002 and 0x00020002 (multi-frame, disparity: a stereo pair as the Fujifilm W3 writes it)' -- bash -c "python3 pyencode.py pilall $S/mpo-pair.jpg MPO $S/f1.png $S/f2.png && python3 synthesize.py mpf-types @OUT@ $S/mpo-pair.jpg 0x20020002 0x00020002"
synth jpeg/mpo-panorama-3frames    public.mpo-image no 'Pillow MPO (three frames) with MPEntry attributes set to 0x20020001, 0x00020001, 0x00020001 (multi-frame, panorama)' -- bash -c "python3 pyencode.py pilall $S/mpo-three.jpg MPO $S/f1.png $S/f2.png $S/f3.png quality=70 && python3 synthesize.py mpf-types @OUT@ $S/mpo-three.jpg 0x20020001 0x00020001 0x00020001"
make jpeg/jpegls-charls            org.jpeg.jpeg-ls no -- "${PE[@]}" ic jpegls $S/rose.png @OUT@
make jpeg/jpegls-charls-gray       org.jpeg.jpeg-ls no -- "${PE[@]}" ic jpegls $S/gray.png @OUT@ level=2
make jpeg/jpegls-ffmpeg            org.jpeg.jpeg-ls no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v jpegls "${BX[@]}" -f image2 -update 1 @OUT@

# ================================================================ PNG
make png/rgb8                      public.png no -- convert $S/rose.png -strip "${NOPNGDATE[@]}" PNG24:@OUT@
make png/rgb16                     public.png no -- convert $S/rose.png -strip -depth 16 "${NOPNGDATE[@]}" PNG48:@OUT@
make png/palette                   public.png no -- convert $S/rose.png -strip "${NOPNGDATE[@]}" PNG8:@OUT@
make png/gray8                     public.png no -- convert $S/gray.png -strip -colorspace Gray -define png:color-type=0 "${NOPNGDATE[@]}" PNG:@OUT@
make png/gray16                    public.png no -- convert $S/gray16.png -strip "${NOPNGDATE[@]}" PNG:@OUT@
make png/gray1-netpbm              public.png no -- bash -c "pnmtopng $S/rose.pbm > @OUT@"
make png/interlaced                public.png no -- convert $S/rose.png -strip -interlace PNG "${NOPNGDATE[@]}" PNG24:@OUT@
make png/interlaced-16bit          public.png no -- convert $S/rose.png -strip -interlace PNG -depth 16 "${NOPNGDATE[@]}" PNG48:@OUT@
make png/alpha                     public.png no -- convert $S/alpha.png -strip "${NOPNGDATE[@]}" PNG32:@OUT@
make png/alpha16                   public.png no -- convert $S/alpha.png -strip -depth 16 "${NOPNGDATE[@]}" PNG64:@OUT@
make png/pillow                    public.png no -- "${PE[@]}" pil $S/rose.png @OUT@ PNG optimize=True
make png/pillow-palette-trns       public.png no -- "${PE[@]}" pil $S/alpha.png @OUT@ PNG mode=P
make png/ffmpeg                    public.png no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v png "${BX[@]}" -f image2 -update 1 @OUT@
make png/pamtopng-gray16           public.png no -- bash -c "pngtopam $S/gray16.png | pamtopng > @OUT@"
make png/apng-ffmpeg               public.png yes -- "${FF[@]}" -framerate 4 -i $S/f%d.png -c:v apng -plays 0 "${BX[@]}" -f apng @OUT@
make png/apng-pillow               public.png yes -- "${PE[@]}" pilall @OUT@ PNG $S/f1.png $S/f2.png $S/f3.png duration=200 loop=0
make png/apng-pillow-default-image public.png yes -- "${PE[@]}" pilall @OUT@ PNG $S/f1.png $S/f2.png $S/f3.png default_image=True duration=100

# ================================================================ GIF
make gif/static                    com.compuserve.gif no -- convert $S/rose.png GIF:@OUT@
make gif/static-gif87a             com.compuserve.gif no -- bash -c "pnmquant 64 $S/rose.ppm 2>/dev/null | pamtogif 2>/dev/null > @OUT@"
make gif/interlaced                com.compuserve.gif no -- convert $S/rose.png -interlace GIF GIF:@OUT@
make gif/transparent               com.compuserve.gif no -- convert $S/alpha.png GIF:@OUT@
make gif/animated                  com.compuserve.gif yes -- convert -delay 20 -loop 0 $S/f1.png $S/f2.png $S/f3.png $S/f4.png GIF:@OUT@
make gif/animated-pillow           com.compuserve.gif yes -- "${PE[@]}" pilall @OUT@ GIF $S/f1.png $S/f2.png $S/f3.png duration=150 loop=0
make gif/animated-ffmpeg           com.compuserve.gif yes -- "${FF[@]}" -f lavfi -i testsrc=size=32x32:rate=5:duration=0.8 "${BX[@]}" -f gif @OUT@
make gif/animated-gifsicle-optimized com.compuserve.gif yes -- bash -c "gifsicle -O3 --colors 64 gif/animated > @OUT@"
make gif/single-frame-netscape-loop com.compuserve.gif no -- convert -delay 20 -loop 0 $S/f1.png GIF:@OUT@

# ================================================================ TIFF
make tiff/le                       public.tiff no -- convert $S/rose.png -define tiff:endian=lsb -compress none TIFF:@OUT@
make tiff/be                       public.tiff no -- convert $S/rose.png -define tiff:endian=msb -compress none TIFF:@OUT@
make tiff/lzw                      public.tiff no -- convert $S/rose.png -compress LZW TIFF:@OUT@
make tiff/deflate                  public.tiff no -- convert $S/rose.png -compress Zip TIFF:@OUT@
make tiff/packbits                 public.tiff no -- convert $S/rose.png -compress RLE TIFF:@OUT@
make tiff/jpeg-compressed          public.tiff no -- convert $S/rose.png -compress JPEG TIFF:@OUT@
make tiff/cmyk                     public.tiff no -- convert $S/rose.png -colorspace CMYK -compress LZW TIFF:@OUT@
make tiff/multipage                public.tiff no -- convert $S/f1.png $S/f2.png $S/f3.png -compress LZW TIFF:@OUT@
make tiff/16bit                    public.tiff no -- convert $S/rose.png -depth 16 -compress Zip TIFF:@OUT@
make tiff/float32                  public.tiff no -- convert $S/rose.png -define quantum:format=floating-point -depth 32 -compress Zip TIFF:@OUT@
make tiff/tiled                    public.tiff no -- convert $S/rose.png -define tiff:tile-geometry=16x16 -compress Zip TIFF:@OUT@
make tiff/pyramid                  public.tiff no -- convert $S/rose.png -compress Zip PTIF:@OUT@
make tiff/bigtiff-le               public.tiff no -- convert $S/rose.png -define tiff:endian=lsb -compress Zip TIFF64:@OUT@
make tiff/bigtiff-be               public.tiff no -- convert $S/rose.png -define tiff:endian=msb -compress Zip TIFF64:@OUT@
make tiff/pillow                   public.tiff no -- "${PE[@]}" pil $S/rose.png @OUT@ TIFF compression=tiff_deflate
make tiff/pillow-multipage         public.tiff no -- "${PE[@]}" pilall @OUT@ TIFF $S/f1.png $S/f2.png
make tiff/netpbm                   public.tiff no -- bash -c "pnmtotiff -lzw $S/rose.ppm > @OUT@"
make tiff/imagecodecs-libtiff      public.tiff no -- "${PE[@]}" ic tiff $S/rose.png @OUT@
make tiff/ffmpeg                   public.tiff no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v tiff "${BX[@]}" -f image2 -update 1 @OUT@
# camera-maker traps: real TIFFs whose Make is a camera vendor but with no RAW structure
make tiff/make-nikon-plain         public.tiff no -- bash -c "convert $S/rose.png -compress none TIFF:@OUT@ && exiftool -q -overwrite_original '-Make=NIKON CORPORATION' '-Model=NIKON D850' '-Software=Capture NX-D 1.6.2' @OUT@"
make tiff/make-canon-plain         public.tiff no -- bash -c "convert $S/rose.png -compress LZW TIFF:@OUT@ && exiftool -q -overwrite_original -Make=Canon '-Model=Canon EOS R5' '-Software=Digital Photo Professional' @OUT@"
make tiff/make-sony-plain          public.tiff no -- bash -c "convert $S/rose.png -define tiff:endian=msb -compress none TIFF:@OUT@ && exiftool -q -overwrite_original -Make=SONY -Model=ILCE-7M3 @OUT@"

# ================================================================ BMP
make bmp/os2-v1-bmp2               com.microsoft.bmp no -- convert $S/rose.png BMP2:@OUT@
make bmp/v3-bmp3                   com.microsoft.bmp no -- convert $S/rose.png BMP3:@OUT@
make bmp/v5-imagemagick            com.microsoft.bmp no -- convert $S/rose.png BMP:@OUT@
make bmp/v5-alpha                  com.microsoft.bmp no -- convert $S/alpha.png BMP:@OUT@
make bmp/rle8                      com.microsoft.bmp no -- convert $S/rose.png -colors 200 -compress RLE BMP3:@OUT@
make bmp/rle8-16colors             com.microsoft.bmp no -- convert $S/rose.png -colors 16 -compress RLE BMP3:@OUT@
make bmp/4bit-netpbm               com.microsoft.bmp no -- bash -c "pnmquant 16 $S/rose.ppm 2>/dev/null | ppmtobmp -bpp 4 > @OUT@"
make bmp/1bit-netpbm               com.microsoft.bmp no -- bash -c "ppmtobmp -bpp 1 $S/rose.pbm > @OUT@"
make bmp/pillow                    com.microsoft.bmp no -- "${PE[@]}" pil $S/rose.png @OUT@ BMP
make bmp/ppmtobmp-windows          com.microsoft.bmp no -- bash -c "ppmtobmp -windows $S/rose.ppm > @OUT@"
make bmp/ppmtobmp-os2              com.microsoft.bmp no -- bash -c "ppmtobmp -os2 $S/rose.ppm > @OUT@"
make bmp/ffmpeg                    com.microsoft.bmp no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v bmp "${BX[@]}" -f image2 -update 1 @OUT@
make bmp/ffmpeg-rgb565             com.microsoft.bmp no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v bmp -pix_fmt rgb565le "${BX[@]}" -f image2 -update 1 @OUT@
synth bmp/v4-108                   com.microsoft.bmp no 'BMP with BITMAPV4HEADER (108 bytes), 32bpp BI_BITFIELDS, sRGB' -- "${SY[@]}" bmp-v4 @OUT@
synth bmp/os2-v2-64                com.microsoft.bmp no 'OS/2 2.x BMP, 64-byte BITMAPINFOHEADER2, 24bpp' -- "${SY[@]}" bmp-os2v2 @OUT@

# ================================================================ ICO / CUR / ICNS
make ico/imagemagick               com.microsoft.ico no -- convert $S/rose.png -define icon:auto-resize=32,16 ICO:@OUT@
make ico/pillow-png-entries        com.microsoft.ico no -- "${PE[@]}" pil $S/rose.png @OUT@ ICO 'sizes=[(16,16),(32,32)]'
make ico/netpbm-winicon            com.microsoft.ico no -- bash -c "pamtowinicon $S/rose.ppm > @OUT@"
# ImageMagick 6's CUR: coder writes an icon (ICONDIR type 1), so the bytes are ICO
make ico/imagemagick-cur-coder-writes-ico com.microsoft.ico no -- convert $S/rose16.png CUR:@OUT@
synth ico/cursor                   com.microsoft.cur no 'CUR = real ICO from ImageMagick with ICONDIR type set to 2 and hotspot (0,0) in each entry' -- "${SY[@]}" cur-from-ico @OUT@ ico/imagemagick
synth ico/cursor-png-entries       com.microsoft.cur no 'CUR = real Pillow ICO (PNG entries) with ICONDIR type set to 2 and hotspot (0,0)' -- "${SY[@]}" cur-from-ico @OUT@ ico/pillow-png-entries
make icns/png2icns                 com.apple.icns no -- png2icns @OUT.icns@ $S/rose.png $S/rose16.png
make icns/pillow                   com.apple.icns no -- "${PE[@]}" pil $S/flat.png @OUT@ ICNS

# ================================================================ JPEG 2000
make jpeg2000/jp2-openjpeg         public.jpeg-2000 no -- opj_compress -i $S/rose.ppm -o @OUT.jp2@
make jpeg2000/j2k-openjpeg         public.jpeg-2000 no -- opj_compress -i $S/rose.ppm -o @OUT.j2k@
make jpeg2000/j2k-openjpeg-lossy   public.jpeg-2000 no -- opj_compress -r 20 -i $S/rose.ppm -o @OUT.j2c@
make jpeg2000/jp2-imagemagick      public.jpeg-2000 no -- convert $S/rose.png JP2:@OUT@
make jpeg2000/j2k-imagemagick      public.jpeg-2000 no -- convert $S/rose.png J2K:@OUT@
# ImageMagick's JPM: coder writes a plain JP2 (brand 'jp2 '); no JPX/JPM writer is installed
make jpeg2000/jpm-coder-writes-jp2-imagemagick public.jpeg-2000 no -- convert $S/rose.png JPM:@OUT@
make jpeg2000/jp2-pillow           public.jpeg-2000 no -- "${PE[@]}" pil $S/rose.png @OUT@ JPEG2000 no_jp2=False
make jpeg2000/j2k-pillow           public.jpeg-2000 no -- "${PE[@]}" pil $S/rose.png @OUT@ JPEG2000 no_jp2=True
make jpeg2000/jp2-ffmpeg           public.jpeg-2000 no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v jpeg2000 "${BX[@]}" -f image2 -update 1 @OUT.jp2@
make jpeg2000/j2k-ffmpeg           public.jpeg-2000 no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v jpeg2000 -format j2k "${BX[@]}" -f image2 -update 1 @OUT.j2k@
make jpeg2000/jp2-imagecodecs      public.jpeg-2000 no -- "${PE[@]}" ic jpeg2k $S/rose.png @OUT@ codecformat=jp2
make jpeg2000/htj2k-openjph        public.jpeg-2000 no -- "${PE[@]}" ic htj2k $S/rose.png @OUT@
synth jpeg2000/jpx-brand           public.jpeg-2000 no 'real opj_compress JP2 with the ftyp brand rewritten to jpx (compatible jp2 kept): a JP2 that is also a baseline JPX' -- "${SY[@]}" reftyp @OUT@ jpeg2000/jp2-openjpeg 'jpx '
synth jpeg2000/jph-brand           public.jpeg-2000 no 'real opj_compress JP2 with the ftyp brand rewritten to jph (HTJ2K file brand; codestream is classic J2K)' -- "${SY[@]}" reftyp @OUT@ jpeg2000/jp2-openjpeg 'jph ' 'jph ' 

# ================================================================ JPEG XL / JPEG XR
make jxl/codestream-cjxl           public.jpeg-xl no -- cjxl --quiet $S/rose.png @OUT@
make jxl/codestream-lossless       public.jpeg-xl no -- cjxl --quiet -d 0 $S/rose.png @OUT@
make jxl/container-cjxl            public.jpeg-xl no -- cjxl --quiet --container=1 $S/rose.png @OUT@
make jxl/jpeg-reconstruction       public.jpeg-xl no -- cjxl --quiet $S/rose.jpg @OUT@
make jxl/ffmpeg-libjxl             public.jpeg-xl no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v libjxl "${BX[@]}" -f image2 -update 1 @OUT.jxl@
make jxl/imagecodecs               public.jpeg-xl no -- "${PE[@]}" ic jpegxl $S/rose.png @OUT@
make jxl/lossless-16bit            public.jpeg-xl no -- cjxl --quiet -d 0 $S/gray16.png @OUT@
make jxl/animated-cjxl             public.jpeg-xl yes -- cjxl --quiet $S/anim.gif @OUT@
make jxr/jxrencapp                 com.microsoft.jpeg-xr no -- JxrEncApp -i $S/rose.bmp -o @OUT.jxr@ -q 80
make jxr/jxrencapp-lossless        com.microsoft.jpeg-xr no -- JxrEncApp -i $S/rose.bmp -o @OUT.jxr@ -q 1
make jxr/imagecodecs-jxrlib        com.microsoft.jpeg-xr no -- "${PE[@]}" ic jpegxr $S/rose.png @OUT@
make jxr/jxrencapp-planar-alpha    com.microsoft.jpeg-xr no -- bash -c "convert $S/alpha.png -compress none -depth 8 TIFF:@OUT@.tif && JxrEncApp -i @OUT@.tif -o @OUT@.jxr -a 2 -q 1 && mv @OUT@.jxr @OUT@ && rm @OUT@.tif"

# ================================================================ WebP
make webp/lossy-cwebp              org.webmproject.webp no -- cwebp -quiet -q 75 $S/rose.png -o @OUT@
make webp/lossless-cwebp           org.webmproject.webp no -- cwebp -quiet -lossless $S/rose.png -o @OUT@
make webp/alpha-lossy-vp8x         org.webmproject.webp no -- cwebp -quiet -q 75 $S/alpha.png -o @OUT@
make webp/alpha-lossless           org.webmproject.webp no -- cwebp -quiet -lossless $S/alpha.png -o @OUT@
make webp/exif-vp8x                org.webmproject.webp no -- bash -c "cwebp -quiet -q 75 $S/rose.png -o @OUT@ && exiftool -q -overwrite_original -Make=Canon @OUT@"
make webp/animated-img2webp        org.webmproject.webp yes -- img2webp -loop 0 -d 200 $S/f1.png $S/f2.png $S/f3.png -o @OUT@
make webp/animated-gif2webp        org.webmproject.webp yes -- gif2webp -quiet gif/animated -o @OUT@
make webp/animated-pillow          org.webmproject.webp yes -- "${PE[@]}" pilall @OUT@ WEBP $S/f1.png $S/f2.png duration=200 loop=0
make webp/imagemagick              org.webmproject.webp no -- convert $S/rose.png WEBP:@OUT@
make webp/pillow                   org.webmproject.webp no -- "${PE[@]}" pil $S/rose.png @OUT@ WEBP quality=70
make webp/ffmpeg-libwebp           org.webmproject.webp no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v libwebp "${BX[@]}" -f webp @OUT@
make webp/ffmpeg-animated          org.webmproject.webp yes -- "${FF[@]}" -f lavfi -i testsrc=size=32x32:rate=5:duration=0.6 -c:v libwebp_anim -loop 0 "${BX[@]}" -f webp @OUT@

# ================================================================ HEIF family
make heif/heic-heif-enc            public.heic no -- heif-enc -q 50 -o @OUT.heic@ $S/rose.png
make heif/heic-10bit               public.heic no -- heif-enc -q 50 -b 10 -o @OUT.heic@ $S/gray16.png
make heif/heic-alpha               public.heic no -- heif-enc -q 50 -o @OUT.heic@ $S/alpha.png
make heif/heic-thumbnail           public.heic no -- heif-enc -q 50 -t 8 -o @OUT.heic@ $S/rose.png
make heif/heic-collection          public.heic no -- heif-enc -q 40 -o @OUT.heic@ $S/f1.png $S/f2.png
make heif/heic-imagemagick         public.heic no -- convert $S/rose.png -quality 50 HEIC:@OUT@
make heif/heic-pillow-heif         public.heic no -- "${PE[@]}" heif $S/rose.png @OUT@ quality=50
make heif/heic-irot-pillow-heif    public.heic no -- "${PE[@]}" heiforient @OUT@ 64 32 6
make heif/avif-heif-enc            public.avif no -- heif-enc -A -q 50 -o @OUT.avif@ $S/rose.png
make heif/avif-still               public.avif no -- avifenc -s 10 $S/rose.png @OUT.avif@
make heif/avif-lossless            public.avif no -- avifenc -s 10 -l $S/rose.png @OUT.avif@
make heif/avif-alpha               public.avif no -- avifenc -s 10 $S/alpha.png @OUT.avif@
make heif/avif-imagemagick         public.avif no -- convert $S/rose.png -quality 50 AVIF:@OUT@
make heif/avif-pillow              public.avif no -- "${PE[@]}" pil $S/rose.png @OUT@ AVIF quality=50
make heif/avif-ffmpeg              public.avif no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v libaom-av1 -cpu-used 8 "${BX[@]}" -f avif @OUT@
make heif/avif-imagecodecs         public.avif no -- "${PE[@]}" ic avif $S/rose.png @OUT@
make heif/avis-avifenc             public.avis yes -- avifenc -s 10 --fps 5 $S/f1.png $S/f2.png $S/f3.png @OUT.avifs@
make heif/avis-ffmpeg              public.avis yes -- "${FF[@]}" -framerate 5 -i $S/f%d.png -c:v libaom-av1 -cpu-used 8 "${BX[@]}" -f avif @OUT@
make heif/avis-pillow              public.avis yes -- "${PE[@]}" pilall @OUT@ AVIF $S/f1.png $S/f2.png duration=200
# ffmpeg's mov muxer with a forced major brand: real HEVC / AVC sequences in an ISO-BMFF track
make heif/heics-ffmpeg-brand-hevc  public.heics yes -- "${FF[@]}" -f lavfi -i testsrc=size=32x32:rate=5:duration=0.6 -c:v libx265 -x265-params log-level=none -pix_fmt yuv420p -brand hevc "${BX[@]}" -f mp4 @OUT@
make heif/avcs-ffmpeg-brand-avcs   public.avcs yes -- "${FF[@]}" -f lavfi -i testsrc=size=32x32:rate=5:duration=0.6 -c:v libx264 -x264-params log-level=none -pix_fmt yuv420p -brand avcs "${BX[@]}" -f mp4 @OUT@
make heif/heifs-ffmpeg-brand-msf1  public.heifs yes -- "${FF[@]}" -f lavfi -i testsrc=size=32x32:rate=5:duration=0.6 -c:v libx265 -x265-params log-level=none -pix_fmt yuv420p -brand msf1 "${BX[@]}" -f mp4 @OUT@
# ftyp rewrites of real encoder output (same box size, offsets unchanged)
synth heif/avif-major-mif1         public.avif no 'real avifenc AVIF with ftyp major brand rewritten to mif1 (compatible brands avif mif1 miaf MA1A kept)' -- "${SY[@]}" reftyp @OUT@ heif/avif-still mif1
synth heif/avif-two-ipma           public.avif no 'real avifenc AVIF with alpha (two items) whose one ipma box is rewritten as one ipma box per item, as cavif writes them (libheif and identify read it)' -- "${SY[@]}" ipma-per-item @OUT@ heif/avif-alpha
synth heif/heic-major-mif1         public.heic no 'real heif-enc HEIC with ftyp major brand rewritten to mif1 (compatible mif1 heic miaf kept)' -- "${SY[@]}" reftyp @OUT@ heif/heic-heif-enc mif1
synth heif/heif-hevc-mif1-only     public.heic no 'real heif-enc HEIC with ftyp rewritten to major mif1, compatible mif1 miaf iso8 (no heic brand): the HEVC-coded primary item makes it HEIC' -- "${SY[@]}" reftyp @OUT@ heif/heic-heif-enc mif1 mif1 miaf iso8
synth heif/heif-jpeg-item          public.heif no 'HEIF (ISO/IEC 23008-12 Annex H) ftyp mif1/mif1, meta with one jpeg item holding a real ImageMagick JPEG' -- "${SY[@]}" heif-jpeg @OUT@ $S/rose.jpg 32 32
synth heif/heifs-avifenc-msf1      public.heifs yes 'real avifenc AV1 image sequence with ftyp rewritten to major msf1, compatible msf1 iso8 mif1 miaf (no avif/avis brand)' -- "${SY[@]}" reftyp @OUT@ heif/avis-avifenc msf1 msf1 iso8 mif1 miaf msf1 iso8 mif1
synth heif/heics-avifenc-hevc      public.heics yes 'image sequence (pict track) from avifenc with ftyp rewritten to major hevc, compatible msf1 hevc iso8 mif1 (payload is AV1, brands say HEVC)' -- "${SY[@]}" reftyp @OUT@ heif/avis-avifenc hevc msf1 hevc iso8 mif1 miaf msf1 hevc
synth heif/avci-x264               public.avci no 'AVCI still: ftyp avci/mif1 avci miaf, meta with avc1 item = IDR of a real libx264 stream, avcC from its SPS/PPS' -- "${SY[@]}" avci @OUT@ $S/still.h264 32 32

# ================================================================ PSD / TGA / PICT / EXR / HDR
make psd/imagemagick               com.adobe.photoshop-image no -- convert $S/rose.png PSD:@OUT@
make psd/imagemagick-layers        com.adobe.photoshop-image no -- convert $S/f1.png $S/f1.png $S/f2.png PSD:@OUT@
make psd/imagemagick-rle-alpha     com.adobe.photoshop-image no -- convert $S/alpha.png -compress RLE PSD:@OUT@
make psd/psb-imagemagick           com.adobe.photoshop-large-image no -- convert $S/rose.png PSB:@OUT@
make tga/imagemagick-no-footer     com.truevision.tga-image no -- convert $S/rose.png TGA:@OUT@
make tga/imagemagick-rle           com.truevision.tga-image no -- convert $S/rose.png -compress RLE TGA:@OUT@
make tga/imagemagick-gray          com.truevision.tga-image no -- convert $S/gray.png -colorspace Gray TGA:@OUT@
make tga/pillow-footer             com.truevision.tga-image no -- "${PE[@]}" pil $S/rose.png @OUT@ TGA
make tga/pillow-rle-footer         com.truevision.tga-image no -- "${PE[@]}" pil $S/alpha.png @OUT@ TGA rle=True
make tga/netpbm                    com.truevision.tga-image no -- bash -c "pamtotga $S/rose.ppm > @OUT@"
make tga/ffmpeg                    com.truevision.tga-image no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v targa "${BX[@]}" -f image2 -update 1 @OUT.tga@
make pict/imagemagick              com.apple.pict no -- convert $S/rose.png PICT:@OUT@
make pict/netpbm-ppmtopict         com.apple.pict no -- bash -c "pnmquant 200 $S/rose.ppm 2>/dev/null | ppmtopict 2>/dev/null > @OUT@"
make pict/headerless-imagemagick   com.apple.pict no -- bash -c "tail -c +513 pict/imagemagick > @OUT@"
make pict/graphicsmagick           com.apple.pict no -- gm convert $S/rose.png PICT:@OUT@
make exr/openexr-zip               com.ilm.openexr-image no -- "${PE[@]}" exr @OUT@ ZIP_COMPRESSION
make exr/openexr-piz               com.ilm.openexr-image no -- "${PE[@]}" exr @OUT@ PIZ_COMPRESSION
make exr/openexr-display-window    com.ilm.openexr-image no -- "${PE[@]}" exr @OUT@ ZIP_COMPRESSION 32x24
make exr/openexr-tiled             com.ilm.openexr-image no -- "${PE[@]}" exrkind @OUT@ tiled
make exr/openexr-mipmap            com.ilm.openexr-image no -- "${PE[@]}" exrkind @OUT@ mipmap
make exr/openexr-multipart         com.ilm.openexr-image no -- "${PE[@]}" exrkind @OUT@ multipart
make exr/openexr-deepscanline      com.ilm.openexr-image no -- "${PE[@]}" exrkind @OUT@ deepscanline
make exr/openexr-deeptile          com.ilm.openexr-image no -- "${PE[@]}" exrkind @OUT@ deeptile
make exr/ffmpeg                    com.ilm.openexr-image no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v exr -pix_fmt gbrpf32le "${BX[@]}" -f image2 -update 1 @OUT.exr@
make hdr/imagemagick               public.radiance no -- convert $S/rose.png HDR:@OUT@
make hdr/imagecodecs-rgbe          public.radiance no -- "${PE[@]}" ic rgbe $S/rose.png @OUT@ dtype=float32
make hdr/opencv                    public.radiance no -- python3 -c "import cv2, sys; cv2.imwrite(sys.argv[2], cv2.imread(sys.argv[1]).astype('float32') / 64)" $S/rose.png @OUT.hdr@

# ================================================================ netpbm family
make netpbm/p1-plain-pbm           public.pbm no -- convert $S/rose.pbm -compress none PBM:@OUT@
make netpbm/p4-raw-pbm             public.pbm no -- convert $S/rose.pbm PBM:@OUT@
make netpbm/p1-pnmtoplainpnm       public.pbm no -- bash -c "pnmtoplainpnm $S/rose.pbm > @OUT@"
make netpbm/p4-ffmpeg              public.pbm no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v pbm "${BX[@]}" -f image2 -update 1 @OUT.pbm@
make netpbm/p2-plain-pgm           net.sourceforge.netpbm.pgm no -- convert $S/rose.png -colorspace Gray -compress none PGM:@OUT@
make netpbm/p5-raw-pgm             net.sourceforge.netpbm.pgm no -- convert $S/rose.png -colorspace Gray PGM:@OUT@
make netpbm/p5-16bit-pgm           net.sourceforge.netpbm.pgm no -- convert $S/gray16.png -depth 16 PGM:@OUT@
make netpbm/p5-ffmpeg              net.sourceforge.netpbm.pgm no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v pgm "${BX[@]}" -f image2 -update 1 @OUT.pgm@
make netpbm/p3-plain-ppm           net.sourceforge.netpbm.ppm no -- convert $S/rose.png -compress none PPM:@OUT@
make netpbm/p6-raw-ppm             net.sourceforge.netpbm.ppm no -- convert $S/rose.png PPM:@OUT@
make netpbm/p6-pillow              net.sourceforge.netpbm.ppm no -- "${PE[@]}" pil $S/rose.png @OUT@ PPM
make netpbm/p6-ffmpeg              net.sourceforge.netpbm.ppm no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v ppm "${BX[@]}" -f image2 -update 1 @OUT.ppm@
make netpbm/p3-with-comment        net.sourceforge.netpbm.ppm no -- bash -c "pnmtoplainpnm $S/rose.ppm | sed '1a # a comment line after the magic' > @OUT@"
make netpbm/p7-pam-imagemagick     net.sourceforge.netpbm.pam no -- convert $S/alpha.png PAM:@OUT@
make netpbm/p7-pam-netpbm          net.sourceforge.netpbm.pam no -- bash -c "pamtopam < $S/rose.ppm > @OUT@"
make netpbm/p7-pam-ffmpeg          net.sourceforge.netpbm.pam no -- "${FF[@]}" -i $S/alpha.png -frames:v 1 -c:v pam "${BX[@]}" -f image2 -update 1 @OUT.pam@
make netpbm/pfm-color-imagemagick  net.sourceforge.netpbm.pfm no -- convert $S/rose.png PFM:@OUT@
make netpbm/pfm-netpbm             net.sourceforge.netpbm.pfm no -- bash -c "pamtopfm $S/rose.ppm > @OUT@"
make netpbm/pfm-gray-netpbm        net.sourceforge.netpbm.pfm no -- bash -c "pamtopfm $S/rose.pgm > @OUT@"
make netpbm/pfm-ffmpeg             net.sourceforge.netpbm.pfm no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v pfm -pix_fmt gbrpf32le "${BX[@]}" -f image2 -update 1 @OUT.pfm@
make netpbm/phm-ffmpeg             net.sourceforge.netpbm.phm no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v phm "${BX[@]}" -f image2 -update 1 @OUT.phm@

# ================================================================ SGI / DDS / textures
make sgi/imagemagick               com.sgi.sgi-image no -- convert $S/rose.png SGI:@OUT@
make sgi/imagemagick-rle           com.sgi.sgi-image no -- convert $S/rose.png -compress RLE SGI:@OUT@
make sgi/netpbm                    com.sgi.sgi-image no -- bash -c "pnmtosgi $S/rose.ppm > @OUT@"
make sgi/pillow                    com.sgi.sgi-image no -- "${PE[@]}" pil $S/rose.png @OUT@ SGI
make sgi/ffmpeg                    com.sgi.sgi-image no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v sgi "${BX[@]}" -f image2 -update 1 @OUT.sgi@
make dds/imagemagick-dxt1          com.microsoft.dds no -- convert $S/rose.png -define dds:compression=dxt1 -define dds:mipmaps=0 DDS:@OUT@
make dds/imagemagick-dxt5          com.microsoft.dds no -- convert $S/alpha.png -define dds:compression=dxt5 -define dds:mipmaps=0 DDS:@OUT@
make dds/imagemagick-uncompressed  com.microsoft.dds no -- convert $S/rose.png -define dds:compression=none -define dds:mipmaps=0 DDS:@OUT@
make dds/pillow-rgba               com.microsoft.dds no -- "${PE[@]}" pil $S/alpha.png @OUT@ DDS
make dds/pillow-dxt1               com.microsoft.dds no -- "${PE[@]}" pil $S/rose.png @OUT@ DDS pixel_format=DXT1
synth ktx/ktx1-rgba8               org.khronos.ktx no 'KTX 1.1: identifier, endianness 0x04030201, GL_RGBA/GL_RGBA8 8x8, 1 face, 1 mip, KTXorientation key/value, imageSize + texels' -- "${SY[@]}" ktx @OUT@
synth ktx/ktx2-rgba8               org.khronos.ktx2 no 'KTX 2.0: identifier, vkFormat 37 R8G8B8A8_UNORM 8x8, index, level index, basic DFD, KTXwriter key/value, level data' -- "${SY[@]}" ktx2 @OUT@
synth astc/astcenc-4x4             org.khronos.astc no '.astc 16-byte header (13 AB A1 5C, 4x4x1 blocks, 32x32x1) around 128-bit blocks compressed by the real ARM astc-encoder (astc-encoder-py)' -- "${SY[@]}" astc-header @OUT@ $S/rose.astcblocks 4 4 32 32
make astc/astcenc-cli-6x6          org.khronos.astc no -- astcenc -cl $S/rose.png @OUT.astc@ 6x6 -medium
synth astc/void-extent             org.khronos.astc no '.astc header + four hand-made void-extent (constant colour) 4x4 blocks, 8x8 image' -- "${SY[@]}" astc-void @OUT@
make ktx/pkm-etc1tool              com.ericsson.pkm no -- etc1tool $S/rose.png --encode -o @OUT@
synth pvr/pvr3-rgba8888            public.pvr no 'PVR v3 52-byte header (0x03525650, pixel format rgba8888, 8x8, 1 surface/face/mip, no metadata) + texels' -- "${SY[@]}" pvr3 @OUT@
synth pvr/pvr2-legacy              public.pvr no 'legacy PVR v2 52-byte header (size 52, OGL_RGBA_8888, "PVR!" at 44) + texels' -- "${SY[@]}" pvr2 @OUT@

# ================================================================ X11 / PCX / QOI / FITS / DICOM
make x11/xbm-imagemagick           public.xbitmap-image no -- convert $S/rose.pbm XBM:@OUT@
make x11/xbm-netpbm                public.xbitmap-image no -- bash -c "pbmtoxbm $S/rose.pbm > @OUT@"
make x11/xbm-x10-netpbm            public.xbitmap-image no -- bash -c "pbmtoxbm -x10 $S/rose.pbm > @OUT@"
make x11/xbm-pillow                public.xbitmap-image no -- "${PE[@]}" pil $S/rose.pbm @OUT@ XBM
make x11/xbm-ffmpeg                public.xbitmap-image no -- "${FF[@]}" -i $S/rose.pbm -frames:v 1 -c:v xbm "${BX[@]}" -f image2 -update 1 @OUT.xbm@
make x11/xpm-imagemagick           org.x.xpixmap-image no -- convert $S/rose16.png XPM:@OUT@
make x11/xpm-netpbm                org.x.xpixmap-image no -- bash -c "pnmquant 16 $S/rose.ppm 2>/dev/null | ppmtoxpm 2>/dev/null > @OUT@"
make x11/xwd-imagemagick           org.x.xwd-image no -- convert $S/rose.png XWD:@OUT@
make x11/xwd-netpbm                org.x.xwd-image no -- bash -c "pnmtoxwd $S/rose.ppm > @OUT@"
make x11/xwd-ffmpeg                org.x.xwd-image no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v xwd "${BX[@]}" -f image2 -update 1 @OUT.xwd@
make x11/xwd-imagemagick-palette   org.x.xwd-image no -- convert $S/rose.png -colors 16 -type Palette XWD:@OUT@
make pcx/imagemagick               com.zsoft.pcx-image no -- convert $S/rose.png PCX:@OUT@
make pcx/netpbm                    com.zsoft.pcx-image no -- bash -c "ppmtopcx $S/rose.ppm 2>/dev/null > @OUT@"
make pcx/pillow                    com.zsoft.pcx-image no -- "${PE[@]}" pil $S/rose.png @OUT@ PCX
make pcx/ffmpeg                    com.zsoft.pcx-image no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v pcx "${BX[@]}" -f image2 -update 1 @OUT.pcx@
make pcx/dcx-imagemagick           com.zsoft.dcx-image no -- convert $S/f1.png $S/f2.png DCX:@OUT@
make qoi/pillow                    org.qoiformat.qoi-image no -- "${PE[@]}" pil $S/rose.png @OUT@ QOI
make qoi/pillow-rgba               org.qoiformat.qoi-image no -- "${PE[@]}" pil $S/alpha.png @OUT@ QOI
make qoi/netpbm                    org.qoiformat.qoi-image no -- bash -c "pamtoqoi $S/rose.ppm > @OUT@"
make qoi/ffmpeg                    org.qoiformat.qoi-image no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v qoi "${BX[@]}" -f image2 -update 1 @OUT.qoi@
make qoi/imagecodecs               org.qoiformat.qoi-image no -- "${PE[@]}" ic qoi $S/rose.png @OUT@
make fits/imagemagick              gov.nasa.fits-image no -- convert $S/rose.png FITS:@OUT@
make fits/netpbm                   gov.nasa.fits-image no -- bash -c "pamtofits $S/rose.pgm > @OUT@"
make fits/ffmpeg                   gov.nasa.fits-image no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v fits "${BX[@]}" -f fits @OUT@
make fits/astropy-image-extension  gov.nasa.fits-image no -- "${PE[@]}" fitsext @OUT@ image
make fits/astropy-tile-compressed  gov.nasa.fits-image no -- "${PE[@]}" fitsext @OUT@ compressed
make fits/astropy-table            gov.nasa.fits-image no -- "${PE[@]}" fitsext @OUT@ table
make dicom/pydicom                 org.nema.dicom no -- "${PE[@]}" dicom @OUT@
make dicom/pydicom-sequence-undefined org.nema.dicom no -- "${PE[@]}" dicom @OUT@ zeros sequence
make dicom/pydicom-big-endian-3-frames org.nema.dicom no -- "${PE[@]}" dicom @OUT@ zeros big-endian

# ================================================================ SVG (text) and friends
text svg/xml-prolog public.svg-image 'SVG with <?xml prolog' <<'EOF'
<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">
  <rect x="2" y="2" width="12" height="12" fill="#c33"/>
</svg>
EOF
text svg/bare-svg public.svg-image 'SVG starting directly with <svg' <<'EOF'
<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><circle cx="8" cy="8" r="6" fill="navy"/></svg>
EOF
text svg/doctype-and-comments public.svg-image 'SVG with prolog, comments and a DOCTYPE before the root' <<'EOF'
<?xml version="1.0" encoding="utf-8"?>
<!-- Generator: a hand-written test file, not an illustration program -->
<!-- A second comment, so that the root element starts well after byte 200.
     ImageSniff must look past comments and the DOCTYPE to find <svg. -->
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg version="1.1" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     width="16px" height="16px" viewBox="0 0 16 16">
  <polygon points="8,1 15,15 1,15" fill="#2a2"/>
</svg>
EOF
text svg/utf8-bom public.svg-image 'SVG with a UTF-8 byte order mark before <?xml' < <(printf '\xef\xbb\xbf<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>\n')
make svg/netpbm-pamtosvg           public.svg-image no -- bash -c "pamtosvg $S/rose.pbm 2>/dev/null > @OUT@"
make svg/svgz-gzip                 public.svg-image no -- bash -c "gzip -9n < svg/xml-prolog > @OUT@"
make svg/svgz-pamtosvg-gzip-1      public.svg-image no -- bash -c "gzip -1n < svg/netpbm-pamtosvg > @OUT@"
make svg/svgz-python-dynamic       public.svg-image no -- python3 -c "import gzip; d=open('svg/doctype-and-comments','rb').read()*20; open('@OUT@','wb').write(gzip.compress(d, 9, mtime=0))"
make wbmp/imagemagick              org.openmobilealliance.wbmp-image no -- convert $S/rose.pbm WBMP:@OUT@
make wbmp/netpbm                   org.openmobilealliance.wbmp-image no -- bash -c "pbmtowbmp $S/rose.pbm > @OUT@"
make sun/imagemagick               com.sun.raster-image no -- convert $S/rose.png SUN:@OUT@
make sun/imagemagick-rle           com.sun.raster-image no -- convert $S/rose.png -compress RLE SUN:@OUT@
make sun/netpbm                    com.sun.raster-image no -- bash -c "pnmtorast $S/rose.ppm > @OUT@"
make sun/ffmpeg                    com.sun.raster-image no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v sunrast "${BX[@]}" -f image2 -update 1 @OUT.sun@
make dpx/imagemagick-be            org.smpte.dpx-image no -- convert $S/rose.png DPX:@OUT@
make dpx/ffmpeg                    org.smpte.dpx-image no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v dpx "${BX[@]}" -f image2 -update 1 @OUT.dpx@
make dpx/imagemagick-gray          org.smpte.dpx-image no -- convert $S/gray16.png -depth 8 DPX:@OUT@
make dpx/imagemagick-16bit         org.smpte.dpx-image no -- convert $S/rose.png -depth 16 DPX:@OUT@
make dpx/imagemagick-odd-width     org.smpte.dpx-image no -- convert $S/rose.png -crop 31x32+0+0 +repage DPX:@OUT@
make cineon/imagemagick            com.kodak.cineon-image no -- convert $S/rose.png CIN:@OUT@
synth flif/still-rgba              info.flif.flif-image no 'FLIF header only ("FLIF", 0x34 RGBA non-interlaced, 1 byte/channel, varint w-1/h-1) + placeholder bytes; no FLIF encoder' -- "${SY[@]}" flif @OUT@
synth flif/animated                info.flif.flif-image yes 'FLIF header only, format byte c (animated interlaced), 3 frames; no FLIF encoder' -- "${SY[@]}" flif-anim @OUT@
synth bpg/header                   org.bellard.bpg no 'BPG header ("BPG" FB, 4:2:0 8-bit, ue7 16x16, picture length) + placeholder payload; no BPG encoder' -- "${SY[@]}" bpg @OUT@
synth farbfeld/rgba16              org.suckless.farbfeld no 'farbfeld: magic, BE u32 8x8, BE 16-bit RGBA pixels (complete, valid file)' -- "${SY[@]}" farbfeld @OUT@
synth xcf/v011-empty               org.gimp.xcf no 'XCF "gimp xcf v011": 16x16 RGB, precision, PROP_COMPRESSION, PROP_END, empty 64-bit layer/channel lists' -- "${SY[@]}" xcf @OUT@ 11
synth xcf/v0-file                  org.gimp.xcf no 'XCF "gimp xcf file" (version 0): 16x16 RGB, PROP_COMPRESSION, PROP_END, empty layer/channel lists' -- "${SY[@]}" xcf @OUT@ 0
synth ora/python-zipfile           org.openraster.ora no 'OpenRaster zip via python zipfile: mimetype (stored, first) = image/openraster, stack.xml, ImageMagick PNG layer, thumbnail, mergedimage' -- "${SY[@]}" ora @OUT@ $S/rose.png $S/thumb16.png
make miff/imagemagick              org.imagemagick.miff no -- convert $S/rose.png +set date:create +set date:modify MIFF:@OUT@
make mng/imagemagick-single        org.libpng.mng no -- convert $S/rose.png +set date:create +set date:modify "${NOPNGDATE[@]}" MNG:@OUT@
make mng/imagemagick-frames        org.libpng.mng yes -- convert -delay 20 $S/f1.png $S/f2.png $S/f3.png +set date:create +set date:modify "${NOPNGDATE[@]}" MNG:@OUT@
make mng/jng-imagemagick           org.libpng.jng no -- convert $S/rose.png JNG:@OUT@
make macpaint/netpbm-pbmtomacp     com.apple.macpaint-image no -- bash -c "pbmtomacp $S/rose.pbm > @OUT@"
make djvu/c44-iw44                 org.djvu.djvu no -- c44 $S/rose.ppm @OUT.djvu@
make djvu/cjb2-bilevel             org.djvu.djvu no -- cjb2 $S/rose.pbm @OUT.djvu@

# ================================================================ PDF / PostScript
# (ImageMagick's PS/EPS/PDF coders are disabled by Debian's security policy; ghostscript and netpbm write them)
# (ghostscript's ps2write/eps2write output is ~160 KB of procsets, too big for the corpus)
make ps/postscript-netpbm-setpage  com.adobe.postscript no -- bash -c "pnmtops -nocenter -setpage -noturn $S/rose.pbm 2>/dev/null > @OUT@"
make ps/postscript-netpbm-gray     com.adobe.postscript no -- bash -c "pnmtops -nocenter -setpage -noturn -rle $S/rose.pgm 2>/dev/null > @OUT@"
make ps/eps-netpbm-pnmtops         com.adobe.encapsulated-postscript no -- bash -c "pnmtops -nocenter $S/rose.pbm 2>/dev/null > @OUT@"
make ps/eps-netpbm-pbmtoepsi       com.adobe.encapsulated-postscript no -- bash -c "pbmtoepsi $S/rose.pbm 2>/dev/null > @OUT@"
make ps/eps-pillow                 com.adobe.encapsulated-postscript no -- "${PE[@]}" pil $S/rose16.png @OUT@ EPS
synth ps/eps-dos-binary            com.adobe.encapsulated-postscript no 'DOS binary EPS: 30-byte C5D0D3C6 header with offsets to a real pnmtops EPS section and a real ImageMagick TIFF preview' -- "${SY[@]}" eps-dos @OUT@ ps/eps-netpbm-pnmtops $S/rose.tif
make document/pdf-pillow           com.adobe.pdf no -- "${PE[@]}" pil $S/rose.png @OUT@ PDF
make document/pdf-ghostscript      com.adobe.pdf no -- gs -q -dBATCH -dNOPAUSE -dSAFER -sDEVICE=pdfwrite -sOutputFile=@OUT@ ps/postscript-netpbm-setpage
make document/pdf-img2pdf-like-pillow-multipage com.adobe.pdf no -- "${PE[@]}" pilall @OUT@ PDF $S/f1.png $S/f2.png

# ================================================================ Camera RAW
make raw/dng-pidng                 com.adobe.raw-image no -- "${PE[@]}" dng @OUT@
synth raw/cr2                      com.canon.cr2-raw-image no 'CR2: II*, IFD0@16, "CR" 02 00 @8, JPEG thumbnail IFD0, IFD1/IFD2, raw IFD3 with a real lossless JPEG (SOF3) and 0xC640' -- "${SY[@]}" cr2 @OUT@ $S/thumb8.jpg $S/gray.ljpeg
synth raw/crw                      com.canon.crw-raw-image no 'CRW (CIFF): II, header length 0x1A, HEAPCCDR, heap with Make/Model (0x080A) and ImageInfo (0x1810), directory offset at heap end' -- "${SY[@]}" crw @OUT@
synth raw/cr3                      com.canon.cr3-raw-image no 'CR3: ftyp crx , moov with Canon uuid 85c0b687-820f-11e0-8111-f4ce462b6a48 holding CNCV "CanonCR3_001/01.09.00/00.00.00", CCTP, CMT1 (TIFF, Make Canon), mvhd; mdat JPEG' -- "${SY[@]}" cr3 @OUT@ $S/thumb8.jpg CanonCR3_001/01.09.00/00.00.00
synth raw/nef                      com.nikon.raw-image no 'NEF (BE): Make NIKON CORPORATION, IFD0 RGB thumbnail, SubIFD 0x014A CFA raw with Compression 34713, Exif IFD with Nikon type-3 MakerNote' -- "${SY[@]}" nef @OUT@
synth raw/nef-uncompressed         com.nikon.raw-image no 'NEF (LE): Make NIKON CORPORATION, SubIFD CFA raw Compression 1, Nikon MakerNote' -- "${SY[@]}" nef-le @OUT@
synth raw/nrw                      com.nikon.nrw-raw-image no 'NRW: Make NIKON CORPORATION, IFD0 Compression 6 JPEG thumbnail (real JPEG), SubIFD CFA raw, Nikon MakerNote' -- "${SY[@]}" nrw @OUT@ $S/thumb8.jpg
synth raw/arw                      com.sony.arw-raw-image no 'ARW: Make SONY Model ILCE-7M3, IFD0 0x7000 SonyRawFileType + 0xC634 SR2Private pointer, SubIFD CFA raw Compression 32767' -- "${SY[@]}" sony @OUT@ ILCE-7M3 arw
synth raw/sr2                      com.sony.sr2-raw-image no 'SR2: Make SONY Model DSC-R1, IFD0 0xC634 SR2Private pointer, SubIFD CFA raw' -- "${SY[@]}" sony @OUT@ DSC-R1 sr2
synth raw/srf                      com.sony.raw-image no 'SRF: Make SONY Model DSC-F828, IFD0 0xC634, SubIFD CFA raw' -- "${SY[@]}" sony @OUT@ DSC-F828 srf
synth raw/orf-iiro                 com.olympus.raw-image no 'ORF "IIRO" header, IFD0 Make OLYMPUS IMAGING CORP., CFA strip, Olympus MakerNote' -- "${SY[@]}" orf @OUT@ IIRO
synth raw/orf-iirs                 com.olympus.raw-image no 'ORF "IIRS" header variant, Olympus IFD0' -- "${SY[@]}" orf @OUT@ IIRS
synth raw/orf-mmor                 com.olympus.raw-image no 'ORF "MMOR" big-endian header, Olympus IFD0' -- "${SY[@]}" orf @OUT@ MMOR
synth raw/rw2                      com.panasonic.rw2-raw-image no 'RW2: "IIU\0", IFD0@0x18, bytes 8-23 = 88 E7 74 D8 F8 25 1D 4D 94 7A 6E 77 82 2B 5D 6A, Panasonic raw IFD tags, Make Panasonic' -- "${SY[@]}" panasonic @OUT@ rw2
synth raw/rwl                      com.leica.rwl-raw-image no 'RWL: RW2 layout with Make LEICA Model D-LUX 6' -- "${SY[@]}" panasonic @OUT@ rwl
synth raw/panasonic-raw            com.panasonic.raw-image no 'old Panasonic .RAW: "IIU\0", IFD0 directly at 8 (no 88E774D8 signature), Make Panasonic DMC-FZ30' -- "${SY[@]}" panasonic @OUT@ raw
synth raw/raf                      com.fuji.raw-image no 'RAF: "FUJIFILMCCD-RAW 0201FF383501", camera name, directory version, BE offsets to a real JPEG preview, CFA header and CFA data' -- "${SY[@]}" raf @OUT@ $S/rose.jpg
synth raw/x3f                      com.sigma.x3f-raw-image no 'X3F: "FOVb" v2.0 header, "SECd" directory (0 entries) pointed to by the last 4 bytes' -- "${SY[@]}" x3f @OUT@
synth raw/mrw                      com.konicaminolta.raw-image no 'MRW: "\0MRM" + block length, "\0PRD" block, "\0TTW" block holding a TIFF (Make KONICA MINOLTA), raw data' -- "${SY[@]}" mrw @OUT@
synth raw/rwz                      com.rawzor.rwz-raw-image no 'RWZ: 46-byte Rawzor header ("rawzor", SDK versions 199, sizes, metadata offset) + empty 44-byte metadata header + zero payload (no Rawzor codec)' -- "${SY[@]}" rwz @OUT@
synth raw/pef                      com.pentax.raw-image no 'PEF: Make "PENTAX Corporation" Model "PENTAX K10D", IFD0 CFA raw Compression 65535' -- "${SY[@]}" tiff-raw @OUT@ 'PENTAX Corporation' 'PENTAX K10D' 65535 ifd0
synth raw/srw                      com.samsung.raw-image no 'SRW: Make SAMSUNG Model NX100, SubIFD CFA raw Compression 32770' -- "${SY[@]}" tiff-raw @OUT@ SAMSUNG NX100 32770 sub
synth raw/3fr                      com.hasselblad.3fr-raw-image no '3FR: Make Hasselblad Model "Hasselblad H3D", SubIFD CFA raw Compression 1' -- "${SY[@]}" tiff-raw @OUT@ Hasselblad 'Hasselblad H3D' 1 sub
synth raw/fff-imacon               com.hasselblad.fff-raw-image no 'FFF: Make Imacon Model "Ixpress 384", Software "Flexcolor 4.0.3", IFD0 CFA raw Compression 1' -- "${SY[@]}" tiff-raw @OUT@ Imacon 'Ixpress 384' 1 ifd0 'Flexcolor 4.0.3'
synth raw/fff-hasselblad-flexcolor com.hasselblad.fff-raw-image no 'FFF: Make Hasselblad Model "Hasselblad H3D", Software "FlexColor 4.8.4", IFD0 CFA raw Compression 1 (3FR vs FFF rule unverified)' -- "${SY[@]}" tiff-raw @OUT@ Hasselblad 'Hasselblad H3D' 1 ifd0 'FlexColor 4.8.4'
synth raw/erf                      com.epson.raw-image no 'ERF: Make "SEIKO EPSON CORP." Model R-D1, SubIFD CFA raw Compression 32769' -- "${SY[@]}" tiff-raw @OUT@ 'SEIKO EPSON CORP.' R-D1 32769 sub
synth raw/dcr                      com.kodak.raw-image no 'DCR: Make Kodak Model "DCS Pro 14N", SubIFD CFA raw Compression 65000' -- "${SY[@]}" tiff-raw @OUT@ Kodak 'DCS Pro 14N' 65000 sub
synth raw/kdc                      com.kodak.raw-image no 'KDC: Make "EASTMAN KODAK COMPANY" Model "KODAK EASYSHARE Z1015 IS", IFD0 CFA raw Compression 32867' -- "${SY[@]}" tiff-raw @OUT@ 'EASTMAN KODAK COMPANY' 'KODAK EASYSHARE Z1015 IS' 32867 ifd0
synth raw/mos                      com.leafamerica.raw-image no 'MOS: Make Leaf Model "Aptus 75", IFD0 CFA raw, Leaf private tag 0x8606 (PKTS)' -- "${SY[@]}" tiff-raw @OUT@ Leaf 'Aptus 75' 1 ifd0
synth raw/iiq                      com.phaseone.raw-image no 'IIQ: TIFF header, Phase One directory block "IIII\x01waR" at 8 (3 16-byte entries), IFD0 Make "Phase One" Model IQ180' -- "${SY[@]}" iiq @OUT@
synth raw/mef                      com.mamiya.mef-raw-image no 'MEF: Make "Mamiya-OP Co.,Ltd." Model ZD, IFD0 CFA raw Compression 1' -- "${SY[@]}" tiff-raw @OUT@ 'Mamiya-OP Co.,Ltd.' ZD 1 ifd0
synth raw/plain-tiff-nikon-make    public.tiff no 'plain RGB TIFF with Make NIKON CORPORATION and Software Capture NX-D, no SubIFD/MakerNote/vendor compression (trap)' -- "${SY[@]}" plain-tiff @OUT@ 'NIKON CORPORATION' 'NIKON D850'

# ================================================================ Neighbours: video / audio
TS=(-f lavfi -i testsrc=size=32x32:rate=5:duration=0.4)
SINE=(-f lavfi -i sine=frequency=440:duration=0.2)
make video/mp4-isom                public.mpeg-4 no -- "${FF[@]}" "${TS[@]}" -c:v libx264 -x264-params log-level=none -pix_fmt yuv420p "${BX[@]}" -f mp4 @OUT@
make video/mp4-mp42                public.mpeg-4 no -- "${FF[@]}" "${TS[@]}" -c:v mpeg4 -brand mp42 "${BX[@]}" -f mp4 @OUT@
make video/mp4-faststart           public.mpeg-4 no -- "${FF[@]}" "${TS[@]}" -c:v libx264 -x264-params log-level=none -pix_fmt yuv420p -movflags +faststart "${BX[@]}" -f mp4 @OUT@
make video/mp4-av1-iso             public.mpeg-4 no -- "${FF[@]}" "${TS[@]}" -c:v libaom-av1 -cpu-used 8 "${BX[@]}" -f mp4 @OUT@
make video/mp4-mjpeg-single-frame  public.mpeg-4 no -- "${FF[@]}" -i $S/rose.png -frames:v 1 -c:v mjpeg "${BX[@]}" -f mp4 @OUT@
make audio/m4a                     public.mpeg-4-audio no -- "${FF[@]}" "${SINE[@]}" -c:a aac -b:a 32k "${BX[@]}" @OUT.m4a@
make video/quicktime-mov           com.apple.quicktime-movie no -- "${FF[@]}" "${TS[@]}" -c:v mjpeg "${BX[@]}" -f mov @OUT@
make video/3gp                     public.3gpp no -- "${FF[@]}" "${TS[@]}" -c:v mpeg4 "${BX[@]}" -f 3gp @OUT@
make video/3g2                     public.3gpp no -- "${FF[@]}" "${TS[@]}" -c:v mpeg4 "${BX[@]}" -f 3g2 @OUT@
synth video/mj2                    org.iso.mj2 no 'Motion JPEG 2000: real ffmpeg MOV with jpeg2000 frames, ftyp replaced by the jP signature box + ftyp mjp2/mjp2, chunk offsets shifted' -- "${SY[@]}" mj2wrap @OUT@ $S/j2k.mov
synth video/crm                    com.canon.crm-movie no 'CRM: CR3 layout (ftyp crx , Canon uuid box) with CNCV "CanonCRM0001/02.09.00/00.00.00"' -- "${SY[@]}" cr3 @OUT@ $S/thumb8.jpg CanonCRM0001/02.09.00/00.00.00
make video/webm                    org.webmproject.webm no -- "${FF[@]}" "${TS[@]}" -c:v libvpx -b:v 50k "${BX[@]}" -f webm @OUT@
make video/mkv                     org.matroska.mkv no -- "${FF[@]}" "${TS[@]}" -c:v ffv1 "${BX[@]}" -f matroska @OUT@
make video/avi                     public.avi no -- "${FF[@]}" "${TS[@]}" -c:v mjpeg "${BX[@]}" -f avi @OUT@
make audio/wav                     com.microsoft.waveform-audio no -- "${FF[@]}" "${SINE[@]}" -ar 8000 -c:a pcm_u8 "${BX[@]}" -f wav @OUT@
make audio/mp3-id3                 public.mp3 no -- "${FF[@]}" "${SINE[@]}" -c:a libmp3lame -b:a 32k -metadata title=ImageSniff -write_xing 0 "${BX[@]}" -f mp3 @OUT@
make audio/mp3-no-id3              public.mp3 no -- "${FF[@]}" "${SINE[@]}" -c:a libmp3lame -b:a 32k -id3v2_version 0 -write_xing 0 "${BX[@]}" -f mp3 @OUT@
make archive/zip                   public.zip-archive no -- bash -c "cd svg && TZ=UTC touch -t 202401010000 xml-prolog bare-svg && TZ=UTC zip -q -X - xml-prolog bare-svg > ../@OUT@"
make archive/zip-with-png          public.zip-archive no -- bash -c "TZ=UTC touch -t 202401010000 png/rgb8 && TZ=UTC zip -q -X -j - png/rgb8 > @OUT@"
make archive/gzip                  org.gnu.gnu-zip-archive no -- bash -c "gzip -9n < netpbm/p3-plain-ppm > @OUT@"

# ================================================================ Neighbours: text and documents
text document/pdf-handwritten com.adobe.pdf 'minimal one-page PDF 1.4 (no xref offsets checked)' <<'EOF'
%PDF-1.4
1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 16 16] >> endobj
trailer << /Root 1 0 R >>
%%EOF
EOF
text text/html public.html 'HTML5 document with an <img>' <<'EOF'
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>not an image</title></head>
<body><p>This page shows <img src="rose.png" alt="a rose"> but is not itself an image.</p></body></html>
EOF
text text/html-lowercase-no-doctype public.html 'HTML fragment starting with <html>' <<'EOF'
<html><body><svg width="8" height="8"></svg><p>inline svg inside html is still html</p></body></html>
EOF
text text/xml public.xml 'generic XML document (not SVG)' <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<catalog><image format="png" href="rose.png"/><note>svg is mentioned here but the root is catalog</note></catalog>
EOF
text text/json public.json 'JSON object' <<'EOF'
{"format": "png", "magic": "\u0089PNG", "width": 32, "height": 32, "animated": false}
EOF
text text/json-array public.json 'JSON array' <<'EOF'
[{"file": "gif/animated", "identifier": "com.compuserve.gif"}, 1, 2.5, true, null]
EOF
text text/plain public.plain-text 'plain ASCII text' <<'EOF'
ImageSniff test corpus: this is a plain text file.
It contains no magic numbers at all.
EOF
text text/trap-gif8 public.plain-text 'text starting with GIF8' <<'EOF'
GIF8 is the start of a gif, but this file is a sentence about it.
EOF
text text/trap-p1 public.plain-text 'text starting with P1 and a space' <<'EOF'
P1 means something in netpbm; here it is priority one on a todo list.
EOF
text text/trap-8bps public.plain-text 'text starting with 8BPS' <<'EOF'
8BPS notes: Photoshop files begin with these four letters, this one does not.
EOF
text text/trap-ps public.plain-text 'text starting with %!PS in a sentence' <<'EOF'
%!PS in a sentence is how PostScript starts, and this line is only text.
EOF
text text/trap-bm public.plain-text 'text starting with BM' <<'EOF'
BM is a text here, not a bitmap header; BMP files start with these two letters.
EOF
text text/trap-ftyp public.plain-text 'text that mentions ftyp and heic at box-like offsets' <<'EOF'
abcdftypheic mif1 heic: a text mentioning ftyp where an ISO-BMFF box type would be.
EOF
text text/trap-riff-webp public.plain-text 'text starting RIFF....WEBP' <<'EOF'
RIFF WEBP chunks are described in RFC 9649; this is prose about them.
EOF
text text/trap-simple public.plain-text 'text starting with SIMPLE (FITS-like word)' <<'EOF'
SIMPLE things first: FITS headers start with SIMPLE  = T but this is prose.
EOF
text text/trap-define-width public.plain-text 'C-like text mentioning _width without an XBM #define' <<'EOF'
int image_width = 16; /* a C variable, not an X bitmap */
EOF
synth data/random-512              public.data no 'pseudo-random bytes, random.Random(42), 512 bytes' -- "${SY[@]}" random @OUT@ 512 42
synth data/random-64               public.data no 'pseudo-random bytes, random.Random(7), 64 bytes' -- "${SY[@]}" random @OUT@ 64 7
make data/zeros-1k                 public.data no -- bash -c "head -c 1024 /dev/zero > @OUT@"
make data/empty-ish-1-byte         public.data no -- bash -c "printf '\\377' > @OUT@"
make data/truncated-png-signature  public.data no -- bash -c "head -c 6 png/rgb8 > @OUT@"
make data/truncated-jpeg-soi       public.data no -- bash -c "head -c 2 jpeg/baseline > @OUT@"

# ================================================================ Long tail: raster formats libmagic 5.44, shared-mime-info, Pillow or ImageMagick know by content
LO=(soffice -env:UserInstallation=file:///tmp/imagesniff-lo-profile --headless)
synth longtail/alias-pix-24bit     com.alias.pix-image no 'Alias/Wavefront PIX: 10-byte BE header (16x16, offsets 0, 24 bpp) + per-row RLE packets count,B,G,R; no encoder here (ImageMagick PIX is read-only)' -- "${SY[@]}" alias-pix @OUT@
make longtail/blp1-pillow          com.blizzard.blp no -- "${PE[@]}" pil $S/rose.png @OUT@ BLP mode=P blp_version=BLP1
make longtail/blp2-pillow          com.blizzard.blp no -- "${PE[@]}" pil $S/rose.png @OUT@ BLP mode=P blp_version=BLP2
make longtail/ilbm-ppmtoilbm       com.ea.iff-ilbm no -- bash -c "ppmtoilbm $S/rose.ppm 2>/dev/null > @OUT@"
make longtail/ilbm-24bit-deep      com.ea.iff-ilbm no -- bash -c "ppmtoilbm -24force $S/rose.ppm 2>/dev/null > @OUT@"
make longtail/ilbm-ham6            com.ea.iff-ilbm no -- bash -c "ppmtoilbm -hamforce $S/rose.ppm 2>/dev/null > @OUT@"
synth longtail/iff-pbm-deluxepaint com.ea.iff-pbm no 'IFF FORM "PBM " (Deluxe Paint chunky): BMHD 16x16 8 planes, CMAP 256, BODY one byte per pixel (checked with ilbmtoppm)' -- "${SY[@]}" iff-pbm @OUT@
synth longtail/iff-anim-2frames    com.ea.iff-anim yes 'IFF FORM ANIM holding two FORM ILBM frames: the real ppmtoilbm file, and a copy with an ANHD chunk (full-frame operation 0)' -- "${SY[@]}" iff-anim @OUT@ longtail/ilbm-ppmtoilbm
make longtail/im-pillow            com.pythonware.im no -- "${PE[@]}" pil $S/rose.png @OUT@ IM
make longtail/im-pillow-gray       com.pythonware.im no -- "${PE[@]}" pil $S/gray.png @OUT@ IM mode=L
make longtail/im-pillow-la         com.pythonware.im no -- "${PE[@]}" pil $S/alpha.png @OUT@ IM mode=LA
make longtail/im-pillow-ycbcr      com.pythonware.im no -- "${PE[@]}" pil $S/rose.png @OUT@ IM mode=YCbCr
make longtail/im-pillow-i16        com.pythonware.im no -- "${PE[@]}" pil $S/gray16.png @OUT@ IM 'mode=I;16'
make longtail/jbig-pbmtojbg        org.jpeg.jbig no -- pbmtojbg $S/rose.pbm @OUT@
make longtail/jbig-pbmtojbg85      org.jpeg.jbig no -- pbmtojbg85 $S/rose.pbm @OUT@
make longtail/jbig-imagemagick     org.jpeg.jbig no -- convert $S/rose.pbm JBIG:@OUT@
synth longtail/jbig2-file          org.jpeg.jbig2 no 'JBIG2 file (T.88 Annex D): 97 "JB2" 0D 0A 1A 0A, sequential, 1 page; page info 16x16, MMR generic region (all white), end of page, end of file (decodes with jbig2dec)' -- "${SY[@]}" jbig2 @OUT@
make longtail/msp1-pillow          com.microsoft.msp no -- "${PE[@]}" pil $S/rose.png @OUT@ MSP "mode='1'"
synth longtail/msp2-rle            com.microsoft.msp no 'MSP 2.0: "LinS" header 32x32 with checksum, scan-line map, RLE rows (opens in Pillow)' -- "${SY[@]}" msp2 @OUT@
make longtail/mtv-imagemagick      org.brainwagon.mtv no -- convert $S/rose.png MTV:@OUT@
make longtail/mtv-two-imagemagick  org.brainwagon.mtv no -- convert $S/rose.png $S/rose.png -adjoin MTV:@OUT@
make longtail/otb-imagemagick      com.nokia.otb no -- convert $S/rose.pbm OTB:@OUT@
make longtail/nokia-ngg-pbmtonokia com.nokia.ngg no -- bash -c "pbmtonokia -fmt NGG $S/rose.pbm > @OUT@"
make longtail/nokia-nol-pbmtonokia com.nokia.nol no -- bash -c "pbmtonokia -fmt NOL $S/rose.pbm > @OUT@"
make longtail/palm-pnmtopalm-16bit com.palm.bitmap no -- bash -c "pnmtopalm -depth 16 $S/rose.ppm 2>/dev/null > @OUT@"
make longtail/palm-pnmtopalm-gray4 com.palm.bitmap no -- bash -c "pnmtopalm -depth 4 $S/rose.pgm 2>/dev/null > @OUT@"
make longtail/palm-imagemagick     com.palm.bitmap no -- convert $S/rose.png PALM:@OUT@
make longtail/palm-pillow          com.palm.bitmap no -- "${PE[@]}" pil $S/rose.png @OUT@ PALM mode=P
make longtail/palm-pdb-imagemagick com.palm.imageviewer-pdb no -- convert $S/rose.png PDB:@OUT@
make longtail/palm-pdb-pamtopdbimg com.palm.imageviewer-pdb no -- bash -c "pamtopdbimg $S/rose.pgm 2>/dev/null > @OUT@"
make longtail/pgx-imagemagick      org.jpeg.pgx no -- convert $S/rose.pgm PGX:@OUT@
make longtail/pgx-openjpeg         org.jpeg.pgx no -- bash -c "opj_compress -i $S/rose.pgm -o $S/pgx.j2k >/dev/null && opj_decompress -i $S/pgx.j2k -o $S/pgx.pgx >/dev/null && mv $S/pgx_0.pgx @OUT@"
make longtail/utah-rle-pnmtorle    edu.utah.rle no -- bash -c "pnmtorle $S/rose.ppm > @OUT@"
make longtail/utah-rle-gray        edu.utah.rle no -- bash -c "pnmtorle $S/rose.pgm > @OUT@"
make longtail/viff-imagemagick     com.khoral.viff no -- convert $S/rose.png VIFF:@OUT@
make longtail/viff-imagemagick-gray com.khoral.viff no -- convert $S/rose.pgm VIFF:@OUT@
make longtail/vips-libvips         org.libvips.vips no -- vips copy $S/rose.png @OUT.v@
make longtail/vips-imagemagick     org.libvips.vips no -- convert $S/rose.png VIPS:@OUT@
synth longtail/flc-2frames         com.autodesk.flic yes 'FLC: 128-byte header magic 0xAF12 32x32x8, 2 frames of COLOR_256 + BYTE_RUN chunks (opens in Pillow)' -- "${SY[@]}" flic @OUT@ flc 2
synth longtail/fli-320x200         com.autodesk.flic yes 'FLI: 128-byte header magic 0xAF11 320x200x8, speed in 1/70 s, 2 frames of COLOR_64 + BYTE_RUN chunks (opens in Pillow)' -- "${SY[@]}" flic @OUT@ fli 2
synth longtail/flashpix-header     com.kodak.flashpix-image no 'FlashPix: OLE2 compound file, root CLSID 56616700-C154-11CE-8553-00AA00A1F95B, storage "Data Object Store 000001" with the Image Contents property set (32x32) and SummaryInformation; no resolution/tile streams (no FlashPix writer here)' -- "${SY[@]}" fpx @OUT@
make longtail/wmf-placeable-libreoffice com.microsoft.wmf no -- bash -c "rm -rf $S/lo && ${LO[*]} --convert-to wmf --outdir $S/lo $S/vector.svg >/dev/null 2>&1 && mv $S/lo/vector.wmf @OUT@"
make longtail/wmf-plain-libreoffice-minus-apm com.microsoft.wmf no -- bash -c "tail -c +23 longtail/wmf-placeable-libreoffice > @OUT@"
make longtail/emf-libreoffice      com.microsoft.emf no -- bash -c "rm -rf $S/lo && ${LO[*]} --convert-to emf --outdir $S/lo $S/vector.svg >/dev/null 2>&1 && mv $S/lo/vector.emf @OUT@"
make longtail/emf-pstoedit-libemf  com.microsoft.emf no -- pstoedit -q -f emf $S/vector.ps @OUT@
synth longtail/gimp-gbr-v2-gray    org.gimp.gbr no 'GIMP brush v2: header 28+name, 16x16, 1 byte/pixel, "GIMP" at 20, spacing 25 (opens in Pillow)' -- "${SY[@]}" gbr @OUT@ 2 1
synth longtail/gimp-gbr-v2-rgba    org.gimp.gbr no 'GIMP brush v2: 16x16 RGBA (4 bytes/pixel), "GIMP" at 20 (opens in Pillow)' -- "${SY[@]}" gbr @OUT@ 2 4
synth longtail/gimp-gbr-v1-nomagic org.gimp.gbr no 'GIMP brush v1: header 20+name, no magic, 16x16 gray (opens in Pillow)' -- "${SY[@]}" gbr @OUT@ 1 1
synth longtail/gimp-pat            org.gimp.pat no 'GIMP pattern: header 24+name, version 1, 16x16 RGB, "GPAT" at 20' -- "${SY[@]}" pat @OUT@
synth longtail/gimp-gih-2brushes   org.gimp.gih yes 'GIMP image hose: name line, parameter line (2 cells), then the two v2 brushes above' -- "${SY[@]}" gih @OUT@ longtail/gimp-gbr-v2-gray longtail/gimp-gbr-v2-rgba
make longtail/xv-thumbnail-pamtoxvmini com.trilon.xv-thumbnail no -- bash -c "pamtoxvmini $S/rose.ppm > @OUT@"
make longtail/photocd-imagemagick-first12k com.kodak.photocd no -- bash -c "convert $S/rose.png PCD:$S/rose.pcd && head -c 12288 $S/rose.pcd > @OUT@"
synth longtail/pixar-pxr           com.pixar.pxr no 'Pixar PIC: magic 80 E8 00 00, header to 1024 (height 416, width 418, 14/2 = 8-bit RGB at 424), 16x16 RGB (opens in Pillow)' -- "${SY[@]}" pixar @OUT@
make longtail/spider-pillow        org.wadsworth.spider no -- "${PE[@]}" pil $S/gray.png @OUT@ SPIDER mode=F
synth longtail/quake2-wal          com.idsoftware.wal no 'Quake II WAL: 100-byte header (name, 16x16, 4 mip offsets from 100, next name, flags), 4 mip levels (opens with PIL.WalImageFile)' -- "${SY[@]}" wal @OUT@
synth longtail/mcidas-area         edu.wisc.ssec.mcidas-area no 'McIDAS AREA: 64-word BE directory (0, 4, sensor 70, date, 16 lines x 16 elements, 1 byte, 1 band, data at 256), 8-bit data (opens in Pillow)' -- "${SY[@]}" mcidas @OUT@
synth longtail/gd-palette          org.libgd.gd no 'GD 2.x: FF FF, 16x16, palette (16 colours, RGBA x 256), 1 byte/pixel (Debian libgd has GD/GD2 support disabled; opens with PIL.GdImageFile)' -- "${SY[@]}" gd @OUT@ palette
synth longtail/gd-truecolor        org.libgd.gd no 'GD 2.x: FF FE, 16x16, truecolour flag 1, transparent none, ARGB u32 pixels' -- "${SY[@]}" gd @OUT@ truecolor
synth longtail/gd2-palette-zlib    org.libgd.gd2 no 'GD2: "gd2" 00, version 2, 16x16, chunk 16, format 2 (compressed palette), 1x1 chunks, chunk index, palette header, zlib chunk' -- "${SY[@]}" gd2 @OUT@ palette-zlib
synth longtail/gd2-truecolor-raw   org.libgd.gd2 no 'GD2: "gd2" 00, version 2, 16x16, format 3 (raw truecolour), ARGB pixels' -- "${SY[@]}" gd2 @OUT@ truecolor
# other raster formats libmagic 5.44 names (real netpbm / ImageMagick / x11-apps encoders)
make longtail/gem-img-pbmtogem     com.digitalresearch.gem-img no -- bash -c "pbmtogem $S/rose.pbm 2>/dev/null > @OUT@"
make longtail/degas-pi1-ppmtopi1   com.atari.degas no -- bash -c "pnmquant 16 $S/rose.ppm 2>/dev/null | ppmtopi1 2>/dev/null > @OUT@"
synth longtail/degas-pc1-packbits    com.atari.degas no 'DEGAS Elite compressed (PC1): resolution word 0x8000, palette, 200 lines of 4 PackBits-coded bit planes, 32-byte animation tail (no encoder in Debian)' -- "${SY[@]}" degas-pc1 @OUT@
make longtail/mgr-pbmtomgr         com.bellcore.mgr-bitmap no -- bash -c "pbmtomgr $S/rose.pbm > @OUT@"
make longtail/cmu-wm-pbmtocmuwm    edu.cmu.wm-raster no -- bash -c "pbmtocmuwm $S/rose.pbm 2>/dev/null > @OUT@"
make longtail/microdesign-pbmtomda com.microdesign.mda no -- bash -c "pbmtomda $S/rose.pbm > @OUT@"
make longtail/solitaire-sir-pnmtosir com.solitaire.sir no -- bash -c "pnmtosir $S/rose.ppm 2>/dev/null > @OUT@"
make longtail/garmin-srf-pamtosrf  com.garmin.srf no -- bash -c "pamtosrf $S/rose.ppm > @OUT@"
make longtail/vicar-imagemagick    gov.nasa.jpl.vicar no -- convert $S/rose.pgm VICAR:@OUT@
make longtail/cals-imagemagick     mil.cals.raster no -- convert $S/rose.pbm CALS:@OUT@
make longtail/xcursor-xcursorgen   org.x.xcursor no -- bash -c "printf '32 0 0 $S/rose.png\n16 0 0 $S/thumb16.png\n' > $S/cursor.cfg && xcursorgen $S/cursor.cfg @OUT@"

# ================================================================ More Apple ImageIO identifiers (RAW + ATX)
synth appleraw/canon-tif-raw-eos1d public.tiff no 'Canon TIFF RAW as written by the EOS-1D/1Ds (.TIF): plain TIFF header, Make Canon, Model "Canon EOS-1D", IFD0 CFA raw strip (layout assumed; hint-dependent)' -- "${SY[@]}" tiff-raw @OUT@ Canon 'Canon EOS-1D' 1 ifd0
synth appleraw/sony-axr            com.sony.arw-raw-image no 'Sony .AXR: ARW layout (its bytes are an ARW: only a hint names com.sony.axr-raw-image) (Apple handles AXR in its Sony ARW plugin); Make SONY, SR2Private, SubIFD CFA raw (structure assumed; hint-dependent)' -- "${SY[@]}" sony @OUT@ ILCE-7M3 arw
synth appleraw/leica-raw-dlux3     com.leica.raw-image no 'Leica .RAW (Panasonic-made D-LUX 3): "IIU" 00, IFD0 at 8, Panasonic raw tags, Make LEICA' -- "${SY[@]}" panasonic @OUT@ leica-raw
make appleraw/dxo-one-dng          com.dxo.raw-image no -- bash -c "python3 pyencode.py dng @OUT@ && exiftool -q -overwrite_original -Make=DxO '-Model=DxO ONE' '-UniqueCameraModel=DxO ONE' @OUT@"
synth appleraw/atx-astc4x4         com.apple.atx no 'Apple ATX: "AAPL" 0D 0A 1A 0A, HEAD (84 bytes: 0x93B0 ASTC 4x4, 8x8, depth 1, 1 mip), astc chunk with 4 void-extent blocks, END (layout from one third-party reader, low confidence)' -- "${SY[@]}" atx @OUT@

# ================================================================ Neighbours of the long tail (not images)
make lookalike/icc-srgb-lcms       com.apple.colorsync-profile no -- "${PE[@]}" icc @OUT@ sRGB
make lookalike/icc-lab-lcms        com.apple.colorsync-profile no -- "${PE[@]}" icc @OUT@ LAB
make lookalike/font-ttf-fonttools  public.truetype-ttf-font no -- "${PE[@]}" font @OUT@ ttf
make lookalike/font-otf-fonttools  public.opentype-font no -- "${PE[@]}" font @OUT@ otf
make lookalike/font-ttc-fonttools  public.truetype-collection-font no -- "${PE[@]}" font @OUT@ ttc
make lookalike/font-woff-fonttools org.w3.woff no -- "${PE[@]}" font @OUT@ woff
make lookalike/font-woff2-fonttools org.w3.woff2 no -- "${PE[@]}" font @OUT@ woff2
make lookalike/ole2-xls-xlwt       public.data no -- "${PE[@]}" xls @OUT@
make lookalike/aiff-ffmpeg         public.aiff-audio no -- "${FF[@]}" -f lavfi -i sine=frequency=440:duration=0.05 -ar 8000 -c:a pcm_s16be "${BX[@]}" -f aiff @OUT@
make lookalike/flv-ffmpeg          com.adobe.flash.video no -- "${FF[@]}" -f lavfi -i testsrc=size=32x32:rate=5:duration=0.4 -c:v flv1 "${BX[@]}" -f flv @OUT@
make lookalike/mpeg1-video-es-ffmpeg public.mpeg no -- "${FF[@]}" -f lavfi -i testsrc=size=32x32:rate=25:duration=0.12 -c:v mpeg1video "${BX[@]}" -f mpeg1video @OUT@
make lookalike/mpeg-ps-ffmpeg      public.mpeg no -- "${FF[@]}" -f lavfi -i testsrc=size=32x32:rate=25:duration=0.12 -c:v mpeg1video "${BX[@]}" -f mpeg @OUT@
make lookalike/utf16le-bom-text    public.plain-text no -- bash -c "printf 'GD truecolour files also start with FF FE.\n' | iconv -f UTF-8 -t UTF-16 > @OUT@"
synth lookalike/trap-gltf-indices  public.data no 'a glTF 2.0 buffer (a cube: uint16 triangle indices 0 1 2 3 2 1 ..., then float32 positions), laid out as assimp test models are: its first six bytes read as an icon directory' -- "${SY[@]}" gltf-indices @OUT@
text lookalike/trap-blp1 public.plain-text 'text starting with BLP1' <<'EOF'
BLP1 and BLP2 are Blizzard texture magics; this line is prose about them.
EOF
text lookalike/trap-p7-332 public.plain-text 'text starting with P7 332' <<'EOF'
P7 332 is how XV thumbnails begin; this sentence is not one.
EOF
text lookalike/trap-danm public.plain-text 'text starting with DanM (MSP 1.0 key)' <<'EOF'
DanM and LinS are the Microsoft Paint keys; here they are just words.
EOF
text lookalike/trap-mtv-like public.plain-text 'text starting with two numbers on a line (MTV-like header)' <<'EOF'
32 32
these two numbers look like an MTV ray tracer header, but no pixel bytes follow.
EOF

# ================================================================ Regression files
make regress/ultrahdr-imagecodecs  public.jpeg no -- "${PE[@]}" uhdr $S/rose.png @OUT@
synth regress/jpeg-mpf-large-thumbnail public.jpeg no 'real Pillow MPO (32x32 primary + 16x16 second frame) with MPEntry attributes rewritten to 0x20030000 (baseline primary) and 0x00010001 (large thumbnail, VGA): a JPEG, not an MPO' -- bash -c "python3 pyencode.py pilall $S/mpo2.jpg MPO $S/rose.png $S/thumb16.png mode=RGB && python3 synthesize.py mpf-thumbnail @OUT@ $S/mpo2.jpg"
make regress/jxl-1x1-cjxl          public.jpeg-xl no -- cjxl --quiet $S/one.png @OUT@
make regress/jxl-1x1-cjxl-lossless public.jpeg-xl no -- cjxl --quiet -d 0 $S/one.png @OUT@
make regress/jxl-33x33-cjxl        public.jpeg-xl no -- cjxl --quiet $S/g33.png @OUT@
make regress/jxl-33x33-cjxl-lossless public.jpeg-xl no -- cjxl --quiet -d 0 $S/g33.png @OUT@
make regress/heif-mif3-mini-libheif public.heic no -- "${PE[@]}" heifmini $S/rose.png @OUT@
synth regress/tga-truecolor-unused-colormap com.truevision.tga-image no 'real ImageMagick type-2 TGA rewritten to colour-map type 1 (2 entries, 24-bit, unused) with image type still 2' -- "${SY[@]}" tga-cmap @OUT@ $S/rose.tga
make regress/tga-truncated-imagemagick com.truevision.tga-image no -- bash -c "head -c 1500 $S/rose.tga > @OUT@"
make regress/gif-noise-2frames-noloop com.compuserve.gif yes -- bash -c "convert -delay 20 $S/noise1.png $S/noise2.png GIF:$S/noise.gif && gifsicle --no-loopcount $S/noise.gif > @OUT@"
make regress/gif-ends-on-trailer   com.compuserve.gif no -- convert $S/rose.png GIF:@OUT@

# ================================================================ Real-world findings: new formats and edge cases seen in packaged files
# New formats.  WPG, ANI, TIM and Musepack SV7 have no writer here (ImageMagick/GraphicsMagick only read
# WPG and TIM, libwpg only converts from WPG), so those are synthetic; PGF comes from libpgf through .src/pgfenc.
make realworld/xfig-pstoedit        org.xfig.fig no -- pstoedit -q -f fig $S/vector.ps @OUT@
synth realworld/wpg1-bitmap-rle     com.corel.wordperfect-graphics no 'WPG 1.0: FF "WPC", data at 16, product 1, type 0x16, v1.0, key 0; Start WPG (0x0F), colour map (0x0E, 16 RGB), bitmap type 1 (0x0B, 16x16 4 bpp, WPG RLE), End WPG (0x10) (reads in ImageMagick and libwpg)' -- "${SY[@]}" wpg @OUT@ v1-bitmap
synth realworld/wpg1-vector         com.corel.wordperfect-graphics no 'WPG 1.0 vector only: Start WPG, fill and line attributes (0x01, 0x02), rectangle (0x07), line (0x05), End WPG (wpg2svg draws them)' -- "${SY[@]}" wpg @OUT@ v1-vector
synth realworld/wpg2-bitmap         com.corel.wordperfect-graphics no 'WPG 2.0: data at 0x1A (bytes 16-25 03 00 00 00 + file size + 00 00); class/type records Start WPG (0x01), bitmap object (0x1B), palette (0x0C), bitmap data (0x0E, 16x16 8 bpp raw), End (0x02) (reads in ImageMagick and libwpg)' -- "${SY[@]}" wpg @OUT@ v2-bitmap
make realworld/nifti1-nibabel       gov.nih.nifti-image no -- "${PE[@]}" nifti @OUT.nii@ 1
make realworld/mrc-mrcfile         uk.ac.cam.mrc-lmb.mrc no -- "${PE[@]}" mrc @OUT@
make realworld/mrc-be-mrcfile      uk.ac.cam.mrc-lmb.mrc no -- "${PE[@]}" mrc @OUT@ be
make realworld/nifti2-nibabel       gov.nih.nifti-image no -- "${PE[@]}" nifti @OUT.nii@ 2
make realworld/nifti1-be-nibabel    gov.nih.nifti-image no -- "${PE[@]}" nifti @OUT.nii@ 1 be
make realworld/pgf-rgb-libpgf       org.libpgf.pgf no -- $S/pgfenc $S/rose.ppm @OUT@ rgb
make realworld/pgf-indexed-libpgf   org.libpgf.pgf no -- $S/pgfenc $S/rose.ppm @OUT@ indexed
make realworld/pgf-rgba-libpgf      org.libpgf.pgf no -- $S/pgfenc $S/rose.ppm @OUT@ rgba
synth realworld/ani-2frames         com.microsoft.ani yes 'RIFF ACON: anih (36 bytes, 2 frames, 2 steps, rate 10, flags AF_ICON), LIST fram with two icon chunks holding real ImageMagick ICOs (reads in gdk-pixbuf)' -- bash -c "convert $S/f1.png ICO:$S/ani1.ico && convert $S/f2.png ICO:$S/ani2.ico && python3 synthesize.py ani @OUT@ plain $S/ani1.ico $S/ani2.ico"
synth realworld/ani-info-rate-seq   com.microsoft.ani yes 'RIFF ACON starting with LIST INFO (INAM, IART) before anih (flags AF_ICON|AF_SEQUENCE, 3 steps), rate and seq chunks, LIST fram with two real ImageMagick ICOs turned into cursors (type 2, hotspot 0,0)' -- bash -c "convert $S/f3.png ICO:$S/ani3.ico && convert $S/f4.png ICO:$S/ani4.ico && python3 synthesize.py ani @OUT@ info-rate-seq $S/ani3.ico $S/ani4.ico"
synth realworld/tim-4bit-clut       com.sony.psx-tim no 'PlayStation TIM: magic 0x10, flags 8 (4 bpp + CLUT), CLUT block 16x1 at (960,21), pixel block 8x32 (32x32 px) at (640,96); 8 + blocks = file size (reads in ImageMagick as TIM:)' -- "${SY[@]}" tim @OUT@ 4bit $S/rose.ppm
synth realworld/tim-16bit           com.sony.psx-tim no 'PlayStation TIM: magic 0x10, flags 2 (16-bit direct, no CLUT), one pixel block 16x16 of 15-bit BGR (reads in ImageMagick as TIM:)' -- "${SY[@]}" tim @OUT@ 16bit $S/rose16.ppm
make realworld/sixel-imagemagick    com.dec.sixel no -- convert $S/rose16.png SIXEL:@OUT@
make realworld/sixel-img2sixel      com.dec.sixel no -- img2sixel -o @OUT@ $S/rose16.png
make realworld/sixel-img2sixel-8bit com.dec.sixel no -- img2sixel -8 -o @OUT@ $S/rose16.png
make realworld/dib-24bit-imagemagick com.microsoft.bmp no -- convert $S/rose.png DIB:@OUT@
make realworld/dib-8bit-imagemagick com.microsoft.bmp no -- convert $S/rose.png -type Palette -compress None DIB:@OUT@
# ImageMagick 6.9.11 writes a palette DIB with BI_RLE8 by default and then cannot read it back ("unable to
# runlength decode image"); Pillow's DibImageFile reads it.
make realworld/dib-8bit-rle8-imagemagick com.microsoft.bmp no -- convert $S/rose.png -type Palette DIB:@OUT@
# Edge cases of known formats
make realworld/ppm-comment-after-magic net.sourceforge.netpbm.ppm no -- bash -c "convert $S/rose.png PPM:- | LC_ALL=C sed '1s/\$/#comment straight after the magic number/' > @OUT@"
make realworld/ppm-comments-printable-raster net.sourceforge.netpbm.ppm no -- bash -c "ppmmake rgb:78/78/20 10 10 | LC_ALL=C sed -e '1s/\$/#foo/' -e '2s/\$/#foo/' > @OUT@"
make realworld/miff-capital-id      org.imagemagick.miff no -- bash -c "{ printf I; gm convert $S/rose.png MIFF:- | tail -c +2; } > @OUT@"
make realworld/psd-reserved-spaces  com.adobe.photoshop-image no -- bash -c "convert $S/rose.png PSD:$S/rs.psd && { head -c 6 $S/rs.psd; printf '      '; tail -c +13 $S/rs.psd; } > @OUT@"
synth realworld/psd-57-channels     com.adobe.photoshop-image no 'real ImageMagick PSD (8x8 RGB, -compress None) with the header channel count raised to 57 and 54 raw alpha planes appended to the merged image data (Pillow reads it; ImageMagick stops at 56 channels)' -- bash -c "convert $S/rose.png -resize 8x8 -compress None PSD:$S/p8.psd && python3 synthesize.py psd-channels @OUT@ $S/p8.psd 57"
make realworld/dicom-tiff-preamble  org.nema.dicom no -- "${PE[@]}" dicom @OUT@ tiff-past-eof
# Not images (and one PostScript)
synth realworld/canon-dr4-recipe    public.data no 'Canon DPP 4 recipe: IIII 04 00 04 00, 32-byte header, 8 directory entries (Rotation, WorkColorSpace, PictureStyle ...) and values, layout from ExifTool CanonVRD.pm (exiftool reads it)' -- "${SY[@]}" dr4 @OUT@
make realworld/iiii-zeros           public.data no -- bash -c "{ printf IIII; head -c 200 /dev/zero; } > @OUT@"
text realworld/fits-header-text public.plain-text 'FITS header cards as newline-separated lines of varying length (not 80-byte cards), like astropy hst_sip.hdr' <<'EOF'
SIMPLE  =                    T /
BITPIX  =                  -32 / Bits per pixel
NAXIS   =                    2 / Number of axes
NAXIS1  =                   32 / Axis length
NAXIS2  =                   32 / Axis length
CTYPE1  = 'RA---TAN-SIP'       / TAN projection with SIP distortion
CTYPE2  = 'DEC--TAN-SIP'       / TAN projection with SIP distortion
CRPIX1  =                 16.0 / Reference pixel
CRPIX2  =                 16.0 / Reference pixel
A_ORDER =                    2 / SIP polynomial order, axis 1
B_ORDER =                    2 / SIP polynomial order, axis 2
END
EOF
make realworld/fits-header-textfile-astropy public.plain-text no -- "${PE[@]}" fitstext @OUT@
synth realworld/id3-then-musepack   public.data no 'ID3v2.3 tag written by id3v2 (id3lib) in front of a Musepack SV7 stream header ("MP+" 07, 2 frames, 44.1 kHz) + placeholder frames (no SV7 encoder here; ffprobe reports musepack7)' -- bash -c "python3 synthesize.py musepack-sv7 @OUT@ && id3v2 -2 --song ImageSniff --artist 'ImageSniff test' @OUT@"
make realworld/id3-only             public.data no -- "${PE[@]}" id3 @OUT@
synth realworld/bmp-planes-zero    com.microsoft.bmp no 'real ImageMagick BMP3 with the planes field set to 0, as Wine'"'"'s Media Foundation tests write it (Pillow reads it)' -- "${SY[@]}" bmp-planes-zero @OUT@ $S/rose.bmp
synth realworld/xbm-c-comment      public.xbitmap-image no 'real ImageMagick XBM after a C comment (a copyright notice), as wxWidgets ships xs_motif_icon.xbm (identify reads it)' -- "${SY[@]}" prepend @OUT@ x11/xbm-imagemagick '/*\n   Copyright (C) 1996 A. N. Author\n   All rights reserved.\n*/\n\n'
synth realworld/tga-footer-without-nul com.truevision.tga-image no 'real Pillow TGA whose TGA 2.0 footer lost its final NUL byte, as in assimp'"'"'s holygrail.tga test model' -- bash -c "head -c -1 tga/pillow-footer > @OUT@"
text realworld/postscript-bang-space com.adobe.postscript 'PostScript starting "%! " (percent, bang, space), as ghostscript lib/viewjpeg.ps; gs renders it' <<'EOF'
%! bang-space.ps: "%!" then a space and a title, as ghostscript's lib/viewjpeg.ps begins
% a 32x32 point page with a red triangle and a blue disc
<< /PageSize [32 32] >> setpagedevice
newpath 2 2 moveto 30 2 lineto 16 30 lineto closepath
0.8 0.2 0.2 setrgbcolor fill
newpath 16 12 6 0 360 arc 0 0 0.5 setrgbcolor fill
showpage
EOF
make realworld/text-cp1252          public.plain-text no -- "${PE[@]}" textenc @OUT@ cp1252
make realworld/text-macroman        public.plain-text no -- "${PE[@]}" textenc @OUT@ mac_roman
make realworld/text-utf32le-bom     public.plain-text no -- "${PE[@]}" textenc @OUT@ utf-32-le
make realworld/hdf4-not-image       public.data no -- "${PE[@]}" hdf4 @OUT@

# ================================================================ Facts past the first 512 KiB (issue 26)
# ImageSniff used to read only the first 512 KiB of a file; it now reads ranges anywhere.  Each file
# here keeps what the tool must read past those 512 KiB: TIFF IFD0 written after the strips, the
# later IFDs of a long page chain, a JPEG's SOF after a 600 KiB ICC profile, a GIF's trailer and
# an animated WebP's last frames, a HEIF's meta after its mdat, and (cut-half) the missing end of
# a JPEG that --verify must find.  Content is chosen to compress well (gradients, solid pages,
# two noise frames repeated within zlib's 32 KiB window), so git stores them small.
make far/tiff-imagemagick-ifd-at-end public.tiff no -- convert -size 600x500 gradient:red-blue -depth 8 -type TrueColor -compress none TIFF:@OUT@
make far/tiff-pillow-40pages       public.tiff no -- "${PE[@]}" solid-pages @OUT@ TIFF 40 100x100
make far/jpeg-pillow-icc-600k      public.jpeg no -- "${PE[@]}" icc-jpeg $S/rose64x48.png @OUT@ sRGB 614400 quality=85
make far/gif-pillow-many-frames    com.compuserve.gif yes -- "${PE[@]}" noise-frames @OUT@ GIF 100 64x64 1 duration=50 loop=0
make far/webp-img2webp-many-frames org.webmproject.webp yes -- bash -c "img2webp -loop 0 -d 50 -lossless \$(for i in \$(seq 80); do echo $S/noise1.png $S/noise2.png; done) -o @OUT@"
# No writer here puts meta after mdat (heif-enc and pillow-heif write ftyp, meta, mdat; gpac's
# MP4Box is not packaged in Debian 12), so a real heif-enc file is rearranged.
synth far/heif-meta-after-mdat     public.heic no 'real heif-enc HEIC (512x512 gradient, -q 90) rearranged as ftyp, mdat, meta: mdat holds the coded data first, padded with zero bytes to 614400 bytes, and the iloc extent offsets are moved to match (heif-info, heif-convert and identify read it)' -- bash -c "heif-enc -q 90 -o $S/far.heic $S/grad512.png && python3 synthesize.py mdat-first @OUT@ $S/far.heic 614400"
# The same with a 13 KB meta box (a 12.8 KB ICC profile in its colr): more than the least a far
# window reads, so the box must come whole with its header (pillow-heif's 200MP.heic: 39 KB).
synth far/heif-large-meta-after-mdat public.heic no 'real heif-enc HEIC (512x512 gradient carrying ghostscript'"'"'s esrgb.icc, 12,840 bytes: a 13,175-byte meta) rearranged as ftyp, mdat, meta as above (mdat padded to 614400 bytes; identify and heif-info read it)' -- bash -c "convert $S/grad512.png -profile /usr/share/color/icc/ghostscript/esrgb.icc $S/gradicc.png && heif-enc -q 90 -o $S/far-icc.heic $S/gradicc.png && python3 synthesize.py mdat-first @OUT@ $S/far-icc.heic 614400"
make far/jpeg-pillow-cut-half      public.jpeg no -- bash -c "python3 pyencode.py pil $S/grad1200.png $S/whole.jpg JPEG quality=90 && head -c \$((\$(stat -c %s $S/whole.jpg) / 2)) $S/whole.jpg > @OUT@"

# ================================================================ Other projects' test files (issue 29)
# Cases met in the test files image libraries keep (openjpeg's conformance set, Pillow's tests, old
# icon collections): each is right by its spec's rule. Made by a real encoder where one writes it.
# JPEG 2000 SIZ (ISO/IEC 15444-1 A.5.1): the image area is Xsiz - XOsiz by Ysiz - YOsiz.
make foreign/j2k-openjpeg-image-offset public.jpeg-2000 no -- opj_compress -d 100,50 -i $S/rose.ppm -o @OUT.j2k@
# TGA 2.0 field 4 (colour map specification) "should be set to zero" without a colour map; no writer
# here sets its entry size then, so a real file is patched (ImageMagick and Pillow read it).
synth foreign/tga-entry-size-without-map com.truevision.tga-image no 'real ImageMagick type-2 24-bit TGA (colour-map type 0) with its colour-map entry size byte (7) set to 24 anyway; ImageMagick and Pillow read it' -- "${SY[@]}" tga-entry-size @OUT@ $S/rose.tga 24
# PGX (ISO/IEC 15444-4): the smallest whole file, a 1 x 1 8-bit image (a 14-byte header and one sample).
make foreign/pgx-openjpeg-1x1        org.jpeg.pgx no -- bash -c "convert -size 1x1 xc:gray50 -depth 8 $S/one8.pgm && opj_compress -n 1 -i $S/one8.pgm -o $S/one8.j2k >/dev/null && opj_decompress -i $S/one8.j2k -o $S/one8.pgx >/dev/null && mv $S/one8_0.pgx @OUT@"
# XML in UTF-16 with its byte order mark (XML 1.0, 4.3.3 and appendix F): libxml2 writes it (LE),
# iconv the big-endian one after a BOM; an SVG so written is still SVG.
make foreign/xml-utf16le-xmllint    public.xml no -- bash -c "printf '<?xml version=\"1.0\"?>\\n<catalog><item name=\"rose\">Ros\\303\\251</item></catalog>\\n' | xmllint --encode UTF-16 - > @OUT@"
make foreign/xml-utf16be-iconv      public.xml no -- bash -c "{ printf '\\376\\377'; printf '<?xml version=\"1.0\" encoding=\"UTF-16\"?>\\n<catalog><item name=\"rose\"/></catalog>\\n' | iconv -f UTF-8 -t UTF-16BE; } > @OUT@"
make foreign/svg-utf16le-xmllint    public.svg-image no -- bash -c "xmllint --encode UTF-16 $S/vector.svg > @OUT@"
# FITS 4.0 (4.2.1): the mandatory keywords are fixed format, SIMPLE's T in column 30; a free-format
# card (T in column 11) over binary data is still FITS to astropy and ImageMagick.
synth foreign/fits-free-format-simple gov.nasa.fits-image no 'real ImageMagick FITS (8-bit, 32x32x3 planes) with its SIMPLE card rewritten in free format (T in column 11, not 30); astropy (with a VerifyWarning) and ImageMagick read it' -- bash -c "convert $S/rose.png FITS:$S/rose.fits && python3 synthesize.py fits-free-simple @OUT@ $S/rose.fits"
# EA IFF 85: a FORM's property chunks come in any order before its BODY; no writer here puts one
# before BMHD, so an ANNO chunk is put first in a real ppmtoilbm file (ilbmtoppm reads it).
synth foreign/ilbm-anno-before-bmhd com.ea.iff-ilbm no 'real ppmtoilbm ILBM with an ANNO chunk ("made by hand for ImageSniff") inserted before its BMHD (27 bytes and a pad byte) and the FORM size grown to match; ilbmtoppm reads it' -- bash -c "ppmtoilbm $S/rose.ppm 2>/dev/null > $S/rose.ilbm && python3 synthesize.py iff-anno-first @OUT@ $S/rose.ilbm 'made by hand for ImageSniff'"
# PICT version 1 (Inside Macintosh: Imaging With QuickDraw, A-2): no writer here makes one (ImageMagick,
# GraphicsMagick and ppmtopict write version 2), so it is built from the spec (ImageMagick reads it).
synth foreign/pict-v1-bitsrect      com.apple.pict no 'PICT version 1: 512-byte header, picSize 58, picFrame (0,0,8,8), version opcode 11 01, BitsRect (90) of an 8x8 1-bit checkerboard (rowBytes 2), EndOfPicture FF; identify PICT: reads 8x8' -- "${SY[@]}" pict-v1 @OUT@
# OS/2 Presentation Manager bitmap files: no writer here makes an array, icon or pointer (ppmtobmp
# -os2 writes a plain OS/2 BMP), so the array wraps a real one and the icons are built from the layout.
synth foreign/os2-bitmap-array      com.ibm.os2-bitmap-array no 'OS/2 bitmap array (BA, cbSize 40, offNext 0) around a real ppmtobmp -os2 BMP (1.x header, 32x32, 8 bits), its offBits moved by 14; identify reads it as BMP' -- bash -c "pnmquant 200 $S/rose.ppm 2>/dev/null | ppmtobmp -os2 > $S/rose-os2.bmp && python3 synthesize.py os2-array @OUT@ $S/rose-os2.bmp"
synth foreign/os2-color-icon        com.ibm.os2-icon no 'OS/2 1.x colour icon (CI) 32x32: mask bitmap headers (1 bit, height 64), its 2-entry table, colour bitmap headers (4 bits, 32x32), 16-entry table, then mask and colour rows; hot spot 16,16' -- "${SY[@]}" os2-icon @OUT@ CI 32
synth foreign/os2-pointer           com.ibm.os2-pointer no 'OS/2 1.x monochrome pointer (PT) 32x32: one BITMAPFILEHEADER and 12-byte header for the AND/XOR mask bitmap (1 bit, height 64), 2-entry table, rows; hot spot 16,16' -- "${SY[@]}" os2-icon @OUT@ PT 32
# DNG 1.7 allows BigTIFF: tifffile writes a BigTIFF with the DNGVersion tag (50706), whose IFD0 says DNG.
make foreign/dng-bigtiff-tifffile    com.adobe.raw-image no -- python3 -c "import numpy, tifffile; tifffile.imwrite('@OUT@', (numpy.arange(256, dtype=numpy.uint16).reshape(16, 16) * 16), bigtiff=True, photometric='minisblack', extratags=[(50706, 1, 4, (1, 4, 0, 0), True), (271, 's', 0, 'ImageSniff', True)])"
# PCX: the reserved byte at 64 "should be zero" (ZSoft PCX technical reference); readers ignore it.
synth foreign/pcx-reserved-nonzero com.zsoft.pcx-image no 'real ImageMagick PCX (version 5, 8 bits, 3 planes) with its reserved byte (64) set to 1; ImageMagick and Pillow read it' -- bash -c "convert $S/rose.png PCX:$S/rose.pcx && python3 synthesize.py pcx-reserved @OUT@ $S/rose.pcx 1"
# JPEG: a few stray bytes between two marker segments (Pillow's junk_jpeg_header.jpg,
# truncated_app14.jpg): libjpeg passes over them with a warning and decodes the image.
synth foreign/jpeg-junk-before-marker public.jpeg no 'real ImageMagick JPEG with the 5 bytes "hello" before its first DQT; libjpeg, ImageMagick and Pillow read it' -- "${SY[@]}" jpeg-junk @OUT@ $S/rose.jpg hello
# TGA without a footer, as gdk-pixbuf's reference images have them: a few bytes after the
# pixels, and a run-length packet that runs past the image (readers clip it).
synth foreign/tga-trailing-bytes com.truevision.tga-image no 'real ImageMagick uncompressed TGA (no footer) with 16 zero bytes after its pixels, as gdk-pixbuf'"'"'s gtk-logo-16bpp-*.tga; gdk-pixbuf, ImageMagick and Pillow read it' -- "${SY[@]}" tga-trailer @OUT@ $S/rose.tga 16
synth foreign/tga-rle-run-past-image com.truevision.tga-image no 'TGA type 11 (grey RLE) 2x2 whose first packet runs 8 pixels, then a raw packet of 4, as gdk-pixbuf'"'"'s rle-too-many-pixels.tga (TGA 2.0 run-length packets); ImageMagick reads it' -- "${SY[@]}" tga-rle-overrun @OUT@
# ICO: a directory entry whose height is not the bitmap's (Pillow's hopper_unexpected.ico gives
# the bitmap header's doubled height there); readers decode by the bitmap's own header.
synth foreign/ico-entry-height-doubled com.microsoft.ico no 'real ImageMagick ICO (32x32 and 16x16 bitmaps) with the first entry'"'"'s height byte set to 64; identify reads 32x32' -- "${SY[@]}" ico-entry-height @OUT@ ico/imagemagick 64
synth foreign/msp-bad-checksum com.microsoft.msp no 'real Pillow MSP 1.x with its checksum word zeroed, as Pillow'"'"'s hopper_bad_checksum.msp; file(1) names it' -- "${SY[@]}" patch @OUT@ longtail/msp1-pillow 24 0000
synth foreign/gif-noise-after-screen com.compuserve.gif no 'the signature of a real ImageMagick GIF, a screen descriptor of bytes above 0x20 (no colour table), then noise instead of a block, as gdk-pixbuf'"'"'s fail/invalid.2.gif; file(1) names it' -- "${SY[@]}" splice @OUT@ gif/static 6 eaf5b76a36bc725b 548 7
make foreign/tga-rle-large-no-footer com.truevision.tga-image no -- convert -seed 7 -size 512x360 xc:white +noise Random -type TrueColor -compress RLE TGA:@OUT@
make foreign/tga-1x1-truecolour    com.truevision.tga-image no -- convert -size 1x1 xc:#555555 -type TrueColor TGA:@OUT@
# Formats issue 29 found unnamed. Real writers where there are: OpenImageIO writes RLA, GNU
# plotutils binary CGM (its default CGM encoding), nibabel Analyze 7.5. No writer here makes the
# others (basisu, wuffs' example programs, Impulse's and TVPaint's software are not packaged): they
# are built from their specifications.
make foreign/rla-oiiotool           com.wavefront.rla-image no -- oiiotool $S/rose.png -o @OUT.rla@
make foreign/cgm-plotutils          org.iso.cgm no -- bash -c "printf '0 0\\n1 1\\n2 0\\n' | graph -T cgm > @OUT@"
make foreign/analyze-nibabel        edu.mayo.analyze-header no -- "${PE[@]}" analyze @OUT@
make foreign/analyze-nibabel-be     edu.mayo.analyze-header no -- "${PE[@]}" analyze @OUT@ be
synth foreign/basis-uastc           com.binomial.basis-texture no 'Basis Universal .basis: 77-byte header (sB, version 0x13, header and data CRC-16s), UASTC 4x4, one 8x8 2D image in one slice, its 23-byte slice description, four placeholder 16-byte blocks; no reader here to check the blocks' -- "${SY[@]}" basis @OUT@
synth foreign/nie-bgra              com.google.wuffs.nie no 'wuffs NIE version 1: nïE, FF b n 4 (BGRA, 8 bits), 8x6, BGRA ramp' -- "${SY[@]}" nie @OUT@
synth foreign/nia-two-frames        com.google.wuffs.nia yes 'wuffs NIA version 1: 24-byte header (nïA, FF b n 4, 8x6), two NIE frames each with its cumulative display duration (0.5 s each), footer nïZ loop count 0' -- "${SY[@]}" nia @OUT@ 2
synth foreign/iff-rgb8              com.impulse.iff-rgb8 no 'IFF RGB8 (Impulse): BMHD 16x16 with 25 planes and compression 4, BODY of 4-byte runs (R, G, B, genlock bit and a 7-bit count), one run per row' -- "${SY[@]}" iff-rgb8 @OUT@
synth foreign/iff-deep              com.tvpaint.iff-deep no 'IFF DEEP: DGBL (16x12, no compression), DPEL (R, G, B, A: 8 bits each), DLOC (16x12 at 0,0), DBOD (RGBA pixels)' -- "${SY[@]}" iff-deep @OUT@ DEEP
synth foreign/iff-tvpp              com.tvpaint.iff-tvpp no 'TVPaint IFF TVPP: the chunks of DEEP (DGBL 16x12, DPEL RGBA 8 bits, DLOC, DBOD uncompressed) under the form type TVPP' -- "${SY[@]}" iff-deep @OUT@ TVPP

# ---------------------------------------------------------------- orientation
# avifenc's --irot N: N quarter turns anticlockwise; --imir 0: top and bottom exchanged, 1: left and
# right (libavif's words; ISO/IEC 23008-12:2022 6.5.12). libavif lists irot before imir.
for t in 1 2 3; do
  make orientation/avif-irot$t          public.avif no -- avifenc -s 10 --irot $t $S/rose64x48.png @OUT.avif@
done
for m in 0 1; do
  make orientation/avif-imir$m          public.avif no -- avifenc -s 10 --imir $m $S/rose64x48.png @OUT.avif@
  for t in 1 3; do
    make orientation/avif-irot$t-imir$m public.avif no -- avifenc -s 10 --irot $t --imir $m $S/rose64x48.png @OUT.avif@
  done
done

# ================================================================ done
rm -rf .src
# file(1) report: what libmagic 5.x says about each file (for humans; not used by tests)
# (--only: rows of other families are copied from the previous file-report.tsv)
declare -A OLDREP=()
if ((${#ONLY[@]})) && [[ -s file-report.tsv ]]; then
  while IFS=$'\t' read -r f rest; do OLDREP[$f]=$rest; done < <(tail -n +2 file-report.tsv)
fi
{
  printf 'file\texpected\tfile -b\n'
  tail -n +2 "$MANIFEST" | while IFS=$'\t' read -r f id anim how; do
    if ! selected "$f" && [[ -n ${OLDREP[$f]+x} ]]; then printf '%s\t%s\n' "$f" "${OLDREP[$f]}"; continue; fi
    printf '%s\t%s\t%s\n' "$f" "$id" "$(file -b "$f" | tr '\t' ' ' | cut -c1-160)"
  done
} > file-report.tsv.tmp
mv file-report.tsv.tmp file-report.tsv
n=$(($(wc -l <"$MANIFEST") - 1))
echo "wrote $n files; manifest: $ROOT/$MANIFEST; total $(du -sk --exclude=.make.log . | cut -f1) KiB"
if ((${#FAILED[@]})); then
  echo "FAILED (${#FAILED[@]}): ${FAILED[*]}" >&2
  exit 1
fi
rm -f "$LOG"

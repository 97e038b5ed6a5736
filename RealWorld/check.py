#!/usr/bin/env python3
"""The real-world check: imgsniff over a corpus of files that other software wrote, compared with
libmagic (through `scan --cross-check`) and, when a table of its answers is at hand, ImageMagick's
`identify`. Every disagreement is either explained by a rule in reasons.tsv or listed as
unexplained. Writes REPORT.md (and disagreements.tsv) next to this script.

    RealWorld/check.py CORPUS_DIR [--imgsniff BIN] [--identify identify.tsv]

CORPUS_DIR: a directory tree (fetch.sh makes one from Debian and PyPI packages). identify.tsv:
path (relative to CORPUS_DIR), status (ok/error/...), format, width, height, frames (fetch.sh
writes it when ImageMagick is installed).
"""
import argparse, collections, csv, fnmatch, json, os, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)

# ImageMagick coder names and the identifiers that name the same format (a family node or any
# of its members counts as agreement).
IM_FORMATS = {
    "JPEG": ["public.jpeg", "public.mpo-image", "org.jpeg.jpeg-ls"], "PNG": ["public.png"],
    "GIF": ["com.compuserve.gif"], "GIF87": ["com.compuserve.gif"], "TIFF": ["public.tiff", "com.adobe.raw-image", "public.camera-raw-image"],
    "BMP": ["com.microsoft.bmp"], "BMP2": ["com.microsoft.bmp"], "BMP3": ["com.microsoft.bmp"], "DIB": ["com.microsoft.bmp"],
    "ICO": ["com.microsoft.ico", "com.microsoft.cur"], "CUR": ["com.microsoft.cur", "com.microsoft.ico"],
    "ICON": ["com.microsoft.ico", "com.microsoft.cur"], "WEBP": ["org.webmproject.webp"], "HEIC": ["public.heic", "public.heif", "public.avif"],
    "AVIF": ["public.avif"], "PSD": ["com.adobe.photoshop-image", "com.adobe.photoshop-large-image"], "PSB": ["com.adobe.photoshop-large-image"],
    "TGA": ["com.truevision.tga-image"], "PICT": ["com.apple.pict"], "EXR": ["com.ilm.openexr-image"], "HDR": ["public.radiance"],
    "PBM": ["public.pbm"], "PGM": ["net.sourceforge.netpbm.pgm"], "PPM": ["net.sourceforge.netpbm.ppm"], "PNM": ["public.pbm", "net.sourceforge.netpbm.pgm", "net.sourceforge.netpbm.ppm"],
    "PAM": ["net.sourceforge.netpbm.pam"], "PFM": ["net.sourceforge.netpbm.pfm"], "SGI": ["com.sgi.sgi-image"], "DDS": ["com.microsoft.dds"],
    "XBM": ["public.xbitmap-image"], "XPM": ["org.x.xpixmap-image"], "XWD": ["org.x.xwd-image"], "PCX": ["com.zsoft.pcx-image"], "DCX": ["com.zsoft.dcx-image"],
    "QOI": ["org.qoiformat.qoi-image"], "FITS": ["gov.nasa.fits-image"], "DCM": ["org.nema.dicom"], "SVG": ["public.svg-image"],
    "MSVG": ["public.svg-image"], "WBMP": ["org.openmobilealliance.wbmp-image"], "SUN": ["com.sun.raster-image"], "RAS": ["com.sun.raster-image"],
    "DPX": ["org.smpte.dpx-image"], "CIN": ["com.kodak.cineon-image"], "FLIF": ["info.flif.flif-image"], "FARBFELD": ["org.suckless.farbfeld"],
    "XCF": ["org.gimp.xcf"], "MIFF": ["org.imagemagick.miff"], "MNG": ["org.libpng.mng"], "JNG": ["org.libpng.jng"], "MAC": ["com.apple.macpaint-image"],
    "DJVU": ["org.djvu.djvu"], "JP2": ["public.jpeg-2000"], "J2K": ["public.jpeg-2000"], "JPC": ["public.jpeg-2000"], "JPX": ["public.jpeg-2000"],
    "JPM": ["public.jpeg-2000"], "MJ2": ["org.iso.mj2"], "JXL": ["public.jpeg-xl"], "JXR": ["com.microsoft.jpeg-xr"], "PDF": ["com.adobe.pdf"],
    "PS": ["com.adobe.postscript", "com.adobe.encapsulated-postscript"], "EPS": ["com.adobe.encapsulated-postscript", "com.adobe.postscript"],
    "EPT": ["com.adobe.encapsulated-postscript"], "WMF": ["com.microsoft.wmf"], "EMF": ["com.microsoft.emf"], "FPX": ["com.kodak.flashpix-image"],
    "PCD": ["com.kodak.photocd"], "PIX": ["com.alias.pix-image"], "VIFF": ["com.khoral.viff"], "VIPS": ["org.libvips.vips"], "RLE": ["edu.utah.rle"],
    "MTV": ["org.brainwagon.mtv"], "OTB": ["com.nokia.otb"], "PALM": ["com.palm.bitmap"], "PDB": ["com.palm.imageviewer-pdb"], "PGX": ["org.jpeg.pgx"],
    "JBIG": ["org.jpeg.jbig"], "JBG": ["org.jpeg.jbig"], "CALS": ["mil.cals.raster"], "VICAR": ["gov.nasa.jpl.vicar"], "SIXEL": ["com.dec.sixel"],
    "TIM": ["com.sony.psx-tim"], "WPG": ["com.corel.wordperfect-graphics"], "PGF": ["org.libpgf.pgf"], "P7": ["com.trilon.xv-thumbnail"],
    "XV": ["com.trilon.xv-thumbnail"], "XCURSOR": ["org.x.xcursor"], "ART": [], "ICNS": ["com.apple.icns"], "KTX": ["org.khronos.ktx"],
    "ORA": ["org.openraster.ora"], "FLI": ["com.autodesk.flic"], "FLC": ["com.autodesk.flic"], "MPO": ["public.mpo-image"],
    "DNG": ["com.adobe.raw-image"], "IPTC": [], "PES": [], "TXT": ["public.plain-text"], "TEXT": ["public.plain-text"],
}

def load_tsv(path):
    with open(path, newline="", encoding="utf-8", errors="replace") as f:
        rows = list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    return rows[0], rows[1:]

def load_reasons():
    reasons = []
    for row in load_tsv(os.path.join(here, "reasons.tsv"))[1]:
        if len(row) >= 5 and not row[0].startswith("#"):
            reasons.append(row[:5])
    return reasons

def explain(reasons, kind, uti, other, path):
    for rk, ru, ro, rp, text in reasons:
        if fnmatch.fnmatchcase(kind, rk) and fnmatch.fnmatchcase(uti, ru) and fnmatch.fnmatchcase(other, ro) and fnmatch.fnmatchcase(path, rp):
            return text
    return None

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("--imgsniff", default=os.path.join(root, ".build/release/imgsniff"))
    ap.add_argument("--identify", help="identify.tsv (default: CORPUS/../identify.tsv when present)")
    ap.add_argument("--out", default=here, help="where REPORT.md and disagreements.tsv go (default: RealWorld/)")
    a = ap.parse_args()
    corpus = os.path.abspath(a.corpus)
    identify_path = a.identify or os.path.join(os.path.dirname(corpus), "identify.tsv")

    t0 = time.time()
    out = subprocess.run([a.imgsniff, "scan", "--hidden", "--cross-check", "--format", "ndjson", corpus],
                         capture_output=True, check=False)
    elapsed = time.time() - t0
    if out.returncode not in (0, 1):
        sys.exit(f"imgsniff failed ({out.returncode}): {out.stderr.decode(errors='replace')[:500]}")
    records = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    prefix = corpus + "/"
    for r in records:
        r["rel"] = r["path"][len(prefix):] if r["path"].startswith(prefix) else r["path"]
    errors = [r for r in records if r.get("error")]

    identify = {}
    if os.path.exists(identify_path):
        for row in load_tsv(identify_path)[1]:
            if len(row) >= 3:
                identify[row[0]] = (row[1], row[2])
    reasons = load_reasons()
    # Conformance from the catalog: a family node or an ancestor of the format identify names
    # (or a member of the family it names) is agreement.
    types = json.loads(subprocess.run([a.imgsniff, "types", "--format", "json"], capture_output=True, check=True).stdout)
    supertypes = {t["identifier"]: set(t["supertypes"]) | {t["identifier"]} for t in types}
    family = {t["identifier"]: t["detectionFamily"] for t in types}
    def same_format(ours, theirs):
        for want in theirs:
            if want == ours or ours in supertypes.get(want, ()) or want in supertypes.get(ours, ()):
                return True
            if family.get(want) == ours or family.get(ours) == want:
                return True
        return False

    verdicts = collections.Counter(r["libmagic"]["verdict"] for r in records if r.get("libmagic"))
    # Disagreements with libmagic: grouped by (verdict, our identifier, libmagic's MIME type).
    groups = collections.defaultdict(list)
    for r in records:
        m = r.get("libmagic")
        if not m or m["verdict"] in ("agree", "oursMoreSpecific"):
            continue
        groups[(m["verdict"], r["uti"], m["mime"])].append(r)
    # Disagreements with ImageMagick: files identify reads whose format we name otherwise.
    im_pairs = collections.defaultdict(list)
    im_checked = im_agree = 0
    for r in records:
        got = identify.get(r["rel"])
        if not got or got[0] != "ok" or got[1] not in IM_FORMATS:
            continue
        im_checked += 1
        if same_format(r["uti"], IM_FORMATS[got[1]]):
            im_agree += 1
            continue
        im_pairs[(r["uti"], got[1])].append(r)

    unexplained = []
    lines = []
    def say(s=""):
        lines.append(s)
    say("# Real-world check")
    say()
    say("Generated by `RealWorld/check.py` (do not edit). The corpus: files from Debian and PyPI packages that other")
    say("software wrote (`RealWorld/SOURCES.md`, `RealWorld/fetch.sh`). What it found was fixed in general terms (a rule")
    say("from the format's specification, with test images of its own in `TestImages/realworld/`), never file by file.")
    say()
    say(f"- files scanned: **{len(records)}** in {elapsed:.1f} s (`imgsniff scan --hidden --cross-check`), read errors: {len(errors)}")
    say(f"- called an image: {sum(1 for r in records if r['isImage'])}; unknown (`public.data`): {sum(1 for r in records if r['uti'] == 'public.data')}")
    say(f"- against libmagic 5.44: " + ", ".join(f"{k} {v}" for k, v in verdicts.most_common()))
    if identify:
        say(f"- against ImageMagick `identify` (files it reads, in a format both know): {im_checked} checked, {im_agree} agree, "
            f"{im_checked - im_agree} differ (all listed below)")
    say()
    say("## Where we and libmagic differ")
    say()
    say("Verdicts other than `agree` and `oursMoreSpecific`, by our answer and libmagic's MIME type, with the reason")
    say("(`RealWorld/reasons.tsv`).")
    say()
    say("| verdict | ours | libmagic | files | example | reason |")
    say("|---|---|---|---:|---|---|")
    for (verdict, uti, mime), rs in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        reason = explain(reasons, verdict, uti, mime, rs[0]["rel"])
        if reason is None:
            unexplained += rs
            reason = "**unexplained**"
        say(f"| {verdict} | `{uti}` | `{mime}` | {len(rs)} | `{rs[0]['rel'][-70:]}` | {reason} |")
    if identify:
        say()
        say("## Where we and ImageMagick differ")
        say()
        say("| ours | identify | files | example | reason |")
        say("|---|---|---:|---|---|")
        for (uti, fmt), rs in sorted(im_pairs.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            reason = explain(reasons, "identify", uti, fmt, rs[0]["rel"])
            if reason is None:
                unexplained += rs
                reason = "**unexplained**"
            say(f"| `{uti}` | {fmt} | {len(rs)} | `{rs[0]['rel'][-70:]}` | {reason} |")
    say()
    say(f"## Unexplained: {len(unexplained)}")
    say()
    for r in unexplained[:200]:
        say(f"- `{r['rel']}`: ours `{r['uti']}` ({r['confidence']}), libmagic `{(r.get('libmagic') or {}).get('mime')}`, "
            f"identify {identify.get(r['rel'], ('-', '-'))[1]}")
    with open(os.path.join(a.out, "REPORT.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(a.out, "disagreements.tsv"), "w") as f:
        f.write("path\tours\tconfidence\tlibmagic\tverdict\tidentify\n")
        for rs in list(groups.values()) + list(im_pairs.values()):
            for r in rs:
                m = r.get("libmagic") or {}
                f.write(f"{r['rel']}\t{r['uti']}\t{r['confidence']}\t{m.get('mime', '')}\t{m.get('verdict', '')}\t{identify.get(r['rel'], ('', ''))[1]}\n")
    print(f"{len(records)} files; {len(unexplained)} unexplained disagreements; report: {os.path.join(a.out, 'REPORT.md')}")
    return 1 if unexplained else 0

if __name__ == "__main__":
    sys.exit(main())

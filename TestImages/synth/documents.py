"""Recipes for the Documents family (Sources/ImageSniff/Families/Documents.swift): the DOS binary EPS
header in front of a real EPS and a real TIFF preview.
"""
import struct

from .common import read, write


def eps_dos(out, eps, tiff):
    """DOS binary EPS (Adobe TN 5002 section "Windows Metafile or TIFF"): 30-byte
    header C5 D0 D3 C6, LE u32 PostScript offset/length, WMF offset/length
    (0), TIFF offset/length, u16 checksum FFFF; then the PostScript section (a
    real EPS from ghostscript eps2write) and the TIFF preview (real TIFF from
    ImageMagick)."""
    ps = read(eps)
    tf = read(tiff)
    hdr = struct.pack('<IIIIIIIH', 0xC6D3D0C5, 30, len(ps), 0, 0, 30 + len(ps), len(tf), 0xFFFF)
    write(out, hdr + ps + tf)


RECIPES = {
    'eps-dos': eps_dos,
}

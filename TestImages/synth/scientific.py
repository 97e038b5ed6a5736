"""Recipes for the Scientific family (Sources/ImageSniff/Families/Scientific.swift): a McIDAS AREA
file, and a real FITS file whose SIMPLE card is rewritten in free format.
"""
import struct

from .common import read, write


def mcidas(out):
    """McIDAS AREA file: 64-word big-endian area directory (word 1 = 0, word 2 = 4 type,
    word 3 = sensor source, 4/5 date/time, 6/7 upper-left line/element, 9 lines, 10
    elements, 11 bytes per element, 12/13 resolution, 14 bands, 15 line prefix bytes,
    34 data offset, 35 nav offset), then 8-bit data."""
    w = h = 16
    d = [0] * 64
    d[0], d[1], d[2] = 0, 4, 70           # words 1-3 (0-based here)
    d[3], d[4] = 124001, 120000            # YYDDD, HHMMSS
    d[5], d[6] = 1, 1
    d[8], d[9], d[10] = h, w, 1
    d[11], d[12], d[13], d[14] = 1, 1, 1, 0
    d[33], d[34] = 256, 0
    data = bytes(((x * 16 + y * 4) & 255) for y in range(h) for x in range(w))
    write(out, struct.pack('>64i', *d) + data)


def fits_free_simple(out, src):
    """Copy a real FITS file with its first card rewritten in free format: `SIMPLE  = T`, the
    value in column 11 instead of the fixed-format column 30 that FITS 4.0 (4.2.1, 4.4.1.1)
    requires of the mandatory keywords. astropy reads it (with a VerifyWarning), ImageMagick
    too."""
    d = bytearray(read(src))
    assert d[:9] == b'SIMPLE  =' and d[29:30] == b'T'
    d[0:80] = b'SIMPLE  = T'.ljust(80)
    write(out, bytes(d))


RECIPES = {
    'mcidas': mcidas, 'fits-free-simple': fits_free_simple,
}

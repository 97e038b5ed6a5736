"""Recipes for the Metafiles family (Sources/ImageSniff/Families/Metafiles.swift): WordPerfect
Graphics, WPG 1.0 (RLE bitmap, vector only) and WPG 2.0 (bitmap).
"""
import struct

from .common import EGA16, write


def _wp_len(n):
    """WordPerfect variable-length integer (WPG 1 record length, WPG 2 extension and
    length): one byte if < 0xFF, else FF + LE u16 if < 0x8000, else FF + LE u16
    (0x8000 | high 15 bits) + LE u16 (low 16 bits)."""
    if n < 0xFF:
        return bytes((n,))
    if n < 0x8000:
        return b'\xff' + struct.pack('<H', n)
    return b'\xff' + struct.pack('<HH', 0x8000 | (n >> 16), n & 0xFFFF)


def _wpg1_rle(row):
    """WPG 1 bitmap RLE: 0x80|n followed by one byte = that byte n times (n 1..127);
    n (1..127) followed by n bytes = literal bytes."""
    out = bytearray()
    i = 0
    while i < len(row):
        j = i
        while j < len(row) and j - i < 127 and row[j] == row[i]:
            j += 1
        if j - i >= 3:
            out += bytes((0x80 | (j - i), row[i]))
            i = j
            continue
        j = i
        while j < len(row) and j - i < 127 and not (j + 2 < len(row) and row[j] == row[j + 1] == row[j + 2]):
            j += 1
        out += bytes((j - i,)) + row[i:j]
        i = j
    return bytes(out)


def wpg(out, variant):
    """WordPerfect Graphics (WPG), no encoder here (ImageMagick and GraphicsMagick only read
    it, libwpg only converts from it).  16-byte header: FF 'WPC', LE u32 offset of the first
    record, product type 1 (WordPerfect), file type 0x16 (graphics), major version, minor
    version 0, encryption key 0, reserved 0.
    v1-bitmap / v1-vector (WPG 1.0, records start at 16): records are type byte +
      variable-length size (see _wp_len) + data.  Start WPG (0x0F: version 1, flags 0,
      width and height in 1/1200 inch), then either a colour map (0x0E: first index 0,
      16 entries, RGB) and a bitmap type 1 (0x0B: 16x16, 4 bpp, 75 dpi, rows in WPG RLE),
      or fill attributes (0x01), line attributes (0x02), a rectangle (0x07) and a line
      (0x05); then End WPG (0x10, size 0).
    v2-bitmap (WPG 2.0, records start at 0x1A): bytes 16-25 as in the WPG 2 files of
      GraphicsMagick's test suite (03 00 00 00, LE u32 file size, 00 00).  Records are
      class byte + type byte + variable-length extension + variable-length size + data:
      Start WPG (type 0x01: units 1200/1200, 16-bit precision, viewport and bounding box
      0,0,16,16), bitmap object (0x1B: characterization flags 0x20 = has object id, id
      0x21, then x1 y1 x2 y2, 75 dpi), colour palette (0x0C: 16 RGBA entries), bitmap data
      (0x0E: 16x16, colour format 4 = 8 bpp, compression 0, raw rows), End WPG (0x02).
      (8 bpp because libwpg wants (width/2 + 1) * height bytes for a raw 4-bpp raster and
      skips a smaller one.)  Checked with libwpg's wpg2raw and ImageMagick."""
    w = h = 16
    pix = [((x // 4) + (y // 4) * 4 + (1 if (x + y) % 8 == 0 else 0)) & 15 for y in range(h) for x in range(w)]
    rows = [bytes((pix[y * w + x] << 4) | pix[y * w + x + 1] for x in range(0, w, 2)) for y in range(h)]
    if variant.startswith('v1'):
        def rec(t, data):
            return bytes((t,)) + _wp_len(len(data)) + data
        body = rec(0x0F, struct.pack('<BBHH', 1, 0, 256, 256))
        if variant == 'v1-bitmap':
            body += rec(0x0E, struct.pack('<HH', 0, 16) + b''.join(bytes(c) for c in EGA16))
            body += rec(0x0B, struct.pack('<HHHHH', w, h, 4, 75, 75) + b''.join(_wpg1_rle(r) for r in rows))
        elif variant == 'v1-vector':
            body += rec(0x01, struct.pack('<BB', 1, 12))            # fill: solid, colour 12
            body += rec(0x02, struct.pack('<BBH', 1, 1, 12))        # line: solid, colour 1, width 12
            body += rec(0x07, struct.pack('<hhhh', 24, 24, 160, 96))
            body += rec(0x05, struct.pack('<hhhh', 24, 232, 232, 140))
        else:
            raise SystemExit('unknown WPG variant ' + variant)
        body += rec(0x10, b'')
        write(out, b'\xffWPC' + struct.pack('<IBBBBHH', 16, 1, 0x16, 1, 0, 0, 0) + body)
        return
    assert variant == 'v2-bitmap', variant

    def rec2(cls, t, data, ext=0):
        return bytes((cls, t)) + _wp_len(ext) + _wp_len(len(data)) + data
    body = rec2(4, 0x01, struct.pack('<HHB4h4hH', 1200, 1200, 0, 0, 0, w, h, 0, 0, w, h, 0), ext=4)
    body += rec2(4, 0x1B, struct.pack('<HH4hHH', 0x20, 0x21, 0, 0, w, h, 75, 75), ext=2)
    body += rec2(4, 0x0C, struct.pack('<HH', 0, 16) + b''.join(bytes(c) + b'\0' for c in EGA16))
    body += rec2(4, 0x0E, struct.pack('<HHBB', w, h, 4, 0) + bytes(pix))
    body += rec2(4, 0x02, b'')
    size = 26 + len(body)
    hdr = b'\xffWPC' + struct.pack('<IBBBBHH', 0x1A, 1, 0x16, 2, 0, 0, 0) + struct.pack('<IIH', 3, size, 0)
    write(out, hdr + body)


RECIPES = {
    'wpg': wpg,
}

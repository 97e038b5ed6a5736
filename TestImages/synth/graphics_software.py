"""Recipes for the GraphicsSoftware family (Sources/ImageSniff/Families/GraphicsSoftware.swift):
Alias/Wavefront PIX, Pixar PIC, libgd's GD (palette and truecolour) and GD2 (zlib palette and raw
truecolour).
"""
import struct
import zlib

from .common import _ramp_rgb, write


def alias_pix(out):
    """Alias/Wavefront PIX: 10-byte big-endian header (width, height, x offset, y offset,
    bits per pixel = 24) then per scanline run-length packets of 4 bytes:
    count (1-255), blue, green, red.  No magic number."""
    w = h = 16
    px = _ramp_rgb(w, h)
    buf = bytearray(struct.pack('>HHHHH', w, h, 0, 0, 24))
    for y in range(h):
        row = [px[(y * w + x) * 3:(y * w + x) * 3 + 3] for x in range(w)]
        x = 0
        while x < w:
            run = 1
            while x + run < w and run < 255 and row[x + run] == row[x]:
                run += 1
            r, g, b = row[x]
            buf += bytes((run, b, g, r))
            x += run
    write(out, bytes(buf))


def pixar(out):
    """Pixar image computer PIC/PXR: magic 80 E8 00 00, 512-byte little-endian header
    (height at 416, width at 418, channel/depth code 14,2 = 8-bit RGB at 424/426), pixel
    data (RGB, row major) from offset 1024."""
    w = h = 16
    hdr = bytearray(1024)
    hdr[0:4] = b'\x80\xe8\x00\x00'
    struct.pack_into('<HH', hdr, 416, h, w)
    struct.pack_into('<HH', hdr, 424, 14, 2)
    write(out, bytes(hdr) + _ramp_rgb(w, h))


def gd(out, kind):
    """libgd GD 2.x (.gd): big-endian signature u16 0xFFFE truecolour / 0xFFFF palette,
    width, height, truecolour flag byte, then (palette) colour count u16, transparent
    index u32, 256 x RGBA palette, one byte per pixel; (truecolour) transparent u32,
    then one ARGB u32 per pixel (alpha 0 opaque .. 127 transparent)."""
    w = h = 16
    if kind == 'truecolor':
        hdr = struct.pack('>HHHBI', 0xFFFE, w, h, 1, 0xFFFFFFFF)
        px = b''.join(struct.pack('>BBBB', 0, x * 16, y * 16, 128) for y in range(h) for x in range(w))
    else:
        hdr = struct.pack('>HHHBHI', 0xFFFF, w, h, 0, 16, 0xFFFFFFFF)
        hdr += b''.join(bytes((i * 16, 255 - i * 16, 128, 0)) for i in range(16)) + b'\0' * (240 * 4)
        px = bytes(((x // 4 + y // 4 * 4) & 15) for y in range(h) for x in range(w))
    write(out, hdr + px)


def gd2(out, kind):
    """libgd GD2: magic 'gd2\\0', version u16 2, width, height, chunk size, format
    (1 raw palette, 2 zlib palette, 3 raw truecolour, 4 zlib truecolour), chunks x/y;
    compressed formats then have a chunk index (offset u32, size u32 per chunk); then the
    same colour header as GD (truecolour flag, ...), then pixel data per chunk."""
    w = h = 16
    cs = 16
    if kind == 'palette-zlib':
        hdr = b'gd2\0' + struct.pack('>HHHHHHH', 2, w, h, cs, 2, 1, 1)
        colour = struct.pack('>BHI', 0, 16, 0xFFFFFFFF) + b''.join(bytes((i * 16, 255 - i * 16, 128, 0)) for i in range(16)) + b'\0' * 960
        raw = bytes(((x // 4 + y // 4 * 4) & 15) for y in range(h) for x in range(w))
        comp = zlib.compress(raw, 9)
        index_at = len(hdr) + 8 + len(colour)
        index = struct.pack('>II', index_at, len(comp))
        write(out, hdr + index + colour + comp)
    else:   # raw truecolour
        hdr = b'gd2\0' + struct.pack('>HHHHHHH', 2, w, h, cs, 3, 1, 1)
        colour = struct.pack('>BI', 1, 0xFFFFFFFF)
        px = b''.join(struct.pack('>BBBB', 0, x * 16, y * 16, 128) for y in range(h) for x in range(w))
        write(out, hdr + colour + px)


RECIPES = {
    'alias-pix': alias_pix, 'pixar': pixar, 'gd': gd, 'gd2': gd2,
}

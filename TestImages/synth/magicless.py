"""Recipes for the Magicless family (Sources/ImageSniff/Families/Magicless.swift): a real
ImageMagick true-colour TGA rewritten with a legal but unused colour map, or with a colour-map
entry size but no colour map; a PICT version 1 built from Inside Macintosh.
"""
import struct

from .common import read, write


def tga_cmap(out, src):
    """Rewrite a real ImageMagick true-colour TGA (type 2, no colour map) into a TGA with a
    legal but unused colour map: colour-map type 1, first entry 0, length 2, 24-bit
    entries, 6 bytes of map inserted after the header (image type stays 2)."""
    t = bytearray(read(src))
    assert t[1] == 0 and t[2] in (2, 10)
    idlen = t[0]
    hdr = t[:18]
    hdr[1] = 1
    struct.pack_into('<HHB', hdr, 3, 0, 2, 24)
    write(out, bytes(hdr) + bytes(t[18:18 + idlen]) + b'\x00\x00\xff\xff\xff\xff' + bytes(t[18 + idlen:]))


def tga_entry_size(out, src, size):
    """Copy a real true-colour TGA (colour-map type 0, so the colour map specification, bytes
    3-7, is zero) with its colour-map entry size (byte 7) set to SIZE anyway: the spec says the
    field "should be set to zero" when there is no map, and readers skip it."""
    t = bytearray(read(src))
    assert t[1] == 0 and t[2] in (2, 3, 10, 11) and t[3:8] == b'\0' * 5
    t[7] = int(size)
    write(out, bytes(t))


def pict_v1(out):
    """A QuickDraw PICT version 1 (Inside Macintosh: Imaging With QuickDraw, appendix A) of an
    8 x 8 1-bit checkerboard: the 512-byte file header (zeros), picSize (the picture's bytes,
    from picSize on), picFrame (0, 0, 8, 8), the version opcode 11 01, a BitsRect opcode (90:
    rowBytes 2, bounds, source and destination rectangles, transfer mode srcCopy, 8 rows of 2
    bytes), and EndOfPicture (FF). Version 1 opcodes are one byte, unaligned."""
    rect = struct.pack('>4h', 0, 0, 8, 8)
    rows = b''.join(bytes((0xAA if y % 2 else 0x55, 0)) for y in range(8))
    ops = b'\x11\x01' + b'\x90' + struct.pack('>H', 2) + rect + rect + rect + struct.pack('>H', 0) + rows + b'\xff'
    picture = rect + ops
    write(out, bytes(512) + struct.pack('>H', 2 + len(picture)) + picture)


def tga_trailer(out, src, n):
    """Copy a real uncompressed TGA without a TGA 2.0 footer and add N zero bytes after its
    pixels, as gdk-pixbuf's gtk-logo-16bpp reference images carry 16: readers stop at the last
    pixel and ignore the rest."""
    t = read(src)
    assert t[2] in (1, 2, 3) and not t.endswith(b'TRUEVISION-XFILE.\0')
    write(out, t + bytes(int(n)))


def tga_rle_overrun(out):
    """A grey run-length encoded TGA (type 11, 8 bits) of 2 x 2 pixels whose first packet is a
    run of 8 (0x87, 0xFF), twice the image, followed by a raw packet of 4: the shape of
    gdk-pixbuf's rle-too-many-pixels.tga. Readers (gdk-pixbuf, ImageMagick) clip the run."""
    header = struct.pack('<BBBHHBHHHHBB', 0, 0, 11, 0, 0, 0, 0, 0, 2, 2, 8, 0)
    write(out, header + b'\x87\xff' + b'\x03\x00\xff\x00\xff')


RECIPES = {
    'tga-cmap': tga_cmap, 'tga-entry-size': tga_entry_size, 'pict-v1': pict_v1,
    'tga-trailer': tga_trailer, 'tga-rle-overrun': tga_rle_overrun,
}

"""Recipes for the Bitmaps family (Sources/ImageSniff/Families/Bitmaps.swift): BMP with a
BITMAPV4HEADER, OS/2 2.x BMP, a real BMP with its planes field set to 0, CUR made from real ICOs,
and a trap for the ICO rule: a glTF buffer whose first six bytes read as an icon directory.
"""
import struct

from .common import read, write


def bmp_v4(out):
    """BMP with a BITMAPV4HEADER (108 bytes): 8x8, 32 bpp BI_BITFIELDS with
    R/G/B/A masks, LCS_sRGB colour space ('sRGB'), bottom-up BGRA pixels."""
    w = h = 8
    px = b''.join(bytes([96, (y * 255) // 7, (x * 255) // 7, 255]) for y in range(h) for x in range(w))
    dib = struct.pack('<IiiHHIIiiII', 108, w, h, 1, 32, 3, len(px), 2835, 2835, 0, 0)
    dib += struct.pack('<IIII', 0x00FF0000, 0x0000FF00, 0x000000FF, 0xFF000000)
    dib += b'BGRs' + b'\0' * 36 + struct.pack('<III', 0, 0, 0)
    assert len(dib) == 108
    off = 14 + len(dib)
    write(out, b'BM' + struct.pack('<IHHI', off + len(px), 0, 0, off) + dib + px)


def bmp_v2_os2(out):
    """OS/2 2.x BMP (BITMAPINFOHEADER2, 64 bytes): 8x8, 24 bpp, bottom-up BGR."""
    w = h = 8
    px = b''
    for y in range(h):
        px += b''.join(bytes([64, y * 32, x * 32]) for x in range(w))
    dib = struct.pack('<IiiHHIIiiII', 64, w, h, 1, 24, 0, len(px), 2835, 2835, 0, 0) + b'\0' * 24
    assert len(dib) == 64
    off = 14 + len(dib)
    write(out, b'BM' + struct.pack('<IHHI', off + len(px), 0, 0, off) + dib + px)


def cur_from_ico(out, ico):
    """CUR: an ICO written by a real encoder with the ICONDIR type changed from
    1 (icon) to 2 (cursor) and each directory entry's planes/bit-count fields
    replaced by the hotspot (x, y) = (0, 0), as the CUR layout defines."""
    d = bytearray(read(ico))
    reserved, typ, count = struct.unpack_from('<HHH', d, 0)
    assert reserved == 0 and typ == 1
    struct.pack_into('<H', d, 2, 2)
    for i in range(count):
        struct.pack_into('<HH', d, 6 + 16 * i + 4, 0, 0)
    write(out, bytes(d))


def gltf_indices(out):
    """A glTF 2.0 binary buffer as 3D tools write them (assimp's test models): a cube's
    triangle indices as little-endian uint16 (0, 1, 2, 3, 2, 1, ...), then its vertex
    positions as float32. Its first six bytes read as an icon directory (reserved 0, type 1,
    two entries); nothing after them does."""
    indices = []
    for face in range(6):
        b = face * 4
        indices += [b, b + 1, b + 2, b + 3, b + 2, b + 1]
    corners = [(x, y, z) for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)]
    positions = [corners[i % 8] for i in range(24)]
    write(out, struct.pack('<%dH' % len(indices), *indices) +
          b''.join(struct.pack('<3f', *p) for p in positions))


def bmp_planes_zero(out, src):
    """Copy a real encoder's BMP with its planes field (bytes 26-27) set to 0, as some test
    generators write it (Wine's Media Foundation tests); readers ignore the field."""
    d = bytearray(read(src))
    d[26:28] = b'\0\0'
    write(out, bytes(d))


def pcx_reserved(out, src, value):
    """Copy a real encoder's PCX with its reserved byte (offset 64, between the 16-colour
    palette and the plane count) set to VALUE: ZSoft's reference says it "should be zero";
    readers do not look at it."""
    d = bytearray(read(src))
    assert d[0] == 0x0A and d[64] == 0
    d[64] = int(value)
    write(out, bytes(d))


RECIPES = {
    'bmp-v4': bmp_v4, 'bmp-os2v2': bmp_v2_os2, 'cur-from-ico': cur_from_ico, 'gltf-indices': gltf_indices,
    'bmp-planes-zero': bmp_planes_zero, 'pcx-reserved': pcx_reserved,
}

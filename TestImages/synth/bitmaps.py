"""Recipes for the Bitmaps family (Sources/ImageSniff/Families/Bitmaps.swift): BMP with a
BITMAPV4HEADER, OS/2 2.x BMP, a real BMP with its planes field set to 0, CUR made from real ICOs,
and a trap for the ICO rule: a glTF buffer whose first six bytes read as an icon directory.
"""
import struct

from .common import EGA16, read, write


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


def ico_entry_height(out, src, height):
    """Copy a real ICO whose first image is a bitmap and set its directory entry's height byte
    to HEIGHT (as Pillow's hopper_unexpected.ico has twice the image's height there): readers
    decode the bitmap by its own header."""
    d = bytearray(read(src))
    assert d[2:4] == b'\x01\x00'
    offset = int.from_bytes(d[18:22], 'little')
    assert d[offset:offset + 4] == b'\x28\x00\x00\x00'
    d[7] = int(height)
    write(out, bytes(d))


def os2_array(out, src):
    """Wrap a real OS/2 1.x BMP (ppmtobmp -os2: BITMAPFILEHEADER, 12-byte BITMAPCOREHEADER) in
    an OS/2 bitmap array of one element: BITMAPARRAYFILEHEADER "BA", cbSize 14 + 14 + 12 = 40,
    offNext 0 (the last element), display 0 x 0; the element's offBits grows by the 14 bytes
    put before it (offsets count from the start of the file)."""
    d = bytearray(read(src))
    assert d[:2] == b'BM' and struct.unpack_from('<I', d, 14)[0] == 12
    struct.pack_into('<I', d, 10, struct.unpack_from('<I', d, 10)[0] + 14)
    write(out, b'BA' + struct.pack('<IIHH', 40, 0, 0, 0) + bytes(d))


def _os2_header(kind, size, hot, off_bits, w, h, bits):
    return kind + struct.pack('<IHHI', size, hot[0], hot[1], off_bits) + struct.pack('<IHHHH', 12, w, h, 1, bits)


def os2_icon(out, kind, w):
    """An OS/2 1.x icon or pointer of W x W pixels (OS/2 Presentation Manager bitmap file
    formats). IC or PT: one BITMAPFILEHEADER + 12-byte BITMAPCOREHEADER for the mask bitmap
    (1 bit, height 2W: the AND mask above the XOR mask), a 2-entry RGB colour table, then the
    rows (each padded to 4 bytes). CI or CP: that mask bitmap's headers and table, then a second
    BITMAPFILEHEADER + header for the colour bitmap (4 bits, W x W, 16-entry table), then the
    mask rows and the colour rows. Hot spot at the centre; offBits count from the file's start."""
    w = int(w)
    kind = kind.encode('ascii')
    mono_row = ((w + 31) // 32) * 4
    mask = b''.join(bytes([0x00] * mono_row) for _ in range(w))  # AND: opaque
    xor = b''.join(bytes([(0xF0 if (y // 4) % 2 else 0x0F)] * (w // 8) + [0] * (mono_row - w // 8)) for y in range(w))
    hot = (w // 2, w // 2)
    if kind in (b'IC', b'PT'):
        head = 14 + 12 + 6
        write(out, _os2_header(kind, 26, hot, head, w, 2 * w, 1) + bytes((0, 0, 0, 255, 255, 255)) + mask + xor)
        return
    colour_row = ((w * 4 + 31) // 32) * 4
    table16 = b''.join(bytes(c) for c in EGA16)
    head = (14 + 12 + 6) + (14 + 12 + 48)
    mono_data = head
    colour_data = head + len(mask) + len(xor)
    colour = b''.join(bytes(((x + y) % 16) << 4 | ((x + 1 + y) % 16) for x in range(0, w, 2)) + bytes(colour_row - w // 2) for y in range(w))
    first = _os2_header(kind, 26, hot, mono_data, w, 2 * w, 1) + bytes((0, 0, 0, 255, 255, 255))
    second = _os2_header(kind, 26, hot, colour_data, w, w, 4) + table16
    write(out, first + second + mask + xor + colour)


RECIPES = {
    'bmp-v4': bmp_v4, 'bmp-os2v2': bmp_v2_os2, 'cur-from-ico': cur_from_ico, 'gltf-indices': gltf_indices,
    'bmp-planes-zero': bmp_planes_zero, 'pcx-reserved': pcx_reserved, 'ico-entry-height': ico_entry_height,
    'os2-array': os2_array, 'os2-icon': os2_icon,
}

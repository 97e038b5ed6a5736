"""Recipes for the Editors family (Sources/ImageSniff/Families/Editors.swift): GIMP XCF (version 0
and v011), GIMP brushes (version 1, version 2 grey and RGBA), a GIMP pattern and an image hose,
and a real ImageMagick PSD raised to 57 channels.
"""
import struct

from .common import _ramp_rgb, read, write


def xcf(out, version):
    """XCF: "gimp xcf " + ("file" | "v0NN") + NUL, u32 width, height, base
    type 0 (RGB); version >= 4 adds u32 precision; image property list ending
    with PROP_END (0,0) after PROP_COMPRESSION; zero-terminated (empty) layer
    and channel pointer lists (64-bit pointers for version >= 11)."""
    if version == 0:
        magic = b'gimp xcf file\0'
    else:
        magic = b'gimp xcf v%03d\0' % version
    h = magic + struct.pack('>III', 16, 16, 0)
    if version >= 4:
        h += struct.pack('>I', 150)  # 8-bit gamma integer
    h += struct.pack('>IIB', 17, 1, 1)  # PROP_COMPRESSION, len 1, RLE
    h += struct.pack('>II', 0, 0)  # PROP_END
    ptr = '>Q' if version >= 11 else '>I'
    h += struct.pack(ptr, 0) + struct.pack(ptr, 0)
    write(out, h)


def gimp_gbr(out, version='2', depth='1'):
    """GIMP brush: big-endian header (header size, version, width, height, bytes per
    pixel 1 or 4; version 2 adds magic 'GIMP' at 20 and spacing), NUL-terminated UTF-8
    name, then width*height*bytes pixels."""
    version, depth = int(version), int(depth)
    w = h = 16
    name = b'ImageSniff brush\0'
    if version == 1:
        hdr = struct.pack('>IIIII', 20 + len(name), 1, w, h, depth)
    else:
        hdr = struct.pack('>IIIII', 28 + len(name), 2, w, h, depth) + b'GIMP' + struct.pack('>I', 25)
    if depth == 1:
        px = bytes(max(0, 255 - 32 * int(((x - 7.5) ** 2 + (y - 7.5) ** 2) ** 0.5)) for y in range(h) for x in range(w))
    else:
        px = bytes(v for y in range(h) for x in range(w) for v in (x * 16, y * 16, 128, 255))
    write(out, hdr + name + px)


def gimp_pat(out):
    """GIMP pattern: big-endian header (header size, version 1, width, height, bytes per
    pixel 1-4), magic 'GPAT' at 20, NUL-terminated name, then pixels."""
    w = h = 16
    name = b'ImageSniff pattern\0'
    hdr = struct.pack('>IIIII', 24 + len(name), 1, w, h, 3) + b'GPAT'
    write(out, hdr + name + _ramp_rgb(w, h))


def gimp_gih(out, gbr1, gbr2):
    """GIMP image hose (animated brush): text line with the name, text line with the
    brush count and parameters, then the GBR brushes concatenated."""
    a, b = read(gbr1), read(gbr2)
    hdr = b'ImageSniff hose\n2 ncells:2 cellwidth:16 cellheight:16 step:20 dimension:1 cols:2 rows:1 placement:constant rank0:2 sel0:incremental\n'
    write(out, hdr + a + b)


def psd_channels(out, src, n):
    """Raise the channel count of a real ImageMagick PSD (written with -compress None, so the
    merged image data at the end of the file is compression 0 + one raw plane per channel)
    to N by appending N - channels extra alpha planes (a horizontal ramp) and patching the
    header's channel count (u16 at 12).  The layer section keeps its own channel list, so
    the file stays consistent: 8BPS v1, RGB, N channels as in kimageformats' 53alphas.psd
    (57 channels, above the 56 of the specification)."""
    d = bytearray(read(src))
    assert d[:6] == b'8BPS\0\x01'
    ch, hgt, wid, depth, mode = struct.unpack_from('>HIIHH', d, 12)
    assert depth == 8
    plane = hgt * wid
    start = len(d) - 2 - ch * plane
    assert struct.unpack_from('>H', d, start)[0] == 0, 'merged image data is not raw'
    n = int(n)
    struct.pack_into('>H', d, 12, n)
    extra = bytes((x * 255 // max(wid - 1, 1) + k * 4) & 255 for k in range(n - ch) for y in range(hgt) for x in range(wid))
    write(out, bytes(d) + extra)


def xcf_command(out, *args):
    """xcf OUT VERSION: xcf with the version as a number (0 writes "gimp xcf file")."""
    return xcf(out, int(args[0]))


RECIPES = {
    'xcf': xcf_command, 'gbr': gimp_gbr, 'pat': gimp_pat, 'gih': gimp_gih, 'psd-channels': psd_channels,
}

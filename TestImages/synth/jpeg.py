"""Recipes for the JPEG family (Sources/ImageSniff/Families/JPEG.swift): real Pillow MPOs with their
MP entry types rewritten: multi-frame MPOs (stereo pair, panorama) and a plain JPEG with a large
thumbnail.
"""
import struct

from .common import read, write


def mpf_thumbnail(out, mpo):
    """Turn a real 2-frame Pillow MPO (primary 32x32 + 16x16 second frame) into a plain
    JPEG with a large-thumbnail MP entry: in the APP2 'MPF' MP Index IFD, set the first
    MPEntry attribute to 0x20030000 (representative, baseline primary) and the second to
    0x00010001 (large thumbnail, VGA class).  Offsets and sizes are unchanged."""
    mpf_types(out, mpo, '0x20030000', '0x00010001')


def mpf_types(out, mpo, *types):
    """Set the MPEntry attributes (MP type codes and flags, CIPA DC-007 5.2.3.3.1) of a real
    Pillow MPO to the given values, one per entry in order: e.g. 0x20020002 0x00020002 for a
    stereo pair (multi-frame, disparity), as cameras such as Fujifilm's W3 write it.  Pillow
    itself writes 0x00030000 + 0x00000000 (primary + undefined).  Offsets and sizes are
    unchanged."""
    d = bytearray(read(mpo))
    i = d.find(b'MPF\0')
    assert i > 0
    t = i + 4
    order = '<' if d[t:t + 2] == b'II' else '>'
    ifd = struct.unpack(order + 'I', d[t + 4:t + 8])[0]
    n = struct.unpack(order + 'H', d[t + ifd:t + ifd + 2])[0]
    for k in range(n):
        e = t + ifd + 2 + 12 * k
        tag, typ, cnt, val = struct.unpack(order + 'HHII', d[e:e + 12])
        if tag == 0xB002:
            ent = t + val
            assert cnt == 16 * len(types), (cnt, types)
            for k, value in enumerate(types):
                struct.pack_into(order + 'I', d, ent + 16 * k, int(value, 16))
            write(out, bytes(d))
            return
    raise SystemExit('no MPEntry')


def junk(out, src, text):
    """Insert TEXT (ASCII) between two marker segments of a real JPEG, before its first DQT (FF
    DB), as in Pillow's junk_jpeg_header.jpg: libjpeg passes over such bytes with a warning
    ("extraneous bytes before marker") and decodes the image."""
    d = read(src)
    i = d.find(b'\xff\xdb')
    assert i > 2
    write(out, d[:i] + text.encode('ascii') + d[i:])


RECIPES = {
    'mpf-thumbnail': mpf_thumbnail, 'mpf-types': mpf_types, 'jpeg-junk': junk,
}

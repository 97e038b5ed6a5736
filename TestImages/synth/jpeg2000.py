"""Recipes for the JPEG2000 family (Sources/ImageSniff/Families/JPEG2000.swift): Motion JPEG 2000
(mj2wrap: a real ffmpeg MOV of JPEG 2000 frames behind the JP2 signature box and an mjp2 ftyp).
The JPX and JPH brand rewrites of a real JP2 are made by reftyp (isobmff.py).
"""
import struct

from .common import box, read, write


def _walk_patch_stco(buf, start, end, delta):
    i = start
    while i + 8 <= end:
        size, typ = struct.unpack_from('>I4s', buf, i)
        if size < 8:
            break
        if typ in (b'moov', b'trak', b'mdia', b'minf', b'stbl'):
            _walk_patch_stco(buf, i + 8, i + size, delta)
        elif typ == b'stco':
            n = struct.unpack_from('>I', buf, i + 12)[0]
            for k in range(n):
                p = i + 16 + 4 * k
                struct.pack_into('>I', buf, p, struct.unpack_from('>I', buf, p)[0] + delta)
        elif typ == b'co64':
            n = struct.unpack_from('>I', buf, i + 12)[0]
            for k in range(n):
                p = i + 16 + 8 * k
                struct.pack_into('>Q', buf, p, struct.unpack_from('>Q', buf, p)[0] + delta)
        i += size


def mj2wrap(out, mov):
    """Motion JPEG 2000 (ISO/IEC 15444-3): takes a QuickTime/MP4 file made by
    ffmpeg with JPEG 2000 video frames, replaces its ftyp by the JPEG 2000
    signature box (00 00 00 0C 'jP  ' 0D 0A 87 0A) + ftyp major 'mjp2'
    compatible 'mjp2', and shifts every stco/co64 chunk offset accordingly."""
    d = bytearray(read(mov))
    size = struct.unpack_from('>I', d, 0)[0]
    assert d[4:8] == b'ftyp'
    rest = bytearray(d[size:])
    head = box(b'jP  ', b'\r\n\x87\n') + box(b'ftyp', b'mjp2' + struct.pack('>I', 0) + b'mjp2')
    delta = len(head) - size
    _walk_patch_stco(rest, 0, len(rest), delta)
    write(out, head + bytes(rest))


RECIPES = {
    'mj2wrap': mj2wrap,
}

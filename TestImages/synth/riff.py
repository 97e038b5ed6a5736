"""Recipes for the RIFF family (Sources/ImageSniff/Families/RIFF.swift): Windows animated cursors
(RIFF ACON) holding real ImageMagick ICOs, plain and with INFO, rate and seq chunks.
"""
import struct

from .common import _riff_chunk, read, write


def _ico_to_cur(d):
    d = bytearray(d)
    reserved, typ, count = struct.unpack_from('<HHH', d, 0)
    assert reserved == 0 and typ == 1
    struct.pack_into('<H', d, 2, 2)
    for i in range(count):
        struct.pack_into('<HH', d, 6 + 16 * i + 4, 0, 0)
    return bytes(d)


def ani(out, variant, *icons):
    """Windows animated cursor (RIFF 'ACON'), no encoder here.  'anih' chunk (36 bytes:
    cbSize 36, nFrames, nSteps, cx 0, cy 0, bitCount 0, planes 0, jifRate 10 (1/60 s),
    flags), then LIST 'fram' holding one 'icon' chunk per frame; each frame is a real
    ImageMagick ICO given on the command line.
    plain: anih first (flags 1 = AF_ICON), nSteps = nFrames.
    info-rate-seq: LIST 'INFO' (INAM, IART) before anih, frames turned into cursors (ICONDIR
    type 2, hotspot 0,0), flags 3 (AF_ICON | AF_SEQUENCE), 'rate' and 'seq ' chunks
    describing 3 steps 0 1 0.  (gdk-pixbuf's loader wants anih before INAM/IART and rejects this
    order, which real files use; with the INFO list moved after anih it reads the rest.)"""
    frames = [read(p) for p in icons]
    n = len(frames)
    chunks = b''
    if variant == 'plain':
        steps, flags, extra = n, 1, b''
    elif variant == 'info-rate-seq':
        frames = [_ico_to_cur(f) for f in frames]
        seq = [0, 1, 0]
        steps, flags = len(seq), 3
        info = b'INFO' + _riff_chunk(b'INAM', b'ImageSniff test cursor\0') + _riff_chunk(b'IART', b'ImageSniff\0')
        chunks += _riff_chunk(b'LIST', info)
        extra = _riff_chunk(b'rate', b''.join(struct.pack('<I', r) for r in (10, 20, 10))) + \
            _riff_chunk(b'seq ', b''.join(struct.pack('<I', s) for s in seq))
    else:
        raise SystemExit('unknown ANI variant ' + variant)
    chunks += _riff_chunk(b'anih', struct.pack('<9I', 36, n, steps, 0, 0, 0, 0, 10, flags)) + extra
    chunks += _riff_chunk(b'LIST', b'fram' + b''.join(_riff_chunk(b'icon', f) for f in frames))
    write(out, b'RIFF' + struct.pack('<I', 4 + len(chunks)) + b'ACON' + chunks)


RECIPES = {
    'ani': ani,
}

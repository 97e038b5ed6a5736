"""Recipes for the Media family (Sources/ImageSniff/Families/Media.swift): a Musepack SV7 stream
header (make-test-images.sh puts a real ID3 tag in front of it with id3v2).
"""
import random
import struct

from .common import write


def musepack_sv7(out):
    """Musepack SV7 stream header (no SV7 encoder here; Debian's mpcenc writes SV8 'MPCK'):
    'MP+' + version byte 0x07, LE u32 frame count 2, LE u32 stream info read MSB first
    (intensity stereo 0, mid/side 1, max band 28, profile 10, link 0, sample rate 0 =
    44.1 kHz, max level 0), title gain/peak 0, album gain/peak 0, LE u32 gapless word 0,
    3 unused bytes, encoder version 115; then 256 pseudo-random bytes (random.Random(7))
    standing in for the frames."""
    info = (0 << 31) | (1 << 30) | (28 << 24) | (10 << 20) | (0 << 18) | (0 << 16) | 0
    hdr = b'MP+\x07' + struct.pack('<IIIII', 2, info, 0, 0, 0) + b'\0\0\0' + bytes((115,))
    r = random.Random(7)
    write(out, hdr + bytes(r.getrandbits(8) for _ in range(256)))


RECIPES = {
    'musepack-sv7': musepack_sv7,
}

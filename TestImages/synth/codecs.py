"""Recipes for the Codecs family (Sources/ImageSniff/Families/Codecs.swift): farbfeld (a complete
file), and FLIF (still and animated) and BPG headers with placeholder payloads (no encoder for
either here).  QOI and PGF come from real encoders.
"""
import struct

from .common import write


def farbfeld(out):
    """farbfeld: "farbfeld" + BE u32 width, height + 16-bit BE RGBA pixels."""
    w = h = 8
    px = b''.join(struct.pack('>HHHH', x * 8191, y * 8191, 0x6000, 0xFFFF) for y in range(h) for x in range(w))
    write(out, b'farbfeld' + struct.pack('>II', w, h) + px)


def flif(out):
    """FLIF header only: "FLIF", format byte 0x34 ('4' = RGBA, non-interlaced,
    still), bytes-per-channel '1', varint width-1 and height-1; the
    MANIAC-coded pixel data that must follow cannot be produced without the
    FLIF encoder, so a few zero bytes stand in for it."""
    write(out, b'FLIF' + b'4' + b'1' + bytes([15, 15]) + b'\0' * 16)


def flif_anim(out):
    """FLIF animated header: format byte 'c' (0x63 = interlaced + animated,
    RGB... per spec 0x60|n), bytes-per-channel '1', varints w-1, h-1, frames-2."""
    write(out, b'FLIF' + b'c' + b'1' + bytes([15, 15, 1]) + b'\0' * 16)


def bpg(out):
    """BPG header: "BPG\\xFB", byte pixel_format(3)|alpha1_flag(1)|bit_depth-8(4)
    = 0x20 (4:2:0, 8-bit), byte color_space(4)|extension_present|alpha2|
    limited_range|animation = 0x00, ue7 width 16, ue7 height 16, ue7
    picture_data_length, then placeholder HEVC payload bytes (no encoder here)."""
    payload = b'\0' * 16
    write(out, b'BPG\xfb' + bytes([0x20, 0x00, 16, 16, len(payload)]) + payload)


RECIPES = {
    'farbfeld': farbfeld, 'flif': flif, 'flif-anim': flif_anim, 'bpg': bpg,
}

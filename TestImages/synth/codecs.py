"""Recipes for the Codecs family (Sources/ImageSniff/Families/Codecs.swift): farbfeld (a complete
file), FLIF (still and animated) and BPG headers with placeholder payloads (no encoder for
either here), and wuffs' NIE and NIA (its only writers are wuffs' own example programs, not
packaged).  QOI and PGF come from real encoders.
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


def _nie_frame(w, h, shift):
    """One NIE image: magic nïE, FF 'b' 'n' '4' (BGRA, not premultiplied, 4 bytes per pixel),
    width and height (LE u32), then w*h BGRA pixels (a ramp, moved by SHIFT)."""
    px = bytearray()
    for y in range(h):
        for x in range(w):
            px += bytes((((x + shift) * 255) // max(w - 1, 1) & 255, (y * 255) // max(h - 1, 1), 128, 255))
    return b'\x6e\xc3\xaf\x45\xffbn4' + struct.pack('<II', w, h) + bytes(px)


def nie(out):
    """NIE still image (wuffs doc/spec/nie-spec.md, version 1): 16-byte header, BGRA pixels."""
    write(out, _nie_frame(8, 6, 0))


def nia(out, nframes='2'):
    """NIA animation (the same spec): 24-byte header (nïA, the NIE configuration FF 'b' 'n' '4',
    width, height, a 0 byte: frames follow, seven zero bytes), then per frame a whole NIE image,
    4 zero bytes of padding when w and h are both odd (4 bytes per pixel), and the cumulative
    display duration (LE u64: flicks << 2, bit 0 set on the last frame: 0.5 s per frame); the
    footer nïZ and a loop count of 0 (forever)."""
    w, h, n = 8, 6, int(nframes)
    body = b''
    for i in range(n):
        frame = _nie_frame(w, h, i * 3)
        if w & h & 1:
            frame += bytes(4)
        cdd = (352_800_000 * (i + 1)) << 2 | (1 if i == n - 1 else 0)
        body += frame + struct.pack('<Q', cdd)
    header = b'\x6e\xc3\xaf\x41\xffbn4' + struct.pack('<II', w, h) + bytes(8)
    write(out, header + body + b'\x6e\xc3\xaf\x5a' + struct.pack('<I', 0))


RECIPES = {
    'nie': nie, 'nia': nia,
    'farbfeld': farbfeld, 'flif': flif, 'flif-anim': flif_anim, 'bpg': bpg,
}

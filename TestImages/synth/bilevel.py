"""Recipes for the Bilevel family (Sources/ImageSniff/Families/Bilevel.swift): a JBIG2 stand-alone
file (one all-white MMR page).
"""
import struct

from .common import write


def jbig2_file(out):
    """JBIG2 stand-alone file (ITU-T T.88 Annex D): 8-byte ID string 97 'JB2' 0D 0A 1A 0A,
    flags 0x01 (sequential organisation, page count known), page count 1, then segments:
    page information (type 48, 16x16, 72 dpi, default pixel 0), immediate lossless generic
    region (type 39, MMR coded: every row white = one V0 code), end of page (49), end of
    file (51)."""
    def seg(num, typ, page, data):
        return struct.pack('>IBBBI', num, typ, 0, page, len(data)) + data
    w = h = 16
    pageinfo = struct.pack('>IIIIBH', w, h, 2835, 2835, 0, 0)
    # region segment information field: w, h, x, y, combination operator 0 (OR)
    rsi = struct.pack('>IIIIB', w, h, 0, 0, 0)
    # generic region flags: bit0 MMR = 1.  MMR data: 16 rows of V0 ('1' bits) = 0xFF 0xFF,
    # then EOFB (000000000001 000000000001)
    mmr = bytes([0xFF, 0xFF, 0x00, 0x10, 0x01])
    region = rsi + bytes([0x01]) + mmr
    body = seg(0, 48, 1, pageinfo) + seg(1, 39, 1, region) + seg(2, 49, 1, b'') + seg(3, 51, 0, b'')
    write(out, b'\x97JB2\r\n\x1a\n' + bytes([0x01]) + struct.pack('>I', 1) + body)


RECIPES = {
    'jbig2': jbig2_file,
}

"""Recipes for the Magicless family (Sources/ImageSniff/Families/Magicless.swift): a real
ImageMagick true-colour TGA rewritten with a legal but unused colour map, or with a colour-map
entry size but no colour map.
"""
import struct

from .common import read, write


def tga_cmap(out, src):
    """Rewrite a real ImageMagick true-colour TGA (type 2, no colour map) into a TGA with a
    legal but unused colour map: colour-map type 1, first entry 0, length 2, 24-bit
    entries, 6 bytes of map inserted after the header (image type stays 2)."""
    t = bytearray(read(src))
    assert t[1] == 0 and t[2] in (2, 10)
    idlen = t[0]
    hdr = t[:18]
    hdr[1] = 1
    struct.pack_into('<HHB', hdr, 3, 0, 2, 24)
    write(out, bytes(hdr) + bytes(t[18:18 + idlen]) + b'\x00\x00\xff\xff\xff\xff' + bytes(t[18 + idlen:]))


def tga_entry_size(out, src, size):
    """Copy a real true-colour TGA (colour-map type 0, so the colour map specification, bytes
    3-7, is zero) with its colour-map entry size (byte 7) set to SIZE anyway: the spec says the
    field "should be set to zero" when there is no map, and readers skip it."""
    t = bytearray(read(src))
    assert t[1] == 0 and t[2] in (2, 3, 10, 11) and t[3:8] == b'\0' * 5
    t[7] = int(size)
    write(out, bytes(t))


RECIPES = {
    'tga-cmap': tga_cmap, 'tga-entry-size': tga_entry_size,
}

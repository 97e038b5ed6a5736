"""Recipes for the Text family (Sources/ImageSniff/Families/Text.swift): a real text image (the
ImageMagick XBM) with text in front of it, a C comment (prepend).
"""
from .common import read, write


def prepend(out, src, text):
    """Copy a real encoder's text file with `text` (a C comment, say) in front."""
    write(out, text.encode().decode('unicode_escape').encode() + read(src))


RECIPES = {
    'prepend': prepend,
}

"""Recipes for the Archives family (Sources/ImageSniff/Families/Archives.swift): OpenRaster, a zip
whose first member is an uncompressed "mimetype", holding real ImageMagick PNGs.
"""
import zipfile

from .common import read


def ora(out, png, thumb):
    """OpenRaster: ZIP whose first member is "mimetype" stored uncompressed with
    content "image/openraster", then stack.xml, data/layer0.png, Thumbnails/
    thumbnail.png and mergedimage.png (PNG bytes from ImageMagick)."""
    p = read(png)
    t = read(thumb)
    with zipfile.ZipFile(out, 'w') as z:
        zi = zipfile.ZipInfo('mimetype', date_time=(2024, 1, 1, 0, 0, 0))
        zi.compress_type = zipfile.ZIP_STORED
        z.writestr(zi, 'image/openraster')
        def add(name, data):
            zi = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
        add('stack.xml', '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<image version="0.0.5" w="32" h="32">\n <stack>\n'
            '  <layer name="layer0" src="data/layer0.png" x="0" y="0" opacity="1.0"/>\n'
            ' </stack>\n</image>\n')
        add('data/layer0.png', p)
        add('Thumbnails/thumbnail.png', t)
        add('mergedimage.png', p)


RECIPES = {
    'ora': ora,
}

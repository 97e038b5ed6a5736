#!/usr/bin/env python3
"""Write test files for formats that no encoder installed here can produce.

Python 3 standard library only.  Every writer builds a minimal but structurally
valid file from the published layout of the format (see the docstring of each
writer for the structure used).  Called from make-test-images.sh as

    python3 synthesize.py KIND OUT [ARGS...]

Some kinds take real encoder output as input (e.g. a JPEG made by ImageMagick
that is wrapped into a HEIF item, or an H.264 stream from ffmpeg wrapped into an
AVCI file); the shell script records that in the manifest.

The writers live in the synth package beside this script, one module per
ImageSniff detector family (synth/camera_raw.py, synth/isobmff.py, ...); each
module's RECIPES dict names its kinds, and this script dispatches to them.
"""
import sys

sys.dont_write_bytecode = True  # no synth/__pycache__: every file in TestImages must be in manifest.tsv

from synth import recipes  # noqa: E402  (after the line above)


def main(argv):
    kind, out, *args = argv[1:]
    return recipes()[kind](out, *args)


if __name__ == '__main__':
    main(sys.argv)

#!/usr/bin/env python3
"""Writes the files of issue 26's table (facts past the first 512 KiB) to a directory, with Pillow:

    python3 Benchmarks/far-files.py /tmp/far && imgsniff scan --properties --verify /tmp/far

A 1200x1000 LZW TIFF (IFD after the strips), a JPEG whose frame header follows a 1.2 MB ICC profile,
a 40-page TIFF, a 480-frame GIF, a 200-frame WebP, a Pillow MPO and a JPEG cut in half. The pixels
are noise, so the files are as large as the issue's (about 85 MB in all); TestImages/far/ holds
small files of the same kinds for the test suite.
"""
import os
import sys

from PIL import Image, ImageCms


def noise(w, h):
    return Image.frombytes("RGB", (w, h), os.urandom(w * h * 3))


def main(out):
    os.makedirs(out, exist_ok=True)
    path = lambda name: os.path.join(out, name)
    big = noise(1200, 1000)
    big.save(path("tiff-lzw"), format="TIFF", compression="tiff_lzw")
    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    big.save(path("jpeg-icc"), format="JPEG", icc_profile=icc + b"\0" * (1200 * 1024 - len(icc)), quality=85)
    pages = [noise(580, 580) for _ in range(40)]
    pages[0].save(path("tiff-40"), format="TIFF", save_all=True, append_images=pages[1:])
    frames = [noise(200, 200).convert("P") for _ in range(480)]
    frames[0].save(path("gif-480"), format="GIF", save_all=True, append_images=frames[1:], loop=0)
    webp = [noise(230, 230) for _ in range(200)]
    webp[0].save(path("webp-200"), format="WEBP", save_all=True, append_images=webp[1:], quality=90)
    noise(640, 480).save(path("mpo"), format="MPO", save_all=True, append_images=[noise(640, 480)])
    big.save(path("jpeg-plain"), format="JPEG", quality=85)
    with open(path("jpeg-plain"), "rb") as f:
        whole = f.read()
    with open(path("jpeg-cut"), "wb") as f:
        f.write(whole[: len(whole) // 2])


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: far-files.py DIRECTORY")
    main(sys.argv[1])

"""Recipes for the Retro family (Sources/ImageSniff/Families/Retro.swift): IFF PBM (Deluxe Paint) and
IFF ANIM around a real ILBM, Microsoft Paint 2.0 MSP, Autodesk FLI and FLC, PlayStation TIM (4-bit
with a CLUT, 16-bit) from real PPMs, and DEGAS Elite PC1.
"""
import struct

from .common import EGA16, _iff_chunk, read, write


def iff_pbm(out):
    """IFF 'PBM ' (Deluxe Paint II chunky bitmap): FORM <size> 'PBM ', BMHD (20 bytes:
    w, h, x, y, nPlanes 8, masking 0, compression 0, pad, transparent colour, x/y aspect,
    page width/height), CMAP (256 RGB triples), BODY (one byte per pixel, rows padded to
    an even length)."""
    w = h = 16
    bmhd = struct.pack('>HHhhBBBBHBBhh', w, h, 0, 0, 8, 0, 0, 0, 0, 10, 11, 320, 200)
    cmap = bytes(v for i in range(256) for v in (i, (i * 7) & 255, 255 - i))
    body = bytearray()
    for y in range(h):
        row = bytes(((x * 16 + y) & 255) for x in range(w))
        body += row + (b'\0' if len(row) % 2 else b'')
    form = b'PBM ' + _iff_chunk(b'BMHD', bmhd) + _iff_chunk(b'CMAP', cmap) + _iff_chunk(b'BODY', bytes(body))
    write(out, b'FORM' + struct.pack('>I', len(form)) + form)


def iff_anim(out, ilbm):
    """IFF ANIM: FORM <size> 'ANIM' wrapping two FORM ILBM frames.  Frame 1 is a real
    ppmtoilbm file; frame 2 is the same ILBM with an ANHD chunk (operation 0 = full
    frame) inserted after its BMHD, as an ANIM reader expects."""
    il = read(ilbm)
    assert il[:4] == b'FORM' and il[8:12] == b'ILBM'
    inner = il[12:]
    anhd = _iff_chunk(b'ANHD', struct.pack('>BBHHhhIIBBIH', 0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 0, 0) + b'\0' * 16)
    # put ANHD right after BMHD in frame 2
    pos = 0
    chunks = []
    while pos + 8 <= len(inner):
        cid = inner[pos:pos + 4]
        n = struct.unpack('>I', inner[pos + 4:pos + 8])[0]
        chunks.append((cid, inner[pos:pos + 8 + n + (n & 1)]))
        pos += 8 + n + (n & 1)
    f2 = b''.join(c + (anhd if cid == b'BMHD' else b'') for cid, c in chunks)
    frame1 = il[:4] + struct.pack('>I', len(il) - 8 - (len(il) - 8 - (4 + len(inner)))) + il[8:12] + inner
    frame1 = b'FORM' + struct.pack('>I', 4 + len(inner)) + b'ILBM' + inner
    frame2 = b'FORM' + struct.pack('>I', 4 + len(f2)) + b'ILBM' + f2
    body = b'ANIM' + frame1 + frame2
    write(out, b'FORM' + struct.pack('>I', len(body)) + body)


def msp2(out):
    """Microsoft Paint 2.0 MSP: 32-byte little-endian header ('LinS' key, width, height,
    aspect and printer fields, checksum = XOR of the preceding 12 words), a scan-line map
    (one u16 byte count per row), then rows RLE coded (0, count, value = run; n, n bytes =
    literal).  1 bit per pixel, 1 = white."""
    w = h = 32
    rows = []
    for y in range(h):
        bits = bytearray(w // 8)
        for x in range(w):
            if (x // 8 + y // 8) % 2 == 0 and not (x == y):
                bits[x // 8] |= 0x80 >> (x % 8)
        rows.append(bytes(bits))
    enc = []
    for r in rows:
        if len(set(r)) == 1:
            enc.append(bytes((0, len(r), r[0])))
        else:
            enc.append(bytes((len(r),)) + r)
    words = [0x694C, 0x536E, w, h, 1, 1, 1, 1, w, h, 0, 0]
    chk = 0
    for v in words:
        chk ^= v
    hdr = struct.pack('<12HH3H', *words, chk, 0, 0, 0)
    smap = b''.join(struct.pack('<H', len(e)) for e in enc)
    write(out, hdr + smap + b''.join(enc))


def _brun_rows(pixels, w, h):
    out = bytearray()
    for y in range(h):
        row = pixels[y * w:(y + 1) * w]
        pk = bytearray()
        n = 0
        x = 0
        while x < w:
            run = 1
            while x + run < w and run < 127 and row[x + run] == row[x]:
                run += 1
            pk += bytes((run, row[x]))
            n += 1
            x += run
        out += bytes((n & 255,)) + pk
    return bytes(out)


def flic(out, kind, nframes='2'):
    """Autodesk FLI (magic 0xAF11, 320x200, 6-bit COLOR_64 palette, speed in 1/70 s) or FLC
    (magic 0xAF12, any size, COLOR_256, speed in ms, oframe1/oframe2 offsets): 128-byte
    little-endian header then frame chunks (type 0xF1FA) holding a palette chunk and a
    BYTE_RUN (type 15) full-frame chunk."""
    nframes = int(nframes)
    fli = kind == 'fli'
    w, h = (320, 200) if fli else (32, 32)
    frames = []
    for f in range(nframes):
        step = 64 if fli else 8
        px = bytes(((x // step + y // step + f) % 4) * 60 + 10 for y in range(h) for x in range(w))
        chunks = []
        if f == 0:
            if fli:
                pal = bytes(v for i in range(256) for v in ((i * 63) // 255, (i * 31) // 255, 63 - (i * 63) // 255))
                chunks.append((11, struct.pack('<H', 1) + bytes((0, 0)) + pal))
            else:
                pal = bytes(v for i in range(256) for v in (i, (i * 2) & 255, 255 - i))
                chunks.append((4, struct.pack('<H', 1) + bytes((0, 0)) + pal))
        chunks.append((15, _brun_rows(px, w, h)))
        body = b''
        for typ, data in chunks:
            if (6 + len(data)) % 2:
                data += b'\0'
            body += struct.pack('<IH', 6 + len(data), typ) + data
        frames.append(struct.pack('<IHHHHHH', 16 + len(body), 0xF1FA, len(chunks), 0, 0, 0, 0) + body)
    data = b''.join(frames)
    size = 128 + len(data)
    if fli:
        hdr = struct.pack('<IHHHHHHH', size, 0xAF11, nframes, w, h, 8, 0, 5)
    else:
        hdr = struct.pack('<IHHHHHHI', size, 0xAF12, nframes, w, h, 8, 3, 100)
    hdr = bytearray(hdr.ljust(128, b'\0'))
    if not fli:
        struct.pack_into('<HH', hdr, 38, 1, 1)  # aspect dx/dy at 38
        struct.pack_into('<II', hdr, 80, 128, 128 + len(frames[0]))   # oframe1, oframe2
    write(out, bytes(hdr) + data)


def _read_ppm(path):
    """Binary PPM (P6, maxval 255, no comments) as written by ImageMagick or netpbm:
    returns (width, height, RGB bytes)."""
    d = read(path)
    parts = d.split(maxsplit=4)
    assert parts[0] == b'P6' and parts[3] == b'255', parts[:4]
    w, h = int(parts[1]), int(parts[2])
    return w, h, d[len(d) - w * h * 3:]


def tim(out, kind, ppm):
    """Sony PlayStation TIM, no encoder here (ImageMagick only reads it).  LE u32 magic 0x10,
    LE u32 flags (bits 0-2 pixel mode: 0 = 4 bpp, 1 = 8 bpp, 2 = 16 bpp direct; bit 3 = CLUT
    present), then the blocks; each block is LE u32 length (12 + data), u16 x, u16 y (frame
    buffer position), u16 w, u16 h, data.  The file is 8 + block lengths bytes long.
    4bit: flags 8, CLUT block at (960, 21), 16x1 entries of 15-bit colour (the 16 EGA colours),
      pixel block at (640, 96) with w in 16-bit units (32 px / 4 = 8), h 32, two pixels per
      byte (low nibble first): the PPM's pixels mapped to the nearest EGA colour.
    16bit: flags 2, no CLUT, one pixel block, each pixel LE u16 R5 | G5 << 5 | B5 << 10
      (bit 15 STP clear)."""
    w, h, rgb = _read_ppm(ppm)
    px = [rgb[i:i + 3] for i in range(0, len(rgb), 3)]

    def c15(r, g, b):
        return (r >> 3) | ((g >> 3) << 5) | ((b >> 3) << 10)
    if kind == '4bit':
        assert w % 4 == 0
        clut = b''.join(struct.pack('<H', c15(*c)) for c in EGA16)
        clut_blk = struct.pack('<IHHHH', 12 + len(clut), 960, 21, 16, 1) + clut

        def nearest(p):
            return min(range(16), key=lambda i: sum((a - b) ** 2 for a, b in zip(p, EGA16[i])))
        idx = [nearest(p) for p in px]
        data = bytes(idx[i] | (idx[i + 1] << 4) for i in range(0, len(idx), 2))
        pix_blk = struct.pack('<IHHHH', 12 + len(data), 640, 96, w // 4, h) + data
        write(out, struct.pack('<II', 0x10, 8) + clut_blk + pix_blk)
    elif kind == '16bit':
        data = b''.join(struct.pack('<H', c15(*p)) for p in px)
        pix_blk = struct.pack('<IHHHH', 12 + len(data), 640, 0, w, h) + data
        write(out, struct.pack('<II', 0x10, 2) + pix_blk)
    else:
        raise SystemExit('unknown TIM kind ' + kind)


def packbits(data):
    """PackBits: a control byte n < 128 copies n + 1 bytes; 257 - n repeats the next byte."""
    out, i = bytearray(), 0
    while i < len(data):
        run = 1
        while i + run < len(data) and run < 128 and data[i + run] == data[i]:
            run += 1
        if run >= 3:
            out += bytes((257 - run, data[i]))
            i += run
            continue
        j = i
        while j < len(data) and j - i < 128 and not (j + 2 < len(data) and data[j] == data[j + 1] == data[j + 2]):
            j += 1
        out += bytes((j - i - 1,)) + data[i:j]
        i = j
    return bytes(out)


def degas_pc1(out):
    """DEGAS Elite compressed, low resolution (PC1): resolution word 0x8000, 16 palette words
    (0x0RGB, 3 bits a channel), then 200 scan lines, each line's 4 bit planes (40 bytes apiece)
    PackBits coded one after the other, and 32 bytes of colour-animation data (4 left, 4 right
    colour numbers, 4 directions, 4 delays; all off). The picture: 16 vertical colour bands with
    a diagonal."""
    palette = [((i & 7) << 8) | ((i >> 1 & 7) << 4) | (7 - (i & 7)) for i in range(16)]
    body = bytearray()
    for y in range(200):
        colours = [((x // 20) ^ (1 if x == y + 60 else 0)) & 15 for x in range(320)]
        for plane in range(4):
            row = bytearray(40)
            for x, c in enumerate(colours):
                if c >> plane & 1:
                    row[x // 8] |= 0x80 >> (x % 8)
            body += packbits(bytes(row))
    anim = struct.pack('>16H', *([0] * 8 + [0] * 4 + [0] * 4))
    write(out, struct.pack('>H16H', 0x8000, *palette) + bytes(body) + anim)


def iff_anno_first(out, src, text):
    """Copy a real FORM ILBM with an ANNO (annotation) chunk holding TEXT put first, before its
    BMHD: EA IFF 85 lets a FORM's property chunks come in any order before its BODY (some
    writers put ANNO or a copyright chunk first). The FORM's size grows by the chunk's."""
    d = read(src)
    assert d[:4] == b'FORM' and d[8:12] in (b'ILBM', b'PBM ') and d[12:16] == b'BMHD'
    anno = _iff_chunk(b'ANNO', text.encode('ascii'))
    write(out, b'FORM' + struct.pack('>I', struct.unpack('>I', d[4:8])[0] + len(anno)) + d[8:12] + anno + d[12:])


def iff_rgb8(out):
    """IFF RGB8 (Impulse's Turbo Silver / Imagine 24-bit format): FORM <size> 'RGB8', BMHD (20
    bytes: 16x16, nPlanes 25 (24 colour bits and a genlock bit), masking 0, compression 4,
    aspect 1:1, page 320x200), then BODY: each run is 4 bytes, R, G and B and a byte whose bit 7
    is the genlock bit and bits 0-6 the run's pixel count (1-127); one run per row here, a
    horizontal ramp would take more, so each row is one colour."""
    w = h = 16
    bmhd = struct.pack('>HHhhBBBBHBBhh', w, h, 0, 0, 25, 0, 4, 0, 0, 1, 1, 320, 200)
    body = b''.join(bytes(((y * 16) & 255, 255 - y * 16 & 255, 128, w)) for y in range(h))
    form = b'RGB8' + _iff_chunk(b'BMHD', bmhd) + _iff_chunk(b'BODY', body)
    write(out, b'FORM' + struct.pack('>I', len(form)) + form)


def iff_deep(out, form_type='DEEP'):
    """IFF DEEP (or TVPaint's TVPP, the same chunks): FORM <size> DEEP|TVPP, DGBL (display
    16x12, compression 0 (none), aspect 1:1), DPEL (4 elements: red, green, blue, alpha (types
    1-4), 8 bits each), DLOC (the image: 16x12 at 0,0), DBOD (16*12 RGBA pixels, uncompressed)."""
    w, h = 16, 12
    dgbl = struct.pack('>HHHBB', w, h, 0, 1, 1)
    dpel = struct.pack('>I', 4) + b''.join(struct.pack('>HH', t, 8) for t in (1, 2, 3, 4))
    dloc = struct.pack('>HHhh', w, h, 0, 0)
    dbod = bytes(v for y in range(h) for x in range(w) for v in ((x * 16) & 255, (y * 20) & 255, 100, 255))
    form = form_type.encode('ascii') + _iff_chunk(b'DGBL', dgbl) + _iff_chunk(b'DPEL', dpel) \
        + _iff_chunk(b'DLOC', dloc) + _iff_chunk(b'DBOD', dbod)
    write(out, b'FORM' + struct.pack('>I', len(form)) + form)


RECIPES = {
    'iff-rgb8': iff_rgb8, 'iff-deep': iff_deep,
    'iff-pbm': iff_pbm, 'iff-anim': iff_anim, 'msp2': msp2, 'flic': flic, 'tim': tim, 'degas-pc1': degas_pc1,
    'iff-anno-first': iff_anno_first,
}

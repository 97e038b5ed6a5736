#!/usr/bin/env python3
"""Write test files for formats that no encoder installed here can produce.

Python 3 standard library only.  Every writer builds a minimal but structurally
valid file from the published layout of the format (see the docstring of each
writer for the structure used).  Called from make-test-images.sh as

    python3 synthesize.py KIND OUT [ARGS...]

Some kinds take real encoder output as input (e.g. a JPEG made by ImageMagick
that is wrapped into a HEIF item, or an H.264 stream from ffmpeg wrapped into an
AVCI file); the shell script records that in the manifest.
"""
import struct
import sys
import zipfile
import random
import zlib

# ----------------------------------------------------------------------------
# TIFF builder
# ----------------------------------------------------------------------------
BYTE, ASCII, SHORT, LONG, RATIONAL, UNDEF, SRATIONAL, IFD = 1, 2, 3, 4, 5, 7, 10, 13
TYPE_SIZE = {BYTE: 1, ASCII: 1, SHORT: 2, LONG: 4, RATIONAL: 8, UNDEF: 1, SRATIONAL: 8, IFD: 4}


class Tiff:
    """Tiny TIFF writer.  ifd() writes an IFD at the current end of the buffer,
    followed immediately by its out-of-line values, and returns its offset and
    the positions of each entry's value field so that pointers can be patched
    later (SubIFDs, ExifIFD, StripOffsets...)."""

    def __init__(self, header: bytes, order: str = '<'):
        self.o = order
        self.buf = bytearray(header)

    def align(self):
        if len(self.buf) % 2:
            self.buf += b'\0'

    def blob(self, data: bytes) -> int:
        self.align()
        off = len(self.buf)
        self.buf += data
        return off

    def _pack_values(self, typ, vals):
        o = self.o
        if typ in (ASCII, UNDEF, BYTE):
            if isinstance(vals, str):
                vals = vals.encode('latin-1') + b'\0'
            if isinstance(vals, (list, tuple)):
                vals = bytes(vals)
            return vals, len(vals)
        if not isinstance(vals, (list, tuple)):
            vals = [vals]
        if typ == SHORT:
            return b''.join(struct.pack(o + 'H', v) for v in vals), len(vals)
        if typ in (LONG, IFD):
            return b''.join(struct.pack(o + 'I', v) for v in vals), len(vals)
        if typ in (RATIONAL, SRATIONAL):
            f = 'I' if typ == RATIONAL else 'i'
            return b''.join(struct.pack(o + f + f, n, d) for n, d in vals), len(vals)
        raise ValueError(typ)

    def ifd(self, entries, next_ifd=0):
        """entries: list of (tag, type, values).  Returns (offset, {tag: value_field_pos})."""
        self.align()
        o = self.o
        entries = sorted(entries, key=lambda e: e[0])
        start = len(self.buf)
        n = len(entries)
        data_at = start + 2 + 12 * n + 4
        head = bytearray(struct.pack(o + 'H', n))
        extra = bytearray()
        fields = {}
        for tag, typ, vals in entries:
            raw, count = self._pack_values(typ, vals)
            head += struct.pack(o + 'HHI', tag, typ, count)
            fields[tag] = start + len(head)
            if len(raw) <= 4:
                head += raw.ljust(4, b'\0')
            else:
                if (data_at + len(extra)) % 2:
                    extra += b'\0'
                head += struct.pack(o + 'I', data_at + len(extra))
                extra += raw
        head += struct.pack(o + 'I', next_ifd)
        fields['next'] = start + 2 + 12 * n
        self.buf += head + extra
        return start, fields

    def patch32(self, pos, value):
        struct.pack_into(self.o + 'I', self.buf, pos, value)

    def patch_pointer_field(self, fields, tag, value):
        """For single-valued LONG/IFD entries stored inline."""
        self.patch32(fields[tag], value)

    def bytes(self):
        return bytes(self.buf)


def tiff_header(order='<', magic=42, ifd0=8):
    bo = b'II' if order == '<' else b'MM'
    return bo + struct.pack(order + 'HI', magic, ifd0)


def gray_strip(w, h, bps=8):
    """Deterministic ramp: w*h samples."""
    if bps == 8:
        return bytes((x * 16 + y * 8) & 0xFF for y in range(h) for x in range(w))
    return b''.join(struct.pack('<H', ((x * 256 + y * 128) & 0x0FFF)) for y in range(h) for x in range(w))


def rgb_strip(w, h):
    return bytes(v for y in range(h) for x in range(w) for v in ((x * 32) & 255, (y * 32) & 255, 128))


def basic_image_entries(w, h, spp, bps, compression, photometric, strip_off_placeholder=0, strip_len=0):
    return [
        (0x0100, LONG, w), (0x0101, LONG, h),
        (0x0102, SHORT, [bps] * spp), (0x0103, SHORT, compression),
        (0x0106, SHORT, photometric),
        (0x0111, LONG, strip_off_placeholder), (0x0115, SHORT, spp),
        (0x0116, LONG, h), (0x0117, LONG, strip_len),
    ]


def tiff_raw(make, model, *, order='<', header=None, ifd0_at=8,
             ifd0_compression=1, ifd0_extra=(), sub_compression=None,
             sub_extra=(), exif_extra=(), makernote=None, software=None,
             thumb_jpeg=None, chain_raw_as_next=False):
    """A reduced-resolution RGB thumbnail in IFD0 (or a JPEG thumbnail when
    thumb_jpeg is given: Compression 6, JPEGInterchangeFormat/Length) and,
    optionally, a SubIFD (tag 0x014A) holding a CFA raw strip with the given
    Compression.  An Exif IFD carries the MakerNote when one is given."""
    t = Tiff(header if header is not None else tiff_header(order, 42, ifd0_at), order)
    w, h = 8, 8
    thumb = rgb_strip(w, h)
    raw = gray_strip(w, h, 16)
    e0 = [(0x00FE, LONG, 1 if sub_compression is not None else 0),
          (0x010F, ASCII, make), (0x0110, ASCII, model),
          (0x011A, RATIONAL, [(72, 1)]), (0x011B, RATIONAL, [(72, 1)]), (0x0128, SHORT, 2),
          (0x0132, ASCII, '2024:01:01 00:00:00')]
    if software:
        e0.append((0x0131, ASCII, software))
    if thumb_jpeg is not None:
        e0 += [(0x0100, LONG, w), (0x0101, LONG, h), (0x0102, SHORT, [8, 8, 8]),
               (0x0103, SHORT, 6), (0x0106, SHORT, 6), (0x0115, SHORT, 3),
               (0x0201, LONG, 0), (0x0202, LONG, len(thumb_jpeg))]
    else:
        e0 += basic_image_entries(w, h, 3, 8, ifd0_compression, 2, 0, len(thumb))
    e0 += list(ifd0_extra)
    if sub_compression is not None:
        e0.append((0x014A, LONG, 0))
    e0.append((0x8769, LONG, 0))
    ifd0, f0 = t.ifd(e0)
    assert ifd0 == ifd0_at, (ifd0, ifd0_at)
    if thumb_jpeg is not None:
        t.patch32(f0[0x0201], t.blob(thumb_jpeg))
    else:
        t.patch32(f0[0x0111], t.blob(thumb))
    if sub_compression is not None:
        es = basic_image_entries(w, h, 1, 16, sub_compression, 32803, 0, len(raw))
        es[0:0] = [(0x00FE, LONG, 0)]
        es += [(0x828D, SHORT, [2, 2]), (0x828E, BYTE, [0, 1, 1, 2])]
        es += list(sub_extra)
        sub, fs = t.ifd(es)
        t.patch32(fs[0x0111], t.blob(raw))
        t.patch32(f0[0x014A], sub)
    ee = [(0x9000, UNDEF, b'0230'), (0x829A, RATIONAL, [(1, 125)]), (0x8827, SHORT, 100)]
    if makernote is not None:
        ee.append((0x927C, UNDEF, makernote))
    ee += list(exif_extra)
    exif, fe = t.ifd(ee)
    t.patch32(f0[0x8769], exif)
    return t.bytes()


def nikon_makernote():
    """Nikon type-3 MakerNote: "Nikon\\0" 02 10 00 00 + embedded big-endian TIFF."""
    inner = Tiff(tiff_header('>', 42, 8), '>')
    inner.ifd([(0x0001, UNDEF, b'0210'), (0x0002, SHORT, [0, 200])])
    return b'Nikon\0\x02\x10\0\0' + inner.bytes()


def write(path, data):
    with open(path, 'wb') as f:
        f.write(data)


def read(path):
    with open(path, 'rb') as f:
        return f.read()


# ----------------------------------------------------------------------------
# Camera RAW writers
# ----------------------------------------------------------------------------
def raw_nef(out):
    """NEF: Make NIKON CORPORATION; IFD0 = RGB thumbnail (NewSubfileType 1);
    SubIFD (0x014A) = CFA raw with Compression 34713 (Nikon NEF Compressed);
    Exif IFD with a Nikon type-3 MakerNote."""
    write(out, tiff_raw('NIKON CORPORATION', 'NIKON D70', order='>', header=tiff_header('>', 42, 8),
                        sub_compression=34713, makernote=nikon_makernote()))


def raw_nef_le(out):
    """NEF variant, little-endian, SubIFD Compression 1 (uncompressed NEF, e.g.
    D1/D100 style) plus the Nikon MakerNote."""
    write(out, tiff_raw('NIKON CORPORATION', 'NIKON D100', order='<', sub_compression=1,
                        makernote=nikon_makernote()))


def raw_nrw(out, jpeg):
    """NRW: Make NIKON CORPORATION, IFD0 holds a Compression 6 (JPEG) thumbnail
    (real JPEG bytes from ImageMagick), SubIFD CFA raw Compression 1; MakerNote."""
    write(out, tiff_raw('NIKON CORPORATION', 'COOLPIX P7000', order='<', thumb_jpeg=read(jpeg),
                        sub_compression=1, makernote=nikon_makernote()))


def sr2private(order='<'):
    t = Tiff(b'', order)
    return t


def raw_sony(out, model, kind):
    """Sony ARW/SR2/SRF: Make SONY; IFD0 tag 0xC634 (DNGPrivateData used as
    SR2Private, a LONG offset to a small private IFD); ARW also has 0x7000
    SonyRawFileType and SubIFD Compression 32767 (Sony ARW Compressed)."""
    order = '<'
    t = Tiff(tiff_header(order, 42, 8), order)
    w, h = 8, 8
    thumb = rgb_strip(w, h)
    raw = gray_strip(w, h, 16)
    e0 = [(0x00FE, LONG, 1), (0x010F, ASCII, 'SONY'), (0x0110, ASCII, model),
          (0x011A, RATIONAL, [(72, 1)]), (0x011B, RATIONAL, [(72, 1)]), (0x0128, SHORT, 2),
          (0x0131, ASCII, model + ' v1.00'), (0x0132, ASCII, '2024:01:01 00:00:00'),
          (0xC634, LONG, 0), (0x8769, LONG, 0), (0x014A, LONG, 0)]
    e0 += basic_image_entries(w, h, 3, 8, 1, 2, 0, len(thumb))
    if kind == 'arw':
        e0.append((0x7000, SHORT, 0))  # SonyRawFileType 0 = Sony Uncompressed 14-bit? (0..4)
    ifd0, f0 = t.ifd(e0)
    t.patch32(f0[0x0111], t.blob(thumb))
    # SR2Private IFD: SR2SubIFDOffset/Length/Key (0x7200/0x7201/0x7221)
    priv, fp = t.ifd([(0x7200, LONG, 0), (0x7201, LONG, 0), (0x7221, LONG, 0x12345678)])
    t.patch32(f0[0xC634], priv)
    comp = 32767 if kind == 'arw' else 32769 if kind == 'sr2' else 1
    es = [(0x00FE, LONG, 0)] + basic_image_entries(w, h, 1, 16, comp, 32803, 0, len(raw)) + \
         [(0x828D, SHORT, [2, 2]), (0x828E, BYTE, [0, 1, 1, 2])]
    sub, fs = t.ifd(es)
    t.patch32(fs[0x0111], t.blob(raw))
    t.patch32(f0[0x014A], sub)
    exif, _ = t.ifd([(0x9000, UNDEF, b'0221'), (0x927C, UNDEF, b'SONY DSC \0\0\0' + b'\0\0' + b'\0' * 4)])
    t.patch32(f0[0x8769], exif)
    write(out, t.bytes())


def raw_simple(out, make, model, compression, where='sub', software=None, order='<', makernote=None,
               ifd0_extra=()):
    """TIFF RAW identified by Make plus a vendor raw Compression value, either in
    IFD0 (where='ifd0': IFD0 itself is the CFA raw image) or in a SubIFD."""
    if where == 'sub':
        data = tiff_raw(make, model, order=order, sub_compression=compression, software=software,
                        makernote=makernote, ifd0_extra=ifd0_extra)
    else:
        t = Tiff(tiff_header(order, 42, 8), order)
        w, h = 8, 8
        raw = gray_strip(w, h, 16)
        e0 = [(0x00FE, LONG, 0), (0x010F, ASCII, make), (0x0110, ASCII, model),
              (0x011A, RATIONAL, [(72, 1)]), (0x011B, RATIONAL, [(72, 1)]), (0x0128, SHORT, 2),
              (0x0132, ASCII, '2024:01:01 00:00:00'), (0x828D, SHORT, [2, 2]),
              (0x828E, BYTE, [0, 1, 1, 2]), (0x8769, LONG, 0)]
        if software:
            e0.append((0x0131, ASCII, software))
        e0 += basic_image_entries(w, h, 1, 16, compression, 32803, 0, len(raw))
        e0 += list(ifd0_extra)
        ifd0, f0 = t.ifd(e0)
        t.patch32(f0[0x0111], t.blob(raw))
        ee = [(0x9000, UNDEF, b'0221')]
        if makernote is not None:
            ee.append((0x927C, UNDEF, makernote))
        exif, _ = t.ifd(ee)
        t.patch32(f0[0x8769], exif)
        data = t.bytes()
    write(out, data)


def raw_cr2(out, thumb_jpeg, ljpeg):
    """CR2: II*\\0, IFD0 at 16, "CR" 02 00 at 8 and the RAW IFD offset at 12.
    IFD0: JPEG thumbnail (real JPEG), Make Canon; IFD0 -> IFD1 -> IFD2 -> IFD3;
    IFD3 = raw, Compression 6 holding a real lossless JPEG (SOF3) from
    imagecodecs, with the Canon slice tag 0xC640."""
    t = Tiff(b'II*\0' + struct.pack('<I', 16) + b'CR\x02\x00' + struct.pack('<I', 0), '<')
    jpg = read(thumb_jpeg)
    lj = read(ljpeg)
    e0 = [(0x0100, LONG, 8), (0x0101, LONG, 8), (0x0102, SHORT, [8, 8, 8]), (0x0103, SHORT, 6),
          (0x010F, ASCII, 'Canon'), (0x0110, ASCII, 'Canon EOS 350D DIGITAL'),
          (0x0111, LONG, 0), (0x0112, SHORT, 1), (0x0117, LONG, len(jpg)),
          (0x011A, RATIONAL, [(72, 1)]), (0x011B, RATIONAL, [(72, 1)]), (0x0128, SHORT, 2),
          (0x0132, ASCII, '2024:01:01 00:00:00'), (0x8769, LONG, 0)]
    ifd0, f0 = t.ifd(e0)
    assert ifd0 == 16
    t.patch32(f0[0x0111], t.blob(jpg))
    exif, _ = t.ifd([(0x9000, UNDEF, b'0221'), (0x927C, UNDEF, struct.pack('<H', 0) + b'\0\0\0\0')])
    t.patch32(f0[0x8769], exif)
    ifd1, f1 = t.ifd([(0x0103, SHORT, 6), (0x0201, LONG, 0), (0x0202, LONG, len(jpg))])
    t.patch32(f1[0x0201], t.blob(jpg))
    t.patch32(f0['next'], ifd1)
    ifd2, f2 = t.ifd([(0x0100, LONG, 8), (0x0101, LONG, 8), (0x0102, SHORT, [8, 8, 8]),
                      (0x0103, SHORT, 1), (0x0106, SHORT, 2), (0x0111, LONG, 0), (0x0115, SHORT, 3),
                      (0x0116, LONG, 8), (0x0117, LONG, 192)])
    t.patch32(f2[0x0111], t.blob(rgb_strip(8, 8)))
    t.patch32(f1['next'], ifd2)
    ifd3, f3 = t.ifd([(0x0103, SHORT, 6), (0x0111, LONG, 0), (0x0117, LONG, len(lj)),
                      (0xC5D8, LONG, 1), (0xC640, SHORT, [0, 8, 8])])
    t.patch32(f3[0x0111], t.blob(lj))
    t.patch32(f2['next'], ifd3)
    t.patch32(12, ifd3)
    write(out, t.bytes())


def raw_orf(out, variant):
    """ORF: IIRO (0x4F52 LE), IIRS (0x5352), MMOR (BE 0x4F52); otherwise a TIFF
    IFD0 with Make OLYMPUS and a CFA strip; MakerNote "OLYMPUS\\0II\\x03\\0"."""
    if variant == 'IIRO':
        order, hdr = '<', b'IIRO' + struct.pack('<I', 8)
    elif variant == 'IIRS':
        order, hdr = '<', b'IIRS' + struct.pack('<I', 8)
    else:
        order, hdr = '>', b'MMOR' + struct.pack('>I', 8)
    mn = b'OLYMPUS\0' + (b'II' if order == '<' else b'MM') + b'\x03\0' + struct.pack(order + 'H', 0) + b'\0' * 4
    model = {'IIRO': 'E-M1', 'IIRS': 'E-P1', 'MMOR': 'E-10'}[variant]
    raw_simple_hdr(out, hdr, order, 'OLYMPUS IMAGING CORP.', model, 1, mn)


def raw_simple_hdr(out, hdr, order, make, model, compression, makernote=None, extra0=()):
    t = Tiff(hdr, order)
    w, h = 8, 8
    raw = gray_strip(w, h, 16)
    e0 = [(0x00FE, LONG, 0), (0x010F, ASCII, make), (0x0110, ASCII, model),
          (0x011A, RATIONAL, [(72, 1)]), (0x011B, RATIONAL, [(72, 1)]), (0x0128, SHORT, 2),
          (0x0132, ASCII, '2024:01:01 00:00:00'), (0x8769, LONG, 0)]
    e0 += basic_image_entries(w, h, 1, 16, compression, 32803, 0, len(raw)) + list(extra0)
    ifd0, f0 = t.ifd(e0)
    t.patch32(f0[0x0111], t.blob(raw))
    ee = [(0x9000, UNDEF, b'0221')]
    if makernote:
        ee.append((0x927C, UNDEF, makernote))
    exif, _ = t.ifd(ee)
    t.patch32(f0[0x8769], exif)
    write(out, t.bytes())


PANASONIC_GUID_TAIL = bytes.fromhex('88e774d8f8251d4d947a6e77822b5d6a')


def raw_panasonic(out, variant):
    """Panasonic: "IIU\\0" (TIFF identifier 0x55).
    rw2/rwl: IFD0 at 0x18; bytes 8..23 are the 16-byte signature 88 E7 74 D8 F8
    25 1D 4D 94 7A 6E 77 82 2B 5D 6A that RW2/RWL files carry; Panasonic IFD0
    tags 0x0001 PanasonicRawVersion, 0x0002/0x0003 SensorWidth/Height,
    0x0118 RawDataOffset; Make Panasonic (rw2) or LEICA (rwl).
    raw: older Panasonic .RAW: IFD0 directly at offset 8 (no signature)."""
    if variant == 'raw':
        hdr = b'IIU\0' + struct.pack('<I', 8)
        make, model, ver, ifd0 = 'Panasonic', 'DMC-FZ30', b'0100', 8
    else:
        hdr = b'IIU\0' + struct.pack('<I', 0x18) + PANASONIC_GUID_TAIL
        make, model = ('LEICA', 'D-LUX 6') if variant == 'rwl' else ('Panasonic', 'DMC-GH4')
        ver = b'0310'
        ifd0 = 0x18
    t = Tiff(hdr, '<')
    raw = gray_strip(8, 8, 16)
    e = [(0x0001, UNDEF, ver), (0x0002, SHORT, 8), (0x0003, SHORT, 8),
         (0x0004, SHORT, 0), (0x0005, SHORT, 0), (0x0006, SHORT, 8), (0x0007, SHORT, 8),
         (0x0009, SHORT, 1), (0x000A, SHORT, 12),
         (0x010F, ASCII, make), (0x0110, ASCII, model), (0x0111, LONG, 0), (0x0112, SHORT, 1),
         (0x0116, SHORT, 8), (0x0117, LONG, len(raw)), (0x0118, LONG, 0)]
    off, f = t.ifd(e)
    assert off == ifd0
    d = t.blob(raw)
    t.patch32(f[0x0111], d)
    t.patch32(f[0x0118], d)
    write(out, t.bytes())


def raw_iiq(out):
    """IIQ: TIFF header, then at offset 8 the Phase One directory block:
    "IIII" + version byte + "waR", u32 offset (relative to the block) of the
    directory = u32 entry count, u32 0, then 16-byte entries (tag, type, size,
    value).  IFD0 (Make "Phase One", Model "IQ180") follows."""
    pblock_entries = [(0x0108, 1, 4, 8), (0x0109, 1, 4, 8), (0x010F, 1, 4, 0)]
    pb = bytearray(b'IIII\x01waR' + struct.pack('<I', 12))
    pb += struct.pack('<II', len(pblock_entries), 0)
    for e in pblock_entries:
        pb += struct.pack('<IIII', *e)
    ifd0_at = 8 + len(pb)
    hdr = b'II*\0' + struct.pack('<I', ifd0_at) + bytes(pb)
    t = Tiff(hdr, '<')
    thumb = rgb_strip(8, 8)
    e0 = [(0x010F, ASCII, 'Phase One'), (0x0110, ASCII, 'IQ180'),
          (0x0131, ASCII, 'Capture One'), (0x0132, ASCII, '2024:01:01 00:00:00')]
    e0 += basic_image_entries(8, 8, 3, 8, 1, 2, 0, len(thumb))
    off, f = t.ifd(e0)
    assert off == ifd0_at
    t.patch32(f[0x0111], t.blob(thumb))
    write(out, t.bytes())


def raw_crw(out):
    """CRW (Canon CIFF): "II" + u32 header length 0x1A + "HEAPCCDR" + version
    1.2 + 8 reserved bytes; then the root heap: value data, then the directory
    (u16 count, 10-byte entries: u16 tag, u32 size, u32 offset into heap), and
    the heap's last 4 bytes = offset of that directory.  Entries: 0x080A
    Make/Model strings, 0x1810 ImageInfo."""
    hdr = b'II' + struct.pack('<I', 0x1A) + b'HEAPCCDR' + struct.pack('<HH', 1, 2) + b'\0' * 8
    assert len(hdr) == 0x1A
    heap = bytearray()
    mm = b'Canon\0Canon PowerShot G1\0'
    mm += b'\0' * (len(mm) % 2)
    entries = []
    entries.append((0x080A, len(mm), len(heap)))
    heap += mm
    info = struct.pack('<IIfiiII', 8, 8, 1.0, 0, 12, 0, 0)
    entries.append((0x1810, len(info), len(heap)))
    heap += info
    dir_off = len(heap)
    heap += struct.pack('<H', len(entries))
    for tag, size, off in entries:
        heap += struct.pack('<HII', tag, size, off)
    heap += struct.pack('<I', dir_off)
    write(out, hdr + bytes(heap))


def raw_raf(out, jpeg):
    """RAF: "FUJIFILMCCD-RAW " + format version "0201" + camera ID "FF383501"
    + 32-byte camera name + directory version "0100" + 20 reserved bytes, then
    big-endian u32 pairs (offset,length) for the JPEG preview (real JPEG from
    ImageMagick), the CFA header and the CFA data."""
    hdr = bytearray(b'FUJIFILMCCD-RAW 0201FF383501')
    hdr += b'FinePix S2Pro'.ljust(32, b'\0')
    hdr += b'0100' + b'\0' * 20
    jpg = read(jpeg)
    table_len = 6 * 4 + 8
    jpg_off = len(hdr) + table_len
    cfa_hdr = struct.pack('>I', 1) + struct.pack('>HHI', 0x0100, 4, 0x00080008)
    cfa_hdr_off = jpg_off + len(jpg)
    cfa = gray_strip(8, 8, 16)
    cfa_off = cfa_hdr_off + len(cfa_hdr)
    hdr += struct.pack('>IIIIII', jpg_off, len(jpg), cfa_hdr_off, len(cfa_hdr), cfa_off, len(cfa))
    hdr += b'\0' * 8
    assert len(hdr) == jpg_off
    write(out, bytes(hdr) + jpg + cfa_hdr + cfa)


def raw_x3f(out):
    """X3F (Sigma/Foveon): "FOVb", u32 version 2.0, 16-byte unique id, u32 mark
    bits, u32 columns, rows, rotation, then extended header; the last 4 bytes of
    the file give the offset of the "SECd" section directory (version 2.0,
    entry count 0)."""
    h = bytearray(b'FOVb' + struct.pack('<I', 0x00020000) + bytes(range(16)) +
                  struct.pack('<IIII', 0, 8, 8, 0))
    h += b'\0' * (0x40 - len(h))
    dir_off = len(h)
    h += b'SECd' + struct.pack('<II', 0x00020000, 0)
    h += struct.pack('<I', dir_off)
    write(out, bytes(h))


def raw_mrw(out):
    """MRW (Minolta): "\\0MRM" + BE u32 length of the block area; blocks
    "\\0PRD" (picture raw dimensions: version "21810002", sensor h/w, image
    h/w, data size 12, pixel size 12, storage 0x52, ...), "\\0TTW" (a TIFF
    with Make KONICA MINOLTA); raw data follows."""
    prd = b'21810002' + struct.pack('>HHHHBBBBHH', 8, 8, 8, 8, 12, 12, 0x52, 0, 0, 0x0001)
    t = Tiff(tiff_header('>', 42, 8), '>')
    t.ifd([(0x010F, ASCII, 'KONICA MINOLTA'), (0x0110, ASCII, 'DYNAX 7D'),
           (0x0132, ASCII, '2024:01:01 00:00:00')])
    ttw = t.bytes()
    blocks = b'\0PRD' + struct.pack('>I', len(prd)) + prd + b'\0TTW' + struct.pack('>I', len(ttw)) + ttw
    data = b'\0MRM' + struct.pack('>I', len(blocks)) + blocks + gray_strip(8, 8, 16)
    write(out, data)


def raw_rwz(out):
    """RWZ (Rawzor): 46-byte header: "rawzor", u16 required SDK version 199,
    u16 creator version 199, u64 RWZ file size, u64 original raw size, 12
    reserved bytes, u64 metadata offset; at that offset the 44-byte metadata
    header (section offsets, original/compressed metadata size 0).  The
    compressed image data itself needs the Rawzor codec, so zero bytes stand
    in for it."""
    meta_off = 46
    meta = struct.pack('<QQQQ', 0, 0, 0, 0) + b'\0' * 4 + struct.pack('<II', 0, 0)
    body = b'\0' * 32
    total = meta_off + len(meta) + len(body)
    hdr = b'rawzor' + struct.pack('<HHQQ', 199, 199, total, 4096) + b'\0' * 12 + struct.pack('<Q', meta_off)
    assert len(hdr) == 46
    write(out, hdr + meta + body)


def box(typ: bytes, payload: bytes) -> bytes:
    return struct.pack('>I', 8 + len(payload)) + typ + payload


def fullbox(typ, version, flags, payload):
    return box(typ, struct.pack('>I', (version << 24) | flags) + payload)


CANON_UUID = bytes.fromhex('85c0b687820f11e08111f4ce462b6a48')


def raw_cr3(out, jpeg, cncv):
    """CR3/CRM: ISO-BMFF; ftyp major "crx " minor 1, compatible "crx " "isom";
    moov containing the Canon uuid box 85c0b687-820f-11e0-8111-f4ce462b6a48
    that holds CNCV (compressor version string), CCTP, CMT1 (a TIFF IFD0 with
    Make Canon), plus mvhd; mdat holds a real JPEG."""
    jpg = read(jpeg)
    cmt1 = Tiff(tiff_header('<', 42, 8), '<')
    cmt1.ifd([(0x010F, ASCII, 'Canon'), (0x0110, ASCII, 'Canon EOS R5'),
              (0x0132, ASCII, '2024:01:01 00:00:00')])
    cctp = struct.pack('>III', 0, 1, 3) + box(b'CCDT', struct.pack('>QII', 0, 0, 1))
    uuid = box(b'uuid', CANON_UUID + box(b'CNCV', cncv.encode()) +
               box(b'CCTP', cctp) + box(b'CMT1', cmt1.bytes()))
    mvhd = fullbox(b'mvhd', 0, 0, struct.pack('>IIII', 0, 0, 1000, 0) + struct.pack('>IH', 0x00010000, 0x0100)
                   + b'\0' * 10 + struct.pack('>9I', 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)
                   + b'\0' * 24 + struct.pack('>I', 2))
    ftyp = box(b'ftyp', b'crx ' + struct.pack('>I', 1) + b'crx isom')
    moov = box(b'moov', uuid + mvhd)
    mdat = box(b'mdat', jpg)
    write(out, ftyp + moov + mdat)


def raw_plain_tiff(out, make, model, order='<'):
    """Plain RGB TIFF that merely carries a camera maker's Make/Model (as
    written by vendor software): no SubIFD, no vendor compression, no
    MakerNote, no DNG tags."""
    t = Tiff(tiff_header(order, 42, 8), order)
    thumb = rgb_strip(8, 8)
    e0 = [(0x010F, ASCII, make), (0x0110, ASCII, model), (0x0131, ASCII, 'Capture NX-D 1.6.2'),
          (0x011A, RATIONAL, [(72, 1)]), (0x011B, RATIONAL, [(72, 1)]), (0x0128, SHORT, 2)]
    e0 += basic_image_entries(8, 8, 3, 8, 1, 2, 0, len(thumb))
    off, f = t.ifd(e0)
    t.patch32(f[0x0111], t.blob(thumb))
    write(out, t.bytes())


# ----------------------------------------------------------------------------
# Texture / misc image formats
# ----------------------------------------------------------------------------
def rgba_pixels(w, h):
    return bytes(v for y in range(h) for x in range(w)
                 for v in ((x * 255) // max(w - 1, 1), (y * 255) // max(h - 1, 1), 96, 255))


def ktx1(out):
    """KTX 1.1: 12-byte identifier AB 4B 54 58 20 31 31 BB 0D 0A 1A 0A, endianness
    0x04030201, glType GL_UNSIGNED_BYTE, glTypeSize 1, glFormat GL_RGBA,
    glInternalFormat GL_RGBA8, glBaseInternalFormat GL_RGBA, 8x8, 0 depth,
    0 array elements, 1 face, 1 mip level, one KTXorientation key/value, then
    imageSize + RGBA8 texels."""
    w = h = 8
    kv_key = b'KTXorientation\0S=r,T=d\0'
    kv = struct.pack('<I', len(kv_key)) + kv_key
    kv += b'\0' * (-len(kv) % 4)
    hdr = b'\xabKTX 11\xbb\r\n\x1a\n' + struct.pack('<13I', 0x04030201, 0x1401, 1, 0x1908, 0x8058, 0x1908,
                                                      w, h, 0, 0, 1, 1, len(kv))
    px = rgba_pixels(w, h)
    write(out, hdr + kv + struct.pack('<I', len(px)) + px)


def ktx2(out):
    """KTX 2.0: identifier AB 4B 54 58 20 32 30 BB 0D 0A 1A 0A; vkFormat 37
    (VK_FORMAT_R8G8B8A8_UNORM), typeSize 1, 8x8, 1 level, no supercompression;
    index (DFD/KVD/SGD offsets), level index, a basic Data Format Descriptor
    for RGBA8 and one KTXwriter key/value, then the level data."""
    w = h = 8
    px = rgba_pixels(w, h)
    # Basic DFD block (Khronos Data Format 1.3) for R8G8B8A8_UNORM: header
    # (vendorId/descriptorType 0, version 2, size), colour model RGBSDA,
    # primaries BT709, transfer linear, flags 0, texel block 1x1x1x1,
    # bytesPlane0 = 4, then four 16-byte samples R, G, B, A (8 bits each).
    samples = b''.join(struct.pack('<HBB', i * 8, 7, ch) + bytes(4) + struct.pack('<II', 0, 255)
                       for i, ch in enumerate((0, 1, 2, 15)))
    block_size = 24 + len(samples)
    dfd_block = struct.pack('<IHH', 0, 2, block_size) + bytes([1, 1, 1, 0]) + bytes(4) + \
        bytes([4, 0, 0, 0, 0, 0, 0, 0]) + samples
    dfd = struct.pack('<I', 4 + len(dfd_block)) + dfd_block
    kvd_pair = b'KTXwriter\0synthesize.py\0'
    kvd = struct.pack('<I', len(kvd_pair)) + kvd_pair
    kvd += b'\0' * (-len(kvd) % 4)
    header_len = 12 + 4 * 9 + 4 * 4 + 2 * 8  # identifier + 9 u32 + index (4 u32 + 2 u64)
    level_index_len = 24
    dfd_off = header_len + level_index_len
    kvd_off = dfd_off + len(dfd)
    data_off = kvd_off + len(kvd)
    data_off += (-data_off) % 16
    hdr = b'\xabKTX 20\xbb\r\n\x1a\n' + struct.pack('<9I', 37, 1, w, h, 0, 0, 1, 1, 0)
    hdr += struct.pack('<IIIIQQ', dfd_off, len(dfd), kvd_off, len(kvd), 0, 0)
    assert len(hdr) == header_len
    level = struct.pack('<QQQ', data_off, len(px), len(px))
    body = hdr + level + dfd + kvd
    body += b'\0' * (data_off - len(body))
    write(out, body + px)


def pvr3(out):
    """PVR v3 (PowerVR / Imagination): 52-byte little-endian header: version
    0x03525650 ("PVR\\3"), flags 0, pixel format u64 = channel order 'rgba'
    with 8,8,8,8 bits, colour space 0 (linear), channel type 0 (unsigned byte
    normalised), height, width, depth 1, surfaces 1, faces 1, mipmaps 1,
    metadata size 0; then RGBA8 texels."""
    w = h = 8
    pf = struct.unpack('<Q', b'rgba' + bytes([8, 8, 8, 8]))[0]
    hdr = struct.pack('<IIQIIIIIIIII', 0x03525650, 0, pf, 0, 0, h, w, 1, 1, 1, 1, 0)
    assert len(hdr) == 52
    write(out, hdr + rgba_pixels(w, h))


def pvr2(out):
    """Legacy PVR v2 header (52 bytes): header size 52, height, width, mip
    count 0, flags (pixel type 0x12 = OGL_RGBA_8888), data size, bpp 32, R/G/B/A
    bit masks, "PVR!" tag at offset 44, surface count 1; then texels."""
    w = h = 8
    px = rgba_pixels(w, h)
    hdr = struct.pack('<11I', 52, h, w, 0, 0x12, len(px), 32, 0x000000FF, 0x0000FF00, 0x00FF0000, 0xFF000000)
    hdr += b'PVR!' + struct.pack('<I', 1)
    assert len(hdr) == 52
    write(out, hdr + px)


def astc_header(out, blocks_path, bx, by, w, h):
    """.astc file: 16-byte header (magic 13 AB A1 5C, block dims x,y,z, 24-bit
    LE width, height, depth) followed by 128-bit blocks read from blocks_path
    (produced by the ARM astc-encoder via astc_encoder-py)."""
    hdr = struct.pack('<I', 0x5CA1AB13) + bytes([bx, by, 1]) + \
        w.to_bytes(3, 'little') + h.to_bytes(3, 'little') + (1).to_bytes(3, 'little')
    write(out, hdr + read(blocks_path))


def astc_void(out):
    """.astc file with hand-made blocks: 16-byte header, 4x4 blocks, 8x8 image
    = 4 blocks, each a valid void-extent (constant colour) block."""
    hdr = struct.pack('<I', 0x5CA1AB13) + bytes([4, 4, 1]) + (8).to_bytes(3, 'little') * 2 + (1).to_bytes(3, 'little')
    # void-extent block: bits 0..8 = 0x1FC, bit 9 = HDR flag 0, bits 10..11 = 11,
    # extent coordinates all ones (= no extent), then RGBA UNORM16.
    blk = struct.pack('<Q', 0xFFFFFFFFFFFFFDFC) + struct.pack('<HHHH', 0xFFFF, 0x8000, 0x2000, 0xFFFF)
    write(out, hdr + blk * 4)


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


def xcf(out, version):
    """XCF: "gimp xcf " + ("file" | "v0NN") + NUL, u32 width, height, base
    type 0 (RGB); version >= 4 adds u32 precision; image property list ending
    with PROP_END (0,0) after PROP_COMPRESSION; zero-terminated (empty) layer
    and channel pointer lists (64-bit pointers for version >= 11)."""
    if version == 0:
        magic = b'gimp xcf file\0'
    else:
        magic = b'gimp xcf v%03d\0' % version
    h = magic + struct.pack('>III', 16, 16, 0)
    if version >= 4:
        h += struct.pack('>I', 150)  # 8-bit gamma integer
    h += struct.pack('>IIB', 17, 1, 1)  # PROP_COMPRESSION, len 1, RLE
    h += struct.pack('>II', 0, 0)  # PROP_END
    ptr = '>Q' if version >= 11 else '>I'
    h += struct.pack(ptr, 0) + struct.pack(ptr, 0)
    write(out, h)


def bmp_v4(out):
    """BMP with a BITMAPV4HEADER (108 bytes): 8x8, 32 bpp BI_BITFIELDS with
    R/G/B/A masks, LCS_sRGB colour space ('sRGB'), bottom-up BGRA pixels."""
    w = h = 8
    px = b''.join(bytes([96, (y * 255) // 7, (x * 255) // 7, 255]) for y in range(h) for x in range(w))
    dib = struct.pack('<IiiHHIIiiII', 108, w, h, 1, 32, 3, len(px), 2835, 2835, 0, 0)
    dib += struct.pack('<IIII', 0x00FF0000, 0x0000FF00, 0x000000FF, 0xFF000000)
    dib += b'BGRs' + b'\0' * 36 + struct.pack('<III', 0, 0, 0)
    assert len(dib) == 108
    off = 14 + len(dib)
    write(out, b'BM' + struct.pack('<IHHI', off + len(px), 0, 0, off) + dib + px)


def bmp_v2_os2(out):
    """OS/2 2.x BMP (BITMAPINFOHEADER2, 64 bytes): 8x8, 24 bpp, bottom-up BGR."""
    w = h = 8
    px = b''
    for y in range(h):
        px += b''.join(bytes([64, y * 32, x * 32]) for x in range(w))
    dib = struct.pack('<IiiHHIIiiII', 64, w, h, 1, 24, 0, len(px), 2835, 2835, 0, 0) + b'\0' * 24
    assert len(dib) == 64
    off = 14 + len(dib)
    write(out, b'BM' + struct.pack('<IHHI', off + len(px), 0, 0, off) + dib + px)


def cur_from_ico(out, ico):
    """CUR: an ICO written by a real encoder with the ICONDIR type changed from
    1 (icon) to 2 (cursor) and each directory entry's planes/bit-count fields
    replaced by the hotspot (x, y) = (0, 0), as the CUR layout defines."""
    d = bytearray(read(ico))
    reserved, typ, count = struct.unpack_from('<HHH', d, 0)
    assert reserved == 0 and typ == 1
    struct.pack_into('<H', d, 2, 2)
    for i in range(count):
        struct.pack_into('<HH', d, 6 + 16 * i + 4, 0, 0)
    write(out, bytes(d))


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


# ----------------------------------------------------------------------------
# ISO-BMFF: HEIF still items and rewrites
# ----------------------------------------------------------------------------
def heif_still(major, compat, item_type, props, data, w, h):
    """Minimal HEIF still image: ftyp, meta (hdlr 'pict', pitm 1, iloc v0 with
    one extent pointing into mdat, iinf v0 with infe v2 for item 1 of the given
    type, iprp/ipco with the given configuration property + ispe, ipma
    associating them), mdat."""
    ftyp = box(b'ftyp', major + struct.pack('>I', 0) + b''.join(compat))
    hdlr = fullbox(b'hdlr', 0, 0, struct.pack('>I', 0) + b'pict' + b'\0' * 12 + b'\0')
    pitm = fullbox(b'pitm', 0, 0, struct.pack('>H', 1))
    infe = fullbox(b'infe', 2, 0, struct.pack('>HH', 1, 0) + item_type + b'\0')
    iinf = fullbox(b'iinf', 0, 0, struct.pack('>H', 1) + infe)
    ispe = fullbox(b'ispe', 0, 0, struct.pack('>II', w, h))
    ipco = box(b'ipco', b''.join(props) + ispe)
    n = len(props) + 1
    ipma = fullbox(b'ipma', 0, 0, struct.pack('>IHB', 1, 1, n) +
                   bytes([(0x80 if i < len(props) else 0) | (i + 1) for i in range(n)]))
    iprp = box(b'iprp', ipco + ipma)

    def build(mdat_off):
        iloc = fullbox(b'iloc', 0, 0, bytes([0x44, 0x00]) + struct.pack('>H', 1) +
                       struct.pack('>HHH', 1, 0, 1) + struct.pack('>II', mdat_off + 8, len(data)))
        meta = fullbox(b'meta', 0, 0, hdlr + pitm + iloc + iinf + iprp)
        return ftyp + meta
    head = build(0)
    head = build(len(head))
    return head + box(b'mdat', data)


def heif_jpeg(out, jpeg, w, h):
    """HEIF (ISO/IEC 23008-12 Annex H) whose primary item is a JPEG ('jpeg' item
    type) holding a real baseline JPEG made by ImageMagick; ftyp major 'mif1',
    compatible 'mif1' only (no heic/avif brand)."""
    write(out, heif_still(b'mif1', [b'mif1'], b'jpeg', [], read(jpeg), int(w), int(h)))


def split_annexb(data):
    nals, i = [], 0
    starts = []
    while True:
        j = data.find(b'\0\0\1', i)
        if j < 0:
            break
        starts.append(j + 3)
        i = j + 3
    for k, s in enumerate(starts):
        e = starts[k + 1] - 3 if k + 1 < len(starts) else len(data)
        nal = data[s:e]
        while nal.endswith(b'\0') and k + 1 < len(starts):
            nal = nal[:-1]
        nals.append(nal)
    return nals


def avci(out, h264, w, h):
    """AVCI: HEIF still whose primary item is an 'avc1' item: the IDR picture
    of a real H.264 stream (libx264 via ffmpeg) as 4-byte-length-prefixed NAL
    units, with an avcC property built from its SPS/PPS; ftyp major 'avci',
    compatible 'mif1' 'avci' 'miaf'."""
    nals = split_annexb(read(h264))
    sps = [n for n in nals if n[0] & 0x1F == 7][0]
    pps = [n for n in nals if n[0] & 0x1F == 8][0]
    pic = [n for n in nals if n[0] & 0x1F in (5, 6)]
    pic = [n for n in pic if n[0] & 0x1F == 5]
    data = b''.join(struct.pack('>I', len(n)) + n for n in pic)
    avcc = box(b'avcC', bytes([1, sps[1], sps[2], sps[3], 0xFF, 0xE1]) + struct.pack('>H', len(sps)) + sps +
               bytes([1]) + struct.pack('>H', len(pps)) + pps)
    write(out, heif_still(b'avci', [b'mif1', b'avci', b'miaf'], b'avc1', [avcc], data, int(w), int(h)))


def reftyp(out, src, major, *compat):
    """Copy a real encoder's ISO-BMFF (or JP2-family) file, rewriting its ftyp
    box in place (same size, so every absolute offset stays valid): new major
    brand and, when given, a new compatible-brand list of the same length.
    The ftyp box is the first top-level box of that type (JP2 files have the
    'jP  ' signature box before it)."""
    d = bytearray(read(src))
    pos = 0
    while True:
        size, typ = struct.unpack_from('>I4s', d, pos)
        if typ == b'ftyp':
            break
        pos += size
    d[pos + 8:pos + 12] = major.encode().ljust(4)[:4]
    if compat:
        n = (size - 16) // 4
        cb = [c.encode().ljust(4)[:4] for c in compat]
        assert len(cb) == n, ('need %d compatible brands' % n)
        d[pos + 16:pos + size] = b''.join(cb)
    write(out, bytes(d))


def _walk_patch_stco(buf, start, end, delta):
    i = start
    while i + 8 <= end:
        size, typ = struct.unpack_from('>I4s', buf, i)
        if size < 8:
            break
        if typ in (b'moov', b'trak', b'mdia', b'minf', b'stbl'):
            _walk_patch_stco(buf, i + 8, i + size, delta)
        elif typ == b'stco':
            n = struct.unpack_from('>I', buf, i + 12)[0]
            for k in range(n):
                p = i + 16 + 4 * k
                struct.pack_into('>I', buf, p, struct.unpack_from('>I', buf, p)[0] + delta)
        elif typ == b'co64':
            n = struct.unpack_from('>I', buf, i + 12)[0]
            for k in range(n):
                p = i + 16 + 8 * k
                struct.pack_into('>Q', buf, p, struct.unpack_from('>Q', buf, p)[0] + delta)
        i += size


def mj2wrap(out, mov):
    """Motion JPEG 2000 (ISO/IEC 15444-3): takes a QuickTime/MP4 file made by
    ffmpeg with JPEG 2000 video frames, replaces its ftyp by the JPEG 2000
    signature box (00 00 00 0C 'jP  ' 0D 0A 87 0A) + ftyp major 'mjp2'
    compatible 'mjp2', and shifts every stco/co64 chunk offset accordingly."""
    d = bytearray(read(mov))
    size = struct.unpack_from('>I', d, 0)[0]
    assert d[4:8] == b'ftyp'
    rest = bytearray(d[size:])
    head = box(b'jP  ', b'\r\n\x87\n') + box(b'ftyp', b'mjp2' + struct.pack('>I', 0) + b'mjp2')
    delta = len(head) - size
    _walk_patch_stco(rest, 0, len(rest), delta)
    write(out, head + bytes(rest))


def eps_dos(out, eps, tiff):
    """DOS binary EPS (Adobe TN 5002 section "Windows Metafile or TIFF"): 30-byte
    header C5 D0 D3 C6, LE u32 PostScript offset/length, WMF offset/length
    (0), TIFF offset/length, u16 checksum FFFF; then the PostScript section (a
    real EPS from ghostscript eps2write) and the TIFF preview (real TIFF from
    ImageMagick)."""
    ps = read(eps)
    tf = read(tiff)
    hdr = struct.pack('<IIIIIIIH', 0xC6D3D0C5, 30, len(ps), 0, 0, 30 + len(ps), len(tf), 0xFFFF)
    write(out, hdr + ps + tf)


# ----------------------------------------------------------------------------
# Neighbours
# ----------------------------------------------------------------------------
def random_bytes(out, n, seed):
    """Pseudo-random bytes from Python's random.Random(seed)."""
    r = random.Random(int(seed))
    write(out, bytes(r.getrandbits(8) for _ in range(int(n))))


KINDS = {
    'nef': raw_nef, 'nef-le': raw_nef_le, 'nrw': raw_nrw, 'cr2': raw_cr2, 'crw': raw_crw,
    'orf': raw_orf, 'panasonic': raw_panasonic, 'raf': raw_raf, 'x3f': raw_x3f, 'mrw': raw_mrw,
    'rwz': raw_rwz, 'cr3': raw_cr3, 'iiq': raw_iiq, 'plain-tiff': raw_plain_tiff,
    'ktx': ktx1, 'ktx2': ktx2, 'pvr3': pvr3, 'pvr2': pvr2, 'astc-header': astc_header,
    'astc-void': astc_void, 'farbfeld': farbfeld, 'flif': flif, 'flif-anim': flif_anim, 'bpg': bpg,
    'bmp-v4': bmp_v4, 'bmp-os2v2': bmp_v2_os2, 'cur-from-ico': cur_from_ico, 'ora': ora,
    'heif-jpeg': heif_jpeg, 'avci': avci, 'reftyp': reftyp, 'mj2wrap': mj2wrap,
    'random': random_bytes, 'eps-dos': eps_dos,
}


def main(argv):
    kind, out, *args = argv[1:]
    if kind == 'xcf':
        return xcf(out, int(args[0]))
    if kind == 'sony':
        return raw_sony(out, args[0], args[1])
    if kind == 'tiff-raw':
        # tiff-raw OUT MAKE MODEL COMPRESSION WHERE [SOFTWARE] [ORDER]
        make, model, comp, where = args[0], args[1], int(args[2]), args[3]
        software = args[4] if len(args) > 4 and args[4] else None
        order = args[5] if len(args) > 5 else '<'
        extra = ()
        if make == 'Leaf':
            # LeafData (0x8606): one PKTS record: 'PKTS', 4 bytes, 40-byte NUL-padded
            # name, u32 size (file byte order), value
            val = b'Aptus 75\0'
            rec = b'PKTS\0\0\0\x01' + b'CameraObj_camera_type'.ljust(40, b'\0') + \
                struct.pack((args[5] if len(args) > 5 else '<') + 'I', len(val)) + val
            extra = ((0x8606, UNDEF, rec),)
        return raw_simple(out, make, model, comp, where, software, order, None, extra)
    if kind == 'astc-header':
        return astc_header(out, args[0], int(args[1]), int(args[2]), int(args[3]), int(args[4]))
    KINDS[kind](out, *args)


if __name__ == '__main__':
    main(sys.argv)

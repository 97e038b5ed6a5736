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
    raw: older Panasonic .RAW: IFD0 directly at offset 8 (no signature).
    leica-raw: the same older .RAW layout with Make LEICA (Leica D-LUX 3, the twin of the
    Panasonic DMC-LX2; Apple's com.leica.raw-image)."""
    if variant in ('raw', 'leica-raw'):
        hdr = b'IIU\0' + struct.pack('<I', 8)
        make, model, ver, ifd0 = 'Panasonic', 'DMC-FZ30', b'0100', 8
        if variant == 'leica-raw':
            make, model = 'LEICA', 'D-LUX 3'

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


def ipma_per_item(out, src):
    """Copy a real encoder's HEIF file (avifenc's AVIF with an alpha plane: two items, one
    ipma box), writing one ipma box per item instead (as cavif and other encoders do; the
    format allows several). The meta box grows, so iloc's file offsets are shifted to match."""
    d = bytearray(read(src))

    def find(typ, start, end):
        o = start
        while o + 8 <= end:
            size, t = struct.unpack('>I4s', d[o:o + 8])
            if t == typ:
                return o, size
            o += size
        raise SystemExit('ipma-per-item: no %r box' % typ)
    ftyp_size = struct.unpack('>I', d[0:4])[0]
    meta, meta_size = find(b'meta', ftyp_size, len(d))
    iprp, iprp_size = find(b'iprp', meta + 12, meta + meta_size)
    ipma, ipma_size = find(b'ipma', iprp + 8, iprp + iprp_size)
    version, flags = d[ipma + 8], int.from_bytes(d[ipma + 9:ipma + 12], 'big')
    count = struct.unpack('>I', d[ipma + 12:ipma + 16])[0]
    o, entries = ipma + 16, []
    for _ in range(count):
        start = o
        o += 2 if version < 1 else 4
        n = d[o]
        o += 1 + n * (2 if flags & 1 else 1)
        entries.append(bytes(d[start:o]))
    boxes = b''.join(fullbox(b'ipma', version, flags, struct.pack('>I', 1) + e) for e in entries)
    delta = len(boxes) - ipma_size
    d[ipma:ipma + ipma_size] = boxes
    struct.pack_into('>I', d, iprp, iprp_size + delta)
    struct.pack_into('>I', d, meta, meta_size + delta)
    # iloc: offsets into the file move with everything after meta.
    iloc, _ = find(b'iloc', meta + 12, meta + meta_size + delta)
    v = d[iloc + 8]
    sizes = d[iloc + 12], d[iloc + 13]
    offset_size, length_size, base_size = sizes[0] >> 4, sizes[0] & 15, sizes[1] >> 4
    index_size = sizes[1] & 15 if v in (1, 2) else 0
    o = iloc + 14
    items = struct.unpack('>H', d[o:o + 2])[0] if v < 2 else struct.unpack('>I', d[o:o + 4])[0]
    o += 2 if v < 2 else 4

    def shift(pos, size):
        if size:
            value = int.from_bytes(d[pos:pos + size], 'big') + delta
            d[pos:pos + size] = value.to_bytes(size, 'big')
    for _ in range(items):
        o += 2 if v < 2 else 4
        method = 0
        if v in (1, 2):
            method = struct.unpack('>H', d[o:o + 2])[0] & 15
            o += 2
        o += 2  # data reference index
        base_at = o
        o += base_size
        extents = struct.unpack('>H', d[o:o + 2])[0]
        o += 2
        if method == 0 and base_size:
            shift(base_at, base_size)
        for _ in range(extents):
            o += index_size
            if method == 0 and not base_size:
                shift(o, offset_size)
            o += offset_size + length_size
    write(out, bytes(d))


def gltf_indices(out):
    """A glTF 2.0 binary buffer as 3D tools write them (assimp's test models): a cube's
    triangle indices as little-endian uint16 (0, 1, 2, 3, 2, 1, ...), then its vertex
    positions as float32. Its first six bytes read as an icon directory (reserved 0, type 1,
    two entries); nothing after them does."""
    indices = []
    for face in range(6):
        b = face * 4
        indices += [b, b + 1, b + 2, b + 3, b + 2, b + 1]
    corners = [(x, y, z) for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)]
    positions = [corners[i % 8] for i in range(24)]
    write(out, struct.pack('<%dH' % len(indices), *indices) +
          b''.join(struct.pack('<3f', *p) for p in positions))


def bmp_planes_zero(out, src):
    """Copy a real encoder's BMP with its planes field (bytes 26-27) set to 0, as some test
    generators write it (Wine's Media Foundation tests); readers ignore the field."""
    d = bytearray(read(src))
    d[26:28] = b'\0\0'
    write(out, bytes(d))


def prepend(out, src, text):
    """Copy a real encoder's text file with `text` (a C comment, say) in front."""
    write(out, text.encode().decode('unicode_escape').encode() + read(src))


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



# ----------------------------------------------------------------------------
# long-tail raster formats (ImageSniff "longtail" family)
# ----------------------------------------------------------------------------
def _ramp_rgb(w, h):
    """Deterministic RGB test pattern, w*h*3 bytes (R = x ramp, G = y ramp, B = checker)."""
    out = bytearray()
    for y in range(h):
        for x in range(w):
            out += bytes(((x * 255) // max(w - 1, 1), (y * 255) // max(h - 1, 1), 255 if (x // 4 + y // 4) % 2 else 40))
    return bytes(out)


def alias_pix(out):
    """Alias/Wavefront PIX: 10-byte big-endian header (width, height, x offset, y offset,
    bits per pixel = 24) then per scanline run-length packets of 4 bytes:
    count (1-255), blue, green, red.  No magic number."""
    w = h = 16
    px = _ramp_rgb(w, h)
    buf = bytearray(struct.pack('>HHHHH', w, h, 0, 0, 24))
    for y in range(h):
        row = [px[(y * w + x) * 3:(y * w + x) * 3 + 3] for x in range(w)]
        x = 0
        while x < w:
            run = 1
            while x + run < w and run < 255 and row[x + run] == row[x]:
                run += 1
            r, g, b = row[x]
            buf += bytes((run, b, g, r))
            x += run
    write(out, bytes(buf))


def _iff_chunk(cid, data):
    pad = b'\0' if len(data) % 2 else b''
    return cid + struct.pack('>I', len(data)) + data + pad


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


# ---- OLE2 / Compound File Binary (for FlashPix) -----------------------------
def _cfb(entries, clsid_root):
    """Minimal CFB v3 writer (512-byte sectors, every stream >= 4096 bytes so no mini
    stream is needed).  entries: list of (name, kind, clsid_bytes, data, children_idx)
    where kind 1 = storage, 2 = stream; index 0 is the root (kind 5)."""
    SS = 512
    ENDOFCHAIN, FREESECT, FATSECT = 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFD
    sectors = []
    fat = []
    starts = {}
    for i, e in enumerate(entries):
        if e[1] == 2:
            data = e[3]
            assert len(data) >= 4096
            n = (len(data) + SS - 1) // SS
            first = len(sectors)
            for k in range(n):
                sectors.append(data[k * SS:(k + 1) * SS].ljust(SS, b'\0'))
                fat.append(first + k + 1 if k < n - 1 else ENDOFCHAIN)
            starts[i] = first
    # directory sectors
    ndir = (len(entries) * 128 + SS - 1) // SS
    dir_first = len(sectors)
    dirbuf = bytearray()
    for i, (name, kind, clsid, data, children) in enumerate(entries):
        nm = name.encode('utf-16-le') + b'\0\0'
        # children as a simple right-linked chain (all black): child = first, right sibling = next
        child = children[0] if children else 0xFFFFFFFF
        e = bytearray(128)
        e[0:len(nm)] = nm
        struct.pack_into('<HBB', e, 64, len(nm), kind, 1)
        struct.pack_into('<III', e, 68, 0xFFFFFFFF, 0xFFFFFFFF, child)
        e[80:96] = clsid
        if kind == 2:
            struct.pack_into('<II', e, 116, starts[i], len(data))
        elif kind == 5:
            struct.pack_into('<II', e, 116, ENDOFCHAIN, 0)
        else:
            struct.pack_into('<II', e, 116, 0, 0)
        dirbuf += e
    # sibling links: within each parent, chain children via right sibling
    for i, (name, kind, clsid, data, children) in enumerate(entries):
        for a, b in zip(children, children[1:]):
            struct.pack_into('<I', dirbuf, a * 128 + 72, b)
    dirbuf = bytes(dirbuf).ljust(ndir * SS, b'\0')
    for k in range(ndir):
        sectors.append(dirbuf[k * SS:(k + 1) * SS])
        fat.append(dir_first + k + 1 if k < ndir - 1 else ENDOFCHAIN)
    # FAT sector(s)
    nfat = 1
    while (len(sectors) + nfat) > nfat * (SS // 4):
        nfat += 1
    fat_first = len(sectors)
    fat += [FATSECT] * nfat
    fat += [FREESECT] * (nfat * (SS // 4) - len(fat))
    fatbytes = struct.pack('<%dI' % len(fat), *fat)
    for k in range(nfat):
        sectors.append(fatbytes[k * SS:(k + 1) * SS])
    hdr = bytearray(512)
    hdr[0:8] = b'\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1'
    struct.pack_into('<HHHHH', hdr, 24, 0x3E, 3, 0xFFFE, 9, 6)
    struct.pack_into('<IIIIIIIII', hdr, 40, 0, nfat, dir_first, 0, 4096, ENDOFCHAIN, 0, ENDOFCHAIN, 0)
    difat = [fat_first + k for k in range(nfat)] + [FREESECT] * (109 - nfat)
    struct.pack_into('<109I', hdr, 76, *difat)
    return bytes(hdr) + b''.join(sectors)


def _guid(s):
    import uuid
    return uuid.UUID(s).bytes_le


def _propset(fmtid, props):
    """OLE property set stream with one section; props: list of (id, vt, payload)."""
    body = b''
    offs = []
    for pid, vt, payload in props:
        offs.append((pid, 8 + 8 * len(props) + len(body)))
        body += struct.pack('<I', vt) + payload
        body += b'\0' * (-len(body) % 4)
    sec = struct.pack('<II', 8 + 8 * len(props) + len(body), len(props)) + \
        b''.join(struct.pack('<II', pid, off) for pid, off in offs) + body
    head = struct.pack('<HHI', 0xFFFE, 0, 0x00020005) + b'\0' * 16 + struct.pack('<I', 1) + \
        _guid(fmtid) + struct.pack('<I', 48)
    return head + sec


def fpx(out):
    """FlashPix (Kodak, 1996): an OLE2 compound file whose root storage CLSID is
    56616700-C154-11CE-8553-00AA00A1F95B (FlashPix image object), with a storage
    'Data Object Store 000001' holding the '\\x05Image Contents' property set (section
    FMTID 56616000-C154-11CE-8553-00AA00A1F95B; 0x01000000 number of resolutions,
    0x01000002 width, 0x01000003 height) and a '\\x05SummaryInformation' stream.
    Header-level only: no resolution/tile streams, so no pixels decode."""
    VT_UI4 = 19
    props = [(0x01000000, VT_UI4, struct.pack('<I', 1)), (0x01000002, VT_UI4, struct.pack('<I', 32)),
             (0x01000003, VT_UI4, struct.pack('<I', 32))]
    ic = _propset('56616000-C154-11CE-8553-00AA00A1F95B', props).ljust(4096, b'\0')
    si = _propset('F29F85E0-4FF9-1068-AB91-08002B27B3D9', [(2, 30, struct.pack('<I', 9) + b'rose.fpx\0')]).ljust(4096, b'\0')
    entries = [
        ('Root Entry', 5, _guid('56616700-C154-11CE-8553-00AA00A1F95B'), b'', [1, 3]),
        ('Data Object Store 000001', 1, _guid('56616100-C154-11CE-8553-00AA00A1F95B'), b'', [2]),
        ('\x05Image Contents', 2, b'\0' * 16, ic, []),
        ('\x05SummaryInformation', 2, b'\0' * 16, si, []),
    ]
    write(out, _cfb(entries, None))


def ole2_other(out):
    """Neighbour: an OLE2 compound file with a root CLSID that is not FlashPix (all zero)
    and one 4 KiB stream 'Contents' of text.  Not an image."""
    data = (b'This OLE2 compound file is not a FlashPix image. ' * 100)[:4096]
    entries = [('Root Entry', 5, b'\0' * 16, b'', [1]), ('Contents', 2, b'\0' * 16, data, [])]
    write(out, _cfb(entries, None))


def gimp_gbr(out, version='2', depth='1'):
    """GIMP brush: big-endian header (header size, version, width, height, bytes per
    pixel 1 or 4; version 2 adds magic 'GIMP' at 20 and spacing), NUL-terminated UTF-8
    name, then width*height*bytes pixels."""
    version, depth = int(version), int(depth)
    w = h = 16
    name = b'ImageSniff brush\0'
    if version == 1:
        hdr = struct.pack('>IIIII', 20 + len(name), 1, w, h, depth)
    else:
        hdr = struct.pack('>IIIII', 28 + len(name), 2, w, h, depth) + b'GIMP' + struct.pack('>I', 25)
    if depth == 1:
        px = bytes(max(0, 255 - 32 * int(((x - 7.5) ** 2 + (y - 7.5) ** 2) ** 0.5)) for y in range(h) for x in range(w))
    else:
        px = bytes(v for y in range(h) for x in range(w) for v in (x * 16, y * 16, 128, 255))
    write(out, hdr + name + px)


def gimp_pat(out):
    """GIMP pattern: big-endian header (header size, version 1, width, height, bytes per
    pixel 1-4), magic 'GPAT' at 20, NUL-terminated name, then pixels."""
    w = h = 16
    name = b'ImageSniff pattern\0'
    hdr = struct.pack('>IIIII', 24 + len(name), 1, w, h, 3) + b'GPAT'
    write(out, hdr + name + _ramp_rgb(w, h))


def gimp_gih(out, gbr1, gbr2):
    """GIMP image hose (animated brush): text line with the name, text line with the
    brush count and parameters, then the GBR brushes concatenated."""
    a, b = read(gbr1), read(gbr2)
    hdr = b'ImageSniff hose\n2 ncells:2 cellwidth:16 cellheight:16 step:20 dimension:1 cols:2 rows:1 placement:constant rank0:2 sel0:incremental\n'
    write(out, hdr + a + b)


def pixar(out):
    """Pixar image computer PIC/PXR: magic 80 E8 00 00, 512-byte little-endian header
    (height at 416, width at 418, channel/depth code 14,2 = 8-bit RGB at 424/426), pixel
    data (RGB, row major) from offset 1024."""
    w = h = 16
    hdr = bytearray(1024)
    hdr[0:4] = b'\x80\xe8\x00\x00'
    struct.pack_into('<HH', hdr, 416, h, w)
    struct.pack_into('<HH', hdr, 424, 14, 2)
    write(out, bytes(hdr) + _ramp_rgb(w, h))


def quake_wal(out):
    """Quake II WAL texture: 100-byte little-endian header (name[32], width, height, four
    mip offsets 100, 100+wh, 100+wh*5/4, 100+wh*21/16, next-frame name[32], flags,
    contents, value), then 4 mip levels of 8-bit palette indices (Quake II palette)."""
    w = h = 16
    name = b'e1u1/imagesniff'.ljust(32, b'\0')
    mips = [bytes(((x * 8 + y * 3) & 255) for y in range(h >> m) for x in range(w >> m)) for m in range(4)]
    offs = []
    o = 100
    for m in mips:
        offs.append(o)
        o += len(m)
    hdr = name + struct.pack('<II4I', w, h, *offs) + b'\0' * 32 + struct.pack('<III', 0, 0, 0)
    assert len(hdr) == 100
    write(out, hdr + b''.join(mips))


def mcidas(out):
    """McIDAS AREA file: 64-word big-endian area directory (word 1 = 0, word 2 = 4 type,
    word 3 = sensor source, 4/5 date/time, 6/7 upper-left line/element, 9 lines, 10
    elements, 11 bytes per element, 12/13 resolution, 14 bands, 15 line prefix bytes,
    34 data offset, 35 nav offset), then 8-bit data."""
    w = h = 16
    d = [0] * 64
    d[0], d[1], d[2] = 0, 4, 70           # words 1-3 (0-based here)
    d[3], d[4] = 124001, 120000            # YYDDD, HHMMSS
    d[5], d[6] = 1, 1
    d[8], d[9], d[10] = h, w, 1
    d[11], d[12], d[13], d[14] = 1, 1, 1, 0
    d[33], d[34] = 256, 0
    data = bytes(((x * 16 + y * 4) & 255) for y in range(h) for x in range(w))
    write(out, struct.pack('>64i', *d) + data)


def gd(out, kind):
    """libgd GD 2.x (.gd): big-endian signature u16 0xFFFE truecolour / 0xFFFF palette,
    width, height, truecolour flag byte, then (palette) colour count u16, transparent
    index u32, 256 x RGBA palette, one byte per pixel; (truecolour) transparent u32,
    then one ARGB u32 per pixel (alpha 0 opaque .. 127 transparent)."""
    w = h = 16
    if kind == 'truecolor':
        hdr = struct.pack('>HHHBI', 0xFFFE, w, h, 1, 0xFFFFFFFF)
        px = b''.join(struct.pack('>BBBB', 0, x * 16, y * 16, 128) for y in range(h) for x in range(w))
    else:
        hdr = struct.pack('>HHHBHI', 0xFFFF, w, h, 0, 16, 0xFFFFFFFF)
        hdr += b''.join(bytes((i * 16, 255 - i * 16, 128, 0)) for i in range(16)) + b'\0' * (240 * 4)
        px = bytes(((x // 4 + y // 4 * 4) & 15) for y in range(h) for x in range(w))
    write(out, hdr + px)


def gd2(out, kind):
    """libgd GD2: magic 'gd2\\0', version u16 2, width, height, chunk size, format
    (1 raw palette, 2 zlib palette, 3 raw truecolour, 4 zlib truecolour), chunks x/y;
    compressed formats then have a chunk index (offset u32, size u32 per chunk); then the
    same colour header as GD (truecolour flag, ...), then pixel data per chunk."""
    w = h = 16
    cs = 16
    if kind == 'palette-zlib':
        hdr = b'gd2\0' + struct.pack('>HHHHHHH', 2, w, h, cs, 2, 1, 1)
        colour = struct.pack('>BHI', 0, 16, 0xFFFFFFFF) + b''.join(bytes((i * 16, 255 - i * 16, 128, 0)) for i in range(16)) + b'\0' * 960
        raw = bytes(((x // 4 + y // 4 * 4) & 15) for y in range(h) for x in range(w))
        comp = zlib.compress(raw, 9)
        index_at = len(hdr) + 8 + len(colour)
        index = struct.pack('>II', index_at, len(comp))
        write(out, hdr + index + colour + comp)
    else:   # raw truecolour
        hdr = b'gd2\0' + struct.pack('>HHHHHHH', 2, w, h, cs, 3, 1, 1)
        colour = struct.pack('>BI', 1, 0xFFFFFFFF)
        px = b''.join(struct.pack('>BBBB', 0, x * 16, y * 16, 128) for y in range(h) for x in range(w))
        write(out, hdr + colour + px)


def atx(out):
    """Apple ATX texture container, layout as observed in one third-party reverse-engineered
    reader (low confidence): 8-byte signature 'AAPL' 0D 0A 1A 0A, then chunks (LE u32
    payload size, 4-char tag, payload): 'HEAD' (84 bytes; u32 at 16 = GL pixel format
    0x93B0 ASTC 4x4, 24 = width, 28 = height, 32 = depth 1, 40 = 1, 44 = mip count 1,
    16-byte identifier at 60), 'astc' (u32 inner length + ASTC 4x4 blocks), 'END ' (0)."""
    w = h = 8
    head = bytearray(84)
    struct.pack_into('<I', head, 16, 0x93B0)
    struct.pack_into('<IIII', head, 24, w, h, 1, 0)
    struct.pack_into('<II', head, 40, 1, 1)
    head[60:76] = bytes(range(0x10, 0x20))
    # ASTC LDR void-extent blocks (constant colour), one per 4x4 block
    blocks = b''
    for c in [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)]:
        blocks += bytes((0xFC, 0xFD, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF)) + struct.pack('<4H', *(v * 257 for v in c), 0xFFFF)
    tex = struct.pack('<I', len(blocks)) + blocks

    def chunk(tag, data):
        return struct.pack('<I', len(data)) + tag + data
    write(out, b'AAPL\r\n\x1a\n' + chunk(b'HEAD', bytes(head)) + chunk(b'astc', tex) + chunk(b'END ', b''))


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


def mpf_thumbnail(out, mpo):
    """Turn a real 2-frame Pillow MPO (primary 32x32 + 16x16 second frame) into a plain
    JPEG with a large-thumbnail MP entry: in the APP2 'MPF' MP Index IFD, set the first
    MPEntry attribute to 0x20030000 (representative, baseline primary) and the second to
    0x00010001 (large thumbnail, VGA class).  Offsets and sizes are unchanged."""
    mpf_types(out, mpo, '0x20030000', '0x00010001')


def mpf_types(out, mpo, *types):
    """Set the MPEntry attributes (MP type codes and flags, CIPA DC-007 5.2.3.3.1) of a real
    Pillow MPO to the given values, one per entry in order: e.g. 0x20020002 0x00020002 for a
    stereo pair (multi-frame, disparity), as cameras such as Fujifilm's W3 write it.  Pillow
    itself writes 0x00030000 + 0x00000000 (primary + undefined).  Offsets and sizes are
    unchanged."""
    d = bytearray(read(mpo))
    i = d.find(b'MPF\0')
    assert i > 0
    t = i + 4
    order = '<' if d[t:t + 2] == b'II' else '>'
    ifd = struct.unpack(order + 'I', d[t + 4:t + 8])[0]
    n = struct.unpack(order + 'H', d[t + ifd:t + ifd + 2])[0]
    for k in range(n):
        e = t + ifd + 2 + 12 * k
        tag, typ, cnt, val = struct.unpack(order + 'HHII', d[e:e + 12])
        if tag == 0xB002:
            ent = t + val
            assert cnt == 16 * len(types), (cnt, types)
            for k, value in enumerate(types):
                struct.pack_into(order + 'I', d, ent + 16 * k, int(value, 16))
            write(out, bytes(d))
            return
    raise SystemExit('no MPEntry')


# ----------------------------------------------------------------------------
# formats and edge cases found in the real-world corpus (ImageSniff "realworld" family)
# ----------------------------------------------------------------------------
def _read_ppm(path):
    """Binary PPM (P6, maxval 255, no comments) as written by ImageMagick or netpbm:
    returns (width, height, RGB bytes)."""
    d = read(path)
    parts = d.split(maxsplit=4)
    assert parts[0] == b'P6' and parts[3] == b'255', parts[:4]
    w, h = int(parts[1]), int(parts[2])
    return w, h, d[len(d) - w * h * 3:]


def _wp_len(n):
    """WordPerfect variable-length integer (WPG 1 record length, WPG 2 extension and
    length): one byte if < 0xFF, else FF + LE u16 if < 0x8000, else FF + LE u16
    (0x8000 | high 15 bits) + LE u16 (low 16 bits)."""
    if n < 0xFF:
        return bytes((n,))
    if n < 0x8000:
        return b'\xff' + struct.pack('<H', n)
    return b'\xff' + struct.pack('<HH', 0x8000 | (n >> 16), n & 0xFFFF)


def _wpg1_rle(row):
    """WPG 1 bitmap RLE: 0x80|n followed by one byte = that byte n times (n 1..127);
    n (1..127) followed by n bytes = literal bytes."""
    out = bytearray()
    i = 0
    while i < len(row):
        j = i
        while j < len(row) and j - i < 127 and row[j] == row[i]:
            j += 1
        if j - i >= 3:
            out += bytes((0x80 | (j - i), row[i]))
            i = j
            continue
        j = i
        while j < len(row) and j - i < 127 and not (j + 2 < len(row) and row[j] == row[j + 1] == row[j + 2]):
            j += 1
        out += bytes((j - i,)) + row[i:j]
        i = j
    return bytes(out)


# 16-colour palette (the EGA colours) used by the WPG and TIM writers
EGA16 = [(0, 0, 0), (0, 0, 170), (0, 170, 0), (0, 170, 170), (170, 0, 0), (170, 0, 170), (170, 85, 0),
         (170, 170, 170), (85, 85, 85), (85, 85, 255), (85, 255, 85), (85, 255, 255), (255, 85, 85),
         (255, 85, 255), (255, 255, 85), (255, 255, 255)]


def wpg(out, variant):
    """WordPerfect Graphics (WPG), no encoder here (ImageMagick and GraphicsMagick only read
    it, libwpg only converts from it).  16-byte header: FF 'WPC', LE u32 offset of the first
    record, product type 1 (WordPerfect), file type 0x16 (graphics), major version, minor
    version 0, encryption key 0, reserved 0.
    v1-bitmap / v1-vector (WPG 1.0, records start at 16): records are type byte +
      variable-length size (see _wp_len) + data.  Start WPG (0x0F: version 1, flags 0,
      width and height in 1/1200 inch), then either a colour map (0x0E: first index 0,
      16 entries, RGB) and a bitmap type 1 (0x0B: 16x16, 4 bpp, 75 dpi, rows in WPG RLE),
      or fill attributes (0x01), line attributes (0x02), a rectangle (0x07) and a line
      (0x05); then End WPG (0x10, size 0).
    v2-bitmap (WPG 2.0, records start at 0x1A): bytes 16-25 as in the WPG 2 files of
      GraphicsMagick's test suite (03 00 00 00, LE u32 file size, 00 00).  Records are
      class byte + type byte + variable-length extension + variable-length size + data:
      Start WPG (type 0x01: units 1200/1200, 16-bit precision, viewport and bounding box
      0,0,16,16), bitmap object (0x1B: characterization flags 0x20 = has object id, id
      0x21, then x1 y1 x2 y2, 75 dpi), colour palette (0x0C: 16 RGBA entries), bitmap data
      (0x0E: 16x16, colour format 4 = 8 bpp, compression 0, raw rows), End WPG (0x02).
      (8 bpp because libwpg wants (width/2 + 1) * height bytes for a raw 4-bpp raster and
      skips a smaller one.)  Checked with libwpg's wpg2raw and ImageMagick."""
    w = h = 16
    pix = [((x // 4) + (y // 4) * 4 + (1 if (x + y) % 8 == 0 else 0)) & 15 for y in range(h) for x in range(w)]
    rows = [bytes((pix[y * w + x] << 4) | pix[y * w + x + 1] for x in range(0, w, 2)) for y in range(h)]
    if variant.startswith('v1'):
        def rec(t, data):
            return bytes((t,)) + _wp_len(len(data)) + data
        body = rec(0x0F, struct.pack('<BBHH', 1, 0, 256, 256))
        if variant == 'v1-bitmap':
            body += rec(0x0E, struct.pack('<HH', 0, 16) + b''.join(bytes(c) for c in EGA16))
            body += rec(0x0B, struct.pack('<HHHHH', w, h, 4, 75, 75) + b''.join(_wpg1_rle(r) for r in rows))
        elif variant == 'v1-vector':
            body += rec(0x01, struct.pack('<BB', 1, 12))            # fill: solid, colour 12
            body += rec(0x02, struct.pack('<BBH', 1, 1, 12))        # line: solid, colour 1, width 12
            body += rec(0x07, struct.pack('<hhhh', 24, 24, 160, 96))
            body += rec(0x05, struct.pack('<hhhh', 24, 232, 232, 140))
        else:
            raise SystemExit('unknown WPG variant ' + variant)
        body += rec(0x10, b'')
        write(out, b'\xffWPC' + struct.pack('<IBBBBHH', 16, 1, 0x16, 1, 0, 0, 0) + body)
        return
    assert variant == 'v2-bitmap', variant

    def rec2(cls, t, data, ext=0):
        return bytes((cls, t)) + _wp_len(ext) + _wp_len(len(data)) + data
    body = rec2(4, 0x01, struct.pack('<HHB4h4hH', 1200, 1200, 0, 0, 0, w, h, 0, 0, w, h, 0), ext=4)
    body += rec2(4, 0x1B, struct.pack('<HH4hHH', 0x20, 0x21, 0, 0, w, h, 75, 75), ext=2)
    body += rec2(4, 0x0C, struct.pack('<HH', 0, 16) + b''.join(bytes(c) + b'\0' for c in EGA16))
    body += rec2(4, 0x0E, struct.pack('<HHBB', w, h, 4, 0) + bytes(pix))
    body += rec2(4, 0x02, b'')
    size = 26 + len(body)
    hdr = b'\xffWPC' + struct.pack('<IBBBBHH', 0x1A, 1, 0x16, 2, 0, 0, 0) + struct.pack('<IIH', 3, size, 0)
    write(out, hdr + body)


def _ico_to_cur(d):
    d = bytearray(d)
    reserved, typ, count = struct.unpack_from('<HHH', d, 0)
    assert reserved == 0 and typ == 1
    struct.pack_into('<H', d, 2, 2)
    for i in range(count):
        struct.pack_into('<HH', d, 6 + 16 * i + 4, 0, 0)
    return bytes(d)


def _riff_chunk(cid, data):
    return cid + struct.pack('<I', len(data)) + data + (b'\0' if len(data) % 2 else b'')


def ani(out, variant, *icons):
    """Windows animated cursor (RIFF 'ACON'), no encoder here.  'anih' chunk (36 bytes:
    cbSize 36, nFrames, nSteps, cx 0, cy 0, bitCount 0, planes 0, jifRate 10 (1/60 s),
    flags), then LIST 'fram' holding one 'icon' chunk per frame; each frame is a real
    ImageMagick ICO given on the command line.
    plain: anih first (flags 1 = AF_ICON), nSteps = nFrames.
    info-rate-seq: LIST 'INFO' (INAM, IART) before anih, frames turned into cursors (ICONDIR
    type 2, hotspot 0,0), flags 3 (AF_ICON | AF_SEQUENCE), 'rate' and 'seq ' chunks
    describing 3 steps 0 1 0.  (gdk-pixbuf's loader wants anih before INAM/IART and rejects this
    order, which real files use; with the INFO list moved after anih it reads the rest.)"""
    frames = [read(p) for p in icons]
    n = len(frames)
    chunks = b''
    if variant == 'plain':
        steps, flags, extra = n, 1, b''
    elif variant == 'info-rate-seq':
        frames = [_ico_to_cur(f) for f in frames]
        seq = [0, 1, 0]
        steps, flags = len(seq), 3
        info = b'INFO' + _riff_chunk(b'INAM', b'ImageSniff test cursor\0') + _riff_chunk(b'IART', b'ImageSniff\0')
        chunks += _riff_chunk(b'LIST', info)
        extra = _riff_chunk(b'rate', b''.join(struct.pack('<I', r) for r in (10, 20, 10))) + \
            _riff_chunk(b'seq ', b''.join(struct.pack('<I', s) for s in seq))
    else:
        raise SystemExit('unknown ANI variant ' + variant)
    chunks += _riff_chunk(b'anih', struct.pack('<9I', 36, n, steps, 0, 0, 0, 0, 10, flags)) + extra
    chunks += _riff_chunk(b'LIST', b'fram' + b''.join(_riff_chunk(b'icon', f) for f in frames))
    write(out, b'RIFF' + struct.pack('<I', 4 + len(chunks)) + b'ACON' + chunks)


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


def psd_channels(out, src, n):
    """Raise the channel count of a real ImageMagick PSD (written with -compress None, so the
    merged image data at the end of the file is compression 0 + one raw plane per channel)
    to N by appending N - channels extra alpha planes (a horizontal ramp) and patching the
    header's channel count (u16 at 12).  The layer section keeps its own channel list, so
    the file stays consistent: 8BPS v1, RGB, N channels as in kimageformats' 53alphas.psd
    (57 channels, above the 56 of the specification)."""
    d = bytearray(read(src))
    assert d[:6] == b'8BPS\0\x01'
    ch, hgt, wid, depth, mode = struct.unpack_from('>HIIHH', d, 12)
    assert depth == 8
    plane = hgt * wid
    start = len(d) - 2 - ch * plane
    assert struct.unpack_from('>H', d, start)[0] == 0, 'merged image data is not raw'
    n = int(n)
    struct.pack_into('>H', d, 12, n)
    extra = bytes((x * 255 // max(wid - 1, 1) + k * 4) & 255 for k in range(n - ch) for y in range(hgt) for x in range(wid))
    write(out, bytes(d) + extra)


def dr4(out):
    """Canon Digital Photo Professional 4 recipe (.dr4), not an image: layout from ExifTool's
    CanonVRD.pm (ProcessDR4).  32-byte header of LE u32: 'IIII', 0x00040004, 6, camera
    model id 0x80000218 (EOS 5D Mark II), 3, 4, 5, entry count; LE u32 at 32 = bytes after
    36; then 28-byte entries (tag id, format code, three flag words, offset from the start
    of the file, length) and the values (int32u, int32s, double, string)."""
    entries = [  # (tag, format, value bytes)
        (0x10002, 9, struct.pack('<i', 0)),             # Rotation
        (0x10101, 1, struct.pack('<I', 0)),             # CheckMark
        (0x10200, 1, struct.pack('<I', 1)),             # WorkColorSpace sRGB
        (0x20001, 13, struct.pack('<d', 0.0)),          # RawBrightnessAdj
        (0x20101, 9, struct.pack('<i', 0)),             # WhiteBalanceAdj Auto
        (0x20102, 1, struct.pack('<I', 5200)),          # WBAdjColorTemp
        (0x20301, 1, struct.pack('<I', 0x81)),          # PictureStyle Standard
        (0x10021, 2, b'ImageSniff\0\0'),                # CustomPictureStyle
    ]
    n = len(entries)
    data_at = 36 + 28 * n
    dirs = b''
    data = b''
    for tag, fmt, val in entries:
        dirs += struct.pack('<7I', tag, fmt, 1, 1, 1, data_at + len(data), len(val))
        data += val
    data += b'\0' * 8   # trailing padding (ExifTool skips values that end at the last byte)
    body = dirs + data
    hdr = b'IIII' + struct.pack('<7I', 0x00040004, 6, 0x80000218, 3, 4, 5, n) + struct.pack('<I', len(body))
    write(out, hdr + body)


def musepack_sv7(out):
    """Musepack SV7 stream header (no SV7 encoder here; Debian's mpcenc writes SV8 'MPCK'):
    'MP+' + version byte 0x07, LE u32 frame count 2, LE u32 stream info read MSB first
    (intensity stereo 0, mid/side 1, max band 28, profile 10, link 0, sample rate 0 =
    44.1 kHz, max level 0), title gain/peak 0, album gain/peak 0, LE u32 gapless word 0,
    3 unused bytes, encoder version 115; then 256 pseudo-random bytes (random.Random(7))
    standing in for the frames."""
    info = (0 << 31) | (1 << 30) | (28 << 24) | (10 << 20) | (0 << 18) | (0 << 16) | 0
    hdr = b'MP+\x07' + struct.pack('<IIIII', 2, info, 0, 0, 0) + b'\0\0\0' + bytes((115,))
    r = random.Random(7)
    write(out, hdr + bytes(r.getrandbits(8) for _ in range(256)))


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


KINDS = {
    'nef': raw_nef, 'nef-le': raw_nef_le, 'nrw': raw_nrw, 'cr2': raw_cr2, 'crw': raw_crw,
    'orf': raw_orf, 'panasonic': raw_panasonic, 'raf': raw_raf, 'x3f': raw_x3f, 'mrw': raw_mrw,
    'rwz': raw_rwz, 'cr3': raw_cr3, 'iiq': raw_iiq, 'plain-tiff': raw_plain_tiff,
    'ktx': ktx1, 'ktx2': ktx2, 'pvr3': pvr3, 'pvr2': pvr2, 'astc-header': astc_header,
    'astc-void': astc_void, 'farbfeld': farbfeld, 'flif': flif, 'flif-anim': flif_anim, 'bpg': bpg,
    'bmp-v4': bmp_v4, 'bmp-os2v2': bmp_v2_os2, 'cur-from-ico': cur_from_ico, 'ora': ora,
    'heif-jpeg': heif_jpeg, 'ipma-per-item': ipma_per_item, 'gltf-indices': gltf_indices,
    'bmp-planes-zero': bmp_planes_zero, 'prepend': prepend, 'avci': avci, 'reftyp': reftyp, 'mj2wrap': mj2wrap,
    'random': random_bytes, 'eps-dos': eps_dos,
    'alias-pix': alias_pix, 'iff-pbm': iff_pbm, 'iff-anim': iff_anim, 'jbig2': jbig2_file, 'msp2': msp2,
    'flic': flic, 'fpx': fpx, 'ole2-other': ole2_other, 'gbr': gimp_gbr, 'pat': gimp_pat, 'gih': gimp_gih,
    'pixar': pixar, 'wal': quake_wal, 'mcidas': mcidas, 'gd': gd, 'gd2': gd2, 'atx': atx,
    'tga-cmap': tga_cmap, 'mpf-thumbnail': mpf_thumbnail, 'mpf-types': mpf_types,
    'wpg': wpg, 'ani': ani, 'tim': tim, 'psd-channels': psd_channels, 'dr4': dr4, 'musepack-sv7': musepack_sv7,
    'degas-pc1': degas_pc1,
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

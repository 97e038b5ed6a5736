"""Recipes for the CameraRaw family (Sources/ImageSniff/Families/CameraRaw.swift): the camera RAW
formats with a magic of their own and the TIFF-based ones that the vendor rules tell apart.

Makes NEF (big- and little-endian), NRW, CR2, CRW (CIFF), ORF (IIRO, IIRS, MMOR), Panasonic RW2,
RWL and the older .RAW (also Leica's), RAF, X3F, MRW, RWZ, IIQ, Sony ARW/SR2/SRF (and Apple's AXR)
and, through tiff-raw, PEF, SRW, 3FR, FFF, ERF, DCR, KDC, MOS, MEF and Canon's TIF RAW; and two
traps for the vendor rules: a plain TIFF carrying a Nikon Make (plain-tiff) and a Canon DPP 4
recipe that starts `IIII` (dr4).  CR3 and CRM are ISO BMFF files: isobmff.py.
"""
import struct

from .common import read, write
from .tiff import (ASCII, BYTE, LONG, RATIONAL, SHORT, UNDEF, Tiff, basic_image_entries,
                   gray_strip, rgb_strip, tiff_header)


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


def sony_command(out, *args):
    """sony OUT MODEL KIND: raw_sony, KIND = arw, sr2 or srf."""
    return raw_sony(out, args[0], args[1])


def tiff_raw_command(out, *args):
    """tiff-raw OUT MAKE MODEL COMPRESSION WHERE [SOFTWARE] [ORDER]: raw_simple, with the Leaf
    private tag when MAKE is Leaf."""
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


RECIPES = {
    'nef': raw_nef, 'nef-le': raw_nef_le, 'nrw': raw_nrw, 'cr2': raw_cr2, 'crw': raw_crw,
    'orf': raw_orf, 'panasonic': raw_panasonic, 'raf': raw_raf, 'x3f': raw_x3f, 'mrw': raw_mrw,
    'rwz': raw_rwz, 'iiq': raw_iiq, 'plain-tiff': raw_plain_tiff, 'sony': sony_command,
    'tiff-raw': tiff_raw_command, 'dr4': dr4,
}

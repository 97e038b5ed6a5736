"""Recipes for the ISOBMFF family (Sources/ImageSniff/Families/ISOBMFF.swift): ISO base media files,
told apart by their ftyp brands and, when the brands only say HEIF, the primary item's coding.

Makes a HEIF whose primary item is a real JPEG (heif-jpeg), an AVCI still around a real H.264
IDR picture (avci), a real AVIF rewritten with one ipma box per item (ipma-per-item), a real HEIC
rewritten with its mdat (padded) before its meta (mdat-first), ftyp brand
rewrites of real AVIF, HEIC, AV1 sequence and JP2 files (reftyp: the JPX and JPH files are
JPEG2000.swift's, but the rewrite is an edit of an ISO BMFF box), and Canon CR3 and CRM (cr3).
"""
import struct

from .common import box, fullbox, read, write
from .tiff import ASCII, Tiff, tiff_header


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


# ----------------------------------------------------------------------------
# HEIF still items and rewrites
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


def _find_box(d, typ, start, end, who):
    """Offset and size of the first box of type typ among the boxes from start to end."""
    o = start
    while o + 8 <= end:
        size, t = struct.unpack('>I4s', d[o:o + 8])
        if t == typ:
            return o, size
        o += size
    raise SystemExit('%s: no %r box' % (who, typ))


def _shift_iloc(d, iloc, delta):
    """Add delta to every file offset in the iloc box at d[iloc:] (construction method 0: the
    base offset when there is one, else each extent's offset); idat and item offsets stay."""
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


def ipma_per_item(out, src):
    """Copy a real encoder's HEIF file (avifenc's AVIF with an alpha plane: two items, one
    ipma box), writing one ipma box per item instead (as cavif and other encoders do; the
    format allows several). The meta box grows, so iloc's file offsets are shifted to match."""
    d = bytearray(read(src))

    def find(typ, start, end):
        return _find_box(d, typ, start, end, 'ipma-per-item')
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
    _shift_iloc(d, iloc, delta)
    write(out, bytes(d))


def mdat_first(out, src, mdat_bytes):
    """Copy a real encoder's HEIF file laid out ftyp, meta, mdat (heif-enc's layout) as ftyp,
    mdat, meta: the mdat box keeps the coded data at its start and is padded with zero bytes to
    MDAT_BYTES in all (so meta lies past that many bytes), and iloc's file offsets move by
    however far the coded data moved, so every item extent still points at the same bytes.
    (Streaming writers and MP4Box can put meta last; no writer installed here does.)"""
    d = bytearray(read(src))
    ftyp_size = struct.unpack('>I', d[0:4])[0]
    meta, meta_size = _find_box(d, b'meta', ftyp_size, len(d), 'mdat-first')
    mdat, mdat_size = _find_box(d, b'mdat', ftyp_size, len(d), 'mdat-first')
    if (ftyp_size, meta + meta_size, mdat + mdat_size) != (meta, mdat, len(d)) or mdat_size < 8:
        raise SystemExit('mdat-first: want ftyp, meta, mdat and nothing else')
    payload = bytes(d[mdat + 8:mdat + mdat_size])
    total = max(int(mdat_bytes), 8 + len(payload))
    if total > 0xFFFFFFFF:
        raise SystemExit('mdat-first: mdat too large for a 32-bit box size')
    new_mdat = box(b'mdat', payload + bytes(total - 8 - len(payload)))
    delta = (ftyp_size + 8) - (mdat + 8)
    m = bytearray(d[meta:meta + meta_size])
    iloc, _ = _find_box(m, b'iloc', 12, meta_size, 'mdat-first')
    _shift_iloc(m, iloc, delta)
    write(out, bytes(d[:ftyp_size]) + new_mdat + bytes(m))


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


RECIPES = {
    'cr3': raw_cr3, 'heif-jpeg': heif_jpeg, 'avci': avci, 'ipma-per-item': ipma_per_item, 'reftyp': reftyp,
    'mdat-first': mdat_first,
}

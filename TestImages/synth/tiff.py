"""TIFF builder for the TIFF family (Sources/ImageSniff/Families/TIFF.swift) and every recipe that
writes a TIFF structure: the TIFF-based camera RAW of camera_raw.py, the CMT1 box of CR3 in
isobmff.py.  The Tiff writer, tiff_header, and deterministic sample strips (gray_strip,
rgb_strip) with the entries of a basic image IFD.

No recipe of its own: the TIFF files of the corpus come from real encoders (the plain TIFF with
a Nikon Make is a trap for the camera RAW rules and sits in camera_raw.py).
"""
import struct

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

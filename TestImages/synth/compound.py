"""Recipes for the Compound family (Sources/ImageSniff/Families/Compound.swift): OLE2 compound files,
through a minimal CFB writer: a FlashPix header-level file (fpx) and an OLE2 file that is not
FlashPix (ole2-other, a neighbour).
"""
import struct

from .common import write


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


RECIPES = {
    'fpx': fpx, 'ole2-other': ole2_other,
}

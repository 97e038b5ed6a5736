"""Recipes for the Textures family (Sources/ImageSniff/Families/Textures.swift): KTX 1.1 and KTX2,
PVR v3 and legacy v2, ASTC (a header around real astc-encoder blocks, or hand-made void-extent
blocks), Apple's ATX container and Quake II WAL.
"""
import struct

from .common import read, write


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


def astc_header_command(out, *args):
    """astc-header OUT BLOCKS BX BY W H: astc_header with the dimensions as numbers."""
    return astc_header(out, args[0], int(args[1]), int(args[2]), int(args[3]), int(args[4]))


def _crc16(data, crc=0):
    """basisu's CRC-16 (CCITT polynomial 0x1021, initial and final complement)."""
    crc = ~crc & 0xFFFF
    for b in data:
        q = (b ^ (crc >> 8)) & 0xFF
        k = (q >> 4) ^ q
        crc = ((crc << 8) ^ k ^ (k << 5) ^ (k << 12)) & 0xFFFF
    return ~crc & 0xFFFF


def basis(out):
    """Basis Universal .basis file (basisu_file_headers.h, the .basis file format specification),
    UASTC 4x4 (texture format 1), one 2D image of 8x8 in one slice: the 77-byte header
    (signature 'sB', version 0x13, header size 77, header CRC-16 over the bytes from the data
    size on, data size and CRC-16, 1 slice, 1 image, format 1, flags 0x10 (sRGB), type 0 (2D),
    no codebooks or tables: UASTC has none), the slice description (23 bytes: image 0, level 0,
    flags 0, original size 8x8, 2x2 blocks, the slice's offset and size, its CRC-16) at 77, then
    four 16-byte UASTC blocks (mode 8, solid colour: the first byte 0x05... placeholder bits, the
    same in each block)."""
    w = h = 8
    blocks = bytes([0x05, 0x00, 0x80, 0xC0, 0x20, 0x10, 0xFF, 0x01] + [0] * 8) * 4
    slice_ofs = 77 + 23
    slice_desc = struct.pack('<I', 0)[:3] + bytes([0, 0]) + struct.pack('<HHHHII', w, h, 2, 2, slice_ofs, len(blocks)) \
        + struct.pack('<H', _crc16(blocks))
    data = slice_desc + blocks
    fields = (struct.pack('<I', len(data)) + struct.pack('<H', _crc16(data))
              + struct.pack('<I', 1)[:3] + struct.pack('<I', 1)[:3] + bytes([1]) + struct.pack('<H', 0x10) + bytes([0])
              + bytes(3) + bytes(4) + bytes(8)                     # us per frame, reserved, user data
              + struct.pack('<HI', 0, 0) + bytes(3)                # endpoints
              + struct.pack('<HI', 0, 0) + bytes(3)                # selectors
              + struct.pack('<II', 0, 0)                           # tables
              + struct.pack('<I', 77)                              # slice descriptions
              + struct.pack('<II', 0, 0))                          # extended
    assert len(fields) == 69
    header = b'sB' + struct.pack('<HH', 0x13, 77) + struct.pack('<H', _crc16(fields)) + fields
    write(out, header + data)


RECIPES = {
    'basis': basis,
    'ktx': ktx1, 'ktx2': ktx2, 'pvr3': pvr3, 'pvr2': pvr2, 'astc-header': astc_header_command,
    'astc-void': astc_void, 'wal': quake_wal, 'atx': atx,
}

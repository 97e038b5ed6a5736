"""Shared byte helpers for the recipes of every family module: file input and output (write,
read), ISO BMFF boxes (box, fullbox), IFF and RIFF chunks (_iff_chunk, _riff_chunk), a
deterministic RGB test pattern (_ramp_rgb) and the 16 EGA colours (EGA16).

Also the one recipe that belongs to no detector family: `random`, pseudo-random bytes that no
rule may claim (data/random-*).
"""
import random
import struct


def write(path, data):
    with open(path, 'wb') as f:
        f.write(data)


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def box(typ: bytes, payload: bytes) -> bytes:
    return struct.pack('>I', 8 + len(payload)) + typ + payload


def fullbox(typ, version, flags, payload):
    return box(typ, struct.pack('>I', (version << 24) | flags) + payload)


def _ramp_rgb(w, h):
    """Deterministic RGB test pattern, w*h*3 bytes (R = x ramp, G = y ramp, B = checker)."""
    out = bytearray()
    for y in range(h):
        for x in range(w):
            out += bytes(((x * 255) // max(w - 1, 1), (y * 255) // max(h - 1, 1), 255 if (x // 4 + y // 4) % 2 else 40))
    return bytes(out)


def _iff_chunk(cid, data):
    pad = b'\0' if len(data) % 2 else b''
    return cid + struct.pack('>I', len(data)) + data + pad


def _riff_chunk(cid, data):
    return cid + struct.pack('<I', len(data)) + data + (b'\0' if len(data) % 2 else b'')


# 16-colour palette (the EGA colours) used by the WPG and TIM writers
EGA16 = [(0, 0, 0), (0, 0, 170), (0, 170, 0), (0, 170, 170), (170, 0, 0), (170, 0, 170), (170, 85, 0),
         (170, 170, 170), (85, 85, 85), (85, 85, 255), (85, 255, 85), (85, 255, 255), (255, 85, 85),
         (255, 85, 255), (255, 255, 85), (255, 255, 255)]


# ----------------------------------------------------------------------------
# Neighbours: bytes of no family
# ----------------------------------------------------------------------------
def random_bytes(out, n, seed):
    """Pseudo-random bytes from Python's random.Random(seed)."""
    r = random.Random(int(seed))
    write(out, bytes(r.getrandbits(8) for _ in range(int(n))))


def patch(out, src, offset, hexbytes):
    """SRC with the bytes at OFFSET replaced by HEXBYTES (a damaged copy of a real file)."""
    d = bytearray(read(src))
    b = bytes.fromhex(hexbytes)
    d[int(offset):int(offset) + len(b)] = b
    write(out, bytes(d))


def splice(out, src, keep, hexbytes, n, seed):
    """SRC's first KEEP bytes, then HEXBYTES, then N pseudo-random bytes (random.Random(SEED)):
    a real signature followed by noise, as fuzzers and damaged transfers leave them."""
    r = random.Random(int(seed))
    write(out, read(src)[:int(keep)] + bytes.fromhex(hexbytes) + bytes(r.getrandbits(8) for _ in range(int(n))))


RECIPES = {
    'random': random_bytes, 'patch': patch, 'splice': splice,
}

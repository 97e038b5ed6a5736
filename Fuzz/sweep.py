"""Writes the AddressSanitizer sweep's inputs (Fuzz/run.sh sweep): every file under the given
folders (manifests and notes left out) whole, cut at a quarter, a half, three quarters and one byte
short, and with a byte flipped at four places picked by a generator seeded with the file's hash
(two in its first 4 KiB, where headers lie, two anywhere). Deterministic: the same tree gives the
same inputs, so CI fails only on a change, never on luck.

    python3 Fuzz/sweep.py OUT DIR...
"""
import hashlib
import os
import random
import sys


def variants(data):
    yield "whole", data
    n = len(data)
    for label, cut in (("quarter", n // 4), ("half", n // 2), ("three-quarters", 3 * n // 4), ("one-short", n - 1)):
        if 0 < cut < n:
            yield "cut-" + label, data[:cut]
    if n == 0:
        return
    rng = random.Random(hashlib.sha1(data).digest())
    for k in range(4):
        at = rng.randrange(min(n, 4096)) if k < 2 else rng.randrange(n)
        flipped = bytearray(data)
        flipped[at] ^= 1 << rng.randrange(8) if k % 2 == 0 else 0xFF
        yield "flip-%d-%d" % (k, at), bytes(flipped)


def main():
    out, roots = sys.argv[1], sys.argv[2:]
    seen = set()
    for root in roots:
        for folder, dirs, names in os.walk(root):
            dirs.sort()
            for name in sorted(names):
                if name in ("manifest.tsv",) or name.endswith(".md"):
                    continue
                with open(os.path.join(folder, name), "rb") as f:
                    data = f.read(2_000_000)
                for label, variant in variants(data):
                    digest = hashlib.sha1(variant).hexdigest()
                    if digest in seen:
                        continue
                    seen.add(digest)
                    with open(os.path.join(out, digest), "wb") as f:
                        f.write(variant)


if __name__ == "__main__":
    main()

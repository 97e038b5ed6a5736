#!/usr/bin/env python3
"""Builds a scan tree: N extensionless files in folders of K, cycling through the files under
TestImages/ (each file's first MAXBYTES bytes, so that a tree of millions stays small on disk).

    Benchmarks/make-tree.py N DIR [--per-dir K] [--max-bytes B]

The tree is made once: DIR/.tree-spec records N, K and B, and a second call with the same
arguments returns at once.
"""
import argparse, os, sys

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("count", type=int)
    ap.add_argument("dir")
    ap.add_argument("--per-dir", type=int, default=1000)
    ap.add_argument("--max-bytes", type=int, default=4096)
    a = ap.parse_args()
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "TestImages")
    spec = f"{a.count} {a.per_dir} {a.max_bytes}\n"
    marker = os.path.join(a.dir, ".tree-spec")
    if os.path.exists(marker) and open(marker).read() == spec:
        return
    if os.path.exists(a.dir):
        os.system(f"rm -rf '{a.dir}'")
    sources = []
    for top, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            if f.startswith(".") or top == root:
                continue
            with open(os.path.join(top, f), "rb") as fh:
                sources.append(fh.read(a.max_bytes))
    if not sources:
        sys.exit("make-tree: no files under TestImages")
    os.makedirs(a.dir)
    for i in range(a.count):
        if i % a.per_dir == 0:
            d = os.path.join(a.dir, f"d{i // a.per_dir:06d}")
            os.mkdir(d)
        fd = os.open(os.path.join(d, f"f{i:08d}"), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        os.write(fd, sources[i % len(sources)])
        os.close(fd)
    with open(marker, "w") as fh:
        fh.write(spec)

if __name__ == "__main__":
    main()

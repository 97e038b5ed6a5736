#!/usr/bin/env python3
"""Scan a shared tree with imgsniff on Apache Spark executors and write the records as Parquet.

    spark-submit --files /path/to/imgsniff imgsniff_spark.py ROOT [ROOT ...] --out OUT
    spark-submit --files /path/to/imgsniff imgsniff_spark.py --files-from LIST -0 --out OUT

Every executor must mount the scanned file system at the same path. The work goes in rounds:

* The driver lists the first levels of each root (bounded by --driver-depth and
  --driver-max-entries) and turns them into units of work. A unit is a directory (optionally
  restricted to a bytewise name range [lo, hi)), a byte range of a --files-from list, or a few
  explicit paths. Each unit has a stable id (a hash of what it covers).
* A task takes its units in id order, lists their directories itself (os.scandir, sorted
  bytewise, the same rules as imgsniff's walker: hidden names and symbolic links met inside a
  directory are skipped) and streams the paths, NUL-separated, into one
  `imgsniff scan --files-from - -0 --format ndjson` process. Subdirectories are walked depth
  first until the task has sent --task-budget paths; what is left (unstarted units, unvisited
  directories) is handed to the next round. A directory with more than --split-entries entries
  is not listed into memory: it is split into name ranges, one unit each, for the next round.
* Each round writes its records to OUT/records/round=K through Spark's output commit protocol
  (only the files of committed task attempts land). The units a task left over come back to
  the driver through an accumulator (Spark merges the updates of successful attempts only)
  and are saved in OUT/_work/units/round=K+1.json with a marker for the round; --resume
  starts at the first round without one.

Which task gets a unit depends only on the unit's id, and the plan only on the tree and the
options, so a retried task lists and scans the same paths again and its attempt replaces the
failed one: no duplicates, no gaps. Records are typed in Python (to_row) from the parsed
NDJSON line, which is also kept whole in the `raw` column.
"""

import argparse
import base64
import collections
import errno as errno_mod
import hashlib
import itertools
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
import zlib

PROG = "imgsniff-spark"

# ---------------------------------------------------------------------------------------------
# Units of work. A unit is a plain tuple, so that it pickles cheaply (JSON with base64 for the
# bytes in OUT/_work):
#   (uid, kind, path, lo, hi, descend, start, end, paths)
# kind "dir":   path = directory (bytes); entries whose name n satisfies lo <= n < hi (None: open);
#               descend: walk the subdirectories found (else only this directory's own files).
# kind "list":  path = list file (bytes); the entries that start in the byte range [start, end).
# kind "paths": paths = explicit paths (list of bytes), scanned as given.
# ---------------------------------------------------------------------------------------------

UID, KIND, PATH, LO, HI, DESCEND, START, END, PATHS = range(9)


def _uid(*parts):
    h = hashlib.sha1()
    for p in parts:
        if p is None:
            h.update(b"\x01N")
        elif isinstance(p, bytes):
            h.update(b"\x02" + len(p).to_bytes(8, "little") + p)
        else:
            s = repr(p).encode()
            h.update(b"\x03" + len(s).to_bytes(8, "little") + s)
    return h.hexdigest()


def dir_unit(path, lo=None, hi=None, descend=True):
    return (_uid("dir", path, lo, hi, descend), "dir", path, lo, hi, descend, None, None, None)


def list_unit(path, start, end):
    return (_uid("list", path, start, end), "list", path, None, None, None, start, end, None)


def paths_unit(paths):
    return (_uid("paths", *paths), "paths", None, None, None, None, None, None, list(paths))


def describe_unit(u):
    if u[KIND] == "dir":
        rng = ""
        if u[LO] is not None or u[HI] is not None:
            rng = " [%r, %r)" % (u[LO], u[HI])
        return "dir %s%s%s" % (os.fsdecode(u[PATH]), rng, "" if u[DESCEND] else " (own files)")
    if u[KIND] == "list":
        return "list %s bytes %d-%d" % (os.fsdecode(u[PATH]), u[START], u[END])
    return "%d explicit paths" % len(u[PATHS])


def encode_unit(u):
    b = lambda x: None if x is None else base64.b64encode(x).decode("ascii")
    return [u[UID], u[KIND], b(u[PATH]), b(u[LO]), b(u[HI]), u[DESCEND], u[START], u[END],
            None if u[PATHS] is None else [b(p) for p in u[PATHS]]]


def decode_unit(e):
    b = lambda x: None if x is None else base64.b64decode(x)
    return (e[0], e[1], b(e[2]), b(e[3]), b(e[4]), e[5], e[6], e[7],
            None if e[8] is None else [b(p) for p in e[8]])


# ---------------------------------------------------------------------------------------------
# Listing, with imgsniff's walker rules (no -L, no --pseudo-filesystems, no -x).
# ---------------------------------------------------------------------------------------------

SAMPLE_CAP = 65536


def join(d, name):
    return d + name if d.endswith(b"/") else d + b"/" + name


def _classify(entry, hidden):
    """'dir', 'file' or None (skipped), as imgsniff's walker treats a name met in a directory."""
    name = entry.name
    if not hidden and name.startswith(b"."):
        return None
    try:
        if entry.is_symlink():
            return None  # symbolic links inside directories are skipped without -L
        return "dir" if entry.is_dir(follow_symlinks=False) else "file"
    except OSError:
        return "file"  # vanished or unreadable: imgsniff reports it


def list_directory(path, lo, hi, cap, hidden, give_up=False):
    """List one directory.

    Returns ("entries", [(name, kind), ...]) sorted bytewise, restricted to lo <= name < hi, or,
    for a full listing (lo and hi None) of more than `cap` entries, ("split", [b1, b2, ...]):
    name boundaries cutting the directory into ranges of about `cap` entries. The boundaries
    come from a hash-selected sample of the names, so they depend only on the set of names,
    not on the order the file system returns them in. With give_up, a directory of more than
    `cap` entries is not read further: ("big", None). Raises OSError when the directory
    cannot be read."""
    full = lo is None and hi is None
    entries = []
    sample = None  # [(crc, name)] once the directory is known to be too big
    threshold = 1 << 32
    count = 0
    with os.scandir(path) as it:
        for entry in it:
            name = entry.name
            if lo is not None and name < lo:
                continue
            if hi is not None and name >= hi:
                continue
            if sample is None:
                kind = _classify(entry, hidden)
                if kind is None:
                    continue
                entries.append((name, kind))
                if full and cap and len(entries) > cap:
                    if give_up:
                        return "big", None
                    sample = [(zlib.crc32(n), n) for n, _ in entries]
                    count = len(entries)
                    entries = None
            else:
                if not hidden and name.startswith(b"."):
                    continue
                count += 1
                c = zlib.crc32(name)
                if c < threshold:
                    sample.append((c, name))
                    while len(sample) > SAMPLE_CAP:
                        threshold //= 2
                        sample = [(c2, n) for c2, n in sample if c2 < threshold]
    if sample is None:
        entries.sort()
        return "entries", entries
    names = sorted(n for _, n in sample)
    parts = -(-count // cap)
    bounds = []
    for i in range(1, parts):
        b = names[(i * len(names)) // parts]
        if not bounds or b > bounds[-1]:
            bounds.append(b)
    return "split", bounds


def split_units(path, bounds, descend):
    edges = [None] + list(bounds) + [None]
    return [dir_unit(path, edges[i], edges[i + 1], descend) for i in range(len(edges) - 1)]


def read_list_range(path, start, end, sep):
    """The entries of a list file whose first byte lies in [start, end), separated by `sep`."""
    out = []
    with open(path, "rb", buffering=1 << 20) as f:
        pos = start
        if start > 0:
            f.seek(start - 1)
            pos = start - 1
            buf = b""
            while True:  # skip the entry that started before `start`
                chunk = f.read(1 << 16)
                if not chunk:
                    return out
                i = chunk.find(sep)
                if i >= 0:
                    pos += i + 1
                    buf = chunk[i + 1:]
                    break
                pos += len(chunk)
        else:
            buf = b""
        while pos < end:
            i = buf.find(sep)
            while i < 0:
                chunk = f.read(1 << 16)
                if not chunk:
                    break
                buf += chunk
                i = buf.find(sep)
            if i < 0:
                if buf:
                    out.append(buf)
                break
            if i > 0:
                out.append(buf[:i])
            pos += i + 1
            buf = buf[i + 1:]
    return out


# ---------------------------------------------------------------------------------------------
# Records the job writes itself, in imgsniff's format: a directory that cannot be listed (as
# imgsniff's walker reports it) and a path imgsniff gave no record for.
# ---------------------------------------------------------------------------------------------

def display_path(p):
    """imgsniff's `path` field: the UTF-8 name, or for a name that is not UTF-8 each invalid byte
    as %XX and each '%' as %25."""
    try:
        return p.decode("utf-8"), None
    except UnicodeDecodeError:
        s = p.decode("utf-8", "surrogateescape")
        out = []
        for ch in s:
            o = ord(ch)
            if 0xDC80 <= o <= 0xDCFF:
                out.append("%%%02X" % (o - 0xDC00))
            elif ch == "%":
                out.append("%25")
            else:
                out.append(ch)
        return "".join(out), base64.b64encode(p).decode("ascii")


def error_record(p, code, message, schema_version, with_properties):
    path, path_bytes = display_path(p)
    rec = {"schemaVersion": schema_version, "path": path}
    if path_bytes is not None:
        rec["pathBytes"] = path_bytes
    rec.update({"uti": None, "description": message, "mime": None, "preferredExtension": None,
                "extension": None, "isImage": None, "confidence": None, "animated": None,
                "completeness": None, "extensionMatches": None,
                "error": {"code": code, "message": message}})
    if with_properties:
        rec["properties"] = None
    return json.dumps(rec, ensure_ascii=False, separators=(",", ":"))


def os_error_record(p, exc, schema_version, with_properties):
    code = errno_mod.errorcode.get(exc.errno, "E%s" % exc.errno)
    message = (exc.strerror or os.strerror(exc.errno or 0)).lower()
    return error_record(p, code, message, schema_version, with_properties)


def record_path_bytes(rec):
    pb = rec.get("pathBytes")
    if pb:
        return base64.b64decode(pb)
    return str(rec.get("path", "")).encode("utf-8")


# ---------------------------------------------------------------------------------------------
# The task: one imgsniff process for all of a partition's units.
# ---------------------------------------------------------------------------------------------

OK_EXIT = (0, 1, 2)  # listed something / nothing listed / some file had an error


class _ImgsniffGone(Exception):
    """imgsniff's standard input is closed: it exited or was killed."""


def resolve_binary(cfg):
    cand = cfg.get("imgsniff")
    if not cand:
        try:
            from pyspark import SparkFiles
            shipped = SparkFiles.get("imgsniff")
            if os.path.exists(shipped):
                cand = shipped
        except Exception:
            pass
    if not cand:
        cand = shutil.which("imgsniff")
    if not cand or not os.path.exists(cand):
        raise RuntimeError("%s: no imgsniff binary on this executor: ship it with "
                           "`spark-submit --files /path/to/imgsniff` or pass --imgsniff PATH"
                           % PROG)
    if not os.access(cand, os.X_OK):
        try:
            os.chmod(cand, os.stat(cand).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        except OSError:
            d = tempfile.mkdtemp(prefix="imgsniff-bin-")
            dst = os.path.join(d, "imgsniff")
            shutil.copyfile(cand, dst)
            os.chmod(dst, 0o755)
            cand = dst
    return cand


def scan_partition(units, cfg, round_no, report):
    """Yields a row of the records table (to_row) for each record. At the end, calls
    report(partition, records, deferred): deferred are the units handed on to the next round."""
    units = sorted(units, key=lambda u: u[UID])
    if not units:
        return
    try:
        from pyspark import TaskContext
        tc = TaskContext.get()
    except Exception:
        tc = None
    attempt = tc.attemptNumber() if tc is not None else 0
    partition = tc.partitionId() if tc is not None else 0

    hidden = cfg["hidden"]
    cap = cfg["split_entries"]
    budget = cfg["task_budget"]
    sep = b"\0" if cfg["null"] else b"\n"
    with_props = cfg["properties"]
    base_dir = os.fsencode(cfg["base_dir"])

    cmd = [resolve_binary(cfg), "scan", "--files-from", "-", "-0", "--format", "ndjson",
           "-j", str(cfg["threads"])]
    if with_props:
        cmd.append("--properties")
    if cfg["hint_from_extension"]:
        cmd.append("--hint-from-extension")
    cwd = cfg["base_dir"] if os.path.isdir(cfg["base_dir"]) else "/"
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=cwd, bufsize=1 << 16)

    # What was sent, in order: ("p", uid, path) for a path given to imgsniff, ("s", uid, line)
    # for a record the job writes itself at that point of the stream.
    sent = collections.deque()
    sent_lock = threading.Lock()
    deferred = []
    writer_error = []
    stderr_lines = []
    state = {"schema": 2}

    def writer():
        n_sent = 0
        stdin = proc.stdin

        def send(uid, p):
            nonlocal n_sent
            with sent_lock:
                sent.append(("p", uid, p))
            try:
                stdin.write(p + b"\0")
            except (BrokenPipeError, ValueError) as e:
                raise _ImgsniffGone() from e
            n_sent += 1

        def walk(u):
            uid = u[UID]
            stack = [(u[PATH], u[LO], u[HI], u[DESCEND], True)]
            while stack:
                d, lo, hi, descend, first = stack.pop()
                if not first and n_sent >= budget:
                    deferred.append(dir_unit(d, lo, hi, descend))
                    continue
                try:
                    kind, res = list_directory(d, lo, hi, cap, hidden)
                except OSError as e:
                    if lo is None:  # the first range of a directory reports it once
                        line = os_error_record(d, e, state["schema"], with_props)
                        with sent_lock:
                            sent.append(("s", uid, line))
                    continue
                if kind == "split":
                    deferred.extend(split_units(d, res, descend))
                    continue
                subdirs = []
                for name, k in res:
                    if k == "dir":
                        subdirs.append(name)
                    else:
                        send(uid, join(d, name))
                if descend:
                    for name in reversed(subdirs):
                        stack.append((join(d, name), None, None, True, False))

        try:
            for u in units:
                if n_sent >= budget:
                    deferred.append(u)
                    continue
                if u[KIND] == "dir":
                    walk(u)
                elif u[KIND] == "list":
                    for p in read_list_range(u[PATH], u[START], u[END], sep):
                        if not p.startswith(b"/") and not os.path.isdir(base_dir):
                            raise RuntimeError("%s: relative path %r in %s, and the base "
                                               "directory %s does not exist on this executor"
                                               % (PROG, p, os.fsdecode(u[PATH]),
                                                  cfg["base_dir"]))
                        send(u[UID], p)
                else:
                    for p in u[PATHS]:
                        send(u[UID], p)
        except _ImgsniffGone:
            pass  # its exit status tells why
        except BaseException as e:  # noqa: BLE001 - re-raised in the task's thread
            writer_error.append(e)
        finally:
            try:
                stdin.close()
            except (OSError, ValueError):
                pass

    def drain_stderr():
        for line in proc.stderr:
            if len(stderr_lines) < 10000:
                stderr_lines.append(line.rstrip(b"\n").decode("utf-8", "replace"))

    tw = threading.Thread(target=writer, daemon=True)
    te = threading.Thread(target=drain_stderr, daemon=True)
    tw.start()
    te.start()

    kill_after = cfg.get("test_kill_after")
    kill_now = (kill_after is not None and attempt == 0 and partition == 0 and round_no == 0)
    seq = collections.Counter()
    counts = {"records": 0, "imgsniff": 0}

    def row(uid, line, synthetic, rec=None):
        seq[uid] += 1
        counts["records"] += 1
        if rec is None:
            rec = json.loads(line)
        return to_row(rec) + (line, uid, seq[uid], synthetic)

    def missing_record(p):
        shown = display_path(p)[0]
        msg = "imgsniff wrote no record for this path"
        prefix = "imgsniff: %s: " % shown
        for line in stderr_lines:
            if line.startswith(prefix):
                msg = line[len(prefix):]
                break
        return error_record(p, "noRecord", msg, state["schema"], with_props)

    bad_line = None
    try:
        for raw in proc.stdout:
            line = raw.rstrip(b"\n").decode("utf-8", "replace")
            if not line:
                continue
            try:
                if not raw.endswith(b"\n"):
                    raise ValueError("no newline")
                rec = json.loads(line)
            except ValueError:
                # A line cut short (imgsniff died while writing it) or not JSON: the exit
                # status decides which error to report.
                bad_line = line
                for _ in proc.stdout:
                    pass
                break
            if isinstance(rec.get("schemaVersion"), int):
                state["schema"] = rec["schemaVersion"]
            got = record_path_bytes(rec)
            while True:
                if not sent:
                    raise RuntimeError("%s: imgsniff wrote a record for %r, a path it was not "
                                       "given" % (PROG, got))
                kind, uid, payload = sent[0]
                if kind == "s":
                    sent.popleft()
                    yield row(uid, payload, True)
                    continue
                if payload == got:
                    break
                # Records come in the order the paths were given. A record for a later path
                # means the paths before it got none; a record matching nothing queued is
                # taken as the front path's (imgsniff may have spelled the path differently).
                with sent_lock:
                    ahead = any(k == "p" and pl == got
                                for k, _, pl in itertools.islice(sent, 1, 64))
                if not ahead:
                    break
                sent.popleft()
                yield row(uid, missing_record(payload), True)
            _, uid, _ = sent.popleft()
            counts["imgsniff"] += 1
            yield row(uid, line, False, rec)
            if kill_now and counts["imgsniff"] >= kill_after:
                kill_now = False
                sys.stderr.write("%s: test hook: SIGKILL to imgsniff (pid %d) in round %d, "
                                 "partition %d, attempt %d, after %d records\n"
                                 % (PROG, proc.pid, round_no, partition, attempt,
                                    counts["imgsniff"]))
                sys.stderr.flush()
                os.kill(proc.pid, signal.SIGKILL)
        rc = proc.wait()
        tw.join()
        te.join()
        if rc in OK_EXIT and writer_error:
            raise writer_error[0]
        if rc in OK_EXIT and bad_line is not None:
            raise RuntimeError("%s: imgsniff wrote a line that is not a JSON record: %r"
                               % (PROG, bad_line[:200]))
        if rc not in OK_EXIT:
            how = ("killed by signal %d" % -rc) if rc < 0 else ("exit status %d" % rc)
            raise RuntimeError("%s: imgsniff %s (round %d, partition %d, attempt %d, units: "
                               "%s); stderr ends with: %s"
                               % (PROG, how, round_no, partition, attempt,
                                  "; ".join(describe_unit(u) for u in units[:3]),
                                  " | ".join(stderr_lines[-5:])))
        while sent:
            kind, uid, payload = sent.popleft()
            yield row(uid, payload if kind == "s" else missing_record(payload), True)
        report(partition, counts["records"], deferred)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# ---------------------------------------------------------------------------------------------
# The records table: the record schema's fields as typed columns, then the raw line, the unit
# and the record's place in it, and whether the job wrote the record itself. A field of a type
# other than the column's gives null (the raw line keeps it); fields a newer imgsniff adds are
# only in the raw line.
# ---------------------------------------------------------------------------------------------

RECORD_FIELDS = [
    ("schemaVersion", "int"), ("path", "str"), ("pathBytes", "base64"), ("uti", "str"),
    ("description", "str"), ("mime", "str"), ("preferredExtension", "str"),
    ("extension", "str"), ("isImage", "bool"), ("confidence", "str"), ("animated", "bool"),
    ("completeness", "str"), ("extensionMatches", "bool"), ("error", "error"),
    ("properties", "properties"),
]
ERROR_FIELDS = [("code", "str"), ("message", "str")]
PROPERTY_FIELDS = [
    ("width", "long"), ("height", "long"), ("bitDepth", "int"), ("colorModel", "str"),
    ("hasAlpha", "bool"), ("frameCount", "long"), ("orientation", "int"),
    ("hasGainMap", "bool"), ("hasICCProfile", "bool"),
]
INT32 = 1 << 31
INT64 = 1 << 63


def _value(v, kind):
    if v is None:
        return None
    if kind == "str":
        return v if isinstance(v, str) else None
    if kind == "bool":
        return v if isinstance(v, bool) else None
    if kind in ("int", "long"):
        lim = INT32 if kind == "int" else INT64
        if isinstance(v, int) and not isinstance(v, bool) and -lim <= v < lim:
            return v
        return None
    if kind == "base64":
        try:
            return base64.b64decode(v, validate=True) if isinstance(v, str) else None
        except ValueError:
            return None
    if kind == "error":
        return _struct(v, ERROR_FIELDS)
    if kind == "properties":
        return _struct(v, PROPERTY_FIELDS)
    raise ValueError(kind)


def _struct(v, fields):
    if not isinstance(v, dict):
        return None
    return tuple(_value(v.get(n), k) for n, k in fields)


def to_row(rec):
    """The typed columns of a parsed record."""
    return tuple(_value(rec.get(n), k) for n, k in RECORD_FIELDS)


def records_schema():
    from pyspark.sql import types as T
    simple = {"str": T.StringType(), "bool": T.BooleanType(), "int": T.IntegerType(),
              "long": T.LongType(), "base64": T.BinaryType()}

    def struct(fields):
        return T.StructType([T.StructField(n, simple[k]) for n, k in fields])

    composite = {"error": struct(ERROR_FIELDS), "properties": struct(PROPERTY_FIELDS)}
    cols = [T.StructField(n, simple.get(k) or composite[k]) for n, k in RECORD_FIELDS]
    cols += [T.StructField("raw", T.StringType(), False),
             T.StructField("unit", T.StringType(), False),
             T.StructField("seq", T.IntegerType(), False),
             T.StructField("synthetic", T.BooleanType(), False)]
    return T.StructType(cols)


def _merge_dict_param():
    from pyspark.accumulators import AccumulatorParam

    class MergeDict(AccumulatorParam):
        def zero(self, value):
            return {}

        def addInPlace(self, a, b):
            a.update(b)
            return a

    return MergeDict()


# ---------------------------------------------------------------------------------------------
# The driver.
# ---------------------------------------------------------------------------------------------

def plan_roots(roots, cfg, target_units):
    """Bounded breadth-first listing of the roots. Returns the units of round 0."""
    units = []
    explicit = []
    frontier = []
    for r in roots:
        if os.path.isdir(r):  # a root given explicitly is followed if it is a link
            frontier.append(r)
        else:
            explicit.append(r)  # a file, a missing path, a FIFO...: imgsniff says what it is
    if explicit:
        units.append(paths_unit(explicit))
    depth = 0
    listed = 0
    while frontier and depth < cfg["driver_depth"] and len(frontier) < target_units:
        nxt = []
        for i, d in enumerate(frontier):
            if listed >= cfg["driver_max_entries"]:
                units.extend(dir_unit(x) for x in frontier[i:])
                frontier = []
                break
            try:
                kind, res = list_directory(d, None, None, cfg["split_entries"], cfg["hidden"],
                                           give_up=True)
            except OSError:
                units.append(dir_unit(d))  # the executor meets the same error and reports it
                continue
            if kind == "big":
                units.append(dir_unit(d))  # too big to list here: an executor splits it
                continue
            listed += len(res)
            if any(k == "file" for _, k in res):
                units.append(dir_unit(d, descend=False))
            nxt.extend(join(d, n) for n, k in res if k == "dir")
        else:
            frontier = nxt
            depth += 1
            continue
        frontier = nxt
        break
    units.extend(dir_unit(d) for d in frontier)
    return units


def plan_list(list_path, chunk_bytes):
    size = os.stat(list_path).st_size
    return [list_unit(list_path, s, min(s + chunk_bytes, size))
            for s in range(0, size, chunk_bytes)]


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="imgsniff_spark.py",
        description="Scan files with imgsniff on Spark executors; write Parquet records and a "
                    "summary. Run it with spark-submit, shipping the static binary with "
                    "--files /path/to/imgsniff.")
    ap.add_argument("roots", nargs="*", help="directories or files, on a file system every "
                    "executor mounts at the same path")
    ap.add_argument("--out", required=True, help="output directory (any Hadoop file system "
                    "URI: file:///..., hdfs://..., s3a://...); never inside a scanned root")
    ap.add_argument("--files-from", metavar="LIST", action="append", default=[],
                    help="a file listing the paths to scan, one per line (NUL-separated with "
                    "-0), on a file system the executors mount; split into byte ranges; "
                    "repeatable")
    ap.add_argument("-0", "--null", action="store_true", help="entries of --files-from are "
                    "NUL-separated")
    ap.add_argument("--list-chunk-bytes", type=int, default=4 << 20,
                    help="bytes of a --files-from list per unit (default 4 MiB)")
    ap.add_argument("--base-dir", default=None, help="directory that relative entries of a "
                    "--files-from list are relative to (default: the driver's working directory)")
    ap.add_argument("--properties", action="store_true", help="imgsniff --properties")
    ap.add_argument("--hint-from-extension", action="store_true",
                    help="imgsniff --hint-from-extension")
    ap.add_argument("--hidden", action="store_true", help="include names starting with '.'")
    ap.add_argument("--threads", type=int, default=4,
                    help="imgsniff -j for each task's process (default 4: on network storage "
                    "each file costs a round trip, and threads overlap them)")
    ap.add_argument("--task-budget", type=int, default=100000,
                    help="paths a task sends before it hands the rest of its work to the next "
                    "round (default 100000)")
    ap.add_argument("--split-entries", type=int, default=50000,
                    help="a directory with more entries is split into name ranges of about this "
                    "many (default 50000)")
    ap.add_argument("--max-tasks", type=int, default=0,
                    help="tasks per round (default: 4 x spark.default.parallelism)")
    ap.add_argument("--driver-depth", type=int, default=2,
                    help="levels the driver lists, a root's own listing counting as the first "
                    "(default 2: each root and its subdirectories)")
    ap.add_argument("--driver-max-entries", type=int, default=200000,
                    help="entries the driver lists at most before handing the rest to "
                    "executors (default 200000)")
    ap.add_argument("--imgsniff", default=None, help="path of the binary on the executors "
                    "(default: the file shipped with --files, else imgsniff on PATH)")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--overwrite", action="store_true", help="delete an existing output "
                      "directory of this job first")
    mode.add_argument("--resume", action="store_true", help="continue an interrupted run "
                      "into the same --out, from its first unfinished round")
    ap.add_argument("--keep-work", action="store_true",
                    help="keep OUT/_work (the units of each round) after success")
    # For the test: kill the imgsniff of round 0's first task (first attempt) after N records;
    # stop the driver after round K is done, as if it had been stopped there.
    ap.add_argument("--test-kill-after", type=int, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--test-stop-after-round", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if not args.roots and not args.files_from:
        ap.error("give at least one root or --files-from LIST")
    for name in ("task_budget", "split_entries", "list_chunk_bytes", "threads"):
        if getattr(args, name) < 1:
            ap.error("--%s must be at least 1" % name.replace("_", "-"))
    return args


def fail(msg, code=2):
    sys.stderr.write("%s: %s\n" % (PROG, msg))
    sys.exit(code)


def local_path_of(uri):
    """The local path of an output URI without a scheme or with file:, else None."""
    if "://" not in uri and not uri.startswith("file:"):
        return uri
    if uri.startswith("file://"):
        return uri[len("file://"):] or "/"
    if uri.startswith("file:"):
        return uri[len("file:"):]
    return None


def check_output_outside(out, roots, lists):
    """Refuse an output directory inside a scanned root (or a root inside the output)."""
    local = local_path_of(out)
    if local is None:
        return
    o = os.path.realpath(local)
    for r in roots:
        rr = os.path.realpath(os.fsdecode(r))
        if not os.path.isdir(rr):
            continue
        if o == rr or o.startswith(rr.rstrip("/") + "/"):
            fail("the output %s is inside the scanned tree %s (real path %s): choose an output "
                 "directory outside every root" % (out, os.fsdecode(r), rr))
        if rr.startswith(o.rstrip("/") + "/"):
            fail("the scanned tree %s is inside the output %s: choose another output directory"
                 % (os.fsdecode(r), out))
    for lst in lists:
        rl = os.path.realpath(lst)
        if rl.startswith(o.rstrip("/") + "/"):
            fail("the list %s is inside the output %s" % (lst, out))


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    base_dir = os.path.abspath(args.base_dir or os.getcwd())
    # Roots become absolute (not resolved: a link given as a root is followed, and the
    # records keep the path as given), so that executors anywhere see the same paths.
    roots = [os.fsencode(os.path.abspath(r)) for r in args.roots]
    lists = [os.path.abspath(l) for l in args.files_from]
    for l in lists:
        if not os.path.isfile(l):
            fail("--files-from %s: not a readable file" % l)
    check_output_outside(args.out, roots, lists)

    from pyspark.sql import SparkSession, functions as F

    spark = (SparkSession.builder.appName("imgsniff-spark")
             .config("spark.hadoop.mapreduce.fileoutputcommitter.algorithm.version", "1")
             .getOrCreate())
    sc = spark.sparkContext
    jvm = sc._jvm
    hconf = sc._jsc.hadoopConfiguration()
    # Committed task attempts only: a failed attempt's files stay in _temporary and go away.
    hconf.set("mapreduce.fileoutputcommitter.algorithm.version",
              hconf.get("mapreduce.fileoutputcommitter.algorithm.version", "1"))

    def hpath(p):
        jp = jvm.org.apache.hadoop.fs.Path(p)
        return jp.getFileSystem(hconf), jp

    def exists(p):
        fs, jp = hpath(p)
        return fs.exists(jp)

    def write_text(p, text):
        fs, jp = hpath(p)
        s = fs.create(jp, True)
        s.write(bytearray(text.encode("utf-8")))
        s.close()

    def read_text(p):
        fs, jp = hpath(p)
        s = fs.open(jp)
        try:
            return jvm.org.apache.commons.io.IOUtils.toString(s, "UTF-8")
        finally:
            s.close()

    def delete(p):
        fs, jp = hpath(p)
        if fs.exists(jp):
            fs.delete(jp, True)

    out = args.out.rstrip("/") or args.out
    work = out + "/_work"
    plan_key = {"roots": [base64.b64encode(r).decode() for r in roots], "lists": lists,
                "null": args.null, "listChunkBytes": args.list_chunk_bytes,
                "baseDir": base_dir, "properties": args.properties,
                "hintFromExtension": args.hint_from_extension, "hidden": args.hidden,
                "taskBudget": args.task_budget, "splitEntries": args.split_entries}

    if exists(out):
        fs, jp = hpath(out)
        names = [st.getPath().getName() for st in fs.listStatus(jp)]
        names = [n for n in names if not (n.startswith(".") and n.endswith(".crc"))]
        ours = all(n in ("records", "summary.json", "_work", "_SUCCESS") for n in names)
        if args.overwrite:
            if not ours:
                fail("%s exists and does not look like this job's output (it holds %s); "
                     "not deleting it" % (out, ", ".join(sorted(names)[:5])))
            delete(out)
        elif args.resume:
            if "_SUCCESS" in names:
                print("%s: %s is complete already" % (PROG, out))
                print(read_text(out + "/summary.json"), end="")
                spark.stop()
                return 0
            if exists(work + "/plan.json"):
                old = json.loads(read_text(work + "/plan.json"))
                if old.get("key") != plan_key:
                    fail("--resume: %s was started with other roots or options" % out)
            elif not ours:
                fail("%s exists and does not look like this job's output" % out)
        elif names:
            fail("%s exists: pass --overwrite to replace it or --resume to continue it" % out)

    parallelism = sc.defaultParallelism
    max_tasks = args.max_tasks or 4 * parallelism
    cfg = {"hidden": args.hidden, "split_entries": args.split_entries,
           "task_budget": args.task_budget, "null": args.null, "properties": args.properties,
           "hint_from_extension": args.hint_from_extension, "threads": args.threads,
           "imgsniff": args.imgsniff, "base_dir": base_dir,
           "driver_depth": args.driver_depth, "driver_max_entries": args.driver_max_entries,
           "test_kill_after": args.test_kill_after}

    table_schema = records_schema()

    # ---- round 0: the driver's plan, kept in OUT/_work/plan.json for --resume
    t_job = time.time()
    if args.resume and exists(work + "/plan.json"):
        units0 = [decode_unit(u) for u in json.loads(read_text(work + "/plan.json"))["units"]]
    else:
        t0 = time.time()
        for stale in ("/records", "/summary.json", "/_work"):
            delete(out + stale)
        units0 = plan_roots(roots, cfg, 2 * max_tasks) if roots else []
        for l in lists:
            units0.extend(plan_list(os.fsencode(l), args.list_chunk_bytes))
        units0.sort(key=lambda u: u[UID])
        write_text(work + "/plan.json",
                   json.dumps({"key": plan_key, "units": [encode_unit(u) for u in units0]}))
        print("%s: plan: %d units from %d roots and %d lists (%.1f s)"
              % (PROG, len(units0), len(roots), len(lists), time.time() - t0), flush=True)

    def bucket(uid, n):
        return zlib.crc32(uid.encode()) % n

    rounds = []
    k = 0
    units = units0
    while units:
        marker = "%s/rounds/round=%d.json" % (work, k)
        if exists(marker):
            st = json.loads(read_text(marker))
            rounds.append(st)
            print("%s: round %d done already (%d units, %d records)"
                  % (PROG, k, st["units"], st["records"]), flush=True)
            units = ([decode_unit(u) for u in json.loads(read_text(st["next"]))]
                     if st["deferred"] else [])
            k += 1
            continue
        t0 = time.time()
        n_units = len(units)
        n_tasks = max(1, min(n_units, max_tasks))
        # Which task gets a unit depends only on the unit's id, and a task sorts its units: a
        # retried task gets the same units and does the same work.
        buckets = [[] for _ in range(n_tasks)]
        for u in units:
            buckets[bucket(u[UID], n_tasks)].append(u)
        # What each task left over comes back through an accumulator, which Spark applies once
        # per partition, for the attempt that succeeded; a dict keyed by partition makes a
        # second application harmless.
        acc = sc.accumulator({}, _merge_dict_param())
        round_no = k

        def run(it, acc=acc, round_no=round_no):
            def report(partition, n, deferred):
                acc.add({partition: (n, [encode_unit(u) for u in deferred])})
            return scan_partition(it, cfg, round_no, report)

        rows = sc.parallelize(buckets, n_tasks).flatMap(lambda b: b).mapPartitions(run)
        rec_df = spark.createDataFrame(rows, table_schema, verifySchema=False)
        rec_df.write.mode("overwrite").parquet("%s/records/round=%d" % (out, k))
        reports = acc.value
        n_rec = sum(n for n, _ in reports.values())
        nxt = {}
        for _, defs in reports.values():
            for e in defs:
                nxt[e[0]] = e
        units = sorted((decode_unit(e) for e in nxt.values()), key=lambda u: u[UID])
        st = {"round": k, "units": n_units, "tasks": n_tasks, "records": n_rec,
              "deferred": len(units), "seconds": round(time.time() - t0, 2)}
        if units:
            st["next"] = "%s/units/round=%d.json" % (work, k + 1)
            write_text(st["next"], json.dumps(sorted(nxt.values())))
        write_text(marker, json.dumps(st))
        rounds.append(st)
        print("%s: round %d: %d units in %d tasks -> %d records, %d units for the next round "
              "(%.1f s)" % (PROG, k, n_units, n_tasks, n_rec, len(units), time.time() - t0),
              flush=True)
        if args.test_stop_after_round == k and units:
            print("%s: test hook: stopping after round %d" % (PROG, k), flush=True)
            spark.stop()
            return 3
        k += 1

    # ---- summary: one aggregation over the written records, one distinct count
    if not sc.getConf().contains("spark.sql.shuffle.partitions"):
        spark.conf.set("spark.sql.shuffle.partitions", str(max(1, min(parallelism, 64))))
    if not exists(out + "/records"):  # nothing to scan: an empty table with the schema
        spark.createDataFrame([], table_schema).write.mode("overwrite") \
            .parquet(out + "/records/round=0")
    recs = spark.read.parquet(out + "/records")
    groups = recs.groupBy(
        "uti", "confidence", F.col("isImage").alias("isImage"),
        F.col("error.code").alias("errorCode"), "extensionMatches", "synthetic").count().collect()
    key = F.coalesce(F.col("pathBytes"), F.encode(F.col("path"), "UTF-8"))
    distinct = recs.select(F.countDistinct(key)).collect()[0][0]

    def tally(rows, field):
        c = collections.Counter()
        for r in rows:
            c[r[field] if r[field] is not None else "null"] += r["count"]
        return dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))

    files = sum(r["count"] for r in groups)
    mism = [r for r in groups if r["extensionMatches"] is False]
    summary = {
        "records": files,
        "images": sum(r["count"] for r in groups if r["isImage"]),
        "errors": sum(r["count"] for r in groups
                      if r["errorCode"] is not None and r["errorCode"] != "notRegular"),
        "notRead": sum(r["count"] for r in groups if r["errorCode"] == "notRegular"),
        "mismatches": sum(r["count"] for r in mism),
        "writtenByJob": sum(r["count"] for r in groups if r["synthetic"]),
        "duplicatePaths": files - distinct,
        "byUti": tally(groups, "uti"),
        "byConfidence": tally(groups, "confidence"),
        "byErrorCode": tally([r for r in groups if r["errorCode"] is not None], "errorCode"),
        "mismatchesByUti": tally(mism, "uti"),
        "rounds": rounds,
        "seconds": round(time.time() - t_job, 2),
    }
    text = json.dumps(summary, indent=2, sort_keys=False)
    write_text(out + "/summary.json", text + "\n")
    write_text(out + "/_SUCCESS", "")
    if not args.keep_work:
        delete(work)
    print(text, flush=True)
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())

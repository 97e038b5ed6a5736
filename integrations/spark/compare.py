#!/usr/bin/env python3
"""Checks for test.sh (run with spark-submit): the job's Parquet output against imgsniff's own
NDJSON, and two outputs of the job against each other.

    compare.py --case NAME OUT REF.ndjson [--case ...] [--same NAME OUT_A OUT_B ...]

--case: the records in OUT/records are the records of REF (one file or several, comma-
        separated), no more, no less, no path twice; the raw line of each parses to the same
        object as imgsniff's; every typed column equals the raw record's field; OUT/summary.json
        agrees with REF's counts.
--same: OUT_A and OUT_B hold the same rows (every column, the round included).
--future IMGSNIFF DIR: the job's task code and table mapping with an imgsniff whose records
        have a higher schemaVersion, an extra field and a field of another type (animated as
        a string), and that writes no record for a FIFO
        (a wrapper around IMGSNIFF, made in DIR): every path still gets one row, the FIFO a
        written-by-the-job error record, the typed columns stay filled.
Prints one line per check and closes with "N passed, M failed"; exits 1 on any failure.
"""

import argparse
import base64
import collections
import json
import os
import shutil
import sys

TOP = ["schemaVersion", "path", "uti", "description", "mime", "preferredExtension", "extension",
       "isImage", "confidence", "animated", "completeness", "extensionMatches"]
PROPS = ["width", "height", "bitDepth", "colorModel", "hasAlpha", "frameCount", "orientation",
         "hasGainMap", "hasICCProfile"]


def key_of(rec):
    if rec.get("pathBytes"):
        return base64.b64decode(rec["pathBytes"])
    return rec["path"].encode("utf-8")


def load_ref(paths):
    recs = {}
    dup = 0
    for p in paths.split(","):
        with open(p, "rb") as f:
            for line in f:
                line = line.rstrip(b"\n")
                if not line:
                    continue
                rec = json.loads(line.decode("utf-8"))
                k = key_of(rec)
                if k in recs:
                    dup += 1
                recs[k] = rec
    return recs, dup


def typed_problems(row, rec):
    """Differences between a row's typed columns and its raw record."""
    out = []
    for f in TOP:
        if row[f] != rec.get(f):
            out.append("%s: column %r, record %r" % (f, row[f], rec.get(f)))
    pb = rec.get("pathBytes")
    want = base64.b64decode(pb) if pb else None
    got = bytes(row["pathBytes"]) if row["pathBytes"] is not None else None
    if got != want:
        out.append("pathBytes: column %r, record %r" % (got, want))
    err = rec.get("error")
    if (row["error"] is None) != (err is None) or (
            err is not None and (row["error"]["code"], row["error"]["message"])
            != (err.get("code"), err.get("message"))):
        out.append("error: column %r, record %r" % (row["error"], err))
    props = rec.get("properties")
    if (row["properties"] is None) != (props is None):
        out.append("properties: column %r, record %r" % (row["properties"], props))
    elif props is not None:
        for f in PROPS:
            if row["properties"][f] != props.get(f):
                out.append("properties.%s: column %r, record %r"
                           % (f, row["properties"][f], props.get(f)))
    return out


def future_check(spark, check, binary, d):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import imgsniff_spark as job
    wrapper = os.path.join(d, "imgsniff-future")
    with open(wrapper, "w") as f:
        f.write("#!/usr/bin/env bash\n"
                "%s \"$@\" | sed -e 's/\"schemaVersion\":2,/\"schemaVersion\":3,"
                "\"newField\":{\"a\":[1,2]},/; s/\"animated\":false/\"animated\":\"no\"/' "
                "| grep -v '/fifo\"'\n"
                "exit \"${PIPESTATUS[0]}\"\n" % binary)
    os.chmod(wrapper, 0o755)
    tree = os.path.join(d, "future-tree")
    os.makedirs(tree)
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    shutil.copyfile(os.path.join(repo, "TestImages", "png", "alpha"), os.path.join(tree, "a.png"))
    os.mkfifo(os.path.join(tree, "fifo"))
    cfg = {"hidden": False, "split_entries": 1000, "task_budget": 1000, "null": True,
           "properties": False, "hint_from_extension": False, "threads": 1,
           "imgsniff": wrapper, "base_dir": d, "test_kill_after": None}
    units = [job.dir_unit(os.fsencode(tree)), job.paths_unit([os.fsencode(d + "/missing")])]
    reports = []
    rows = list(job.scan_partition(units, cfg, 0, lambda *r: reports.append(r)))
    recs = {json.loads(r[-4])["path"]: (json.loads(r[-4]), r[-1]) for r in rows}
    fifo = recs.get(tree + "/fifo")
    check(len(rows) == 3 and reports == [(0, 3, [])] and fifo is not None and fifo[1]
          and fifo[0]["error"]["code"] == "noRecord"
          and fifo[0]["error"]["message"] == "fifo (named pipe)" and fifo[0]["schemaVersion"] == 3,
          "future imgsniff: a path with no record gets an error record written by the job",
          [repr(r) for r in rows])
    t = {r["path"]: r for r in spark.createDataFrame(rows, job.records_schema()).collect()}
    png = t.get(tree + "/a.png")
    check(png is not None and png["schemaVersion"] == 3 and png["uti"] == "public.png"
          and png["isImage"] is True and '"newField":{"a":[1,2]}' in png["raw"]
          and png["animated"] is None and '"animated":"no"' in png["raw"]
          and t[d + "/missing"]["error"]["code"] == "ENOENT",
          "future imgsniff: schemaVersion 3, an unknown field, a field of another type: typed "
          "columns filled (that one null), all kept in raw", [repr(r) for r in t.values()])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--case", nargs=3, action="append", default=[],
                    metavar=("NAME", "OUT", "REF"))
    ap.add_argument("--same", nargs=3, action="append", default=[],
                    metavar=("NAME", "OUT_A", "OUT_B"))
    ap.add_argument("--future", nargs=2, metavar=("IMGSNIFF", "DIR"))
    args = ap.parse_args()

    from pyspark.sql import SparkSession
    spark = SparkSession.builder.appName("imgsniff-spark-compare").getOrCreate()
    passed = failed = 0

    def check(ok, what, details=()):
        nonlocal passed, failed
        if ok:
            passed += 1
            print("ok    %s" % what)
        else:
            failed += 1
            print("FAIL  %s" % what)
            for d in list(details)[:10]:
                print("        %s" % d)
        sys.stdout.flush()

    def rows_of(out):
        return spark.read.parquet(out + "/records").collect()

    for name, out, ref_paths in args.case:
        ref, ref_dup = load_ref(ref_paths)
        rows = rows_of(out)
        got = collections.defaultdict(list)
        for r in rows:
            got[key_of(json.loads(r["raw"]))].append(r)
        dups = [k for k, v in got.items() if len(v) > 1]
        check(ref_dup == 0, "%s: the reference names each path once" % name)
        check(not dups, "%s: no path twice in the job's output (%d rows)" % (name, len(rows)),
              ["%r x%d" % (k, len(got[k])) for k in dups])
        missing = sorted(set(ref) - set(got))
        extra = sorted(set(got) - set(ref))
        check(not missing and not extra,
              "%s: same set of paths as imgsniff scan (%d)" % (name, len(ref)),
              ["missing %r" % k for k in missing[:5]] + ["extra %r" % k for k in extra[:5]])
        diff = []
        typed = []
        for k, rs in got.items():
            if k not in ref:
                continue
            rec = json.loads(rs[0]["raw"])
            if rec != ref[k]:
                diff.append("%r: job %s / imgsniff %s" % (k, rs[0]["raw"], json.dumps(ref[k])))
            typed.extend("%r: %s" % (k, p) for p in typed_problems(rs[0], rec))
        check(not diff, "%s: same answers, field by field" % name, diff)
        check(not typed, "%s: typed columns equal the raw records" % name, typed)
        with open(os.path.join(out, "summary.json")) as f:
            summary = json.load(f)
        codes = [(r.get("error") or {}).get("code") for r in ref.values()]
        want = {
            "records": len(ref),
            "errors": sum(1 for c in codes if c is not None and c != "notRegular"),
            "notRead": sum(1 for c in codes if c == "notRegular"),
            "mismatches": sum(1 for r in ref.values() if r.get("extensionMatches") is False),
            "images": sum(1 for r in ref.values() if r.get("isImage")),
            "duplicatePaths": 0,
        }
        by_uti = collections.Counter((r.get("uti") or "null") for r in ref.values())
        bad = ["%s: summary %r, imgsniff %r" % (f, summary.get(f), v)
               for f, v in want.items() if summary.get(f) != v]
        if summary.get("byUti") != dict(by_uti):
            bad.append("byUti differs")
        check(not bad, "%s: summary.json counts (%d records, %d errors, %d not read, "
              "%d mismatches)" % (name, want["records"], want["errors"], want["notRead"],
                                  want["mismatches"]), bad)

    for name, a, b in args.same:
        ra = sorted((tuple(r) for r in rows_of(a)), key=repr)
        rb = sorted((tuple(r) for r in rows_of(b)), key=repr)
        sa, sb = set(map(repr, ra)), set(map(repr, rb))
        check(ra == rb, "%s: identical rows, every column (%d rows)" % (name, len(ra)),
              ["only in %s: %s" % (a, x[:200]) for x in sorted(sa - sb)[:5]]
              + ["only in %s: %s" % (b, x[:200]) for x in sorted(sb - sa)[:5]])

    if args.future:
        future_check(spark, check, *args.future)

    spark.stop()
    print("compare: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

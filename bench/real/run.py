#!/usr/bin/env python3
"""Score memval against the git-fact labels of bench/real/labels/.

For each case: check out commit B (history up to B) in a fresh repository, put the notes text
of commit A back at its own path and commit it dated like A, run memval on it; then run it
again on a copy of that tree without `.git`. Match memval's claims to the labels by path and
print precision / recall per verdict, macro-F1, drift F1, ref recall, successor matches and
timings, per case and overall.

    python3 bench/real/run.py --memval target/release/memval [--mirrors /work/.mirror]
        [--workdir /work/real-trees] [--cases-file FILE ...] [--cases NAME ...] [--json FILE] [--keep]

Given several case files, each set gets its own overall lines, and then a pooled overall over
every label of all the sets: a set with a handful of STALE labels makes a jumpy macro-F1 on its
own; the pooled one weighs each label once.
"""

import argparse
import collections
import json
import os
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gitprep import prepared  # noqa: E402

VERDICTS = ("VALID", "STALE", "CONTRADICTED", "AMBIGUOUS")
MODES = ("history", "no-git")


def sh(*args, cwd=None, env=None):
    return subprocess.run(args, cwd=cwd, env=env, check=True, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE).stdout.decode("utf-8", "replace")


def checkout(commit, gitdir, hist):
    """A fresh repository at `hist` with `commit` checked out, its objects borrowed from
    `gitdir` (a gitprep.py directory)."""
    os.makedirs(hist)
    sh("git", "init", "-q", hist)
    with open(os.path.join(hist, ".git", "objects", "info", "alternates"), "w") as f:
        f.write(os.path.join(os.path.abspath(gitdir), "objects") + "\n")
    # stand-ins for the blobs the snapshot lacks (see gitprep.py)
    sh("git", "fetch", "-q", os.path.abspath(gitdir), "refs/replace/*:refs/replace/*", cwd=hist)
    sh("git", "update-ref", "refs/heads/main", commit, cwd=hist)
    sh("git", "symbolic-ref", "HEAD", "refs/heads/main", cwd=hist)
    sh("git", "checkout", "-q", "-f", "main", cwd=hist)


def mark_stand_ins(hist):
    """Files whose blob is absent hold the stand-in text; mark them unchanged so the tree is clean."""
    replaced = set(sh("git", "for-each-ref", "--format=%(refname:lstrip=2)", "refs/replace", cwd=hist).split())
    stale = [line.split("\t", 1)[1] for line in sh("git", "ls-files", "-s", cwd=hist).splitlines()
             if line.split()[1] in replaced]
    if stale:
        subprocess.run(["git", "update-index", "--assume-unchanged", "--stdin"], cwd=hist, check=True,
                       input="\n".join(stale).encode() + b"\n", stdout=subprocess.PIPE)
    subprocess.run(["git", "update-index", "-q", "--refresh"], cwd=hist, stdout=subprocess.PIPE)


def materialise(case, gitdir, root):
    """root/history: B checked out with its history and the memory committed on top;
    root/no-git: the same files without .git. Returns both paths."""
    hist = os.path.join(root, "history")
    nogit = os.path.join(root, "no-git")
    for d in (hist, nogit):
        if os.path.exists(d):
            shutil.rmtree(d)
    checkout(case["B"], gitdir, hist)
    text = subprocess.run(["git", "--git-dir", gitdir, "show", f"{case['A']}:{case['notes']}"],
                          check=True, stdout=subprocess.PIPE).stdout
    dest = os.path.join(hist, case["notes"])
    if os.path.islink(dest):
        os.unlink(dest)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with open(dest, "wb") as f:
        f.write(text)
    # Commit it with plumbing: `git commit` refuses trees that name the blobs the snapshot
    # lacks, `write-tree --missing-ok` does not.
    date = sh("git", "--git-dir", gitdir, "log", "-1", "--format=%cI", case["A"]).strip()
    env = dict(os.environ, GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date,
               GIT_AUTHOR_NAME="memval-bench", GIT_AUTHOR_EMAIL="bench@localhost",
               GIT_COMMITTER_NAME="memval-bench", GIT_COMMITTER_EMAIL="bench@localhost")
    blob = sh("git", "hash-object", "-w", "--", case["notes"], cwd=hist).strip()
    idx = dict(os.environ, GIT_INDEX_FILE=os.path.join(hist, ".git", "bench-index"))
    sh("git", "read-tree", case["B"], cwd=hist, env=idx)
    sh("git", "update-index", "--add", "--cacheinfo", f"100644,{blob},{case['notes']}", cwd=hist, env=idx)
    tree = sh("git", "write-tree", "--missing-ok", cwd=hist, env=idx).strip()
    os.unlink(idx["GIT_INDEX_FILE"])
    msg = f"notes {case['notes']} as of {case['A'][:12]}"
    commit = sh("git", "commit-tree", tree, "-p", case["B"], "-m", msg, cwd=hist, env=env).strip()
    sh("git", "update-ref", "refs/heads/main", commit, cwd=hist)
    sh("git", "read-tree", "HEAD", cwd=hist)
    mark_stand_ins(hist)
    shutil.copytree(hist, nogit, symlinks=True, ignore=lambda d, names: [".git"] if d == hist else [])
    return hist, nogit


def end_children_on_sigterm():
    """Make SIGTERM (`kill`, `pkill`) end this run as Ctrl-C does: an exception in the main
    thread, on which `subprocess.run` kills and waits for the memval it started. Without it a
    killed run leaves its memval writing the store, and the next run, which recreates the same
    store path, shares it with that orphan."""
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))


def run_memval(memval, tree, notes, store, out):
    if os.path.exists(store):
        shutil.rmtree(store)
    cmd = [memval, "validate", "--repo", tree, "--memories", os.path.join(tree, notes),
           "--format", "json", "--fail-on", "never", "--store", store, "-q", "-o", out]
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    secs = time.monotonic() - t0
    if p.returncode != 0:
        sys.stderr.write(p.stderr.decode("utf-8", "replace"))
        raise SystemExit(f"memval exited {p.returncode}: {' '.join(cmd)}")
    with open(out) as f:
        return json.load(f), secs


def norm(path, tree):
    p = path.replace("\\", "/")
    if os.path.isabs(p) and p.startswith(tree.rstrip("/") + "/"):
        p = p[len(tree.rstrip("/")) + 1:]
    while p.startswith("./"):
        p = p[2:]
    return p.rstrip("/")


def claims_by_path(report, tree):
    """path -> [(rank, verdict, successor)]: rank 0 for a claim about the path itself, 1 for a
    path with a line, 2 for a symbol said to be in it. Claims memval reported as not checked
    count as NOT_CHECKED."""
    found = collections.defaultdict(list)
    items = [(c, c.get("verdict")) for m in report.get("memories", []) for c in m.get("claims", [])]
    items += [(c, "NOT_CHECKED") for c in report.get("not_checked", [])]
    for c, verdict in items:
        for ref in c.get("code_refs", []):
            rank = 2 if ref.get("symbol") else (1 if ref.get("line") is not None else 0)
            found[norm(ref.get("path", ""), tree)].append((rank, verdict or "NOT_CHECKED", c.get("successor")))
    return found


def successor_path(s):
    """memval's successor for a path: a path, or path:line."""
    if not s:
        return None
    s = s.strip()
    head, sep, tail = s.rpartition(":")
    if sep and tail.isdigit():
        s = head
    while s.startswith("./"):
        s = s[2:]
    return s.rstrip("/")


def score(labels, report, tree, notes_dir):
    """One row per label. A label is answered by a claim about its path (a file or folder
    claim), else by a claim about a line of it; a claim about a symbol in the file checks the
    symbol, not the path, so it does not answer the label (such labels are counted apart).
    For a line claim, STALE with a successor in the same file means the line moved and the
    file is where it was: the path is VALID. A written path can be read from the root or from
    the notes file's folder; memval names the reading it chose, so a claim on the other
    reading of the same words answers the label too (exact path first)."""
    by_path = claims_by_path(report, tree)
    rows = []
    for l in labels:
        p = l["path"]
        readings = [p]
        if notes_dir:
            readings.append(f"{notes_dir}/{p}")
            if p.startswith(notes_dir + "/"):
                readings.append(p[len(notes_dir) + 1:])
        got, matched = [], None
        for r in readings:
            cand = sorted(by_path.get(r, []), key=lambda x: x[0])
            if cand and (not got or cand[0][0] < got[0][0]):
                got, matched = cand, r
            if got and got[0][0] < 2:
                break
        path_claims = [g for g in got if g[0] < 2]
        if path_claims:
            rank, verdict, succ = path_claims[0]
            succ = successor_path(succ)
            if rank == 1 and verdict == "STALE" and succ == matched:
                verdict, succ = "VALID", None
        else:
            rank, verdict, succ = (2 if got else None), "MISSING", None
        rows.append({
            "path": l["path"], "kind": l["kind"], "expected": l["verdict"],
            "expected_successor": l["successor"], "got": verdict,
            "got_successor": succ, "match_rank": rank, "claim_path": matched,
        })
    return rows


def f1(p, r):
    return 2 * p * r / (p + r) if p + r else 0.0


def metrics(rows):
    m = {}
    conf = collections.Counter((r["expected"], r["got"]) for r in rows)
    per = {}
    f1s = []
    for v in VERDICTS:
        support = sum(1 for r in rows if r["expected"] == v)
        predicted = sum(1 for r in rows if r["got"] == v)
        tp = conf[(v, v)]
        p = tp / predicted if predicted else 0.0
        rc = tp / support if support else 0.0
        per[v] = {"precision": p, "recall": rc, "f1": f1(p, rc), "support": support,
                  "predicted": predicted, "tp": tp}
        if support or predicted:
            f1s.append(f1(p, rc))
    m["per_verdict"] = per
    m["macro_f1"] = sum(f1s) / len(f1s) if f1s else 0.0
    m["macro_classes"] = len(f1s)  # verdicts with a label or a prediction
    # The three verdicts one tree can show (issue 26's measure without `.git`): the rows whose
    # label is not AMBIGUOUS; memval's AMBIGUOUS on them is a miss. AMBIGUOUS labels apart.
    three = [r for r in rows if r["expected"] != "AMBIGUOUS"]
    f1s3 = []
    for v in ("VALID", "STALE", "CONTRADICTED"):
        support = sum(1 for r in three if r["expected"] == v)
        predicted = sum(1 for r in three if r["got"] == v)
        tp = sum(1 for r in three if r["expected"] == v and r["got"] == v)
        if support or predicted:
            p = tp / predicted if predicted else 0.0
            rc = tp / support if support else 0.0
            f1s3.append(f1(p, rc))
    m["macro_f1_3"] = sum(f1s3) / len(f1s3) if f1s3 else 0.0
    amb = collections.Counter(r["got"] for r in rows if r["expected"] == "AMBIGUOUS")
    m["ambiguous_labels"] = {"of": sum(amb.values()), "got": dict(sorted(amb.items()))}
    drift = [r for r in rows if r["expected"] in ("VALID", "STALE", "CONTRADICTED")]
    pos = lambda v: v in ("STALE", "CONTRADICTED")  # noqa: E731
    tp = sum(1 for r in drift if pos(r["expected"]) and pos(r["got"]))
    pp = sum(1 for r in drift if pos(r["got"]))
    ap = sum(1 for r in drift if pos(r["expected"]))
    dp = tp / pp if pp else 0.0
    dr = tp / ap if ap else 0.0
    m["drift"] = {"precision": dp, "recall": dr, "f1": f1(dp, dr), "tp": tp, "predicted": pp, "actual": ap}
    n = len(rows)
    claimed = sum(1 for r in rows if r["got"] != "MISSING")
    m["labels"] = n
    m["ref_recall"] = claimed / n if n else 0.0
    m["claimed"] = claimed
    m["not_checked"] = sum(1 for r in rows if r["got"] == "NOT_CHECKED")
    m["via_line_claim"] = sum(1 for r in rows if r["match_rank"] == 1)
    m["symbol_claim_only"] = sum(1 for r in rows if r["match_rank"] == 2)
    stale = [r for r in rows if r["expected"] == "STALE"]
    ok = sum(1 for r in stale if r["got"] == "STALE" and r["got_successor"] == r["expected_successor"])
    m["stale_successor"] = {"exact": ok, "of": len(stale), "rate": ok / len(stale) if stale else 0.0}
    m["accuracy"] = sum(1 for r in rows if r["got"] == r["expected"]) / n if n else 0.0
    m["confusion"] = {f"{e}->{g}": c for (e, g), c in sorted(conf.items())}
    return m


def fmt(x):
    return f"{x:.3f}"


def print_summary(title, m, secs=None):
    pv = m["per_verdict"]
    line = (f"{title:<26} n={m['labels']:<4} macroF1 {fmt(m['macro_f1'])} ({m['macro_classes']} cl)  driftF1 {fmt(m['drift']['f1'])}  "
            f"refRecall {fmt(m['ref_recall'])}  acc {fmt(m['accuracy'])}  "
            f"STALE+succ {m['stale_successor']['exact']}/{m['stale_successor']['of']}")
    if secs is not None:
        line += f"  {secs:.1f}s"
    print(line)
    if "macro_f1_3" in m:
        amb = m["ambiguous_labels"]
        got = ", ".join(f"{k} {v}" for k, v in amb["got"].items()) or "-"
        print(f"    over VALID/STALE/CONTRADICTED: macroF1 {fmt(m['macro_f1_3'])};  AMBIGUOUS labels {amb['of']} (memval: {got})")
    print("    " + "  ".join(
        f"{v[:5]} P {fmt(pv[v]['precision'])} R {fmt(pv[v]['recall'])} ({pv[v]['support']})" for v in VERDICTS))


def print_confusion(rows):
    cols = list(VERDICTS) + ["NOT_CHECKED", "MISSING"]
    conf = collections.Counter((r["expected"], r["got"]) for r in rows)
    print("    expected \\ memval  " + " ".join(f"{c[:11]:>11}" for c in cols))
    for e in VERDICTS:
        print(f"    {e:<18} " + " ".join(f"{conf[(e, c)]:>11}" for c in cols))


def overall_metrics(rows, secs):
    m = metrics(rows)
    m["seconds_total"] = sum(secs)
    m["seconds_max"] = max(secs) if secs else 0.0
    return m


def print_overall(title, m, rows):
    print(f"== {title}, memval {m['seconds_total']:.1f}s in all (slowest {m['seconds_max']:.1f}s)")
    print_summary("  all labels", m)
    print(f"    drift P {fmt(m['drift']['precision'])} R {fmt(m['drift']['recall'])}; "
          f"labels with a claim {m['claimed']}/{m['labels']} ({m['not_checked']} not checked, "
          f"{m['via_line_claim']} via a line claim; {m['symbol_claim_only']} more named only in symbol claims)")
    print_confusion(rows)


def run_set(cases, modes, args, memval):
    """Run every case of one set; returns (per-case results, rows per mode, memval seconds per mode)."""
    all_rows = {m: [] for m in modes}
    times = {m: [] for m in modes}
    results = []
    for case in cases:
        with open(os.path.join(args.labels, case["name"] + ".json")) as f:
            lab = json.load(f)
        if lab["A"] != case["A"] or lab["B"] != case["B"]:
            raise SystemExit(f"{case['name']}: labels are for other commits; run label.py again")
        gitdir = prepared(args.mirrors, case["repo"], args.workdir)
        root = os.path.join(args.workdir, "trees", case["name"])
        hist, nogit = materialise(case, gitdir, root)
        res = {"case": case["name"], "runs": {}}
        for mode, tree in (("history", hist), ("no-git", nogit)):
            if mode not in modes:
                continue
            # under this run's own workdir: two runs in parallel (other workdirs) never share a store
            store = os.path.join(args.workdir, "stores", f"{case['name']}-{mode}")
            out = os.path.join(root, f"report-{mode}.json")
            report, secs = run_memval(memval, tree, case["notes"], store, out)
            rows = score(lab["labels"], report, tree, os.path.dirname(case["notes"]))
            m = metrics(rows)
            m["seconds"] = secs
            m["memval_claims"] = report.get("run", {}).get("claims")
            res["runs"][mode] = {"metrics": m, "rows": rows}
            all_rows[mode] += rows
            times[mode].append(secs)
            shutil.rmtree(store, ignore_errors=True)
        print(f"== {case['name']}  ({case['repo']} {case['notes']}, A {case['A'][:10]} -> B {case['B'][:10]})")
        for mode in modes:
            m = res["runs"][mode]["metrics"]
            print_summary(f"  {mode} ({m['memval_claims']} claims)", m, m["seconds"])
        results.append(res)
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    return results, all_rows, times


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--memval", required=True)
    ap.add_argument("--mirrors", default="/work/.mirror")
    ap.add_argument("--workdir", default="/work/real-trees",
                    help="trees and git directories go here (outside this repo)")
    ap.add_argument("--labels", default=os.path.join(HERE, "labels"))
    ap.add_argument("--cases-file", nargs="+", default=[os.path.join(HERE, "cases.json")],
                    help="the cases to run (default: cases.json; cases-heldout*.json hold the held-out ones); "
                         "several files: each set's overall, then one pooled over all their labels")
    ap.add_argument("--cases", nargs="*")
    ap.add_argument("--json", help="write per-label results and metrics here")
    ap.add_argument("--keep", action="store_true", help="keep the materialised trees")
    ap.add_argument("--modes", nargs="*", choices=MODES, default=list(MODES),
                    help="run only these modes (default: both); a quick look at one, not a result to record")
    args = ap.parse_args()
    end_children_on_sigterm()
    memval = os.path.abspath(args.memval)
    sets = []
    seen = {}
    for path in args.cases_file:
        with open(path) as f:
            cases = json.load(f)["cases"]
        if args.cases:
            cases = [c for c in cases if c["name"] in args.cases]
        for c in cases:
            # labels/<name>.json is shared by every set: one name, one case
            if c["name"] in seen:
                raise SystemExit(f"case {c['name']} is in both {seen[c['name']]} and {path}")
            seen[c["name"]] = path
        sets.append((path, cases))
    modes = [m for m in MODES if m in args.modes]
    done = []
    for path, cases in sets:
        if len(sets) > 1:
            print(f"#### {os.path.basename(path)}: {len(cases)} cases")
        results, rows, times = run_set(cases, modes, args, memval)
        print()
        overall = {}
        for mode in modes:
            overall[mode] = overall_metrics(rows[mode], times[mode])
            print_overall(f"overall, {mode}: {len(cases)} cases", overall[mode], rows[mode])
        if len(sets) > 1:
            print()
        done.append({"cases_file": os.path.basename(path), "cases": results, "overall": overall,
                     "rows": rows, "times": times})
    pooled = {}
    if len(sets) > 1:
        print("#### every set")
        for mode in modes:
            for d in done:
                print_summary(f"  {os.path.splitext(d['cases_file'])[0]}, {mode}", d["overall"][mode])
        print()
        n_cases = sum(len(cases) for _, cases in sets)
        for mode in modes:
            rows = [r for d in done for r in d["rows"][mode]]
            secs = [t for d in done for t in d["times"][mode]]
            pooled[mode] = overall_metrics(rows, secs)
            print_overall(f"pooled, {mode}: {len(sets)} sets, {n_cases} cases", pooled[mode], rows)
    if args.json:
        if len(sets) == 1:
            out = {"cases": done[0]["cases"], "overall": done[0]["overall"]}
        else:
            out = {"sets": [{"cases_file": d["cases_file"], "cases": d["cases"], "overall": d["overall"]}
                            for d in done],
                   "pooled": pooled}
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    sys.exit(main())

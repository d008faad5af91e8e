#!/usr/bin/env python3
"""False-alarm audit: each case's notes *as of commit B* against the tree at B, with history.

The labelled benchmark (run.py) scores only references that resolved when the notes were
written. This audit looks at everything memval says about notes that are current for their
tree: a verdict other than VALID is either rot the notes already had at B or a false alarm,
and reading the rows tells which. It prints, per case and in all, the verdict counts per claim
type, the share of claims that are not VALID, and every non-VALID row (case, claim type,
verdict, confidence, claim, evidence), for a person to read. No labels: it measures how much
memval flags on current notes, not whether each flag is right.

    python3 bench/real/audit.py --memval target/release/memval [--mirrors /work/.mirror]
        [--workdir /work/real-audit] [--cases-file FILE ...] [--json FILE]
"""

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gitprep import prepared  # noqa: E402


def checkout(case, gitdir, root):
    """root: a repository borrowing gitdir's objects, checked out at B (made once)."""
    if os.path.exists(os.path.join(root, ".git")):
        return
    os.makedirs(root, exist_ok=True)

    def git(*args):
        subprocess.run(["git", *args], cwd=root, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    git("init", "-q")
    with open(os.path.join(root, ".git", "objects", "info", "alternates"), "w") as f:
        f.write(os.path.join(os.path.abspath(gitdir), "objects") + "\n")
    git("fetch", "-q", os.path.abspath(gitdir), "refs/replace/*:refs/replace/*")
    git("update-ref", "refs/heads/main", case["B"])
    git("symbolic-ref", "HEAD", "refs/heads/main")
    git("checkout", "-q", "-f", "main")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--memval", required=True)
    ap.add_argument("--mirrors", default="/work/.mirror")
    ap.add_argument("--workdir", default="/work/real-audit")
    ap.add_argument("--cases-file", nargs="+", default=[os.path.join(HERE, "cases.json")])
    ap.add_argument("--json", help="write the counts and rows here")
    args = ap.parse_args()

    seen = set()
    total = collections.Counter()
    rows = []
    skipped = []
    for cases_file in args.cases_file:
        with open(cases_file) as f:
            cases = json.load(f)["cases"]
        for case in cases:
            key = (case["repo"], case["notes"], case["B"])
            if key in seen:
                continue
            seen.add(key)
            gitdir = prepared(args.mirrors, case["repo"], args.workdir)
            root = os.path.join(args.workdir, "trees", case["name"])
            checkout(case, gitdir, root)
            notes = os.path.join(root, case["notes"])
            if not os.path.isfile(notes):
                skipped.append((case["name"], "the notes file is gone at B"))
                print(f"== {case['name']}: skipped, the notes file is gone at B", flush=True)
                continue
            store = os.path.join(args.workdir, "store")
            shutil.rmtree(store, ignore_errors=True)
            p = subprocess.run([args.memval, "validate", "--repo", root, "--memories", notes, "--format", "json",
                                "--fail-on", "never", "--store", store, "--quiet"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            if p.returncode != 0:
                why = p.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
                skipped.append((case["name"], f"memval exited {p.returncode}: {why[0]}"))
                print(f"== {case['name']}: memval exited {p.returncode}: {why[0]}", flush=True)
                continue
            report = json.loads(p.stdout)
            counts = collections.Counter()
            for memory in report["memories"]:
                for claim in memory["claims"]:
                    counts[claim["verdict"]] += 1
                    total[(claim["claim_type"], claim["verdict"])] += 1
                    if claim["verdict"] != "VALID":
                        rows.append({"case": case["name"], "claim_type": claim["claim_type"], "verdict": claim["verdict"],
                                     "confidence": claim["confidence"], "claim": claim["claim_text"],
                                     "evidence": claim["evidence"]})
            n = sum(counts.values())
            flagged = n - counts["VALID"]
            print(f"== {case['name']:<28} {n:4d} claims  not VALID {flagged:4d} ({flagged / n if n else 0:.3f})  "
                  f"not checked {len(report.get('not_checked', []))}  problems {len(report.get('problems', []))}", flush=True)

    by_verdict = collections.Counter()
    for (_, verdict), n in total.items():
        by_verdict[verdict] += n
    n = sum(by_verdict.values())
    print("\n== in all")
    for (claim_type, verdict), count in sorted(total.items()):
        print(f"  {claim_type:<18} {verdict:<13} {count}")
    share = (n - by_verdict["VALID"]) / n if n else 0.0
    print(f"  claims {n}, not VALID {n - by_verdict['VALID']} ({share:.3f}): " +
          ", ".join(f"{v} {by_verdict[v]}" for v in ("VALID", "STALE", "CONTRADICTED", "AMBIGUOUS")))
    print("\n== rows not VALID (case | type | verdict | confidence | claim | evidence)")
    for r in rows:
        print(" | ".join([r["case"], r["claim_type"], r["verdict"], str(r["confidence"]),
                          r["claim"][:100].replace("\n", " "), r["evidence"][:240].replace("\n", " ")]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"counts": {f"{t}/{v}": c for (t, v), c in sorted(total.items())}, "claims": n,
                       "not_valid_share": share, "rows": rows, "skipped": skipped}, f, indent=1)


if __name__ == "__main__":
    main()

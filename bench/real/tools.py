#!/usr/bin/env python3
"""Every agent tool's notes in real repositories, as two memval binaries find them.

For each repository of the case files, at the commit B of its first case (the repository as it
stands, its notes as they are, nothing put back): `memval validate --memories REPO` and
`memval pairs --memories REPO` with each binary. Prints, per binary, the memories found per
agent, the claims and their verdicts per agent, the candidate pairs per agent pair and the
time taken; with --sample FILE, the claims memval did not find VALID in memories only the new
binary reads (for checking by hand).

    python3 bench/real/tools.py --memval NEW --baseline OLD [--mirrors /work/.mirror]
        [--workdir /work/real-tools] [--gitdirs DIR ...] --cases-file FILE ... [--json OUT]
        [--sample OUT.jsonl [--sample-all]] [--skip N] [--repos N]

--gitdirs: folders holding gitprep.py directories already made (run.py workdirs' `git/`);
a repository found in none is prepared under --workdir.
"""

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gitprep import prepared  # noqa: E402
from run import checkout, mark_stand_ins  # noqa: E402


def gitdir_for(repo, args):
    name = repo.replace("/", "+") + ".git"
    for d in args.gitdirs:
        g = os.path.join(d, name)
        if os.path.exists(os.path.join(g, "memval-bench-ready")):
            return g
    return prepared(args.mirrors, repo, args.workdir)


def validate(memval, tree, store):
    out = tree + ".report.json"
    shutil.rmtree(store, ignore_errors=True)
    cmd = [memval, "validate", "--repo", tree, "--memories", tree, "--format", "json",
           "--fail-on", "never", "--store", store, "-q", "-o", out]
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    secs = time.monotonic() - t0
    shutil.rmtree(store, ignore_errors=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr.decode("utf-8", "replace")[-2000:])
        return None, secs, p.stderr.decode("utf-8", "replace")
    with open(out) as f:
        report = json.load(f)
    os.unlink(out)
    return report, secs, p.stderr.decode("utf-8", "replace")


def pairs(memval, tree):
    cmd = [memval, "pairs", "--repo", tree, "--memories", tree, "--format", "jsonl"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        return None
    return [json.loads(l) for l in p.stdout.decode("utf-8", "replace").splitlines() if l.strip()]


def summarise(report, found_pairs):
    s = {"memories": collections.Counter(), "claims": collections.Counter(),
         "verdicts": collections.defaultdict(collections.Counter), "pairs": collections.Counter(),
         "not_checked": 0}
    if report is None:
        return s
    for m in report["memories"]:
        s["memories"][m["agent"]] += 1
        for c in m["claims"]:
            s["claims"][m["agent"]] += 1
            s["verdicts"][m["agent"]][c["verdict"]] += 1
    s["not_checked"] = len(report.get("not_checked", []))
    for p in found_pairs or []:
        s["pairs"][" ~ ".join(sorted((p["agent_a"], p["agent_b"])))] += 1
    return s


def add(total, s):
    for k in ("memories", "claims", "pairs"):
        total[k].update(s[k])
    for agent, v in s["verdicts"].items():
        total["verdicts"][agent].update(v)
    total["not_checked"] += s["not_checked"]


def show(title, total, secs):
    print(f"\n== {title}: {sum(total['memories'].values())} memories, "
          f"{sum(total['claims'].values())} claims, {total['not_checked']} not checked, "
          f"{sum(total['pairs'].values())} candidate pairs, validate median {median(secs):.2f} s/repo")
    for agent, n in total["memories"].most_common():
        v = total["verdicts"][agent]
        claims = total["claims"][agent]
        not_valid = claims - v["VALID"]
        rate = f"{not_valid / claims:.3f}" if claims else "-"
        print(f"  {agent:14} memories {n:5}  claims {claims:6}  not VALID {not_valid:5} ({rate})  "
              + " ".join(f"{k} {v[k]}" for k in ("STALE", "CONTRADICTED", "AMBIGUOUS")))
    for pair, n in total["pairs"].most_common(12):
        print(f"  pairs {pair:32} {n}")


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if xs else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--memval", required=True)
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--mirrors", default="/work/.mirror")
    ap.add_argument("--workdir", default="/work/real-tools")
    ap.add_argument("--gitdirs", nargs="*", default=[])
    ap.add_argument("--cases-file", nargs="+", required=True)
    ap.add_argument("--json")
    ap.add_argument("--sample")
    ap.add_argument("--repos", type=int, default=0, help="only the first N repositories")
    ap.add_argument("--skip", type=int, default=0,
                    help="leave out the first N repositories (those looked at before: --skip 40 --repos 20 is a held-out look)")
    ap.add_argument("--sample-all", action="store_true",
                    help="--sample writes every claim the new binary did not find VALID, not only those in memories it alone reads")
    args = ap.parse_args()

    repos = {}
    for f in args.cases_file:
        with open(f) as fh:
            for c in json.load(fh)["cases"]:
                repos.setdefault(c["repo"], c["B"])
    items = list(repos.items())[args.skip:]
    items = items[: args.repos or None]
    binaries = (("baseline", args.baseline), ("new", args.memval))
    totals = {b: {"memories": collections.Counter(), "claims": collections.Counter(),
                  "verdicts": collections.defaultdict(collections.Counter),
                  "pairs": collections.Counter(), "not_checked": 0} for b, _ in binaries}
    secs = {b: [] for b, _ in binaries}
    failed = {b: [] for b, _ in binaries}
    per_repo = []
    sample = open(args.sample, "w") if args.sample else None
    for repo, commit in items:
        tree = os.path.join(args.workdir, "trees", repo.replace("/", "+"))
        shutil.rmtree(tree, ignore_errors=True)
        checkout(commit, gitdir_for(repo, args), tree)
        mark_stand_ins(tree)
        row = {"repo": repo, "B": commit}
        reports = {}
        for name, binary in binaries:
            report, t, err = validate(binary, tree, os.path.join(args.workdir, "store-" + name))
            if report is None:
                failed[name].append(repo)
            reports[name] = report
            s = summarise(report, pairs(binary, tree))
            add(totals[name], s)
            secs[name].append(t)
            row[name] = {"seconds": round(t, 2), "memories": dict(s["memories"]),
                         "claims": dict(s["claims"]), "pairs": dict(s["pairs"]),
                         "links": err.count("is the same file as")}
        per_repo.append(row)
        if sample and reports["new"] and reports["baseline"] is not None:
            known = {m["id"] for m in reports["baseline"]["memories"]}
            for m in reports["new"]["memories"]:
                if m["id"] in known and not args.sample_all:
                    continue
                for c in m["claims"]:
                    if c["verdict"] != "VALID":
                        sample.write(json.dumps({"repo": repo, "memory": m["id"], "agent": m["agent"],
                                                 "line": c.get("source_line") or c.get("line"),
                                                 "claim": c["claim_text"], "verdict": c["verdict"],
                                                 "evidence": c["evidence"], "successor": c.get("successor")}) + "\n")
        print(f"{repo:40} " + "  ".join(
            f"{n}: {sum(row[n]['memories'].values())} mem {sum(row[n]['claims'].values())} claims "
            f"{sum(row[n]['pairs'].values())} pairs {row[n]['seconds']} s" for n, _ in binaries), flush=True)
        shutil.rmtree(tree, ignore_errors=True)
    for name, _ in binaries:
        show(name, totals[name], secs[name])
        if failed[name]:
            print(f"  validate failed on: {', '.join(failed[name])}")
    ratios = [r["new"]["seconds"] / r["baseline"]["seconds"] for r in per_repo if r["baseline"]["seconds"] > 0]
    print(f"\nnew / baseline validate time per repo: median {median(ratios):.2f}x over {len(ratios)} repos")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"repos": per_repo, "totals": {k: {"memories": v["memories"], "claims": v["claims"],
                                                          "verdicts": v["verdicts"], "pairs": v["pairs"],
                                                          "not_checked": v["not_checked"]}
                                                      for k, v in totals.items()}}, f, indent=1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Pick the version of a notes file that becomes a case, from the labeller's counts only.

For each (repository, notes path) given: B is the newest commit of the mirror; every commit
that touched the notes file at least --min-days before B is a candidate A. Each candidate is
labelled with label.py's rules. Among the candidates with at least two thirds of the most
labels, the one with the most non-VALID labels is kept, ties to more labels, then to the
older. memval is never run here: the choice must not depend on what memval would say.

    python3 bench/real/choose.py NAME=owner/repo:path[:language] ... [--out cases.json]

prints every candidate's counts and writes the chosen cases (the cases file format).
"""

import argparse
import datetime
import json
import os
import sys

from gitprep import prepared
from label import VERDICTS, git, label_case

HERE = os.path.dirname(os.path.abspath(__file__))


def candidates(gitdir, notes, min_days):
    b = git(gitdir, "rev-parse", "HEAD").strip()
    b_date = git(gitdir, "log", "-1", "--format=%cs", b).strip()
    limit = datetime.date.fromisoformat(b_date) - datetime.timedelta(days=min_days)
    out = []
    for line in git(gitdir, "log", "--format=%H %cs", b, "--", notes).splitlines():
        commit, date = line.split()
        if datetime.date.fromisoformat(date) > limit:
            continue
        # the file must exist at that commit (a deleting commit touches it too)
        kind = git(gitdir, "ls-tree", commit, "--", notes).strip()
        if kind:
            out.append((commit, date))
    return b, b_date, out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("specs", nargs="+", help="NAME=owner/repo:notes/path[:Language]")
    ap.add_argument("--mirrors", default="/work/.mirror")
    ap.add_argument("--workdir", default="/work/real-trees")
    ap.add_argument("--min-days", type=int, default=100)
    ap.add_argument("--max-versions", type=int, default=0,
                    help="label at most this many candidate versions, evenly spaced from newest to oldest (0: all)")
    ap.add_argument("--out", help="write the chosen cases here (cases file format)")
    args = ap.parse_args()
    chosen = []
    for spec in args.specs:
        name, rest = spec.split("=", 1)
        repo, notes, *lang = rest.split(":")
        gitdir = prepared(args.mirrors, repo, args.workdir)
        b, b_date, cands = candidates(gitdir, notes, args.min_days)
        if args.max_versions and len(cands) > args.max_versions:
            # evenly spaced, newest and oldest kept: a long-edited file is sampled, not cut
            n, k = len(cands), args.max_versions
            cands = [cands[round(i * (n - 1) / (k - 1))] for i in range(k)] if k > 1 else cands[:1]
        rows = []
        for a, a_date in cands:
            res = label_case({"name": name, "repo": repo, "notes": notes, "A": a, "B": b},
                             args.mirrors, args.workdir)
            c = res["counts"]
            n = sum(c.values())
            rows.append((a, a_date, n, n - c["VALID"], c))
            print(f"{name:<20} {a[:10]} {a_date} {n:>4} labels  "
                  + "  ".join(f"{v} {c[v]}" for v in VERDICTS), flush=True)
        if not rows:
            print(f"{name:<20} no version old enough", flush=True)
            continue
        most = max(r[2] for r in rows)
        fair = [r for r in rows if r[2] * 3 >= most * 2 and r[2] > 0]
        if not fair:
            print(f"{name:<20} no version names a path", flush=True)
            continue
        # most non-VALID, then most labels, then the older (smaller date)
        best = sorted(fair, key=lambda r: (-r[3], -r[2], r[1]))[0]
        commits = int(git(gitdir, "rev-list", "--count", f"{best[0]}..{b}").strip())
        print(f"{name:<20} chosen {best[0][:10]} {best[1]}: {best[2]} labels, {best[3]} not VALID", flush=True)
        chosen.append({
            "name": name, "repo": repo, "language": lang[0] if lang else "", "notes": notes,
            "A": best[0], "A_date": best[1], "B": b, "B_date": b_date, "commits_between": commits,
        })
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"cases": chosen}, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    sys.exit(main())

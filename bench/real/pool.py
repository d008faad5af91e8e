#!/usr/bin/env python3
"""Pool the per-label rows of several `run.py --json` files into one overall, without running memval.

The same pooled numbers as one `run.py` run over all the case files, when every file was made
by the same memval binary: the metrics are computed from the rows by run.py's own functions.
Splitting a long pooled run into parallel `run.py` runs (or reusing a set's first-contact run)
then costs no second run. It refuses two files that hold the same case, so no label is counted
twice; it never checks that the files came from the same binary — say which binary made them.

    python3 bench/real/pool.py RUN.json ... [--json OUT]
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run import MODES, overall_metrics, print_overall, print_summary  # noqa: E402


def sets_of(path):
    """The sets a run.py --json file holds: (name, cases) pairs; a one-set file has no name."""
    with open(path) as f:
        data = json.load(f)
    if "sets" in data:
        return [(os.path.splitext(s["cases_file"])[0], s["cases"]) for s in data["sets"]]
    return [(os.path.splitext(os.path.basename(path))[0], data["cases"])]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", help="JSON files written by run.py --json")
    ap.add_argument("--json", help="write the per-set and pooled metrics here")
    args = ap.parse_args()
    sets = []
    seen = {}
    for path in args.runs:
        for name, cases in sets_of(path):
            for c in cases:
                if c["case"] in seen:
                    raise SystemExit(f"case {c['case']} is in both {seen[c['case']]} and {path}")
                seen[c["case"]] = path
            sets.append((name, cases))
    # a mode is pooled only if every case has it: a partial pool would look complete
    modes = [m for m in MODES if all(m in c["runs"] for _, cases in sets for c in cases)]
    pooled = {}
    per_set = []
    for mode in modes:
        everything, secs = [], []
        for name, cases in sets:
            rows = [r for c in cases for r in c["runs"][mode]["rows"]]
            times = [c["runs"][mode]["metrics"]["seconds"] for c in cases]
            m = overall_metrics(rows, times)
            per_set.append({"set": name, "mode": mode, "overall": m})
            print_summary(f"  {name}, {mode}", m)
            everything += rows
            secs += times
        print()
        pooled[mode] = overall_metrics(everything, secs)
        n_cases = sum(len(cases) for _, cases in sets)
        print_overall(f"pooled, {mode}: {len(sets)} sets, {n_cases} cases", pooled[mode], everything)
        print()
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"sets": per_set, "pooled": pooled}, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    sys.exit(main())

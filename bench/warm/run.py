#!/usr/bin/env python3
"""How fast is a re-check when memval's store already holds an earlier run, and is it still right?

A notes file (AGENTS.md or CLAUDE.md) in a real repository is checked again and again while the
repository moves forward one first-parent commit at a time, the way a pre-commit hook or an
agent's session would re-check it. Per repository:

  cold         every run on a fresh, empty store (K of them at the start commit, and one more at
               every later commit); their median is the yardstick
  first        the first run on a persistent store S_inc (it fills the store)
  warm         K more runs on S_inc at the same commit, nothing changed
  incremental  the next N first-parent commits, oldest first: check the commit out and run on
               S_inc once
  edited       at the last commit, a line naming a file that does not exist is appended to the
               notes file; run on S_inc (and cold)
  older        the start commit checked out again; run on S_inc (and cold)

Every run on S_inc is paired with a cold run on the same tree and the two JSON reports must be
the same once what legitimately differs between runs is masked (see MASKED_RUN_KEYS): a store
may make a run faster, never change a verdict. The first and warm reports are compared with the
first cold report at the start commit in the same way.

    python3 bench/warm/run.py --memval target/release/memval [--repos OWNER/NAME ...]
        [--commits 20] [--runs 3] [--notes AGENTS.md] [--workdir /work/warm-bench]
        [--mirrors /work/.mirror] [--json results.json]

The start commit is HEAD~N along first parents of the snapshot's HEAD. The repositories come
from the fetch tool's mirrors through bench/real/gitprep.py (a bare git directory whose absent
big blobs are replaced by stand-ins); the worktree is made from that directory, never from the
mirror. Reports stay in WORKDIR/reports/OWNER+NAME/ for inspection; worktrees are removed at the
end. Times are wall clock and summarised by medians, as the machine is shared and noisy. Exits 1
when any pair of reports differs or any run exits with 2 or more, else 0.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "real"))
from gitprep import prepared  # noqa: E402

DEFAULT_REPOS = ["DataDog/dd-trace-rb", "ktorio/ktor", "gohugoio/hugo"]
NOTES_CANDIDATES = ["AGENTS.md", "CLAUDE.md"]
EDIT_LINE = "The entry point is `does/not/exist.rs`.\n"

# What legitimately differs between two runs over the same tree, masked before comparing (the
# JSON counterpart of bench/same-reports.sh's `mask`). In a JSON report (format of
# `validate --format json`) these are all under "run":
#   id           the run id, e.g. 20261204T020611555582Z-60b0
#   started_at   RFC 3339 wall-clock times of the run
#   finished_at
#   store        the --store path (S_inc vs a fresh cold store)
# Durations: the report carries none today; any key named like one (DURATION_HINTS) anywhere in
# the report is dropped as well, so a later report that adds one still compares.
# Not masked, on purpose: memories[].updated_at (the memory's date from git, the same for two
# runs over one tree), repo and memories_path (the same worktree and notes path in both runs).
MASKED_RUN_KEYS = ("id", "run_id", "started_at", "finished_at", "store")
DURATION_HINTS = ("duration", "elapsed", "_ms", "_secs", "seconds")


# ---------------------------------------------------------------------------------------- git

def git(*args, cwd=None, gitdir=None, stdin=None):
    cmd = ["git"] + (["--git-dir", gitdir] if gitdir else []) + list(args)
    out = subprocess.run(cmd, cwd=cwd, input=stdin, check=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return out.stdout.decode("utf-8", "replace")


def first_parents(gitdir, n):
    """HEAD and the n first-parent commits before it, oldest first."""
    return git("rev-list", "--first-parent", f"--max-count={n + 1}", "HEAD",
               gitdir=gitdir).split()[::-1]


def exists_at(gitdir, commit, path):
    return subprocess.run(["git", "--git-dir", gitdir, "cat-file", "-e", f"{commit}:{path}"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def mark_stand_ins(worktree):
    """Files holding a stand-in for an absent blob look modified to git; mark them unchanged so the
    tree is clean (as bench/real/run.py does). Redone after every checkout."""
    replaced = set(git("for-each-ref", "--format=%(refname:lstrip=2)", "refs/replace",
                       cwd=worktree).split())
    paths = [line.split("\t", 1)[1] for line in git("ls-files", "-s", cwd=worktree).splitlines()
             if line.split()[1] in replaced]
    if paths:
        git("update-index", "--assume-unchanged", "--stdin", cwd=worktree,
            stdin="".join(p + "\n" for p in paths).encode())


def add_worktree(gitdir, worktree, commit):
    remove_worktree(gitdir, worktree)
    os.makedirs(os.path.dirname(worktree), exist_ok=True)
    git("worktree", "add", "-q", "--detach", worktree, commit, gitdir=gitdir)
    mark_stand_ins(worktree)


def checkout(worktree, commit):
    git("checkout", "-q", "--detach", commit, cwd=worktree)
    mark_stand_ins(worktree)


def remove_worktree(gitdir, worktree):
    if os.path.exists(worktree):
        subprocess.run(["git", "--git-dir", gitdir, "worktree", "remove", "--force", worktree],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(worktree, ignore_errors=True)
    subprocess.run(["git", "--git-dir", gitdir, "worktree", "prune"], check=False)


# ------------------------------------------------------------------------------------- memval

def run_memval(ctx, kind, label, commit, store):
    """One timed `validate` run; returns its record (also appended to ctx['runs'])."""
    out = os.path.join(ctx["reports"], label + ".json")
    err = os.path.join(ctx["reports"], label + ".err")
    for stale in (out, err):
        if os.path.exists(stale):
            os.remove(stale)
    cmd = [ctx["bin"], "validate", "--repo", ctx["worktree"],
           "--memories", os.path.join(ctx["worktree"], ctx["notes"]),
           "--store", store, "--format", "json", "-o", out, "-q"]
    with open(err, "wb") as errf:
        start = time.perf_counter()
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=errf)
        seconds = time.perf_counter() - start
    record = {"kind": kind, "label": label, "commit": commit, "store": store,
              "seconds": round(seconds, 3), "exit": done.returncode,
              "report": out if os.path.exists(out) else None}
    if done.returncode >= 2:
        with open(err, encoding="utf-8", errors="replace") as f:
            record["stderr_tail"] = f.read()[-2000:]
        print(f"  ERROR: {label} exited {done.returncode} (stderr in {err})", flush=True)
    ctx["runs"].append(record)
    return record


def run_cold(ctx, label, commit):
    """A run on a fresh, empty store, removed afterwards (the report is kept)."""
    store = os.path.join(ctx["stores"], "cold")
    shutil.rmtree(store, ignore_errors=True)
    record = run_memval(ctx, "cold", label, commit, store)
    shutil.rmtree(store, ignore_errors=True)
    return record


def run_inc(ctx, kind, label, commit):
    return run_memval(ctx, kind, label, commit, ctx["s_inc"])


# ----------------------------------------------------------------------------------- compare

def masked(report):
    """The report without what differs between any two runs over the same tree."""
    def drop_durations(x):
        if isinstance(x, dict):
            return {k: drop_durations(v) for k, v in x.items()
                    if not any(h in k.lower() for h in DURATION_HINTS)}
        if isinstance(x, list):
            return [drop_durations(v) for v in x]
        return x
    report = drop_durations(report)
    run = report.get("run")
    if isinstance(run, dict):
        report["run"] = {k: v for k, v in run.items() if k not in MASKED_RUN_KEYS}
    return report


def claims_of(report):
    """Every claim of the report, checked or not, keyed by where it comes from, with its outcome."""
    claims = {}
    for memory in report.get("memories", []):
        for i, c in enumerate(memory.get("claims", [])):
            key = (memory.get("id"), c.get("claim_type"), c.get("line"), c.get("claim_text"))
            claims[key] = {"verdict": c.get("verdict"), "confidence": c.get("confidence"),
                           "evidence": c.get("evidence")}
    for c in report.get("not_checked", []):
        key = (c.get("memory_id"), c.get("claim_type"), c.get("line"), c.get("claim_text"))
        claims[key] = {"verdict": "not_checked", "reason": c.get("reason")}
    return claims


def first_path_difference(a, b, path="$"):
    """The first JSON path where a and b differ, or None."""
    if type(a) is not type(b):
        return path
    if isinstance(a, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a or k not in b:
                return f"{path}.{k}"
            d = first_path_difference(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_path_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None if len(a) == len(b) else f"{path}[{min(len(a), len(b))}]"
    return None if a == b else path


def first_difference(inc, cold):
    """Where two masked reports differ: the first claim whose outcome differs, else a JSON path."""
    ci, cc = claims_of(inc), claims_of(cold)
    for key in list(ci) + [k for k in cc if k not in ci]:
        if ci.get(key) != cc.get(key):
            return {"memory": key[0], "line": key[2], "claim_text": key[3],
                    "with_store": ci.get(key, {"verdict": "(absent)"}),
                    "cold": cc.get(key, {"verdict": "(absent)"})}
    return {"path": first_path_difference(inc, cold)}


def compare(ctx, kind, commit, with_store, cold):
    """Compare the report of a run on S_inc with the cold run's on the same tree."""
    result = {"kind": kind, "commit": commit, "with_store": with_store["label"],
              "cold": cold["label"]}
    if not with_store["report"] or not cold["report"]:
        result.update(match=False, difference={"path": "no report",
                      "exits": [with_store["exit"], cold["exit"]]})
    else:
        a, b = (masked(json.load(open(r["report"]))) for r in (with_store, cold))
        result["match"] = a == b
        if a != b:
            result["difference"] = first_difference(a, b)
    if not result["match"]:
        print(f"  MISMATCH {with_store['label']} vs {cold['label']}: "
              f"{json.dumps(result['difference'])[:400]}", flush=True)
    ctx["comparisons"].append(result)
    return result


# ------------------------------------------------------------------------------------ phases

def notes_present(ctx, commit, label):
    if os.path.isfile(os.path.join(ctx["worktree"], ctx["notes"])):
        return True
    msg = f"{ctx['notes']} does not exist at {commit[:12]}: {label} runs skipped"
    print("  " + msg, flush=True)
    ctx["skipped"].append(msg)
    return False


def phase_start(ctx, start, runs):
    """K cold runs, the first run on S_inc, then K warm runs, all at the start commit."""
    if not notes_present(ctx, start, "start"):
        return
    colds = [run_cold(ctx, f"00-start-cold-{i + 1}", start) for i in range(runs)]
    first = run_inc(ctx, "first", "00-start-first", start)
    compare(ctx, "first", start, first, colds[0])
    for i in range(runs):
        warm = run_inc(ctx, "warm", f"00-start-warm-{i + 1}", start)
        compare(ctx, "warm", start, warm, colds[0])


def phase_incremental(ctx, commits):
    """One run on S_inc and one cold run at each later commit, oldest first."""
    for step, commit in enumerate(commits, 1):
        checkout(ctx["worktree"], commit)
        label = f"{step:02d}-{commit[:10]}"
        if not notes_present(ctx, commit, label):
            continue
        inc = run_inc(ctx, "incremental", label + "-incremental", commit)
        cold = run_cold(ctx, label + "-cold", commit)
        compare(ctx, "incremental", commit, inc, cold)


def phase_edited(ctx, commit):
    """The notes file gains a line naming a file that does not exist; then it is restored."""
    if not notes_present(ctx, commit, "edited"):
        return
    notes = os.path.join(ctx["worktree"], ctx["notes"])
    with open(notes, "a") as f:
        f.write(EDIT_LINE)
    try:
        inc = run_inc(ctx, "edited", "90-edited-incremental", commit)
        cold = run_cold(ctx, "90-edited-cold", commit)
        compare(ctx, "edited", commit, inc, cold)
    finally:
        git("checkout", "--", ctx["notes"], cwd=ctx["worktree"])


def phase_older(ctx, start):
    """Back to the start commit, which S_inc has seen before."""
    checkout(ctx["worktree"], start)
    if not notes_present(ctx, start, "older"):
        return
    inc = run_inc(ctx, "older", "91-older-incremental", start)
    cold = run_cold(ctx, "91-older-cold", start)
    compare(ctx, "older", start, inc, cold)


# ------------------------------------------------------------------------------------- repos

def choose_notes(gitdir, commits, wanted):
    if wanted:
        return wanted
    for name in NOTES_CANDIDATES:
        if exists_at(gitdir, commits[0], name):
            return name
    return None


def bench_repo(args, repo):
    slug = repo.replace("/", "+")
    gitdir = prepared(args.mirrors, repo, args.workdir)
    commits = first_parents(gitdir, args.commits)
    start, later = commits[0], commits[1:]
    if len(later) < args.commits:
        print(f"  only {len(later)} first-parent commits before HEAD", flush=True)
    notes = choose_notes(gitdir, commits, args.notes)
    result = {"repo": repo, "gitdir": gitdir, "notes": notes, "head": commits[-1],
              "start": start, "replayed": later,
              "tracked_files": len(git("ls-tree", "-r", "--name-only", "HEAD",
                                       gitdir=gitdir).splitlines()),
              "commits_at_head": int(git("rev-list", "--count", "HEAD", gitdir=gitdir)),
              "runs": [], "comparisons": [], "skipped": []}
    if notes is None:
        result["skipped"].append(f"none of {NOTES_CANDIDATES} at {start[:12]}: repo skipped")
        print("  " + result["skipped"][-1], flush=True)
        return result
    ctx = {"bin": os.path.abspath(args.memval), "notes": notes,
           "worktree": os.path.join(args.workdir, "wt", slug),
           "reports": os.path.join(args.workdir, "reports", slug),
           "stores": os.path.join(args.workdir, "stores", slug),
           "runs": result["runs"], "comparisons": result["comparisons"],
           "skipped": result["skipped"]}
    ctx["s_inc"] = os.path.join(ctx["stores"], "inc")
    for d in (ctx["reports"], ctx["stores"]):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    print(f"  notes {notes}; start {start[:12]}; {len(later)} commits to replay", flush=True)
    add_worktree(gitdir, ctx["worktree"], start)
    try:
        phase_start(ctx, start, args.runs)
        phase_incremental(ctx, later)
        phase_edited(ctx, later[-1] if later else start)
        phase_older(ctx, start)
    finally:
        remove_worktree(gitdir, ctx["worktree"])
        shutil.rmtree(ctx["stores"], ignore_errors=True)
    result["summary"] = summarize(result)
    return result


# ----------------------------------------------------------------------------------- summary

def times(result, kind):
    return [r["seconds"] for r in result["runs"] if r["kind"] == kind]


def median(xs):
    return statistics.median(xs) if xs else None


def ratio(a, b):
    return round(a / b, 3) if a is not None and b else None


def claim_counts(result):
    """Claims per cold report, over the commits as they are (the edited notes add one)."""
    counts = []
    for r in result["runs"]:
        if r["kind"] == "cold" and r["report"] and "edited" not in r["label"]:
            counts.append(json.load(open(r["report"])).get("run", {}).get("claims"))
    return [c for c in counts if c is not None]


def summarize(result):
    cold = median(times(result, "cold"))
    warm = median(times(result, "warm"))
    inc = times(result, "incremental")
    claims = claim_counts(result)
    matched = sum(1 for c in result["comparisons"] if c["match"])
    one = lambda kind: (times(result, kind) or [None])[0]  # noqa: E731
    return {"claims": (f"{min(claims)}" if min(claims) == max(claims)
                       else f"{min(claims)}-{max(claims)}") if claims else "-",
            "cold_median": cold, "first": one("first"), "warm_median": warm,
            "warm_over_cold": ratio(warm, cold),
            "incremental_median": median(inc), "incremental_max": max(inc) if inc else None,
            "incremental_over_cold": ratio(median(inc), cold),
            "edited": one("edited"), "older": one("older"),
            "matched": matched, "compared": len(result["comparisons"]),
            "errors": sum(1 for r in result["runs"] if r["exit"] >= 2)}


COLUMNS = [("repo", "repo", 22), ("files", "tracked_files", 6), ("commits", "commits_at_head", 7),
           ("claims", "claims", 6), ("cold", "cold_median", 6), ("first", "first", 6),
           ("warm", "warm_median", 6), ("w/c", "warm_over_cold", 5),
           ("inc", "incremental_median", 6), ("inc max", "incremental_max", 7),
           ("i/c", "incremental_over_cold", 5), ("edited", "edited", 6), ("older", "older", 6)]


def cell(value, width):
    if value is None:
        text = "-"
    elif isinstance(value, float):
        text = f"{value:.2f}"
    else:
        text = str(value)
    return text.rjust(width) if not isinstance(value, str) or value[:1].isdigit() else text.ljust(width)


def print_table(results):
    print()
    print("times in seconds (medians); w/c, i/c: warm and incremental median over cold median")
    print("  ".join(name.ljust(w) if i == 0 else name.rjust(w)
                    for i, (name, _, w) in enumerate(COLUMNS)) + "  reports")
    for res in results:
        row = dict(res, **res.get("summary", {}))
        line = "  ".join(cell(row.get(key), w) for _, key, w in COLUMNS)
        s = res.get("summary")
        print(line + (f"  matched {s['matched']} of {s['compared']}" if s else "  skipped"))
        for msg in res["skipped"]:
            print(f"    {msg}")


def overall(results):
    summaries = [r["summary"] for r in results if "summary" in r]
    runs = [x for r in results for x in r["runs"]]
    return {"repos": len(results), "runs": len(runs),
            "errors": sum(s["errors"] for s in summaries),
            "matched": sum(s["matched"] for s in summaries),
            "compared": sum(s["compared"] for s in summaries),
            "warm_over_cold_median": median([s["warm_over_cold"] for s in summaries
                                             if s["warm_over_cold"] is not None]),
            "incremental_over_cold_median": median([s["incremental_over_cold"] for s in summaries
                                                    if s["incremental_over_cold"] is not None])}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--memval", required=True, help="a memval release binary")
    p.add_argument("--workdir", default="/work/warm-bench")
    p.add_argument("--mirrors", default="/work/.mirror")
    p.add_argument("--repos", nargs="+", default=DEFAULT_REPOS, metavar="OWNER/NAME")
    p.add_argument("--notes", help="the notes file, relative to the repo "
                   "(default: the first of AGENTS.md, CLAUDE.md at the start commit)")
    p.add_argument("--commits", type=int, default=20, help="first-parent commits to replay")
    p.add_argument("--runs", type=int, default=3, help="warm (and start cold) repetitions")
    p.add_argument("--json", help="write every run, comparison and summary here")
    args = p.parse_args()
    args.workdir = os.path.abspath(args.workdir)
    os.makedirs(args.workdir, exist_ok=True)

    results = []
    for repo in args.repos:
        print(f"{repo}:", flush=True)
        results.append(bench_repo(args, repo))
    print_table(results)
    total = overall(results)
    print(f"\noverall: {total['repos']} repos, {total['runs']} runs, {total['errors']} errors "
          f"(exit >= 2), reports matched {total['matched']} of {total['compared']}; "
          f"median w/c {cell(total['warm_over_cold_median'], 0)}, "
          f"i/c {cell(total['incremental_over_cold_median'], 0)}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"memval": os.path.abspath(args.memval), "commits": args.commits,
                       "runs": args.runs, "repos": results, "overall": total}, f, indent=2)
    failed = total["errors"] > 0 or total["matched"] < total["compared"]
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

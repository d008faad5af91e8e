#!/usr/bin/env python3
"""How long the integrations that run after every memory write or commit make their caller wait.

On a real repository at its snapshot's HEAD (prepared as in bench/real: bench/real/gitprep.py),
with memval's release build on PATH and an empty cache folder (MEMVAL_CACHE_DIR):

  pre-commit  scripts/pre-commit.sh NOTES, what pre-commit runs: the first call (an empty cache,
              as on a fresh machine), then K more with nothing changed
  hook        `memval hook claude` fed a PostToolUse event of an Edit of NOTES, as Claude Code
              sends it: the first call, then K more
  after edit  NOTES edited (a line appended), then the hook and the pre-commit hook once each:
              what a re-check after a memory write costs

Each line is wall-clock seconds (median of K where K runs); the ratio is the median over the
first call. Nothing is compared here: bench/warm/run.py proves a kept answer equals a fresh one.

    python3 bench/warm/hooks.py --memval target/release/memval [--repos OWNER/NAME ...] [--runs 3]
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench", "real"))
import gitprep  # noqa: E402

DEFAULT_REPOS = ["DataDog/dd-trace-rb", "ktorio/ktor", "gohugoio/hugo"]


def timed(cmd, env, cwd, stdin=None):
    started = time.perf_counter()
    out = subprocess.run(cmd, env=env, cwd=cwd, input=stdin, capture_output=True)
    took = time.perf_counter() - started
    if out.returncode not in (0, 1):
        raise SystemExit(f"{cmd[0]} exited {out.returncode}: {out.stderr.decode(errors='replace')[-600:]}")
    return took


def event(worktree, notes):
    path = os.path.join(worktree, notes)
    return json.dumps({
        "session_id": "bench",
        "transcript_path": "/dev/null",
        "cwd": worktree,
        "hook_event_name": "PostToolUse",
        "tool_name": "Edit",
        "tool_input": {"file_path": path, "old_string": "", "new_string": "", "replace_all": False},
        "tool_response": {"filePath": path, "success": True},
    }).encode()


def bench_repo(repo, args):
    gitdir = gitprep.prepared(args.mirrors, repo, args.workdir)
    worktree = os.path.join(args.workdir, "hooks-wt", repo.replace("/", "+"))
    if os.path.exists(worktree):
        subprocess.run(["git", "--git-dir", gitdir, "worktree", "remove", "--force", worktree], capture_output=True)
        shutil.rmtree(worktree, ignore_errors=True)
    subprocess.run(["git", "--git-dir", gitdir, "worktree", "prune"], check=True)
    subprocess.run(["git", "--git-dir", gitdir, "worktree", "add", "-q", "--detach", worktree, "HEAD"], check=True)
    try:
        notes = next(n for n in ("AGENTS.md", "CLAUDE.md") if os.path.isfile(os.path.join(worktree, n)))
        cache = tempfile.mkdtemp(prefix="memval-hooks-")
        # The pre-commit script runs the `memval` on PATH: this one, whatever its file is called.
        bindir = os.path.join(cache, "bin")
        os.makedirs(bindir)
        os.symlink(os.path.abspath(args.memval), os.path.join(bindir, "memval"))
        env = dict(os.environ, MEMVAL_CACHE_DIR=os.path.join(cache, "pre-commit"),
                   CLAUDE_CONFIG_DIR=os.path.join(cache, "claude"), PATH=bindir + os.pathsep + os.environ["PATH"])
        env.pop("CLAUDE_PROJECT_DIR", None)
        # The two share one kept store per project; apart here, so each one's first call is cold.
        hook_env = dict(env, MEMVAL_CACHE_DIR=os.path.join(cache, "hook"))
        pre_commit = ["bash", os.path.join(ROOT, "scripts", "pre-commit.sh"), notes]
        hook = [os.path.abspath(args.memval), "hook", "claude"]
        row = {"repo": repo, "notes": notes}
        row["pre-commit first"] = timed(pre_commit, env, worktree)
        row["pre-commit warm"] = statistics.median(timed(pre_commit, env, worktree) for _ in range(args.runs))
        row["hook first"] = timed(hook, hook_env, worktree, event(worktree, notes))
        row["hook warm"] = statistics.median(
            timed(hook, hook_env, worktree, event(worktree, notes)) for _ in range(args.runs))
        with open(os.path.join(worktree, notes), "a") as f:
            f.write("\nThe entry point is `does/not/exist.rs`.\n")
        row["hook after edit"] = timed(hook, hook_env, worktree, event(worktree, notes))
        with open(os.path.join(worktree, notes), "a") as f:
            f.write("\nSee `README.md` first.\n")
        row["pre-commit after edit"] = timed(pre_commit, env, worktree)
        shutil.rmtree(cache, ignore_errors=True)
        return row
    finally:
        subprocess.run(["git", "--git-dir", gitdir, "worktree", "remove", "--force", worktree], capture_output=True)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--memval", required=True)
    p.add_argument("--repos", nargs="+", default=DEFAULT_REPOS)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--workdir", default="/work/warm-bench")
    p.add_argument("--mirrors", default="/work/.mirror")
    p.add_argument("--json")
    args = p.parse_args()
    rows = [bench_repo(r, args) for r in args.repos]
    cols = ["pre-commit first", "pre-commit warm", "pre-commit after edit", "hook first", "hook warm", "hook after edit"]
    print(f"{'repo':24} {'notes':10} " + " ".join(f"{c:>21}" for c in cols))
    for r in rows:
        print(f"{r['repo']:24} {r['notes']:10} " + " ".join(f"{r[c]:21.2f}" for c in cols))
    for kind in ("pre-commit", "hook"):
        ratios = [r[f"{kind} warm"] / r[f"{kind} first"] for r in rows]
        print(f"{kind}: warm/first median {statistics.median(ratios):.3f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=2)


if __name__ == "__main__":
    main()

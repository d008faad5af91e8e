#!/usr/bin/env python3
"""Checks examples/expected.json against a demo repo built by make-demo-repo.sh.

It does not run memval. It re-derives, with git and plain regexes, the fact behind every
label (the path exists, the symbol is defined at that line, the successor is where the
history put it, ...) and that each needle is traceable to its memory's text, so the labels
cannot drift from what the script does.

    bash examples/make-demo-repo.sh /tmp/memval-demo
    python3 examples/check-expected.py /tmp/memval-demo
"""

import json
import os
import re
import sqlite3
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MEM = os.path.join(HERE, "memories")
HEAD = "727a693c969855f81b4eb1ff6a0ea6c2779df004"  # expected; printed by make-demo-repo.sh


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True,
                          text=True, encoding="utf-8", errors="replace").stdout


def load_memories(repo):
    """{(memory_source, memory_id): content}"""
    out = {}
    with open(os.path.join(MEM, "memories.jsonl"), encoding="utf-8") as f:
        for line in f:
            m = json.loads(line)
            out[("memories.jsonl", str(m["id"]))] = m["content"]
    for m in json.load(open(os.path.join(MEM, "memories.json"), encoding="utf-8")):
        out[("memories.json", str(m["id"]))] = m["content"]
    db = sqlite3.connect("file:" + os.path.join(MEM, "memory.db") + "?mode=ro", uri=True)
    for mid, content, archived in db.execute("SELECT id, content, archived FROM memories"):
        out[("memory.db", str(mid))] = None if archived else content
    for root, _, files in os.walk(MEM):
        for name in files:
            if not name.endswith(".md") or name in ("MEMORY.md", "index.md"):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, MEM)
            text = open(path, encoding="utf-8").read()
            mid = (os.path.relpath(path, os.path.join(MEM, "gaai", "contexts", "memory"))
                   if rel.startswith("gaai/") else name[:-3])
            out[(rel, mid)] = text
    for rel in ("README.md", "CLAUDE.md", "docs/architecture.md", "services/api/AGENTS.md"):
        out[(rel, rel)] = open(os.path.join(repo, rel), encoding="utf-8").read()
    return out


def def_patterns(name):
    n = re.escape(name)
    return [
        rf"^\s*(pub(\([^)]*\))?\s+)?(async\s+)?(fn|struct|enum|trait|const|type|mod)\s+{n}\b",  # Rust
        rf"^func\s+(\([^)]*\)\s*)?{n}\b", rf"^type\s+{n}\b",                                  # Go
        rf"^\s*(async\s+)?(def|class)\s+{n}\b",                                                # Python
        rf"^(export\s+)?(async\s+)?(function|class|interface|const|let)\s+{n}\b",             # JS/TS
        rf"^\s+(async\s+)?{n}\s*(<[^>]*>)?\(",                                                 # TS method
    ]


class Tree:
    """The files of one commit, read through git (never through the file system)."""

    def __init__(self, repo, rev):
        self.repo, self.rev = repo, rev
        self.entries = {}
        for line in git(repo, "ls-tree", "-r", rev).splitlines():
            meta, path = line.split("\t", 1)
            self.entries[path] = meta.split()[0]
        self.cache = {}

    def is_file(self, path):
        return self.entries.get(path) in ("100644", "100755")

    def is_dir(self, path):
        p = path.rstrip("/") + "/"
        return any(k.startswith(p) for k in self.entries)

    def through_symlink(self, path):
        parts = path.strip("/").split("/")
        return any(self.entries.get("/".join(parts[:i])) == "120000" for i in range(1, len(parts) + 1))

    def lines(self, path):
        if path not in self.cache:
            raw = subprocess.run(["git", "-C", self.repo, "show", f"{self.rev}:{path}"],
                                 check=True, capture_output=True).stdout
            self.cache[path] = raw.decode("utf-8", errors="replace").splitlines()
        return self.cache[path]

    def defs(self, name, path=None):
        """[(path, line)] where `name` (or `Owner.name` / `Owner::name`) is defined."""
        owner = None
        m = re.fullmatch(r"(\w+)(?:\.|::)(\w+)", name)
        if m:
            owner, name = m.groups()
        hits = []
        paths = [path] if path else [p for p, mode in self.entries.items() if mode != "120000"]
        for p in paths:
            if not self.is_file(p) or not re.search(r"\.(rs|go|py|ts|js)$", p):
                continue
            lines = self.lines(p)
            for i, text in enumerate(lines, 1):
                if not any(re.search(pat, text) for pat in def_patterns(name)):
                    continue
                if owner and not (re.search(rf"\(\w+\s+\*?{owner}\)", text) or
                                  any(re.search(rf"^\s*(impl|class|export class)\s+{owner}\b", l)
                                      for l in lines[:i])):
                    continue
                hits.append((p, i))
        return hits

    def config_value(self, path, key):
        for text in self.lines(path):
            m = re.match(rf"^\s*{re.escape(key)}\s*[:=]\s*\"?([^\"\s#,]+)", text)
            if m:
                return m.group(1)
        return None


def memory_value(content, key):
    m = re.search(rf"{re.escape(key)}\s*[:=]\s*\"?([^\"\s`,)]+)", content)
    return m.group(1).rstrip(".") if m else None


def check(entry, head, first, content, repo):
    """Returns a list of problems (empty when the label is consistent)."""
    bad = []
    needle, path, verdict = entry["needle"], entry["path"], entry["verdict"]
    succ, line, ctype = entry["successor"], entry.get("line"), entry["claim_type"]
    base = os.path.basename(needle.rstrip("/"))
    if needle not in content and base not in content:
        bad.append(f"needle {needle!r} not in the memory text")
    symbol = None if ctype in ("file_reference", "configuration") else needle
    outside = path.startswith("/") or ".." in path.split("/") or head.through_symlink(path)

    if outside:
        if verdict != "CONTRADICTED":
            bad.append("a path outside the repo can only be CONTRADICTED")
        return bad

    if ctype == "configuration":
        was, now = memory_value(content, needle), head.config_value(path, needle)
        if verdict == "VALID" and was != now:
            bad.append(f"VALID but {needle} is {now!r}, memory says {was!r}")
        if verdict == "STALE" and not (now == succ and was != now and first.config_value(path, needle) == was):
            bad.append(f"STALE but {needle}: memory {was!r}, initial {first.config_value(path, needle)!r}, head {now!r}")
        return bad

    if symbol is None:  # file or directory
        exists = head.is_file(path) or head.is_dir(path)
        if path == base and verdict == "AMBIGUOUS":
            matches = [p for p in head.entries if os.path.basename(p) == base]
            if len(matches) < 2:
                bad.append(f"AMBIGUOUS but {base} matches {matches}")
        elif verdict == "VALID" and not exists:
            bad.append(f"VALID but {path} does not exist")
        elif verdict == "STALE":
            if exists or not head.is_file(succ):
                bad.append(f"STALE but {path} exists={exists}, successor exists={head.is_file(succ)}")
            hist = git(repo, "log", "--follow", "--name-status", "--format=", "--", succ)
            if path not in hist:
                bad.append(f"git log --follow {succ} never mentions {path}")
        elif verdict == "CONTRADICTED" and exists:
            bad.append(f"CONTRADICTED but {path} exists")
        return bad

    # Symbols.
    where = None if path == "." else path
    now = head.defs(symbol, where)
    anywhere = head.defs(symbol)
    if verdict in ("VALID", "NOT_CHECKED"):
        # A symbol named without a file is VALID when it is defined anywhere, even in
        # several places (memval reports them all, at lower confidence).
        if not now:
            bad.append(f"{verdict} but {symbol} defined at {now}")
        if line and (path, line) not in now:
            bad.append(f"{verdict} but {symbol} is at {now}, not line {line}")
    elif verdict == "AMBIGUOUS":
        if len(anywhere) < 2:
            bad.append(f"AMBIGUOUS but {symbol} defined at {anywhere}")
    elif verdict == "CONTRADICTED":
        if anywhere:
            bad.append(f"CONTRADICTED but {symbol} defined at {anywhere}")
    elif verdict == "STALE":
        was = first.defs(symbol, where)
        if not was or (line and (path, line) not in was):
            bad.append(f"STALE but {symbol} was never at {path}:{line} (initial: {was})")
        if re.fullmatch(r".+:\d+", succ):  # shifted line
            p, l = succ.rsplit(":", 1)
            if (p, int(l)) not in now or (path, line) in now:
                bad.append(f"STALE {succ} but {symbol} is at {now}")
        elif "/" in succ:  # moved to another file
            if now or not head.defs(symbol, succ):
                bad.append(f"STALE {succ} but {symbol} in {path}: {now}, in {succ}: {head.defs(symbol, succ)}")
        else:  # renamed
            if now or not head.defs(succ, where):
                bad.append(f"STALE {succ} but old name at {now}, new name at {head.defs(succ, where)}")
    return bad


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check-expected.py DEMO_REPO")
    repo = sys.argv[1]
    head_rev = git(repo, "rev-parse", "HEAD").strip()
    if head_rev != HEAD:
        print(f"warning: HEAD is {head_rev}, expected {HEAD}")
    root = git(repo, "rev-list", "--max-parents=0", "HEAD").strip()
    head, first = Tree(repo, "HEAD"), Tree(repo, root)
    memories = load_memories(repo)
    expected = json.load(open(os.path.join(HERE, "expected.json"), encoding="utf-8"))
    problems = 0
    for entry in expected:
        key = (entry["memory_source"], entry["memory_id"])
        content = memories.get(key)
        bad = ["no such memory (or archived)"] if content is None else check(entry, head, first, content, repo)
        for b in bad:
            problems += 1
            print(f"FAIL {key[0]} #{key[1]} {entry['needle']}: {b}")
    non = json.load(open(os.path.join(HERE, "expected-non-claims.json"), encoding="utf-8"))
    for entry in non["memories_without_claims"] + non["not_code_refs"]:
        key = (entry["memory_source"], entry["memory_id"])
        if key not in memories:
            problems += 1
            print(f"FAIL non-claim {key}: no such memory")
        elif "text" in entry and memories[key] is not None and entry["text"] not in memories[key]:
            problems += 1
            print(f"FAIL non-claim {key}: {entry['text']!r} not in the memory text")
    for entry in non["skipped_memories"]:
        if memories.get((entry["memory_source"], entry["memory_id"]), "") is not None:
            problems += 1
            print(f"FAIL {entry['memory_id']} should be archived")
    counts = {}
    for e in expected:
        counts[e["verdict"]] = counts.get(e["verdict"], 0) + 1
    print(f"{len(expected)} labels, {problems} problems; {counts}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()

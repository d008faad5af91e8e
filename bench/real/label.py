#!/usr/bin/env python3
"""Label the path references of real agent notes from git facts alone.

For every case of cases.json: read the notes file as it was at commit A, find the file and
directory paths it mentions that exist in tree A, and decide what became of each by commit B:

  exists at B                               -> VALID
  moved by git renames (chains followed)    -> STALE, successor = where it went
  gone, no rename recorded                  -> CONTRADICTED
  went to several places / no majority      -> AMBIGUOUS

Python 3.11 standard library and the `git` binary only; nothing here knows about memval.

    python3 bench/real/label.py [--mirrors /work/.mirror] [--cases-file FILE] [--cases NAME ...]

writes bench/real/labels/<case>.json.
"""

import argparse
import collections
import json
import os
import posixpath
import re
import subprocess
import sys

from gitprep import prepared

HERE = os.path.dirname(os.path.abspath(__file__))
VERDICTS = ("VALID", "STALE", "CONTRADICTED", "AMBIGUOUS")
EMPTY_BLOB = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"  # git's id of the empty file


def git(gitdir, *args):
    out = subprocess.run(
        ["git", "--git-dir", gitdir, *args],
        check=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    return out.stdout.decode("utf-8", "replace")


class Tree:
    """The paths of one commit: files (blobs, symlinks, submodules) and every folder above them."""

    def __init__(self, gitdir, commit):
        raw = git(gitdir, "ls-tree", "-r", "-z", "--name-only", commit)
        self.files = set(p for p in raw.split("\0") if p)
        self.dirs = set()
        for f in self.files:
            d = posixpath.dirname(f)
            while d and d not in self.dirs:
                self.dirs.add(d)
                d = posixpath.dirname(d)

    def kind(self, path):
        if path in self.files:
            return "file"
        if path in self.dirs:
            return "dir"
        return None

    def files_under(self, d):
        prefix = d + "/"
        return sorted(f for f in self.files if f.startswith(prefix))


# ---------------------------------------------------------------------------------------------
# Finding the references a text makes

FENCE = re.compile(r"^\s*(```+|~~~+)")
INLINE_CODE = re.compile(r"(`+)(.+?)\1")
MD_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+[\"'][^\"']*[\"'])?\s*\)")
REF_LINK = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(\s|$)")
TREE_CHARS = re.compile(r"^([\s│|]*)(├──|└──|├─|└─|\|--|`--|\+--)\s*(.*)$")
PATHISH = re.compile(r"^[A-Za-z0-9_.@+\-/]+$")
HAS_EXT = re.compile(r"[A-Za-z0-9_\-]\.[A-Za-z0-9]{1,10}$")
LINE_SUFFIX = re.compile(r"(:\d+(-\d+)?(:\d+)?|#L\d+(-L?\d+)?)$")
# Split commands and prose into words; `=` and `,` separate too (TEST=path/x.py, a,b).
WORD_SPLIT = re.compile(r"[\s=,;|&<>()\[\]{}\"']+")
# A tree under a root line such as `libs/langchain-{provider}/` or `src/<domain>/` shows a
# template; its entries are not labelled.
PLACEHOLDER = re.compile(r"[{}<>*]")
PLACEHOLDER_ROOT = object()
EDGE_PUNCT = "\"'`*_()[]{}<>,;:!?“”‘’"


def clean(token):
    """The path a written token names, or None. Keeps a trailing '/' as a flag for folders."""
    t = token.strip()
    for _ in range(3):
        t = t.strip(EDGE_PUNCT)
        while t.endswith(".") and not t.endswith(".."):
            t = t[:-1]
    if t.startswith("@"):  # Claude's `@path` imports
        t = t[1:]
    if "#" in t:  # a link anchor
        t = t.split("#", 1)[0]
    t = LINE_SUFFIX.sub("", t)
    if not t or "://" in t or t.startswith(("/", "~", "$", "-", "mailto:")):
        return None
    if not PATHISH.match(t):
        return None
    if "//" in t or t in (".", "..", "./", "../"):
        return None
    return t


def words(s):
    return [w for w in WORD_SPLIT.split(s) if w]


def tree_paths(lines):
    """Paths of an ascii tree: each entry joined to the entries above it by indentation."""
    found = []
    stack = []  # (depth, name)
    root = None
    for no, line in lines:
        m = TREE_CHARS.match(line)
        if not m:
            s = line.strip()
            # a bare root line like "crates/" right above the tree
            if s.endswith("/") and PATHISH.match(s) and not stack:
                root = s.rstrip("/")
            elif s.endswith("/") and PLACEHOLDER.search(s) and not stack:
                root = PLACEHOLDER_ROOT  # "pkg/{name}/": a template, not a folder of the repo
            elif s and not stack:
                root = None
            continue
        if root is PLACEHOLDER_ROOT:
            continue
        depth = len(m.group(1)) + len(m.group(2))
        name = m.group(3).split()[0] if m.group(3).split() else ""
        name = name.strip(EDGE_PUNCT).rstrip("/")
        if not name or not PATHISH.match(name):
            continue
        while stack and stack[-1][0] >= depth:
            stack.pop()
        parts = ([root] if root else []) + [n for _, n in stack] + [name]
        stack.append((depth, name))
        found.append((no, "/".join(parts)))
    return found


def references(text):
    """(line number, written token, how, whole) for every path-like token of the text.

    whole: the token is a whole backtick span or a link target, so a single word without an
    extension (`Makefile`, `docs/`) is taken as a path too."""
    out = []
    in_fence = False
    fence_lines = []
    for no, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            if in_fence:
                for tno, p in tree_paths(fence_lines):
                    out.append((tno, p, "tree", True))
                fence_lines = []
            in_fence = not in_fence
            continue
        if in_fence:
            fence_lines.append((no, line))
            if not TREE_CHARS.match(line):
                for w in words(line):
                    out.append((no, w, "code", False))
            continue
        rest = line
        for m in INLINE_CODE.finditer(line):
            span = m.group(2).strip()
            if WORD_SPLIT.search(span):
                for w in words(span):
                    out.append((no, w, "backtick-words", False))
            else:
                out.append((no, span, "backtick", True))
        rest = INLINE_CODE.sub(" ", rest)
        for m in MD_LINK.finditer(rest):
            out.append((no, m.group(1), "link", True))
        m = REF_LINK.match(rest)
        if m:
            out.append((no, m.group(1), "link", True))
        rest = MD_LINK.sub(" ", rest)
        for w in words(rest):
            out.append((no, w, "prose", False))
    if fence_lines:  # an unclosed fence
        for tno, p in tree_paths(fence_lines):
            out.append((tno, p, "tree", True))
    # ascii trees outside fences
    bare = [(no, l) for no, l in enumerate(text.splitlines(), 1)]
    for tno, p in tree_paths(bare):
        out.append((tno, p, "tree", True))
    return out


def resolve(token, whole, how, tree, notes_dir):
    """The repo-relative path a token names in `tree`, with its kind; (None, reason) if none."""
    t = clean(token)
    if t is None:
        return None, None
    slash = t.endswith("/")
    t = t.rstrip("/")
    single = "/" not in t
    if single and not (whole or HAS_EXT.search(t) or slash):
        return None, None  # a plain word
    if how == "tree" and single:
        whole = True
    bases = [""] + ([notes_dir] if notes_dir else [])
    hits = {}
    for base in bases:
        p = posixpath.normpath(posixpath.join(base, t[2:] if t.startswith("./") else t))
        if p.startswith("..") or p == ".":
            continue
        k = tree.kind(p)
        if k is None:
            continue
        if single and k == "dir" and not (slash or how in ("link", "tree")):
            continue  # `python` is a word more often than the folder python/
        if single and k == "file" and not (whole or HAS_EXT.search(t)):
            continue
        hits[p] = k
    if len(hits) == 1:
        (p, k), = hits.items()
        return p, k
    if len(hits) > 1:
        return None, "both"  # names a path at the root and beside the notes: not labelled
    return None, None


# ---------------------------------------------------------------------------------------------
# What git says became of a path between A and B


class History:
    def __init__(self, gitdir, a, b):
        self.gitdir, self.a, self.b = gitdir, a, b
        self.tree_a = Tree(gitdir, a)
        self.tree_b = Tree(gitdir, b)
        # Renames and deletions of every commit in A..B, parents before children.
        raw = git(
            gitdir, "log", "--reverse", "--topo-order", "-M", "-l100000", "--name-status",
            "--diff-filter=RD", "-z", "--format=%x01%H", f"{a}..{b}",
        )
        self.events = []  # (commit, status, old, new)
        for chunk in raw.split("\x01")[1:]:
            fields = chunk.split("\0")
            head = fields[0].strip().split("\n")
            commit = head[0]
            rest = ([head[1]] if len(head) > 1 and head[1] else []) + fields[1:]
            rest = [f.strip("\n") for f in rest]
            i = 0
            while i < len(rest):
                st = rest[i]
                if not st:
                    i += 1
                    continue
                if st.startswith("R"):
                    self.events.append((commit, st, rest[i + 1], rest[i + 2]))
                    i += 3
                elif st.startswith("D"):
                    self.events.append((commit, st, rest[i + 1], None))
                    i += 2
                else:
                    i += 1
        self.by_path = collections.defaultdict(list)
        for idx, ev in enumerate(self.events):
            self.by_path[ev[2]].append(idx)
        # The net renames of one diff A..B, used when the per-commit chain loses a file
        # (deleted in one commit, re-added elsewhere in another).
        raw = git(gitdir, "diff", "-M", "-l100000", "--name-status", "--diff-filter=R", "-z", a, b)
        f = [x for x in raw.split("\0") if x]
        self.direct = {}
        for i in range(0, len(f) - 2, 3):
            self.direct[f[i + 1]] = (f[i], f[i + 2])
        self._file_cache = {}
        self._places = {}  # file of tree A -> the paths it had, A to B (moved files only)

    def file_fate(self, path):
        """(verdict, successor, evidence) of a file of tree A."""
        if path in self._file_cache:
            return self._file_cache[path]
        if path in self.tree_b.files:
            res = ("VALID", None, "exists at B")
        else:
            locs = {path}
            trail = []
            came_from = {}
            start = min(self.by_path.get(path, [len(self.events)]))
            for commit, st, old, new in self.events[start:]:
                if old in locs:
                    locs.discard(old)
                    if new is not None:
                        locs.add(new)
                        came_from[new] = old
                        trail.append(f"{st} {commit[:10]} {old} -> {new}")
                    else:
                        trail.append(f"D {commit[:10]} {old}")
            alive = sorted(p for p in locs if p in self.tree_b.files)
            if len(alive) == 1:
                res = ("STALE", alive[0], "; ".join(trail))
                # the places it passed through, back from where it is now
                places, p = [alive[0]], alive[0]
                while p in came_from and p != path and len(places) <= len(trail):
                    p = came_from[p]
                    places.append(p)
                self._places[path] = places[::-1]
            elif len(alive) > 1:
                res = ("AMBIGUOUS", None, "; ".join(trail))
            elif path in self.direct and self.direct[path][1] in self.tree_b.files and not self.empty_at_a(path):
                # (an empty file has no content to follow: git pairs it with any other empty
                # file of B, so a net-diff "rename" of one says nothing)
                st, new = self.direct[path]
                res = ("STALE", new, f"diff A B: {st} {path} -> {new}")
                self._places[path] = [path, new]
            else:
                res = ("CONTRADICTED", None, "; ".join(trail) or "no rename recorded")
        self._file_cache[path] = res
        return res

    def empty_at_a(self, path):
        return git(self.gitdir, "rev-parse", f"{self.a}:{path}").strip() == EMPTY_BLOB

    def dir_fate(self, d):
        """(verdict, successor, evidence) of a folder of tree A: where most of its files went."""
        if d in self.tree_b.dirs:
            return ("VALID", None, "exists at B")
        files = self.tree_a.files_under(d)
        n = len(files)
        where = collections.Counter()
        gone = 0
        elsewhere = 0
        for f in files:
            v, succ, _ = self.file_fate(f)
            if v == "STALE":
                # The folder it went to: the last place it had (its path now first) that kept
                # its sub-path inside the old folder, if that folder still exists at B. A
                # folder moved whole and reorganised inside later votes where it was moved.
                rest = f[len(d) + 1:]
                rest_dirs = posixpath.dirname(rest)
                went = None
                for place in reversed(self._places.get(f, [f, succ])[1:]):
                    new_dir = posixpath.dirname(place)
                    if not rest_dirs:
                        cand = new_dir
                    elif new_dir == rest_dirs or new_dir.endswith("/" + rest_dirs):
                        cand = new_dir[: len(new_dir) - len(rest_dirs)].rstrip("/")
                    else:
                        continue
                    if place == succ or cand in self.tree_b.dirs:
                        went = cand
                        break
                if went is not None:
                    where[went] += 1
                else:
                    elsewhere += 1
            elif v == "CONTRADICTED":
                gone += 1
            else:
                elsewhere += 1
        moved = sum(where.values()) + elsewhere
        summary = f"{n} files: " + ", ".join(
            [f"{c} to {p or '.'}" for p, c in where.most_common(3)]
            + ([f"{elsewhere} elsewhere"] if elsewhere else [])
            + ([f"{gone} deleted"] if gone else [])
        )
        if moved == 0:
            return ("CONTRADICTED", None, summary)
        top, count = where.most_common(1)[0] if where else (None, 0)
        if top and count * 2 > n and top in self.tree_b.dirs:
            return ("STALE", top, summary)
        if gone * 2 > n and count * 4 < n:
            return ("CONTRADICTED", None, summary)
        return ("AMBIGUOUS", None, summary)


def label_case(case, mirrors, workdir):
    gitdir = prepared(mirrors, case["repo"], workdir)
    a, b, notes = case["A"], case["B"], case["notes"]
    text = git(gitdir, "show", f"{a}:{notes}")
    hist = History(gitdir, a, b)
    notes_dir = posixpath.dirname(notes)
    found = {}
    skipped_both = set()
    for no, token, how, whole in references(text):
        p, k = resolve(token, whole, how, hist.tree_a, notes_dir)
        if p is None:
            if k == "both":
                skipped_both.add(clean(token))
            continue
        if p == notes:
            continue  # the notes file itself: the runner puts it back, so it always exists
        ent = found.setdefault(p, {"path": p, "kind": k, "lines": [], "how": []})
        if no not in ent["lines"]:
            ent["lines"].append(no)
        if how not in ent["how"]:
            ent["how"].append(how)
    labels = []
    for p in sorted(found):
        ent = found[p]
        fate = hist.file_fate(p) if ent["kind"] == "file" else hist.dir_fate(p)
        ent["verdict"], ent["successor"], ent["evidence"] = fate
        labels.append(ent)
    counts = collections.Counter(l["verdict"] for l in labels)
    return {
        "case": case["name"],
        "repo": case["repo"],
        "notes": notes,
        "A": a,
        "B": b,
        "counts": {v: counts.get(v, 0) for v in VERDICTS},
        "not_labelled_root_and_local": sorted(x for x in skipped_both if x),
        "labels": labels,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mirrors", default="/work/.mirror")
    ap.add_argument("--cases-file", default=os.path.join(HERE, "cases.json"),
                    help="the cases to run (default: cases.json; cases-heldout.json holds the held-out ones)")
    ap.add_argument("--cases", nargs="*", help="case names (default: all)")
    ap.add_argument("--workdir", default="/work/real-trees",
                    help="where the per-repo git directories go (outside this repo)")
    ap.add_argument("--out", default=os.path.join(HERE, "labels"))
    args = ap.parse_args()
    with open(args.cases_file) as f:
        cases = json.load(f)["cases"]
    if args.cases:
        cases = [c for c in cases if c["name"] in args.cases]
    os.makedirs(args.out, exist_ok=True)
    total = collections.Counter()
    for case in cases:
        res = label_case(case, args.mirrors, args.workdir)
        with open(os.path.join(args.out, case["name"] + ".json"), "w") as f:
            json.dump(res, f, indent=1)
            f.write("\n")
        total.update(res["counts"])
        c = res["counts"]
        print(f"{case['name']:<22} {len(res['labels']):>4} labels  " + "  ".join(f"{v} {c[v]}" for v in VERDICTS))
    print(f"{'total':<22} {sum(total.values()):>4} labels  " + "  ".join(f"{v} {total[v]}" for v in VERDICTS))


if __name__ == "__main__":
    sys.exit(main())

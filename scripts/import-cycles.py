#!/usr/bin/env python3
"""A small module graph of one Rust crate, and the import cycles in it.

Usage: import-cycles.py CRATE_SRC_DIR [--edges] [--tree]
       import-cycles.py --check [--workspace] [CRATE_SRC_DIR ...]   (exit 1 when any crate has a cross
       cycle; --workspace: every member of the workspace)

Modules are files (lib.rs/main.rs is the root; a/mod.rs and a.rs are `a`). Inline modules
(`mod tests { .. }`) count as part of their file. Comments and string/char literals are
stripped before reading. An edge A -> B is any path in A's code that names an item of B:
`use crate::b::X`, `crate::b::f()`, `super::X`, `self::child::X`, or `child::X` where child
is a submodule of A. `pub use` re-exports are followed to the module that defines the item,
so `crate::Foo` re-exported from lib.rs is an edge to Foo's module, not to the root.

By default the edges from a module to its own ancestors through `super::` (a child using
what its parent holds) are the module tree, not a circle by themselves: cycles are reported
both with (`all`) and without (`cross`) those edges. `mod x;` declarations are never edges.
"""

import os
import re
import sys
from collections import defaultdict

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip(src):
    """Removes comments and string/char literals (keeps newlines and structure)."""
    out = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        if src.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if src.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif src.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
            out.append(" ")
            continue
        m = re.match(r'b?r(#*)"', src[i:i + 40])
        if m and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            end = '"' + m.group(1)
            j = src.find(end, i + m.end())
            i = n if j < 0 else j + len(end)
            out.append('""')
            continue
        if c == '"' or (c == "b" and src.startswith('b"', i) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_"))):
            i += 2 if c == "b" else 1
            while i < n and src[i] != '"':
                i += 2 if src[i] == "\\" else 1
            i += 1
            out.append('""')
            continue
        if c == "'":
            m = re.match(r"'(\\.[^']*|[^\\'])'", src[i:i + 12])
            if m:
                i += m.end()
                out.append("' '")
                continue
        out.append(c)
        i += 1
    return "".join(out)


def expand_use(tree, prefix=""):
    """Expands a use tree (`a::{b, c::{d as e, *}}`) into (path, alias) pairs."""
    tree = tree.strip()
    res = []
    if not tree:
        return res
    # split at top-level braces
    k = tree.find("{")
    if k < 0:
        m = re.match(r"(.*?)\s+as\s+(" + IDENT + r")$", tree)
        path, alias = (m.group(1), m.group(2)) if m else (tree, tree.split("::")[-1])
        res.append((prefix + path.replace(" ", ""), alias))
        return res
    head = tree[:k].strip()
    body = tree[k + 1:tree.rfind("}")]
    parts, depth, cur = [], 0, ""
    for ch in body:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    for p in parts:
        p = p.strip()
        if not p:
            continue
        if p == "self":
            res.append(((prefix + head).rstrip(":").replace(" ", ""), head.rstrip(":").split("::")[-1]))
        else:
            res.extend(expand_use(p, prefix + head.replace(" ", "")))
    return res


class Crate:
    def __init__(self, src_dir):
        self.src = os.path.abspath(src_dir)
        root = "lib.rs" if os.path.exists(os.path.join(self.src, "lib.rs")) else "main.rs"
        self.files = {}  # module path (tuple) -> stripped source
        self.children = defaultdict(set)
        self.load((), os.path.join(self.src, root), self.src)

    def load(self, mod, path, child_dir):
        text = strip(open(path, encoding="utf-8").read())
        self.files[mod] = text
        for m in re.finditer(r"(?m)^\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+(" + IDENT + r")\s*;", text):
            name = m.group(1)
            # #[path] is not handled; the workspace does not use it
            for cand, sub in ((os.path.join(child_dir, name + ".rs"), os.path.join(child_dir, name)),
                              (os.path.join(child_dir, name, "mod.rs"), os.path.join(child_dir, name))):
                if os.path.exists(cand):
                    self.children[mod].add(name)
                    self.load(mod + (name,), cand, sub)
                    break
            else:
                print(f"warning: no file for mod {name} in {'::'.join(mod) or 'crate'}", file=sys.stderr)

    def inline_at(self, mod):
        """A function: position in mod's text -> the inline module names enclosing it."""
        text = self.files[mod]
        blocks = []
        for m in re.finditer(r"\bmod\s+(" + IDENT + r")\s*\{", text):
            depth, i = 1, m.end()
            while i < len(text) and depth:
                if text[i] == "{":
                    depth += 1
                elif text[i] == "}":
                    depth -= 1
                i += 1
            blocks.append((m.end(), i, m.group(1)))

        def at(pos):
            return tuple(name for (s, e, name) in sorted(blocks) if s <= pos < e)
        return at

    def uses(self, mod, with_inline=False):
        """(path, alias, is_pub[, inline]) for each use declaration of a module (inline modules included)."""
        text = self.files[mod]
        at = self.inline_at(mod)
        res = []
        for m in re.finditer(r"(?s)\b(pub(?:\([^)]*\))?\s+)?use\s+([^;]*);", text):
            for path, alias in expand_use(m.group(2)):
                if with_inline:
                    res.append((path, alias, bool(m.group(1)), at(m.start())))
                elif not at(m.start()):
                    res.append((path, alias, bool(m.group(1))))
        return res

    def absolute(self, mod, path, inline=()):
        """A path as seen from mod, made absolute (a tuple from the crate root), or None if external."""
        segs = [s for s in path.split("::") if s]
        if not segs:
            return None
        cur = list(mod) + list(inline)
        if segs[0] == "crate":
            cur, segs = [], segs[1:]
        elif segs[0] in ("super", "self"):
            while segs and segs[0] in ("super", "self"):
                if segs[0] == "super":
                    if cur:
                        cur.pop()
                segs = segs[1:]
        elif segs[0] in self.children[mod]:
            pass
        else:
            return None
        return tuple(cur) + tuple(segs)

    def resolve(self, abspath, depth=0):
        """The module that defines the item an absolute path names (following pub use)."""
        # longest prefix that is a module
        k = len(abspath)
        while k > 0 and abspath[:k] not in self.files:
            k -= 1
        mod = abspath[:k]
        rest = abspath[k:]
        if rest and depth < 8:
            for path, alias, is_pub in self.uses(mod):
                if is_pub and alias == rest[0]:
                    target = self.absolute(mod, path)
                    if target is not None:
                        return self.resolve(target + rest[1:], depth + 1)
        return mod

    def edges(self):
        """{(a, b): kind}: kind is 'super' when only through super:: to an ancestor, else 'cross'."""
        edges = {}
        pat = re.compile(r"(?<![A-Za-z0-9_:])((?:crate|super|self|" + IDENT + r")(?:\s*::\s*(?:" + IDENT + r"|\{))+)")
        for mod, text in self.files.items():
            found = []
            at = self.inline_at(mod)
            for path, alias, _, inline in self.uses(mod, with_inline=True):
                found.append((path, inline))
            body = re.sub(r"(?s)\b(pub(?:\([^)]*\))?\s+)?use\s+[^;]*;", lambda m: " " * len(m.group(0)), text)
            for m in pat.finditer(body):
                found.append((re.sub(r"\s+", "", m.group(1)).rstrip("{").rstrip(":"), at(m.start())))
            for path, inline in found:
                ab = self.absolute(mod, path, inline)
                if ab is None:
                    continue
                target = self.resolve(ab)
                if target == mod:
                    continue
                if path.startswith("super") and inline and len(ab) >= len(mod) and ab[:len(mod)] == mod:
                    continue
                upward = path.startswith("super") and mod[:len(target)] == target
                kind = "super" if upward else "cross"
                if edges.get((mod, target)) != "cross":
                    edges[(mod, target)] = kind
        return edges


def sccs(nodes, adj):
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in adj[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def name(m):
    return "::".join(m) or "crate"


def cycles_in(comp, adj):
    """Shortest cycle through each node of a component (enough to show what closes it)."""
    comp_set = set(comp)
    seen, res = set(), []
    for start in comp:
        # BFS from start back to start
        prev, frontier, found = {start: None}, [start], None
        while frontier and not found:
            nxt = []
            for v in frontier:
                for w in sorted(adj[v]):
                    if w not in comp_set:
                        continue
                    if w == start:
                        found = v
                        break
                    if w not in prev:
                        prev[w] = v
                        nxt.append(w)
                if found:
                    break
            frontier = nxt
        if found is None:
            continue
        path, v = [], found
        while v is not None:
            path.append(v)
            v = prev[v]
        path.reverse()
        key = frozenset(path)
        if key in seen:
            continue
        seen.add(key)
        res.append(" -> ".join(name(p) for p in path + [start]))
    return res


def report(src, show_edges=False, show_tree=False):
    """Prints the cycle groups of one crate; returns how many cross cycle groups it has."""
    crate = Crate(src)
    edges = crate.edges()
    if show_tree:
        for m in sorted(crate.files):
            print(name(m))
    if show_edges:
        for (a, b), kind in sorted(edges.items()):
            print(f"{name(a)} -> {name(b)}  [{kind}]")
    cross = 0
    for label, keep in (("all", lambda k: True), ("cross", lambda k: k == "cross")):
        adj = defaultdict(set)
        for (a, b), kind in edges.items():
            if keep(kind):
                adj[a].add(b)
        comps = sccs(crate.files.keys(), adj)
        print(f"[{label}] {len(comps)} cycle group(s)")
        for comp in comps:
            print(f"  group of {len(comp)}: {', '.join(name(c) for c in comp)}")
            for c in cycles_in(comp, adj):
                print(f"    {c}")
        if label == "cross":
            cross = len(comps)
    return cross


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if "--workspace" in sys.argv:
        # Every member crate of the workspace this script sits in.
        import tomllib
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        with open(os.path.join(root, "Cargo.toml"), "rb") as f:
            members = tomllib.load(f)["workspace"]["members"]
        args += [os.path.join(root, m, "src") for m in members]
    if not args:
        sys.exit(__doc__)
    if "--check" in sys.argv:
        bad = []
        for src in args:
            print(f"== {src}")
            if report(src):
                bad.append(src)
        if bad:
            sys.exit(f"import-cycles: modules import each other in a circle in {', '.join(bad)}: move what both "
                     "sides need into a leaf module both import (ARCHITECTURE.md, 'Imports run one way')")
        return
    report(args[0], "--edges" in sys.argv, "--tree" in sys.argv)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Precision of memval's not-VALID verdicts on real repositories, as they stand.

Every verdict that is not VALID is a claim memval makes to a user: "this line of your notes is
wrong". This benchmark measures how often that claim is worth the user's time. Each repository
of `precision-cases.json` is checked out at its pinned commit with its history, and memval
validates the whole repository (`--memories ROOT`): every agent tool's notes and every README
and doc. The memories split into two sets by the agent memval gives them: **notes** (any agent
but `docs`) and **docs** (`docs`).

A person labels a random sample of the not-VALID verdicts by reading the repository
(`precision-labels.jsonl`: drawn from session 12's start binary, `6df2829`, and labelled before
that session changed anything; `precision-labels-end.jsonl`: a second draw from that session's
last binary, of rows the first did not cover; `precision-labels-fresh.jsonl`: a draw from
the repositories of `precision-cases-fresh.json`, first contact, drawn from session 13's
start binary, `7237344`, and labelled before that session's changes were run on them, and
`precision-labels-fresh-end.jsonl`, a second draw of that set from a late binary; one JSON
object a line, keyed by repository,
memory source, line, claim type and claim text). `score` reads the first set's two files by
default; pass the fresh set's with `--labels`. The labels say whether the claim points at a real problem of the
memory, so they outlive a change of verdict kind:

    real        the memory is wrong about the repository today, and the verdict says how
    real-kind   the memory is wrong, but the verdict's kind or successor is not right
    false       a false alarm; `class` says which kind (see CLASSES)
    unclear     the labeller could not tell from the repository

A sample of VALID verdicts is labelled too (`sample --valid-notes-quota N --valid-docs-quota N`),
so that "VALID is right" is measured on the same repositories; those rows carry
`verdict_when_drawn: "VALID"` and one of:

    right       what the memory's sentence says is true of the repository today
    missed      the memory is wrong about the repository today: a real problem called VALID
    unclear     the labeller could not tell from the repository

Commands:

    run     check every case with one binary; writes every claim and its verdict (--out)
    sample  add unlabelled rows of a run's not-VALID verdicts to the labels file, drawn at
            random (a fixed seed per row) up to --notes-quota / --docs-quota per repository,
            and of its VALID verdicts up to --valid-notes-quota / --valid-docs-quota (default 0)
    score   precision, false alarms per 100 claims and the false-alarm classes of a run,
            from the labelled rows it still flags; labelled real problems it now calls
            VALID are counted as lost

    python3 bench/real/precision.py run --memval BIN --out RUN.json [--workdir /work/prec]
        [--twice] [--only REPO ...]
    python3 bench/real/precision.py sample --run RUN.json [--labels FILE]
        [--notes-quota N --docs-quota N --valid-notes-quota N --valid-docs-quota N]
    python3 bench/real/precision.py score --run RUN.json [--labels FILE ...] [--json OUT]

`--twice` runs each repository a second time with a fresh store and reports every claim whose
verdict or confidence differs (same input, same verdicts). Nothing of the repositories is
committed: the labels hold the repository name, the memory's path, line and claim text (the
words memval extracted) and the label.
"""

import argparse
import collections
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gitprep import prepared  # noqa: E402
from run import checkout, end_children_on_sigterm, mark_stand_ins  # noqa: E402

LABELS = ("real", "real-kind", "false", "unclear")
# labels of a row drawn from the VALID verdicts
VALID_LABELS = ("right", "missed", "unclear")
CLASSES = (
    "exists-not-found",    # the path, name or setting is there; memval did not find it
    "prose-as-ref",        # prose, a diagram, HTML or a command read as a path or a name
    "other-project",       # another project's path or name (a dependency, an upstream)
    "example",             # an example, a placeholder, a template
    "user-side",           # a file or setting of the user's machine or of another tool
    "wrong-folder",        # a right path resolved against the wrong folder
    "library-name",        # a library's or framework's name, not the repository's
    "build-output",        # a generated or built file, not tracked
    "project-name",        # the project's own name read as a file or symbol
    "env-setting",         # an environment variable or a setting named as such
    "past-tense",          # an ADR, changelog, migration guide: true of the past, by design
    "other",
)


def key_of(repo, claim_source, claim):
    return "|".join([repo, claim_source, str(claim.get("line")), claim["claim_type"], claim["claim_text"]])


def tree_for(case, args):
    gitdir = prepared(args.mirrors, case["repo"], args.workdir)
    root = os.path.join(args.workdir, "trees", case["repo"].replace("/", "+"))
    head = os.path.join(root, ".git", "HEAD")
    if os.path.exists(head):
        at = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, stdout=subprocess.PIPE, text=True).stdout.strip()
        if at == case["commit"]:
            return root
        shutil.rmtree(root)
    checkout(case["commit"], gitdir, root)
    mark_stand_ins(root)
    return root


def validate(memval, root, store):
    shutil.rmtree(store, ignore_errors=True)
    started = time.monotonic()
    p = subprocess.run([memval, "validate", "--repo", root, "--memories", root, "--format", "json",
                        "--fail-on", "never", "--store", store, "--quiet"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    secs = time.monotonic() - started
    if p.returncode != 0:
        why = p.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
        raise RuntimeError(f"memval exited {p.returncode}: {why[0]}")
    return json.loads(p.stdout), secs


def rows_of(case, report, root):
    rows = []
    for memory in report["memories"]:
        source = os.path.relpath(os.path.join(root, memory["source"]), root)
        kind = "docs" if memory["agent"] == "docs" else "notes"
        for claim in memory["claims"]:
            rows.append({"key": key_of(case["repo"], source, claim), "repo": case["repo"], "set": kind,
                         "agent": memory["agent"], "source": source, "line": claim.get("line"),
                         "claim_type": claim["claim_type"], "claim": claim["claim_text"],
                         "verdict": claim["verdict"], "confidence": claim["confidence"],
                         "evidence": claim["evidence"], "successor": claim.get("successor")})
    # Claims memval did not check, with its reason (kept to see where a labelled row went).
    agents = {os.path.relpath(os.path.join(root, m["source"]), root): m["agent"] for m in report["memories"]}
    for claim in report.get("not_checked", []):
        source = os.path.relpath(os.path.join(root, claim["source"]), root)
        agent = agents.get(source, "docs")
        rows.append({"key": key_of(case["repo"], source, claim), "repo": case["repo"],
                     "set": "docs" if agent == "docs" else "notes", "agent": agent, "source": source,
                     "line": claim.get("line"), "claim_type": claim["claim_type"], "claim": claim["claim_text"],
                     "verdict": "NOT_CHECKED", "confidence": None, "evidence": claim["reason"], "successor": None})
    return rows


def cmd_run(args):
    with open(args.cases) as f:
        cases = json.load(f)["cases"]
    out = {"memval": args.memval, "cases": [], "rows": [], "differs": []}
    for case in cases:
        if args.only and case["repo"] not in args.only:
            continue
        root = tree_for(case, args)
        store = os.path.join(args.workdir, "store")
        try:
            report, secs = validate(args.memval, root, store)
        except RuntimeError as e:
            print(f"== {case['repo']}: {e}", flush=True)
            out["cases"].append({"repo": case["repo"], "error": str(e)})
            continue
        rows = rows_of(case, report, root)
        counts = collections.Counter((r["set"], r["verdict"] == "VALID") for r in rows if r["verdict"] != "NOT_CHECKED")
        entry = {"repo": case["repo"], "secs": round(secs, 2), "not_checked": len(report.get("not_checked", [])),
                 "claims": {s: counts[(s, True)] + counts[(s, False)] for s in ("notes", "docs")},
                 "not_valid": {s: counts[(s, False)] for s in ("notes", "docs")}}
        if args.twice:
            again, _ = validate(args.memval, root, store)
            before = {(r["key"]): (r["verdict"], r["confidence"]) for r in rows}
            after = {(r["key"]): (r["verdict"], r["confidence"]) for r in rows_of(case, again, root)}
            differs = [{"key": k, "first": before.get(k), "second": after.get(k)}
                       for k in sorted(set(before) | set(after)) if before.get(k) != after.get(k)]
            entry["differs"] = len(differs)
            out["differs"].extend(differs)
        out["cases"].append(entry)
        out["rows"].extend(rows)
        print(f"== {case['repo']:<40} {secs:6.1f} s  notes {entry['not_valid']['notes']:4d}/{entry['claims']['notes']:<5d}"
              f" docs {entry['not_valid']['docs']:5d}/{entry['claims']['docs']:<6d}"
              + (f" differs {entry['differs']}" if args.twice else ""), flush=True)
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)


def read_labels(path):
    labels = {}
    if os.path.exists(path):
        with open(path) as f:
            for n, line in enumerate(f, 1):
                if line.strip():
                    row = json.loads(line)
                    allowed = VALID_LABELS if row.get("verdict_when_drawn") == "VALID" else LABELS
                    if row.get("label") not in allowed + (None,):
                        raise SystemExit(f"{path}:{n}: label {row.get('label')!r} is not one of {allowed}")
                    if row.get("label") == "false" and row.get("class") not in CLASSES:
                        raise SystemExit(f"{path}:{n}: class {row.get('class')!r} is not one of {CLASSES}")
                    labels[row["key"]] = row
    return labels


def drawn(rows, labels, quota, salt=""):
    """Up to `quota` rows of `rows` to label, less the labelled ones: a fixed draw, each row's
    place the hash of its key (and `salt`, so VALID and not-VALID draws are independent)."""
    have = sum(1 for r in rows if r["key"] in labels)
    todo = [r for r in rows if r["key"] not in labels]
    todo.sort(key=lambda r: hashlib.sha256((salt + r["key"]).encode()).hexdigest())
    return todo[:max(0, quota - have)]


def cmd_sample(args):
    with open(args.run) as f:
        run = json.load(f)
    labels = read_labels(args.labels)
    quota = {(False, "notes"): args.notes_quota, (False, "docs"): args.docs_quota,
             (True, "notes"): args.valid_notes_quota, (True, "docs"): args.valid_docs_quota}
    groups = collections.defaultdict(list)
    for row in run["rows"]:
        if row["verdict"] != "NOT_CHECKED":
            groups[(row["repo"], row["set"], row["verdict"] == "VALID")].append(row)
    added = []
    for (repo, kind, valid), rows in sorted(groups.items()):
        for r in drawn(rows, labels, quota[(valid, kind)], "valid:" if valid else ""):
            added.append({"key": r["key"], "repo": repo, "set": kind, "source": r["source"], "line": r["line"],
                          "claim_type": r["claim_type"], "claim": r["claim"], "verdict_when_drawn": r["verdict"],
                          "evidence_when_drawn": r["evidence"], "label": None, "class": None, "why": None})
    with open(args.labels, "a") as f:
        for row in added:
            f.write(json.dumps(row) + "\n")
    valid = sum(1 for r in added if r["verdict_when_drawn"] == "VALID")
    print(f"{len(added)} rows added to {args.labels} for labelling ({len(added) - valid} not VALID, {valid} VALID)")


def cmd_score(args):
    with open(args.run) as f:
        run = json.load(f)
    labels = {}
    for path in args.labels:
        labels.update(read_labels(path))
    result = {}
    for kind in ("notes", "docs"):
        rows = [r for r in run["rows"] if r["set"] == kind and r["verdict"] != "NOT_CHECKED"]
        claims = len(rows)
        flagged = [r for r in rows if r["verdict"] != "VALID"]
        judged = [(r, labels[r["key"]]) for r in flagged if labels.get(r["key"], {}).get("label") in LABELS
                  and labels[r["key"]].get("verdict_when_drawn") != "VALID"]
        tally = collections.Counter(l["label"] for _, l in judged)
        classes = collections.Counter(l["class"] for _, l in judged if l["label"] == "false")
        decided = tally["real"] + tally["real-kind"] + tally["false"]
        precision = (tally["real"] + tally["real-kind"]) / decided if decided else None
        # the false alarms among all flagged rows, estimated from the labelled share
        fa_rate = tally["false"] / decided if decided else None
        fa_per_100 = 100 * fa_rate * len(flagged) / claims if claims and fa_rate is not None else None
        high = [(r, l) for r, l in judged if r["confidence"] >= 80 and l["label"] != "unclear"]
        high_right = sum(1 for _, l in high if l["label"] in ("real", "real-kind"))
        # Labelled rows of this set the run no longer flags (VALID now, not checked, or no
        # longer a claim): a false alarm gone, or a real problem missed.
        flagged_keys = {r["key"] for r in flagged}
        valid_keys = {r["key"] for r in rows if r["verdict"] == "VALID"}
        # Only the run's repositories: a label file may hold rows of several sets.
        in_run = {c["repo"] for c in run["cases"]}
        gone = [l for k, l in labels.items()
                if l.get("set") == kind and l.get("repo") in in_run and k not in flagged_keys and l.get("label")
                and l.get("verdict_when_drawn") != "VALID"]
        # VALID verdicts labelled: right or a missed problem, as the run says now
        verdict_now = {r["key"]: r["verdict"] for r in rows}
        valid_drawn = [l for k, l in labels.items() if l.get("set") == kind and l.get("repo") in in_run
                       and l.get("verdict_when_drawn") == "VALID" and l.get("label") in ("right", "missed")]
        valid_now = [l for l in valid_drawn if verdict_now.get(l["key"]) == "VALID"]
        valid_right = sum(1 for l in valid_now if l["label"] == "right")
        right_now_flagged = sum(1 for l in valid_drawn if l["label"] == "right" and l["key"] in flagged_keys)
        missed_now_flagged = sum(1 for l in valid_drawn if l["label"] == "missed" and l["key"] in flagged_keys)
        lost = sum(1 for l in gone if l["label"] in ("real", "real-kind"))
        cleared = sum(1 for l in gone if l["label"] == "false")
        lost_valid = sum(1 for l in gone if l["label"] in ("real", "real-kind") and l["key"] in valid_keys)
        by_repo = collections.Counter(r["repo"] for r in flagged)
        result[kind] = {"claims": claims, "not_valid": len(flagged), "labelled": len(judged),
                        "labels": dict(tally), "precision": precision, "false_alarms_per_100_claims": fa_per_100,
                        "confidence_80_right": (high_right, len(high)), "false_classes": dict(classes.most_common()),
                        "real_no_longer_flagged": lost, "real_now_valid": lost_valid, "false_no_longer_flagged": cleared,
                        "unlabelled_not_valid": len(flagged) - len(judged), "repos": len(by_repo),
                        "valid_right": (valid_right, len(valid_now)),
                        "valid_labelled_right_now_flagged": right_now_flagged,
                        "valid_labelled_missed_now_flagged": missed_now_flagged}
        print(f"== {kind}: {claims} claims, {len(flagged)} not VALID in {len(by_repo)} repositories; "
              f"{len(judged)} of them labelled: " + ", ".join(f"{k} {tally[k]}" for k in LABELS))
        if precision is not None:
            print(f"   precision of not-VALID {precision:.3f}; false alarms per 100 claims {fa_per_100:.1f} "
                  f"(labelled share {fa_rate:.3f} x {len(flagged)} flagged / {claims} claims)")
        if high:
            print(f"   confidence >= 80: {high_right} of {len(high)} right ({high_right / len(high):.3f})")
        print(f"   labelled rows no longer flagged: {cleared} false alarms gone; {lost} real problems missed "
              f"({lost_valid} now VALID, the rest not checked or no longer a claim)")
        if valid_drawn:
            share = f" ({valid_right / len(valid_now):.3f})" if valid_now else ""
            print(f"   VALID verdicts labelled: {valid_right} of {len(valid_now)} still VALID are right{share}; "
                  f"of those drawn, {right_now_flagged} labelled right and {missed_now_flagged} labelled missed are now flagged")
        if classes:
            print("   false alarms by class: " + ", ".join(f"{c} {n}" for c, n in classes.most_common()))
        status = {r["key"]: r for r in run["rows"]}
        for l in gone:
            if l["label"] in ("real", "real-kind"):
                now = status.get(l["key"])
                where = f"{now['verdict']}: {now['evidence'][:150]}" if now else "no longer a claim"
                print(f"   missed: {l['repo']} {l['source']}:{l['line']} {l['claim'][:60]!r} -> {where}")
    differs = run.get("differs", [])
    if any("differs" in c for c in run["cases"]):
        print(f"== same input twice: {len(differs)} claims differ")
        result["differs"] = len(differs)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--memval", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--cases", default=os.path.join(HERE, "precision-cases.json"))
    r.add_argument("--mirrors", default="/work/.mirror")
    r.add_argument("--workdir", default="/work/prec")
    r.add_argument("--twice", action="store_true")
    r.add_argument("--only", nargs="*")
    s = sub.add_parser("sample")
    s.add_argument("--run", required=True)
    s.add_argument("--labels", default=os.path.join(HERE, "precision-labels.jsonl"))
    s.add_argument("--notes-quota", type=int, default=20)
    s.add_argument("--docs-quota", type=int, default=8)
    s.add_argument("--valid-notes-quota", type=int, default=0)
    s.add_argument("--valid-docs-quota", type=int, default=0)
    c = sub.add_parser("score")
    c.add_argument("--run", required=True)
    c.add_argument("--labels", nargs="+",
                   default=[os.path.join(HERE, "precision-labels.jsonl"), os.path.join(HERE, "precision-labels-end.jsonl")])
    c.add_argument("--json")
    args = ap.parse_args()
    end_children_on_sigterm()
    {"run": cmd_run, "sample": cmd_sample, "score": cmd_score}[args.cmd](args)


if __name__ == "__main__":
    main()

"""A readable git directory for a fetched mirror.

The mirrors `fetch` brings lack blobs of 4 MiB and more, and git stops ("unable to read")
as soon as a log with rename detection or a checkout needs one. So each repo gets a bare
git directory of its own under WORKDIR/git/ that borrows the mirror's objects (alternates)
and maps every absent blob to a one-line stand-in blob ("blob <id> is absent from the
snapshot") with a replace ref. Stand-ins differ from each other, so git sees no false
renames between them. The mirror itself is never written to.
"""

import os
import subprocess


def _git(gitdir, *args, stdin=None):
    out = subprocess.run(
        ["git", "--git-dir", gitdir, *args],
        input=stdin,
        check=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    return out.stdout.decode("utf-8", "replace")


def mirror_of(mirrors, repo):
    return os.path.join(mirrors, repo.replace("/", "+"), "repo")


def prepared(mirrors, repo, workdir):
    """The path of the bare git directory for `repo` (made on first use)."""
    mirror = mirror_of(mirrors, repo)
    if not os.path.isdir(mirror):
        raise SystemExit(f"no mirror of {repo} at {mirror} (bring it with the fetch tool)")
    gitdir = os.path.join(workdir, "git", repo.replace("/", "+") + ".git")
    done = os.path.join(gitdir, "memval-bench-ready")
    if os.path.exists(done):
        return gitdir
    os.makedirs(os.path.dirname(gitdir), exist_ok=True)
    subprocess.run(["git", "init", "-q", "--bare", gitdir], check=True)
    with open(os.path.join(gitdir, "objects", "info", "alternates"), "w") as f:
        f.write(os.path.abspath(os.path.join(mirror, "objects")) + "\n")
    head = _git(mirror, "rev-parse", "HEAD").strip()
    _git(gitdir, "update-ref", "refs/heads/main", head)
    _git(gitdir, "symbolic-ref", "HEAD", "refs/heads/main")
    listing = _git(mirror, "rev-list", "--objects", "--all", "--missing=print")
    missing = [l[1:].split()[0] for l in listing.splitlines() if l.startswith("?")]
    updates = []
    for oid in missing:
        stub = _git(gitdir, "hash-object", "-w", "--stdin",
                    stdin=f"blob {oid} is absent from the snapshot\n".encode()).strip()
        updates.append(f"update refs/replace/{oid} {stub}\n")
    if updates:
        _git(gitdir, "update-ref", "--stdin", stdin="".join(updates).encode())
    with open(done, "w") as f:
        f.write(f"{len(missing)} absent blobs replaced\n")
    return gitdir

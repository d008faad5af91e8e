#!/usr/bin/env bash
# The entry of the `memval-validate` pre-commit hook (.pre-commit-hooks.yaml): each memory
# file pre-commit passes is checked against the repository being committed to. Exit 1 (the
# commit is blocked) when any claim is STALE or CONTRADICTED, with memval's table saying which
# and why; exit 2 when memval cannot run.
#
# Nothing is written into the repository. The checks keep a store in the user's cache folder
# ($MEMVAL_CACHE_DIR, else $XDG_CACHE_HOME/memval, else ~/.cache/memval; one per repository,
# shared with memval's Claude Code hook),
# so the next commit's check reuses the verdicts and git history this one computed and only
# checks again what changed. When that store cannot be used (no cache folder, another check
# holds it, it is unreadable) a file is checked in a temporary store instead, removed on exit.
set -uo pipefail

if ! command -v memval >/dev/null; then
  echo "memval-validate: memval is not on PATH; install it first (see memval's README, \"Use it from your agent\")" >&2
  exit 2
fi
scratch=$(mktemp -d) || exit 2
trap 'rm -rf "$scratch"' EXIT

cache=${MEMVAL_CACHE_DIR:-${XDG_CACHE_HOME:+$XDG_CACHE_HOME/memval}}
cache=${cache:-${HOME:+$HOME/.cache/memval}}
kept=
if [ -n "$cache" ]; then
  top=$(git rev-parse --show-toplevel 2>/dev/null || pwd -P)
  # The folder the Claude Code hook keeps for the same project (`run::kept_store`): the first
  # 24 hex digits of the sha256 of its path, so a commit after an agent's edits starts warm.
  key=$(printf '%s' "$top" | { sha256sum 2>/dev/null || shasum -a 256; } | cut -c1-24)
  kept="$cache/projects/$key"
  mkdir -p "$kept" 2>/dev/null || kept=
fi

check() { # FILE STORE
  memval validate --repo . --memories "$1" --store "$2" --format table --fail-on stale -q
}

status=0
for file in "$@"; do
  rc=2
  if [ -n "$kept" ]; then
    check "$file" "$kept/store" 2>"$scratch/err"
    rc=$?
    # A failure that is the kept store's (busy, unreadable, full) is not the file's.
    if [ "$rc" -ge 2 ]; then
      rc=2
    else
      cat "$scratch/err" >&2
    fi
  fi
  if [ "$rc" -ge 2 ]; then
    check "$file" "$scratch/store"
    rc=$?
  fi
  case $rc in
    0) ;;
    1) status=1 ;;
    *) echo "memval-validate: memval could not check $file (exit $rc)" >&2; exit "$rc" ;;
  esac
done
exit "$status"

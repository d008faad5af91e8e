#!/usr/bin/env bash
# The entry of the `memval-validate` pre-commit hook (.pre-commit-hooks.yaml): each memory
# file pre-commit passes is checked against the repository being committed to. Exit 1 (the
# commit is blocked) when any claim is STALE or CONTRADICTED, with memval's table saying which
# and why; exit 2 when memval cannot run. The check keeps no history: its store is a
# temporary folder, removed on exit, so nothing is written into the repository.
set -uo pipefail

if ! command -v memval >/dev/null; then
  echo "memval-validate: memval is not on PATH; install it first (see memval's README, \"Use it from your agent\")" >&2
  exit 2
fi
store=$(mktemp -d) || exit 2
trap 'rm -rf "$store"' EXIT

status=0
for file in "$@"; do
  memval validate --repo . --memories "$file" --store "$store" --format table --fail-on stale -q
  rc=$?
  case $rc in
    0) ;;
    1) status=1 ;;
    *) echo "memval-validate: memval could not check $file (exit $rc)" >&2; exit "$rc" ;;
  esac
done
exit "$status"

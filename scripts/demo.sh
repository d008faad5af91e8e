#!/usr/bin/env bash
# Build memval and run it on the bundled example: a small repo with a scripted git history
# (renames, deletions, symbol renames, config changes) and memories about it in every format.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release -p memval
bin=target/release/memval
demo=${MEMVAL_DEMO_DIR:-${TMPDIR:-/tmp}/memval-demo}
bash examples/make-demo-repo.sh "$demo" >/dev/null

for memories in \
  examples/memories/memories.jsonl \
  examples/memories/claude-code \
  "$demo/CLAUDE.md"; do
  echo
  echo "=== memval validate --repo $demo --memories $memories"
  # Exit code 1 means stale memories were found, which is the point of the demo.
  "$bin" validate --repo "$demo" --memories "$memories" --format table --fail-on never
done
echo
echo "More: $bin validate --repo $demo --memories examples/memories/<format> --format json|md|sarif"
echo "      $bin history --repo $demo"

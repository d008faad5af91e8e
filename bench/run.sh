#!/usr/bin/env bash
# Build memval and the benchmarks in release mode, then run them.
#   bash bench/run.sh accuracy   # labelled-by-construction accuracy benchmark (~1 min)
#   bash bench/run.sh speed      # 1M+ lines, 100k+ claims, vs grep (~5-10 min)
#   bash bench/run.sh throughput # claims/s through the JetStream pipeline vs the raw broker
#                                # (needs nats-server; ~2-3 min)
#   bash bench/run.sh all        # accuracy and speed (default)
# Extra arguments are passed to the benchmark binaries (e.g. --seed 7, --keep).
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
shift || true
case "$what" in
  accuracy|speed|throughput|all) ;;
  *) echo "usage: bash bench/run.sh [accuracy|speed|throughput|all] [ARGS...]" >&2; exit 2 ;;
esac
cargo build --release -p memval -p memval-bench
target="${CARGO_TARGET_DIR:-$PWD/target}/release"
memval="$target/memval"
if [[ "$what" == accuracy || "$what" == all ]]; then
  "$target/accuracy" --memval "$memval" "$@"
fi
if [[ "$what" == speed || "$what" == all ]]; then
  [[ "$what" == all ]] && echo
  "$target/speed" --memval "$memval" "$@"
fi
if [[ "$what" == throughput ]]; then
  "$target/throughput" --memval "$memval" "$@"
fi

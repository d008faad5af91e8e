#!/usr/bin/env bash
# Build memval and the benchmarks in release mode, then run them.
#   bash bench/run.sh accuracy   # labelled-by-construction accuracy benchmark (~1 min)
#   bash bench/run.sh speed      # 1M+ lines, 100k+ claims, vs grep (~5-10 min)
#   bash bench/run.sh throughput # claims/s through the JetStream pipeline vs the raw broker
#                                # (needs nats-server; ~2-3 min)
#   bash bench/run.sh tierb      # the accuracy set plus Tier B sentences, rules only vs with a
#                                # model; without --llm-base-url it starts the local llama-server
#                                # of scripts/llama.sh (build it first: bash scripts/llama.sh build)
#   bash bench/run.sh real       # accuracy on real repositories' history (bench/real/; needs the
#                                # mirrors the fetch tool brings, default /work/.mirror, or set
#                                # MEMVAL_MIRRORS; python3 and git; ~2 min once built)
#   bash bench/run.sh draft      # rule-only draft judge request/reply latency vs a raw NATS echo
#                                # round trip (needs nats-server; ~1 min once built)
#   bash bench/run.sh pairs      # memval pairs --method keyword: 100k memories (synthetic and real
#                                # text from the cargo registry), recall vs all-pairs, vs the seed
#   bash bench/run.sh pairs_tail # the keyword join on a planted-only and a dense-tail Zipf corpus
#                                # (100k; --memories 1000000 for 1M), recall vs all-pairs on 20k,
#                                # --baseline OTHER_MEMVAL to compare a build; ~3 min with a baseline
#   bash bench/run.sh embed      # memval pairs --method embed: memories/s embedded, a warm-cache
#                                # rerun, the cosine search alone (needs the model:
#                                # bash scripts/embed-model.sh; ~2-4 min once built)
#   bash bench/run.sh all        # accuracy and speed (default; tierb needs a model, so not here)
# Extra arguments are passed to the benchmark binaries (e.g. --seed 7, --keep; for tierb
# --tier-b N and any --llm-* flag of memval validate).
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
shift || true
case "$what" in
  accuracy|speed|throughput|tierb|real|draft|pairs|pairs_tail|embed|all) ;;
  *) echo "usage: bash bench/run.sh [accuracy|speed|throughput|tierb|real|draft|pairs|pairs_tail|embed|all] [ARGS...]" >&2; exit 2 ;;
esac
target="${CARGO_TARGET_DIR:-$PWD/target}/release"
memval="$target/memval"
if [[ "$what" == real ]]; then
  # Labels are committed (bench/real/labels/); remake them with python3 bench/real/label.py.
  cargo build --release -p memval
  exec python3 bench/real/run.py --memval "$memval" --mirrors "${MEMVAL_MIRRORS:-/work/.mirror}" "$@"
fi
cargo build --release -p memval -p memval-bench
if [[ "$what" == accuracy || "$what" == all ]]; then
  "$target/accuracy" --memval "$memval" "$@"
fi
if [[ "$what" == speed || "$what" == all ]]; then
  [[ "$what" == all ]] && echo
  "$target/speed" --memval "$memval" "$@"
fi
if [[ "$what" == draft ]]; then
  "$target/draft_latency" --memval "$memval" "$@"
fi
if [[ "$what" == pairs ]]; then
  "$target/pairs" --memval "$memval" "$@"
fi
if [[ "$what" == pairs_tail ]]; then
  "$target/pairs_tail" --memval "$memval" "$@"
fi
if [[ "$what" == embed ]]; then
  if [[ -z "${MEMVAL_EMBED_MODEL:-}" ]]; then
    MEMVAL_EMBED_MODEL="$(bash scripts/embed-model.sh)"
    export MEMVAL_EMBED_MODEL
  fi
  "$target/embed" --memval "$memval" "$@"
fi
if [[ "$what" == throughput ]]; then
  "$target/throughput" --memval "$memval" "$@"
fi
if [[ "$what" == tierb ]]; then
  # Where scripts/llama.sh keeps llama-server and the model (used only when no endpoint is given).
  if [[ -z "${MEMVAL_LLAMA_SERVER:-}" || -z "${MEMVAL_LLAMA_MODEL:-}" ]]; then
    eval "$(bash scripts/llama.sh paths | sed 's/^/export /')"
  fi
  "$target/tier_b" --memval "$memval" "$@"
fi

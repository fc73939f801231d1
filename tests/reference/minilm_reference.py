"""Independent reference embeddings for tests/embeddings.rs.

A from-scratch numpy implementation of what sentence-transformers does for
all-MiniLM-L6-v2: BERT WordPiece tokenization (written out here, and checked
against the Python `tokenizers` package), the 6-layer BERT encoder, mean pooling
over the attention mask, then L2 normalisation. It shares no code with the Rust
side (candle + the tokenizers crate).

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install numpy safetensors tokenizers
    /tmp/venv/bin/python tests/reference/minilm_reference.py target/test-models/all-MiniLM-L6-v2
"""

import json
import math
import sys
import unicodedata

import numpy as np
from safetensors.numpy import load_file

LONG = "The reflector reads what was said and keeps structured memory up to date. " * 30
SENTENCES = [
    "User's dog is named Rex",
    "我的狗叫旺财。",
    LONG,  # 30 x 15 tokens: cut at 256 (the model's max_seq_length)
]
MAX_TOKENS = 256  # sentence_bert_config.json: max_seq_length


def is_cjk(cp):
    return (
        0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF
        or 0x2A700 <= cp <= 0x2B73F or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF
        or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F
    )


def is_punct(ch):
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def basic_tokenize(text):
    """BERT's BasicTokenizer: lowercase, strip accents, split on spaces, punctuation, CJK."""
    text = "".join(f" {c} " if is_cjk(ord(c)) else c for c in text)
    text = unicodedata.normalize("NFD", text.lower())
    text = "".join(c for c in text if unicodedata.category(c) != "Mn")
    words = []
    for chunk in text.split():
        word = ""
        for c in chunk:
            if is_punct(c):
                if word:
                    words.append(word)
                words.append(c)
                word = ""
            else:
                word += c
        if word:
            words.append(word)
    return words


def wordpiece(words, vocab):
    ids = []
    for word in words:
        start, pieces = 0, []
        while start < len(word):
            end = len(word)
            while end > start:
                piece = ("##" if start else "") + word[start:end]
                if piece in vocab:
                    break
                end -= 1
            if end == start:
                pieces = [vocab["[UNK]"]]
                break
            pieces.append(vocab[piece])
            start = end
        ids.extend(pieces)
    return ids


def layer_norm(x, w, b, eps=1e-12):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


def gelu(x):
    erf = np.vectorize(math.erf)
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def encode(ids, w, cfg):
    x = (
        w["embeddings.word_embeddings.weight"][ids]
        + w["embeddings.position_embeddings.weight"][: len(ids)]
        + w["embeddings.token_type_embeddings.weight"][0]
    )
    x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
    heads = cfg["num_attention_heads"]
    head_dim = cfg["hidden_size"] // heads

    def linear(v, name):
        return v @ w[name + ".weight"].T + w[name + ".bias"]

    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        q, k, v = (
            linear(x, p + f"attention.self.{n}").reshape(len(ids), heads, head_dim).transpose(1, 0, 2)
            for n in ("query", "key", "value")
        )
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(head_dim)
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        probs = scores / scores.sum(-1, keepdims=True)
        ctx = (probs @ v).transpose(1, 0, 2).reshape(len(ids), -1)
        x = layer_norm(
            linear(ctx, p + "attention.output.dense") + x,
            w[p + "attention.output.LayerNorm.weight"],
            w[p + "attention.output.LayerNorm.bias"],
        )
        h = gelu(linear(x, p + "intermediate.dense"))
        x = layer_norm(
            linear(h, p + "output.dense") + x,
            w[p + "output.LayerNorm.weight"],
            w[p + "output.LayerNorm.bias"],
        )
    # One unpadded sentence: every token is attended, so the mean over the mask is the mean.
    pooled = x.mean(0)
    return pooled / np.linalg.norm(pooled)


def main(model_dir):
    cfg = json.load(open(f"{model_dir}/config.json"))
    tok = json.load(open(f"{model_dir}/tokenizer.json"))
    vocab = tok["model"]["vocab"]
    w = {k: v.astype(np.float64) for k, v in load_file(f"{model_dir}/model.safetensors").items()}
    try:
        from tokenizers import Tokenizer

        hf = Tokenizer.from_file(f"{model_dir}/tokenizer.json")
        hf.no_padding()
        hf.enable_truncation(MAX_TOKENS)
    except ImportError:
        hf = None
    for s in SENTENCES:
        ids = [vocab["[CLS]"]] + wordpiece(basic_tokenize(s), vocab)[: MAX_TOKENS - 2] + [vocab["[SEP]"]]
        if hf is not None:
            assert hf.encode(s).ids == ids, (s, hf.encode(s).ids, ids)
        e = encode(ids, w, cfg)
        print(json.dumps(s[:60], ensure_ascii=False), "tokens", len(ids), "ids", ids[:12])
        print("  first 8:", ", ".join(f"{v:.6f}" for v in e[:8]))
        print("  norm", float(np.linalg.norm(e)), "dim", len(e))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "target/test-models/all-MiniLM-L6-v2")

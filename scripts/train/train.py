"""Trains the project's small llama-architecture code model on the CPU (or a GPU when there is one).

Reads the dataset that build-dataset.ts wrote (token ids and example boundaries), packs examples
into rows that attend only within an example, and writes the weights in the tensor layout that
export-gguf.ts turns into a GGUF file for llama.cpp. Seeded: the same dataset and arguments give
the same model on the same machine. Progress (tokens/s, loss, ETA) goes to stdout.

On a GPU: the shipped model is --device cuda --embedding 256 --layers 8 --heads 4 --feed-forward 512
--batch-tokens 65536, 330M tokens over a 40M-token dataset (WISP_TRAIN_DATASET_TOKENS=40e6), about
9 minutes on one H200 at 550,000-750,000 tokens/s. Wider or deeper is slower to answer: on 2 CPU
cores this shape takes about 2.5 times the time of the CPU default per prompt. --fit-minutes fits
the run to a lent machine's time.
"""
import argparse
import json
import math
import os
import struct
import sys
import time

import torch
import torch.nn.functional as F


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", required=True, help="folder with dataset.json, tokens.bin, examples.bin")
    p.add_argument("--out", required=True, help="folder for weights.bin, weights.json and checkpoints")
    # Small on purpose: on 2 CPU cores a model this size sees about 12M tokens in an hour, and at
    # this budget a smaller model trained on more tokens completes code better than a larger one
    # trained on fewer (a 7M-parameter model at 4M tokens still answered mostly nothing).
    p.add_argument("--embedding", type=int, default=192)
    p.add_argument("--layers", type=int, default=4)
    p.add_argument("--heads", type=int, default=3)
    p.add_argument("--feed-forward", type=int, default=512)
    p.add_argument("--context", type=int, default=1024, help="row length in tokens (the model's context)")
    p.add_argument("--batch-tokens", type=int, default=4096, help="padded tokens per batch, about")
    p.add_argument("--tokens", type=float, default=12e6, help="tokens trained on (that have a loss) in all")
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--warmup", type=int, default=150)
    p.add_argument("--seed", type=int, default=1234)
    p.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    p.add_argument("--device", default="cpu")
    p.add_argument("--precision", choices=["auto", "bf16", "fp32"], default="auto",
                   help="bf16: matrix products in bfloat16 under autocast, weights and optimizer in float32 "
                        "(2-3 times faster on CPUs with AVX-512 BF16, and on GPUs); fp32: float32 everywhere; "
                        "auto: bf16 where the hardware has it")
    p.add_argument("--rope-base", type=float, default=10000.0)
    # The middle of a fill-in-the-middle example is the few tokens the editor asks for, among
    # hundreds of prefix and suffix tokens that teach plain code: weighting its loss up teaches the
    # completion (and where it ends) without paying for longer training.
    p.add_argument("--middle-weight", type=float, default=3.0, help="loss weight of fill-in-the-middle middles")
    # A run is checkpointed whenever it writes weights (every eighth of --tokens): one stopped, or
    # one to take further with a larger --tokens (on a GPU lent for a while, say), goes on from there.
    p.add_argument("--resume", action="store_true",
                   help="go on from --out's checkpoint.pt where there is one (same dataset and model shape); "
                        "a larger --tokens than the checkpoint's trains further, the learning rate following the new total")
    # A trained model taken further on a grown corpus (new files, the same tokenizer: build-dataset.ts
    # --tokenizer): its weights, with a fresh optimizer and schedule, rather than training afresh.
    p.add_argument("--init", metavar="DIR",
                   help="start from the weights.bin and weights.json an earlier run wrote in DIR (same model shape and "
                        "vocabulary), not from random weights; the optimizer and learning rate start afresh")
    p.add_argument("--minutes", type=float, default=0,
                   help="stop after this many minutes of training (checkpointed, to --resume later); 0: run to --tokens")
    # A machine lent for a fixed time (a GPU for a few minutes): the learning rate decays to its end
    # over the tokens that fit in that time, measured, rather than stopping half way down.
    p.add_argument("--fit-minutes", type=float, default=0,
                   help="lower --tokens to what this run trains in this many minutes, by its rate over steps 20 to 120; 0: keep --tokens")
    # A lent machine returns a few files of limited size: the weights in q8_0 (what the GGUF holds)
    # and the schedule's state, from which a run goes on on another machine (fresh optimizer moments).
    p.add_argument("--compact-out", metavar="DIR",
                   help="whenever weights are written, also write a compact checkpoint here (state.json, weights-N.q8 of at most 15 MiB each)")
    p.add_argument("--resume-from", metavar="DIR",
                   help="with --resume and no checkpoint.pt in --out: go on from the compact checkpoint in DIR (its weights and schedule; "
                        "the optimizer's moments start afresh, the learning rate rising again over --rewarmup steps)")
    p.add_argument("--rewarmup", type=int, default=20, help="steps over which the learning rate rises again after --resume-from")
    return p.parse_args()


class RMSNorm(torch.nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = torch.nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rope_table(head_dim, length, base):
    # llama.cpp's "normal" rope (llama architecture) rotates adjacent pairs (2i, 2i+1): as complex
    # numbers, one multiplication by e^(i * position * base^(-2i/head_dim)).
    inv = base ** (-torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim)
    angles = torch.arange(length, dtype=torch.float32)[:, None] * inv
    return torch.polar(torch.ones_like(angles), angles)  # [T, head_dim/2]


def apply_rope(x, table):
    pairs = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
    return torch.view_as_real(pairs * table).flatten(-2)


class Block(torch.nn.Module):
    def __init__(self, d, heads, ff):
        super().__init__()
        self.heads = heads
        self.attn_norm = RMSNorm(d)
        self.q = torch.nn.Linear(d, d, bias=False)
        self.k = torch.nn.Linear(d, d, bias=False)
        self.v = torch.nn.Linear(d, d, bias=False)
        self.o = torch.nn.Linear(d, d, bias=False)
        self.ffn_norm = RMSNorm(d)
        self.gate = torch.nn.Linear(d, ff, bias=False)
        self.up = torch.nn.Linear(d, ff, bias=False)
        self.down = torch.nn.Linear(ff, d, bias=False)

    def forward(self, x, rope, mask):
        b, t, d = x.shape
        h = self.attn_norm(x)
        shape = (b, t, self.heads, d // self.heads)
        # Scaling q (not the T x T scores) by 1/sqrt(head_dim): the same result, less work.
        q = apply_rope(self.q(h).view(shape).transpose(1, 2) * (d // self.heads) ** -0.5, rope)
        k = apply_rope(self.k(h).view(shape).transpose(1, 2), rope)
        v = self.v(h).view(shape).transpose(1, 2)
        if mask is None:
            # A GPU's fused attention (flash) never writes the T x T scores; q is scaled already.
            attended = F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=1.0).transpose(1, 2).reshape(b, t, d)
        else:
            # One batched matmul that adds the mask as it goes (baddbmm), in the autocast precision:
            # on a CPU the T x T score tensors' memory traffic, not the arithmetic, is what costs.
            flat = (b * self.heads, t, d // self.heads)
            scores = torch.baddbmm(mask.expand(b * self.heads, t, t), q.reshape(flat), k.reshape(flat).transpose(1, 2))
            attended = (scores.softmax(-1) @ v.reshape(flat)).view(b, self.heads, t, -1).transpose(1, 2).reshape(b, t, d)
        x = x + self.o(attended)
        h = self.ffn_norm(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


class Llama(torch.nn.Module):
    def __init__(self, vocab, d, layers, heads, ff, rope_base):
        super().__init__()
        self.heads = heads
        self.rope_base = rope_base
        self.embed = torch.nn.Embedding(vocab, d)
        self.blocks = torch.nn.ModuleList(Block(d, heads, ff) for _ in range(layers))
        self.norm = RMSNorm(d)
        self.output = torch.nn.Linear(d, vocab, bias=False)
        for name, p in self.named_parameters():
            if p.dim() == 2:
                std = 0.02 / math.sqrt(2 * layers) if name.endswith(("o.weight", "down.weight")) else 0.02
                torch.nn.init.normal_(p, std=std)

    def forward(self, tokens):
        return self.output(self.hidden(tokens))

    def hidden(self, tokens):
        """The final normed hidden states, [B, T, d]: the logits are self.output of them."""
        x = self.embed(tokens)
        t = tokens.shape[1]
        rope = rope_table(x.shape[-1] // self.heads, t, self.rope_base).to(tokens.device)
        # Examples are padded at their end: a causal mask keeps every real token off the padding (on
        # a GPU, the fused attention's own causal mask).
        mask = None if tokens.is_cuda else torch.full((t, t), float("-inf"), device=tokens.device).triu(1)
        for block in self.blocks:
            x = block(x, rope, mask)
        return self.norm(x)


class Batches:
    """Examples in dataset order, a window at a time sorted by length and cut into batches of about
    `batch_tokens` padded tokens: attention costs what the examples are long, not the context."""

    def __init__(self, folder, context, batch_tokens, middle_weight):
        meta = json.load(open(os.path.join(folder, "dataset.json")))
        self.vocab = meta["vocabSize"]
        self.pad = meta["padTokenId"]
        if meta.get("exampleFields") != 4:
            raise SystemExit("the dataset is from an older build-dataset.ts: build it again (npm run train-model does)")
        self.middle_weight = middle_weight
        raw = open(os.path.join(folder, "tokens.bin"), "rb").read()
        self.tokens = torch.frombuffer(bytearray(raw), dtype=torch.int16).to(torch.int32) & 0xFFFF
        ex = open(os.path.join(folder, "examples.bin"), "rb").read()
        self.examples = torch.frombuffer(bytearray(ex), dtype=torch.int32).view(-1, 4).tolist()
        self.context = context
        self.batch_tokens = batch_tokens
        # 64 examples on a CPU's 4096-token batches; a GPU's larger batches sort over more, so
        # that examples of like length share a batch rather than padding to the longest.
        self.window = max(64, batch_tokens // 64)
        self.next_example = 0
        self.pending = []

    def _refill(self):
        take = [self.examples[(self.next_example + i) % len(self.examples)] for i in range(self.window)]
        self.next_example += self.window
        take.sort(key=lambda e: e[1])
        batches, current = [], []
        for example in take:
            longest = min(self.context, max([example[1]] + [e[1] for e in current]))
            if current and longest * (len(current) + 1) > self.batch_tokens:
                batches.append(current)
                current = []
            current.append(example)
        batches.append(current)
        self.pending = batches[::-1]

    def batch(self):
        """(tokens, targets, weights) of shape [B, T], the targets -100 where no loss is taken."""
        if not self.pending:
            self._refill()
        examples = self.pending.pop()
        t = min(self.context, max(e[1] for e in examples))
        tokens = torch.full((len(examples), t), self.pad, dtype=torch.long)
        targets = torch.full((len(examples), t), -100, dtype=torch.long)
        weights = torch.ones((len(examples), t))
        for row, (offset, length, loss_from, middle_from) in enumerate(examples):
            length = min(length, t)
            ids = self.tokens[offset: offset + length].long()
            tokens[row, :length] = ids
            targets[row, : length - 1] = ids[1:]
            targets[row, : max(0, loss_from - 1)] = -100
            # Targets from the middle's first token on (the prediction made at the prefix's last).
            weights[row, max(0, middle_from - 1): length - 1] = self.middle_weight
        return tokens, targets, weights


def gguf_names(model):
    """Each state-dict entry's GGUF tensor name."""
    names = {"embed.weight": "token_embd.weight", "norm.weight": "output_norm.weight", "output.weight": "output.weight"}
    per_block = {"attn_norm.weight": "attn_norm.weight", "q.weight": "attn_q.weight", "k.weight": "attn_k.weight",
                 "v.weight": "attn_v.weight", "o.weight": "attn_output.weight", "ffn_norm.weight": "ffn_norm.weight",
                 "gate.weight": "ffn_gate.weight", "up.weight": "ffn_up.weight", "down.weight": "ffn_down.weight"}
    for name in model.state_dict():
        if name.startswith("blocks."):
            _, layer, rest = name.split(".", 2)
            names[name] = f"blk.{layer}.{per_block[rest]}"
    return names


def export(model, out, args, vocab):
    """weights.bin: float32 tensors back to back; weights.json: names (GGUF), torch shapes, offsets."""
    names = gguf_names(model)
    entries, offset = [], 0
    with open(os.path.join(out, "weights.bin.tmp"), "wb") as f:
        for name, p in model.state_dict().items():
            data = p.detach().float().cpu().contiguous().numpy().tobytes()
            f.write(data)
            entries.append({"name": names[name], "shape": list(p.shape), "offset": offset})
            offset += len(data)
    os.replace(os.path.join(out, "weights.bin.tmp"), os.path.join(out, "weights.bin"))
    json.dump({"spec": weights_spec(args, vocab), "tensors": entries}, open(os.path.join(out, "weights.json"), "w"), indent=1)


def weights_spec(args, vocab):
    """The model description weights.json carries (export-gguf.ts reads it)."""
    return {"embedding": args.embedding, "layers": args.layers, "heads": args.heads, "kvHeads": args.heads,
            "feedForward": args.feed_forward, "contextLength": args.context, "ropeBase": args.rope_base, "vocabSize": vocab}


def load_weights(folder, model, args, vocab):
    """Weights written by export() into `model`, after checking they are of its shape and vocabulary."""
    saved = json.load(open(os.path.join(folder, "weights.json")))
    # The entries that decide the tensors' shapes (kvHeads follows heads).
    spec = {k: v for k, v in weights_spec(args, vocab).items() if k not in ("contextLength", "ropeBase", "kvHeads")}
    theirs = {k: saved["spec"][k] for k in spec}
    if theirs != spec:
        raise SystemExit(f"{folder}/weights.json is of another model or vocabulary ({theirs}; this run: {spec})")
    raw = open(os.path.join(folder, "weights.bin"), "rb").read()
    state = model.state_dict()
    # export() writes the state dict in its own order, so the entries pair up one to one.
    for name, entry in zip(state, saved["tensors"], strict=True):
        count = math.prod(entry["shape"])
        values = torch.frombuffer(bytearray(raw[entry["offset"]: entry["offset"] + 4 * count]), dtype=torch.float32)
        state[name] = values.view(entry["shape"])
    model.load_state_dict(state)


SHAPE = ("embedding", "layers", "heads", "feed_forward", "context", "rope_base")
# A returned file's size limit (16 MiB), less room to spare.
COMPACT_PART_BYTES = 15 * 2**20


def q8_0(tensor):
    """A tensor's values as ggml's q8_0 blocks (32 values: a float16 scale, then 32 int8), in row-major order."""
    x = tensor.detach().float().cpu().reshape(-1, 32)
    scale = x.abs().amax(1, keepdim=True) / 127
    q = torch.where(scale > 0, x / torch.where(scale > 0, scale, 1), 0).round().clamp(-127, 127).to(torch.int8)
    return torch.cat([scale.half().view(torch.uint8), q.view(torch.uint8)], 1).numpy().tobytes()


def from_q8_0(raw, shape):
    blocks = torch.frombuffer(bytearray(raw), dtype=torch.uint8).view(-1, 34)
    scale = blocks[:, :2].contiguous().view(torch.float16).float()
    return (blocks[:, 2:].contiguous().view(torch.int8).float() * scale).view(shape)


def save_compact(folder, model, data, state, args, vocab):
    """state.json (the schedule's state, the model's shape, where each tensor is) and weights-N.q8:
    matrices in q8_0, norms in float32, parts of at most COMPACT_PART_BYTES. Replaced whole: the
    parts first, state.json last, so a run cut while writing leaves the previous checkpoint readable."""
    os.makedirs(folder, exist_ok=True)
    names = gguf_names(model)
    tensors, parts, part, offset = [], [], bytearray(), 0
    for name, p in model.state_dict().items():
        raw = q8_0(p) if p.dim() == 2 else p.detach().float().cpu().contiguous().numpy().tobytes()
        if part and len(part) + len(raw) > COMPACT_PART_BYTES:
            parts.append(part)
            part = bytearray()
        tensors.append({"name": names[name], "shape": list(p.shape), "type": "q8_0" if p.dim() == 2 else "f32",
                        "part": len(parts), "offset": len(part), "bytes": len(raw)})
        part += raw
    parts.append(part)
    step = state["step"]
    for i, raw in enumerate(parts):
        with open(os.path.join(folder, f"weights-{i}.q8.tmp"), "wb") as f:
            f.write(raw)
        os.replace(os.path.join(folder, f"weights-{i}.q8.tmp"), os.path.join(folder, f"weights-{i}.q8"))
    compact = {"spec": weights_spec(args, vocab), "shape": {k: getattr(args, k) for k in SHAPE}, "state": state,
               "data": {"next_example": data.next_example, "examples": len(data.examples)}, "parts": len(parts), "tensors": tensors}
    with open(os.path.join(folder, "state.json.tmp"), "w") as f:
        json.dump(compact, f, indent=1)
    os.replace(os.path.join(folder, "state.json.tmp"), os.path.join(folder, "state.json"))
    print(f"compact checkpoint at step {step}: {len(parts)} part(s), {sum(map(len, parts)) / 2**20:.1f} MiB in {folder}", flush=True)


def read_compact(folder, model, args, vocab):
    """The weights save_compact wrote, into `model`, after checking they are of its shape; returns state.json."""
    compact = json.load(open(os.path.join(folder, "state.json")))
    shape = {k: getattr(args, k) for k in SHAPE}
    if compact["shape"] != shape or compact["spec"]["vocabSize"] != vocab:
        raise SystemExit(f"{folder}/state.json is of another model or vocabulary ({compact['shape']}, vocabulary "
                         f"{compact['spec']['vocabSize']}; this run: {shape}, vocabulary {vocab})")
    parts = [open(os.path.join(folder, f"weights-{i}.q8"), "rb").read() for i in range(compact["parts"])]
    state = model.state_dict()
    for name, entry in zip(state, compact["tensors"], strict=True):
        raw = parts[entry["part"]][entry["offset"]: entry["offset"] + entry["bytes"]]
        state[name] = (from_q8_0(raw, entry["shape"]) if entry["type"] == "q8_0"
                       else torch.frombuffer(bytearray(raw), dtype=torch.float32).view(entry["shape"]))
    model.load_state_dict(state)
    return compact


def load_compact(folder, model, data, args, vocab):
    """What save_compact wrote: the weights into `model`, the data's position (scaled where the
    dataset has another number of examples, some of its shards left behind); returns the state."""
    compact = read_compact(folder, model, args, vocab)
    then, now = compact["data"]["examples"], len(data.examples)
    data.next_example = compact["data"]["next_example"] * now // then
    if then != now:
        print(f"the dataset has {now:,} examples, the checkpoint's had {then:,}: going on from the same share of it", flush=True)
    return compact["state"]


def save_checkpoint(out, model, opt, data, state, args):
    """checkpoint.pt: what the loop needs to go on exactly: weights, optimizer moments, the data's
    position and the random state. Written beside the weights, replaced whole."""
    checkpoint = {"model": model.state_dict(), "opt": opt.state_dict(), "state": state,
                  "data": {"next_example": data.next_example, "pending": data.pending, "vocab": data.vocab},
                  "shape": {k: getattr(args, k) for k in SHAPE}, "rng": torch.get_rng_state()}
    torch.save(checkpoint, os.path.join(out, "checkpoint.pt.tmp"))
    os.replace(os.path.join(out, "checkpoint.pt.tmp"), os.path.join(out, "checkpoint.pt"))


def load_checkpoint(out, model, opt, data, args):
    """The loop state saved by save_checkpoint, after checking it fits this run; None without one."""
    path = os.path.join(out, "checkpoint.pt")
    if not os.path.exists(path):
        return None
    checkpoint = torch.load(path, map_location=args.device, weights_only=False)
    shape = {k: getattr(args, k) for k in SHAPE}
    if checkpoint["shape"] != shape or checkpoint["data"]["vocab"] != data.vocab:
        raise SystemExit(f"{path} is of another model or dataset ({checkpoint['shape']}, vocabulary "
                         f"{checkpoint['data']['vocab']}; this run: {shape}, vocabulary {data.vocab})")
    model.load_state_dict(checkpoint["model"])
    opt.load_state_dict(checkpoint["opt"])
    data.next_example = checkpoint["data"]["next_example"]
    data.pending = checkpoint["data"]["pending"]
    torch.set_rng_state(checkpoint["rng"].cpu())  # map_location moved it to the device too
    return checkpoint["state"]


def bf16_hardware(device):
    if device.startswith("cuda"):
        return torch.cuda.is_bf16_supported()
    try:
        flags = open("/proc/cpuinfo").read()
    except OSError:
        return False
    return " avx512_bf16" in flags or " amx_bf16" in flags


def main():
    args = parse_args()
    if args.precision == "auto":
        args.precision = "bf16" if bf16_hardware(args.device) else "fp32"
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    os.makedirs(args.out, exist_ok=True)
    data = Batches(args.data, args.context, args.batch_tokens, args.middle_weight)
    model = Llama(data.vocab, args.embedding, args.layers, args.heads, args.feed_forward, args.rope_base).to(args.device)
    params = sum(p.numel() for p in model.parameters())
    decay = [p for p in model.parameters() if p.dim() == 2]
    no_decay = [p for p in model.parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0}],
                            lr=args.lr, betas=(0.9, 0.95), eps=1e-8)
    print(f"model: {params / 1e6:.2f}M parameters, vocabulary {data.vocab}, {args.layers} layers x {args.embedding}; "
          f"{args.tokens:,.0f} tokens in batches of about {args.batch_tokens} on {args.device} with {args.threads} threads, {args.precision}", flush=True)
    start = time.time()
    smoothed, seen, step, next_report, next_export = None, 0, 0, 0, args.tokens / 8
    resumed = load_checkpoint(args.out, model, opt, data, args) if args.resume else None
    rewarm_from = None
    if args.resume and not resumed and args.resume_from and os.path.exists(os.path.join(args.resume_from, "state.json")):
        resumed = load_compact(args.resume_from, model, data, args, data.vocab)
        rewarm_from = resumed["step"]
        print(f"weights and schedule from {args.resume_from} (compact: the optimizer starts afresh)", flush=True)
    if args.init and not resumed:
        load_weights(args.init, model, args, data.vocab)
        print(f"weights from {args.init}", flush=True)
    if resumed:
        smoothed, seen, step = resumed["smoothed"], resumed["seen"], resumed["step"]
        next_report = seen + args.tokens / 200
        next_export = (math.floor(seen / (args.tokens / 8)) + 1) * args.tokens / 8
        where = os.path.join(args.out, "checkpoint.pt") if rewarm_from is None else os.path.join(args.resume_from, "state.json")
        print(f"resumed from {where}: step {step}, {seen:,} tokens, loss {smoothed:.3f}", flush=True)
    elif args.resume:
        print(f"no checkpoint in {args.out}: starting afresh", flush=True)
    seen_at_start, step_at_start = seen, step

    def checkpoint():
        state = {"smoothed": smoothed, "seen": seen, "step": step, "tokens": args.tokens}
        save_checkpoint(args.out, model, opt, data, state, args)
        if args.compact_out:
            save_compact(args.compact_out, model, data, state, args, data.vocab)
    while seen < args.tokens:
        done = seen / args.tokens
        rewarm = 1.0 if rewarm_from is None else min(1.0, (step - rewarm_from + 1) / args.rewarmup)
        lr = args.lr * min(1.0, (step + 1) / args.warmup, rewarm) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * done)))
        for group in opt.param_groups:
            group["lr"] = lr
        tokens, targets, weights = (x.to(args.device) for x in data.batch())
        with torch.autocast(args.device.split(":")[0], dtype=torch.bfloat16, enabled=args.precision == "bf16"):
            logits = model(tokens)
        logits = logits.float()
        per_token = F.cross_entropy(logits.view(-1, logits.shape[-1]), targets.view(-1), ignore_index=-100, reduction="none")
        weights = weights.view(-1) * (targets.view(-1) != -100)
        loss = (per_token * weights).sum() / weights.sum()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        seen += int((targets != -100).sum())
        step += 1
        smoothed = loss.item() if smoothed is None else 0.98 * smoothed + 0.02 * loss.item()
        # The rate is measured from step 20 on: a GPU's first steps pick kernels and warm up (on an
        # H200, a rate taken over the first 100 steps was half the run's, and the run ended in 4 minutes of 7.5).
        if args.fit_minutes and step - step_at_start == 20:
            fit_from = (time.time(), seen)
        if args.fit_minutes and step - step_at_start == 120:
            now = time.time()
            rate = (seen - fit_from[1]) / (now - fit_from[0])
            fitted = seen + rate * max(0.0, args.fit_minutes * 60 - (now - start)) * 0.97
            if fitted < args.tokens:
                args.tokens = fitted
                next_report = seen + args.tokens / 200
                next_export = (math.floor(seen / (args.tokens / 8)) + 1) * args.tokens / 8
                print(f"--fit-minutes {args.fit_minutes:g}: training on {args.tokens:,.0f} tokens", flush=True)
        if seen >= next_report or seen >= args.tokens:
            next_report += args.tokens / 200
            elapsed = time.time() - start
            rate = (seen - seen_at_start) / elapsed
            eta = max(0.0, args.tokens - seen) / rate
            print(f"step {step}  tokens {seen:,}/{args.tokens:,.0f}  loss {smoothed:.3f}  lr {lr:.2e}  {rate:,.0f} tokens/s  "
                  f"elapsed {elapsed / 60:.1f} min  ETA {eta / 60:.1f} min", flush=True)
        if seen >= next_export:
            next_export += args.tokens / 8
            export(model, args.out, args, data.vocab)
            checkpoint()
        if args.minutes and time.time() - start >= args.minutes * 60 and seen < args.tokens:
            export(model, args.out, args, data.vocab)
            checkpoint()
            print(f"stopped after {args.minutes:g} min at step {step}, {seen:,} of {args.tokens:,.0f} tokens: "
                  f"--resume goes on from here", flush=True)
            return
    export(model, args.out, args, data.vocab)
    checkpoint()
    print(f"done: {step} steps, {seen:,} tokens in {(time.time() - start) / 60:.1f} min, final loss {smoothed:.3f}", flush=True)


if __name__ == "__main__":
    main()

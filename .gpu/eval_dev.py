"""The completion bench's dev half, scored with torch alone (a GPU machine has no Node).

Reads the cases .gpu/dev-cases.ts wrote (prompts as the server builds them, healing, the lines the
file offers) and weights train.py wrote (weights.json and weights.bin, or its compact checkpoint),
and answers each case as the server does for a greedy one-line request, less the out-of-scope
names check of its own lines: the one line the file offers; among several, the one the model finds
most likely with a line end after it (line-choice.ts); else its own greedy line, the first token
one that starts with the healed text. Also the model alone (its own line everywhere). Prints and
writes exact first lines and edit similarity, overall and per project. The bench proper
(bench/fim-quality.bench.ts, through the real server) measures the exported GGUF afterwards.
"""
import argparse
import json
import lzma
import math
import os
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "train"))
import train  # noqa: E402  (the model and the weights' formats)


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cases", required=True, help="dev-cases.ts output (.json, or .json.xz)")
    p.add_argument("--weights", required=True, help="folder with weights.json/weights.bin or a compact checkpoint (state.json)")
    p.add_argument("--out", help="write the summary and every answer here (JSON)")
    p.add_argument("--device", default="cpu")
    p.add_argument("--batch-tokens", type=int, default=32768, help="padded tokens per forward pass, about")
    return p.parse_args()


def load_model(folder, device):
    compact = os.path.exists(os.path.join(folder, "state.json")) and not os.path.exists(os.path.join(folder, "weights.json"))
    spec = json.load(open(os.path.join(folder, "state.json" if compact else "weights.json")))["spec"]
    args = argparse.Namespace(embedding=spec["embedding"], layers=spec["layers"], heads=spec["heads"], feed_forward=spec["feedForward"],
                              context=spec["contextLength"], rope_base=spec["ropeBase"])
    model = train.Llama(spec["vocabSize"], args.embedding, args.layers, args.heads, args.feed_forward, args.rope_base)
    if compact:
        train.read_compact(folder, model, args, spec["vocabSize"])
    else:
        train.load_weights(folder, model, args, spec["vocabSize"])
    return model.to(device).eval()


def batches(items, length, budget):
    """Items sorted by length, in groups of about `budget` padded tokens."""
    order = sorted(range(len(items)), key=lambda i: length(items[i]))
    group, longest = [], 0
    for i in order:
        longest = max(longest, length(items[i]))
        if group and longest * (len(group) + 1) > budget:
            yield group
            group, longest = [], length(items[i])
        group.append(i)
    if group:
        yield group


def padded(rows, pad, device):
    t = max(len(r) for r in rows)
    tokens = torch.full((len(rows), t), pad, dtype=torch.long)
    for i, r in enumerate(rows):
        tokens[i, : len(r)] = torch.tensor(r, dtype=torch.long)
    return tokens.to(device)


@torch.no_grad()
def own_lines(model, cases, data, device, budget):
    """Each case's greedy line: tokens until one holds a line break or ends generation, at most maxTokens."""
    ends = set(data["eog"])
    breaks = {t for t, hexed in enumerate(data["vocabulary"]) if b"\n" in bytes.fromhex(hexed)}
    answers = [None] * len(cases)
    for group in batches(cases, lambda c: len(c["prompt"]) + data["maxTokens"], budget):
        rows = [list(cases[i]["prompt"]) for i in group]
        out = [[] for _ in group]
        live = list(range(len(group)))
        for step in range(data["maxTokens"]):
            if not live:
                break
            tokens = padded([rows[j] for j in live], 0, device)
            last = torch.tensor([len(rows[j]) - 1 for j in live], device=device)
            with torch.autocast(device.split(":")[0], dtype=torch.bfloat16, enabled=device.startswith("cuda")):
                h = model.hidden(tokens)[torch.arange(len(live), device=device), last]
                logits = model.output(h).float()
            for k, j in enumerate(live):
                heal = cases[group[j]]["heal"]
                if step == 0 and heal is not None:
                    allowed = torch.tensor(heal["tokens"], dtype=torch.long, device=device)
                    choice = int(allowed[logits[k, allowed].argmax()])
                else:
                    choice = int(logits[k].argmax())
                rows[j].append(choice)
                out[j].append(choice)
            live = [j for j in live if out[j][-1] not in ends and out[j][-1] not in breaks]
        for j, i in enumerate(group):
            answers[i] = text_of(out[j], data["vocabulary"], ends, cases[i]["heal"])
    return answers


def text_of(tokens, vocabulary, ends, heal):
    raw = b"".join(bytes.fromhex(vocabulary[t]) for t in tokens if t not in ends).decode("utf-8", errors="replace")
    healed = heal["text"] if heal else ""
    return raw[len(healed):] if raw.startswith(healed) else raw


@torch.no_grad()
def line_scores(model, cases, data, device, budget):
    """log P(line, then a line end | prompt) of every line the file offers, where it offers several."""
    ends = torch.tensor(data["lineEnds"], dtype=torch.long, device=device)
    items = [(i, k) for i, c in enumerate(cases) if len(c["lines"]) > 1 for k in range(len(c["lines"]))]
    sequences = [cases[i]["prompt"] + cases[i]["lines"][k]["tokens"] for i, k in items]
    scores = {}
    for group in batches(sequences, len, budget):
        tokens = padded([sequences[g] for g in group], 0, device)
        with torch.autocast(device.split(":")[0], dtype=torch.bfloat16, enabled=device.startswith("cuda")):
            hidden = model.hidden(tokens)
        for row, g in enumerate(group):
            i, k = items[g]
            start, line = len(cases[i]["prompt"]), cases[i]["lines"][k]["tokens"]
            # The predictions made at the prompt's last token and at each of the line's tokens.
            logp = torch.log_softmax(model.output(hidden[row, start - 1: start + len(line)].float()).float(), -1)
            each = logp[torch.arange(len(line), device=device), torch.tensor(line, device=device)].sum()
            scores[(i, k)] = float(each + torch.logsumexp(logp[-1, ends], 0))
    return scores


def first_line(text):
    return text.split("\n", 1)[0].rstrip()


def edit_similarity(a, b):
    if not a and not b:
        return 1.0
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return 1 - previous[-1] / max(len(a), len(b))


def summary(cases, answers):
    def score(index):
        pairs = [(cases[i]["expected"].rstrip(), first_line(answers[i])) for i in index]
        return {"cases": len(pairs), "exact": sum(e == s for e, s in pairs), "editSimilarity": sum(edit_similarity(e, s) for e, s in pairs) / max(1, len(pairs))}
    projects = sorted({c["project"] for c in cases})
    return {"all": score(range(len(cases))), **{p: score([i for i, c in enumerate(cases) if c["project"] == p]) for p in projects}}


def main():
    args = parse_args()
    started = time.time()
    opener = lzma.open if args.cases.endswith(".xz") else open
    with opener(args.cases, "rt") as f:
        data = json.load(f)
    cases = data["cases"]
    model = load_model(args.weights, args.device)
    alone = own_lines(model, cases, data, args.device, args.batch_tokens)
    scores = line_scores(model, cases, data, args.device, args.batch_tokens)
    server = []
    for i, c in enumerate(cases):
        if not c["lines"]:
            server.append(alone[i])
        elif len(c["lines"]) == 1:
            server.append(c["lines"][0]["text"])
        else:
            best = max(range(len(c["lines"])), key=lambda k: scores[(i, k)])
            server.append(c["lines"][best]["text"])
    result = {"split": data["split"], "seconds": round(time.time() - started, 1), "server": summary(cases, server), "alone": summary(cases, alone)}
    for name in ("server", "alone"):
        s = result[name]["all"]
        print(f"{data['split']} half, {name}: {s['exact']} of {s['cases']} exact ({100 * s['exact'] / max(1, s['cases']):.1f}%), "
              f"edit similarity {100 * s['editSimilarity']:.1f}%", flush=True)
    for project, s in result["server"].items():
        if project != "all":
            print(f"  {project}: {s['exact']} of {s['cases']} exact, edit similarity {100 * s['editSimilarity']:.1f}%", flush=True)
    if args.out:
        answers = [{"project": c["project"], "expected": c["expected"], "server": server[i], "alone": alone[i]} for i, c in enumerate(cases)]
        with open(args.out + ".tmp", "w") as f:
            json.dump({**result, "answers": answers}, f, indent=1)
        os.replace(args.out + ".tmp", args.out)


if __name__ == "__main__":
    main()

"""Unpacks what .gpu/pack.ts packed into the dataset folder train.py reads.

The token shards that travelled are decompressed into their ranges of tokens.bin; examples whose
tokens lie in a shard left behind (a run resumed on a fresh machine carries its checkpoint in their
place) are dropped from examples.bin, and dataset.json says which shards are missing. Nothing is
done when the folder already holds the same shards (a machine kept warm between two runs).
  python3 .gpu/unpack.py IN_DIR DATA_DIR
"""
import json
import lzma
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np


def main():
    source, target = sys.argv[1], sys.argv[2]
    started = time.time()
    meta = json.load(open(os.path.join(source, "dataset.json")))
    shards = meta["shards"]
    present = [k for k in range(len(shards)) if os.path.exists(os.path.join(source, f"tokens-{k}.bin.xz"))]
    missing = [k for k in range(len(shards)) if k not in present]
    if not present:
        raise SystemExit(f"{source} holds none of the dataset's {len(shards)} token shards (tokens-N.bin.xz)")
    done = os.path.join(target, "dataset.json")
    if os.path.exists(done) and json.load(open(done)).get("missingShards") == missing and json.load(open(done)).get("seed") == meta["seed"]:
        print(f"unpack: {target} already holds shards {present}", flush=True)
        return
    os.makedirs(target, exist_ok=True)
    if os.path.exists(done):
        os.remove(done)  # written last: a folder without it is not a whole dataset
    tokens = np.zeros(meta["tokens"], dtype=np.uint16)

    def read(k):
        start, end = shards[k]
        with lzma.open(os.path.join(source, f"tokens-{k}.bin.xz")) as f:
            raw = f.read()
        if len(raw) != 2 * (end - start):
            raise SystemExit(f"tokens-{k}.bin.xz holds {len(raw) // 2} tokens, the dataset says {end - start}")
        tokens[start:end] = np.frombuffer(raw, dtype=np.uint16)

    # lzma lets go of Python's lock while it decompresses: the shards unpack side by side.
    with ThreadPoolExecutor(max_workers=min(8, len(present))) as pool:
        list(pool.map(read, present))
    with lzma.open(os.path.join(source, "examples.bin.xz")) as f:
        examples = np.frombuffer(f.read(), dtype=np.int32).reshape(-1, 4)
    keep = np.ones(len(examples), dtype=bool)
    for k in missing:
        start, end = shards[k]
        keep &= ~((examples[:, 0] >= start) & (examples[:, 0] < end))
    tokens.tofile(os.path.join(target, "tokens.bin"))
    examples[keep].tofile(os.path.join(target, "examples.bin"))
    for name in ("tokenizer.json",):
        with open(os.path.join(source, name), "rb") as f, open(os.path.join(target, name), "wb") as g:
            g.write(f.read())
    with open(done, "w") as f:
        json.dump({**meta, "missingShards": missing}, f, indent=1)
    print(f"unpack: {len(present)} of {len(shards)} shards, {int(keep.sum()):,} of {len(examples):,} examples, "
          f"{meta['tokens']:,} tokens in {time.time() - started:.1f} s", flush=True)


if __name__ == "__main__":
    main()

"""Trains wisp-tiny-diffusion on procedural pictures (shapes.py) on the CPU, and exports it to ONNX.

Two phases: the decoder (latent -> sharp picture, on 64 x 64 crops), then the text encoder and
the UNet together (the clean latent from the noised one, at the noise levels of the scaled-linear
schedule the scheduler config names; the export answers in v prediction; with
one caption in ten dropped so that classifier-free guidance has an unconditional model). Seeded:
each step draws its pictures and noise from (seed, phase, step), so a run stopped (--minutes) and
resumed (--resume) trains on exactly what an uninterrupted one does. Progress goes to stdout.
"""
import argparse
import copy
import json
import os
import re
import time

import numpy as np
import torch
import torch.nn.functional as F
import torch.nn.utils.parametrize as parametrize

import shapes
from tiny_diffusion import CONTEXT, TextEncoder, Unet, VaeDecoder, alphas_cumprod, downsample


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tokenizer", required=True, help="folder with the vocab.json write-tokenizer.ts wrote")
    p.add_argument("--out", required=True, help="folder for checkpoint.pt, the ONNX files and parity.json")
    p.add_argument("--decoder-steps", type=int, default=600)
    p.add_argument("--steps", type=int, default=2600, help="steps of the text encoder and UNet")
    p.add_argument("--batch", type=int, default=48)
    p.add_argument("--lr", type=float, default=1.5e-3)
    p.add_argument("--seed", type=int, default=1234)
    # One thread: on 2 cores shared with other work, two threads wait on each other (4 times slower here).
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--minutes", type=float, default=0, help="stop after this many minutes, checkpointed; 0: run to the end")
    p.add_argument("--resume", action="store_true", help="go on from --out's checkpoint.pt (a finished run too, with a larger --steps)")
    p.add_argument("--export-only", action="store_true", help="export --out's checkpoint as it is (a run half way, to look at)")
    p.add_argument("--captions", type=int, default=0, help="only print this many sample captions (the tokenizer's corpus)")
    return p.parse_args()


class Tokenizer:
    """Every caption word is one token of the vocabulary trained on the captions: a word lookup
    gives what the server's CLIP tokenizer gives (scripts/train/image/check-parity.ts checks it)."""

    def __init__(self, folder):
        self.vocab = json.load(open(os.path.join(folder, "vocab.json")))
        self.start, self.end = self.vocab["<|startoftext|>"], self.vocab["<|endoftext|>"]

    def encode(self, text):
        words = re.findall(r"[a-z]+|[0-9]|[^\sa-z0-9]+", text.lower())
        ids = [self.start] + [self.vocab[w + "</w>"] for w in words][: CONTEXT - 2] + [self.end]
        return ids + [self.end] * (CONTEXT - len(ids))


class Run:
    def __init__(self, args):
        self.args = args
        self.tokenizer = Tokenizer(args.tokenizer)
        torch.manual_seed(args.seed)
        self.decoder = VaeDecoder()
        self.text = TextEncoder(len(self.tokenizer.vocab))
        self.unet = Unet()
        self.ema = {"text": TextEncoder(len(self.tokenizer.vocab)), "unet": Unet()}
        self.ema["text"].load_state_dict(self.text.state_dict())
        self.ema["unet"].load_state_dict(self.unet.state_dict())
        self.decoder_opt = torch.optim.AdamW(self.decoder.parameters(), lr=args.lr, weight_decay=0.0)
        self.opt = torch.optim.AdamW([*self.text.parameters(), *self.unet.parameters()], lr=args.lr, weight_decay=0.01)
        self.phase, self.step, self.seconds = "decoder", 0, 0.0
        self.log = []

    def state(self):
        return {k: getattr(self, k).state_dict() for k in ["decoder", "text", "unet", "decoder_opt", "opt"]} | {
            "ema_text": self.ema["text"].state_dict(), "ema_unet": self.ema["unet"].state_dict(),
            "phase": self.phase, "step": self.step, "seconds": self.seconds, "log": self.log, "unet_steps": self.args.steps}

    def load(self, state):
        for k in ["decoder", "text", "unet", "decoder_opt", "opt"]:
            getattr(self, k).load_state_dict(state[k])
        self.ema["text"].load_state_dict(state["ema_text"])
        self.ema["unet"].load_state_dict(state["ema_unet"])
        self.phase, self.step, self.seconds, self.log = state["phase"], state["step"], state["seconds"], state["log"]
        if self.phase == "done" and self.args.steps > state.get("unet_steps", self.args.steps):
            # A finished run taken further (a larger --steps): on from its last step.
            self.phase, self.step = "unet", state["unet_steps"]

    def save(self):
        path = os.path.join(self.args.out, "checkpoint.pt")
        torch.save(self.state(), path + ".partial")
        os.replace(path + ".partial", path)

    def decoder_step(self):
        rng = np.random.default_rng([self.args.seed, 0, self.step])
        torch.manual_seed(self.args.seed * 7919 + self.step)
        pictures, _ = shapes.batch(rng, 16)
        y, x = rng.integers(0, 25, 2) * 8  # a 64 x 64 crop on the latent's grid
        target = torch.from_numpy(pictures[:, :, y:y + 64, x:x + 64])
        latent = downsample(target)
        # Diffusion leaves latents a little off: the decoder learns to sharpen those too.
        latent = latent + torch.randn_like(latent) * 0.03
        out = self.decoder(latent)
        loss = F.l1_loss(out, target) + F.mse_loss(out, target)
        set_lr(self.decoder_opt, self.args.lr * cosine(self.step, self.args.decoder_steps))
        self.decoder_opt.zero_grad()
        loss.backward()
        self.decoder_opt.step()
        return loss.item()

    def unet_step(self, schedule):
        rng = np.random.default_rng([self.args.seed, 1, self.step])
        torch.manual_seed(self.args.seed * 7919 + 1_000_000 + self.step)
        # Drawn at 64 x 64 and halved: the latent (the 256 x 256 picture's 8x8 means) but for the
        # edges' antialiasing, at a sixteenth of the drawing.
        pictures, captions = shapes.batch(rng, self.args.batch, size=64, drop_caption=0.1)
        x0 = F.avg_pool2d(torch.from_numpy(pictures), 2)
        ids = torch.tensor([self.tokenizer.encode(c) for c in captions])
        t = torch.randint(0, 1000, (len(captions),))
        a = schedule[t].sqrt()[:, None, None, None]
        s = (1 - schedule[t]).sqrt()[:, None, None, None]
        noise = torch.randn_like(x0)
        # The UNet sees a * x0 + s * noise: the scheduler's sample times 1/sqrt(sigma^2 + 1). Its
        # clean-latent prediction is trained; the exported graph turns it into v.
        predicted = self.unet.clean(a * x0 + s * noise, t.float(), self.text(ids)[0])
        loss = F.mse_loss(predicted, x0)
        set_lr(self.opt, self.args.lr * min(1.0, (self.step + 1) / 100) * cosine(self.step, self.args.steps))
        self.opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_([*self.text.parameters(), *self.unet.parameters()], 1.0)
        self.opt.step()
        with torch.no_grad():
            decay = min(0.995, (1 + self.step) / (10 + self.step))
            for name, model in [("text", self.text), ("unet", self.unet)]:
                for e, p in zip(self.ema[name].parameters(), model.parameters()):
                    e.mul_(decay).add_(p, alpha=1 - decay)
        return loss.item()

    def train(self):
        args, schedule = self.args, alphas_cumprod()
        started, budget = time.time(), args.minutes * 60
        total = {"decoder": args.decoder_steps, "unet": args.steps}
        losses = []
        while self.phase != "done":
            if budget and time.time() - started > budget:
                self.save()
                print(f"stopped after {args.minutes} minutes at {self.phase} step {self.step}: --resume goes on", flush=True)
                return False
            t0 = time.time()
            losses.append(self.decoder_step() if self.phase == "decoder" else self.unet_step(schedule))
            self.seconds += time.time() - t0
            self.step += 1
            if self.step % 25 == 0 or self.step == total[self.phase]:
                rate = self.seconds / max(1, self.step + (args.decoder_steps if self.phase == "unet" else 0))
                line = f"{self.phase} step {self.step}/{total[self.phase]} loss {np.mean(losses):.4f} ({self.seconds / 60:.1f} min trained)"
                print(line, flush=True)
                self.log.append(line)
                losses = []
            if self.step == total[self.phase]:
                self.phase, self.step = ("unet", 0) if self.phase == "decoder" else ("done", 0)
                self.save()
            elif self.step % 200 == 0:
                self.save()
        return True


def set_lr(opt, lr):
    for group in opt.param_groups:
        group["lr"] = lr


def cosine(step, total):
    return 0.05 + 0.95 * 0.5 * (1 + np.cos(np.pi * min(step, total) / total))


class AsFloat(torch.nn.Module):
    def forward(self, weight):
        return weight.float()


def half_weights(model):
    """A copy whose weight matrices and kernels are stored as float16 and cast to float32 where
    used: the ONNX file holds them at half the size (the packages have a size budget), computes in
    float32 as before, and PyTorch's parity outputs use the same rounded weights."""
    model = copy.deepcopy(model)
    for module in list(model.modules()):
        for name, weight in list(module.named_parameters(recurse=False)):
            if weight.dim() >= 2:
                parametrize.register_parametrization(module, name, AsFloat(), unsafe=True)
                getattr(module.parametrizations, name).original = torch.nn.Parameter(weight.detach().half(), requires_grad=False)
    return model


def export(run, out):
    """The three ONNX files, with the inputs and outputs of a diffusers export, and parity.json:
    PyTorch's outputs for fixed inputs, which check-parity.ts compares with onnxruntime's."""
    text, unet, decoder = run.ema["text"].eval(), half_weights(run.ema["unet"]).eval(), run.decoder.eval()
    prompt = "a yellow star on a dark blue background"
    ids = torch.tensor([run.tokenizer.encode(prompt)])
    generator = torch.Generator().manual_seed(7)
    latent = torch.randn(1, 3, 32, 34, generator=generator)  # not square, and padded to the patch
    small = torch.randn(1, 3, 4, 4, generator=generator) * 0.5
    timestep = torch.tensor([500.0])
    with torch.no_grad():
        hidden, pooled = text(ids)
        predicted = unet(latent, timestep, hidden)
        picture = decoder(small)
    exports = [
        ("text_encoder", text, (ids,), ["input_ids"], ["last_hidden_state", "pooler_output"], {"input_ids": {0: "batch"}, "last_hidden_state": {0: "batch"}, "pooler_output": {0: "batch"}}),
        ("unet", unet, (latent, timestep, hidden), ["sample", "timestep", "encoder_hidden_states"], ["out_sample"],
         {"sample": {0: "batch", 2: "height", 3: "width"}, "timestep": {0: "batch"}, "encoder_hidden_states": {0: "batch"}, "out_sample": {0: "batch", 2: "height", 3: "width"}}),
        ("vae_decoder", decoder, (small,), ["latent_sample"], ["sample"],
         {"latent_sample": {0: "batch", 2: "latent_height", 3: "latent_width"}, "sample": {0: "batch", 2: "height", 3: "width"}}),
    ]
    for folder, model, inputs, names, outputs, axes in exports:
        os.makedirs(os.path.join(out, folder), exist_ok=True)
        # Folding constants would fold the float16 weights' casts back into float32 weights.
        torch.onnx.export(model, inputs, os.path.join(out, folder, "model.onnx"), input_names=names, output_names=outputs,
                          dynamic_axes=axes, opset_version=17, do_constant_folding=model is not unet)
    flat = lambda t: [round(float(v), 6) for v in t.flatten()]
    parity = {
        "prompt": prompt, "input_ids": ids[0].tolist(), "last_hidden_state": flat(hidden),
        "latent": flat(latent), "latent_dims": list(latent.shape), "timestep": 500.0, "out_sample": flat(predicted),
        "latent_sample": flat(small), "latent_sample_dims": list(small.shape), "sample": flat(picture),
    }
    json.dump(parity, open(os.path.join(out, "parity.json"), "w"))
    json.dump({"log": run.log, "seconds": run.seconds, "args": vars(run.args)}, open(os.path.join(out, "training.json"), "w"), indent=1)


def main():
    args = parse_args()
    if args.captions:
        rng = np.random.default_rng(args.seed)
        for _ in range(args.captions):
            print(shapes.caption(shapes.sample_spec(rng), rng))
        return
    torch.set_num_threads(args.threads)
    os.makedirs(args.out, exist_ok=True)
    run = Run(args)
    checkpoint = os.path.join(args.out, "checkpoint.pt")
    if (args.resume or args.export_only) and os.path.exists(checkpoint):
        run.load(torch.load(checkpoint))
        print(f"resumed at {run.phase} step {run.step}", flush=True)
    params = sum(p.numel() for m in [run.decoder, run.text, run.unet] for p in m.parameters())
    print(f"{params / 1e6:.2f}M parameters; {args.decoder_steps} decoder steps, {args.steps} UNet steps of {args.batch}", flush=True)
    if (args.export_only and os.path.exists(checkpoint)) or run.train():
        export(run, args.out)
        print(f"exported to {args.out} ({run.seconds / 60:.1f} min of training)", flush=True)


if __name__ == "__main__":
    main()

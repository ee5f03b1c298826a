"""Trains wisp-tiny-diffusion on procedural pictures (shapes.py) on the CPU or a GPU (--device
cuda), and exports it to ONNX.

Two phases: the decoder (latent -> sharp picture, on 64 x 64 crops), then the text encoder and
the UNet together (the clean latent from the noised one, at the noise levels of the scaled-linear
schedule the scheduler config names; the export answers in v prediction; with
one caption in ten dropped so that classifier-free guidance has an unconditional model). Seeded:
each step draws its pictures and noise from (seed, phase, step), so a run stopped (--minutes) and
resumed (--resume) trains on exactly what an uninterrupted one does. Progress goes to stdout.
The data workers (--workers) only draw captions and each picture's numbers; the pictures are
drawn where the model trains. On a GPU the texture noise and the kernels' sums differ from the
CPU's, so a GPU run repeats itself there, not bit for bit here.
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
from onnx_weights import folder_weights
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
    p.add_argument("--patch", type=int, default=4, help="the denoiser's patch side, in latent pixels (4: an 8 x 8 grid at 256 x 256)")
    p.add_argument("--width", type=int, default=128, help="the denoiser's width")
    p.add_argument("--layers", type=int, default=4, help="the denoiser's blocks")
    p.add_argument("--heads", type=int, default=4, help="the denoiser's attention heads")
    p.add_argument("--causal-text", action="store_true", help="each caption word sees only the words before it (as CLIP's)")
    p.add_argument("--ema", type=float, default=0.995, help="the averaged weights' decay (the exported ones)")
    # One thread: on 2 cores shared with other work, two threads wait on each other (4 times slower here).
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--device", default="cpu", help="cpu, or cuda on a GPU machine (the pictures are drawn there too)")
    p.add_argument("--workers", type=int, default=0, help="processes drawing each step's captions and pictures' numbers (0: the training process)")
    p.add_argument("--keep", type=int, default=0, help="also write this many evenly spaced weights-STEP.pt files of the averaged weights, to choose the step count on the dev prompts")
    p.add_argument("--no-export", action="store_true", help="train only: --export-only exports later (on a machine whose PyTorch exports as this one's)")
    p.add_argument("--weights", help="with --export-only: export this weights-STEP.pt file (or model folder) instead of the checkpoint")
    p.add_argument("--init", help="start from this weights-STEP.pt file (its averaged weights and decoder), or from an exported model folder "
                   "(models/wisp-tiny-diffusion): the text encoder and UNet train on, the decoder is kept")
    p.add_argument("--more", default="", help="shapes drawn twice as often as the others, comma-separated (e.g. star,ring: the ones it draws worst)")
    p.add_argument("--minutes", type=float, default=0, help="stop after this many minutes, checkpointed; 0: run to the end")
    p.add_argument("--fit-minutes", type=float, default=0,
                   help="lower --steps, once the speed is known (UNet steps 100 to 200), so that training ends within this many minutes; the log gives the --steps that repeats the run")
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


class Batches(torch.utils.data.Dataset):
    """Step -> that step's pictures (as shapes.render's params) and captions, drawn from (seed,
    phase, step) alone: the same in any process."""

    def __init__(self, args, tokenizer, unet):
        self.args, self.tokenizer, self.unet = args, tokenizer, unet
        self.shape_weights = shape_weights(args.more)

    def __getitem__(self, step):
        rng = np.random.default_rng([self.args.seed, int(self.unet), step])
        if not self.unet:
            params, _ = shapes.batch(rng, 16)
            return params, torch.from_numpy(rng.integers(0, 25, 2) * 8)  # a 64 x 64 crop on the latent's grid
        params, captions = shapes.batch(rng, self.args.batch, drop_caption=0.1, shape_weights=self.shape_weights)
        return params, torch.tensor([self.tokenizer.encode(c) for c in captions])


class Run:
    def __init__(self, args):
        self.args = args
        self.tokenizer = Tokenizer(args.tokenizer)
        torch.manual_seed(args.seed)
        self.shape = {k: getattr(args, k) for k in ["patch", "width", "layers", "heads", "causal_text"]}
        self.decoder = VaeDecoder()
        self.text, self.unet = self.networks()
        self.ema = dict(zip(["text", "unet"], self.networks()))
        self.ema["text"].load_state_dict(self.text.state_dict())
        self.ema["unet"].load_state_dict(self.unet.state_dict())
        for model in [self.decoder, self.text, self.unet, *self.ema.values()]:
            model.to(args.device)
        self.decoder_opt = torch.optim.AdamW(self.decoder.parameters(), lr=args.lr, weight_decay=0.0)
        self.opt = torch.optim.AdamW([*self.text.parameters(), *self.unet.parameters()], lr=args.lr, weight_decay=0.01)
        self.phase, self.step, self.seconds = "decoder", 0, 0.0
        self.log = []

    def networks(self):
        shape = self.shape
        return (TextEncoder(len(self.tokenizer.vocab), causal=shape["causal_text"]),
                Unet(width=shape["width"], layers=shape["layers"], heads=shape["heads"], patch=shape["patch"]))

    def state(self):
        return {k: getattr(self, k).state_dict() for k in ["decoder", "text", "unet", "decoder_opt", "opt"]} | {
            "ema_text": self.ema["text"].state_dict(), "ema_unet": self.ema["unet"].state_dict(), "shape": self.shape,
            "phase": self.phase, "step": self.step, "seconds": self.seconds, "log": self.log, "unet_steps": self.args.steps}

    def check_shape(self, state):
        # Checkpoints from before the shape was recorded are of the defaults.
        saved = state.get("shape", {"patch": 4, "width": 128, "layers": 4, "heads": 4, "causal_text": False})
        if saved != self.shape:
            raise SystemExit(f"the checkpoint is of another model ({saved}); give the same --patch, --width, --layers, --heads, --causal-text")

    def load(self, state):
        self.check_shape(state)
        for k in ["decoder", "text", "unet", "decoder_opt", "opt"]:
            getattr(self, k).load_state_dict(state[k])
        self.ema["text"].load_state_dict(state["ema_text"])
        self.ema["unet"].load_state_dict(state["ema_unet"])
        self.phase, self.step, self.seconds, self.log = state["phase"], state["step"], state["seconds"], state["log"]
        if self.phase == "done" and self.args.steps > state.get("unet_steps", self.args.steps):
            # A finished run taken further (a larger --steps): on from its last step.
            self.phase, self.step = "unet", state["unet_steps"]

    def load_weights(self, path, why="exported"):
        """A weights-STEP.pt file (--keep), or an exported model folder, as the averaged weights and the decoder; the log says why."""
        folder = os.path.isdir(path)
        weights = folder_weights(path, self.args.heads, self.args.causal_text) if folder else torch.load(path, map_location="cpu")
        self.check_shape(weights)
        float32 = lambda state: {k: v.float() for k, v in state.items()}
        self.ema["text"].load_state_dict(float32(weights["ema_text"]))
        self.ema["unet"].load_state_dict(float32(weights["ema_unet"]))
        self.decoder.load_state_dict(float32(weights["decoder"]))
        what = "the weights of its ONNX files" if folder else f"the averaged weights at UNet step {weights['step']} of {weights['unet_steps']}"
        self.seconds, self.log = weights["seconds"], weights["log"] + [f"{why}: {what}"]

    def save(self):
        path = os.path.join(self.args.out, "checkpoint.pt")
        torch.save(self.state(), path + ".partial")
        os.replace(path + ".partial", path)

    def keep(self):
        """The averaged weights at this step, for --export-only --weights: a few MB, since the
        denoiser's matrices are kept as the float16 the export stores them in."""
        cpu = lambda model, half=False: {k: (v.half() if half and v.dim() >= 2 else v).detach().cpu() for k, v in model.state_dict().items()}
        torch.save({"ema_text": cpu(self.ema["text"]), "ema_unet": cpu(self.ema["unet"], half=True), "decoder": cpu(self.decoder),
                    "shape": self.shape, "step": self.step, "unet_steps": self.args.steps, "seconds": self.seconds, "log": self.log},
                   os.path.join(self.args.out, f"weights-{self.step}.pt"))

    def batches(self):
        """This phase's batches from the current step on, drawn (in --workers processes) from (seed, phase, step)."""
        total = self.args.decoder_steps if self.phase == "decoder" else self.args.steps
        source = Batches(self.args, self.tokenizer, self.phase == "unet")
        ahead = {"num_workers": self.args.workers, "prefetch_factor": 8} if self.args.workers else {}
        return iter(torch.utils.data.DataLoader(source, batch_size=None, sampler=range(self.step, total), **ahead))

    def texture(self):
        """The pictures' texture noise: seeded by the step, drawn where they are drawn."""
        return torch.Generator(self.args.device).manual_seed(self.args.seed * 7919 + 2_000_000 + self.step * 2 + (self.phase == "unet"))

    def decoder_step(self, params, corner):
        torch.manual_seed(self.args.seed * 7919 + self.step)
        y, x = corner.tolist()
        target = shapes.render(params.to(self.args.device), 256, self.texture())[:, :, y:y + 64, x:x + 64]
        latent = downsample(target)
        # Diffusion leaves latents a little off: the decoder learns to sharpen those too.
        latent = latent + torch.randn(latent.shape).to(self.args.device) * 0.03
        out = self.decoder(latent)
        loss = F.l1_loss(out, target) + F.mse_loss(out, target)
        set_lr(self.decoder_opt, self.args.lr * cosine(self.step, self.args.decoder_steps))
        self.decoder_opt.zero_grad()
        loss.backward()
        self.decoder_opt.step()
        return loss.detach()

    def unet_step(self, schedule, params, ids):
        torch.manual_seed(self.args.seed * 7919 + 1_000_000 + self.step)
        # Drawn at 64 x 64 and halved: the latent (the 256 x 256 picture's 8x8 means) but for the
        # edges' antialiasing, at a sixteenth of the drawing.
        x0 = F.avg_pool2d(shapes.render(params.to(self.args.device), 64, self.texture()), 2)
        # Drawn on the CPU whatever the device, so that a run on a GPU trains on the same noise.
        t = torch.randint(0, 1000, (len(ids),))
        a = schedule[t].sqrt()[:, None, None, None]
        s = (1 - schedule[t]).sqrt()[:, None, None, None]
        noise = torch.randn(x0.shape)
        ids, t, a, s, noise = (v.to(self.args.device) for v in (ids, t, a, s, noise))
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
            decay = min(self.args.ema, (1 + self.step) / (10 + self.step))
            for name, model in [("text", self.text), ("unet", self.unet)]:
                averaged = list(self.ema[name].parameters())
                torch._foreach_mul_(averaged, decay)
                torch._foreach_add_(averaged, list(model.parameters()), alpha=1 - decay)
        return loss.detach()

    def train(self):
        args, schedule = self.args, alphas_cumprod()
        started, budget = time.time(), args.minutes * 60
        losses, batches = [], self.batches()
        # --fit-minutes: the (time, step) its speed is measured from, until the steps are fitted.
        timing, fitted = None, not args.fit_minutes
        while self.phase != "done":
            total = args.decoder_steps if self.phase == "decoder" else args.steps
            if budget and time.time() - started > budget:
                self.save()
                if args.keep and self.phase == "unet":
                    self.keep()
                print(f"stopped after {args.minutes} minutes at {self.phase} step {self.step}: --resume goes on", flush=True)
                return False
            t0 = time.time()
            if self.phase == "decoder":
                losses.append(self.decoder_step(*next(batches)))
            else:
                losses.append(self.unet_step(schedule, *next(batches)))
            self.seconds += time.time() - t0
            self.step += 1
            if self.phase == "unet" and not fitted and self.step >= 100:
                if timing is None:
                    timing = (time.time(), self.step)
                elif self.step - timing[1] >= 100:
                    total, fitted = self.fit(started, timing), True
            if self.step % 25 == 0 or self.step >= total:
                line = f"{self.phase} step {self.step}/{total} loss {torch.stack(losses).mean().item():.4f} ({self.seconds / 60:.1f} min trained)"
                print(line, flush=True)
                self.log.append(line)
                losses = []
            if self.phase == "unet" and args.keep and (self.step % max(1, args.steps // args.keep) == 0 or self.step >= total):
                self.keep()
            if self.step >= total:
                self.phase, self.step = ("unet", 0) if self.phase == "decoder" else ("done", 0)
                self.save()
                batches = self.batches()
            elif self.step % 200 == 0:
                self.save()
        return True

    def fit(self, started, timing):
        """--fit-minutes: the UNet steps that end the run in time, at the speed since timing's step."""
        step = self.step
        seconds, steps = time.time() - timing[0], step - timing[1]
        left = self.args.fit_minutes * 60 - (time.time() - started)
        fitted = max(step, min(self.args.steps, (step + int(left * steps / seconds)) // 100 * 100))
        line = f"fitted to {fitted} UNet steps ({steps / seconds:.1f} steps/s): --steps {fitted} repeats this run but for its first {step} steps' learning rate"
        print(line, flush=True)
        self.log.append(line)
        self.args.steps = fitted
        return fitted


def shape_weights(more):
    """Each shape's share of the pictures: twice as large for the --more ones; None for equal shares."""
    names = [m for m in more.split(",") if m]
    unknown = [m for m in names if m not in shapes.SHAPES]
    if unknown:
        raise SystemExit(f"--more: {', '.join(unknown)} is not one of {', '.join(shapes.SHAPES)}")
    if not names:
        return None
    weights = np.array([2.0 if s in names else 1.0 for s in shapes.SHAPES])
    return weights / weights.sum()


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
    text, unet, decoder = run.ema["text"].cpu().eval(), half_weights(run.ema["unet"].cpu()).eval(), run.decoder.cpu().eval()
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
    if args.device.startswith("cuda"):
        # TF32 matrix products: float32's last bits change nothing a picture shows, and cost 3-4x.
        torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = True
    os.makedirs(args.out, exist_ok=True)
    run = Run(args)
    checkpoint = os.path.join(args.out, "checkpoint.pt")
    if args.weights:
        run.load_weights(args.weights)
    elif args.init and not os.path.exists(checkpoint):
        run.load_weights(args.init, f"started from {args.init}")
        run.text.load_state_dict(run.ema["text"].state_dict())
        run.unet.load_state_dict(run.ema["unet"].state_dict())
        run.phase = "unet"
        print(run.log[-1], flush=True)
    elif (args.resume or args.export_only) and os.path.exists(checkpoint):
        run.load(torch.load(checkpoint, map_location="cpu"))
        print(f"resumed at {run.phase} step {run.step}", flush=True)
    params = sum(p.numel() for m in [run.decoder, run.text, run.unet] for p in m.parameters())
    print(f"{params / 1e6:.2f}M parameters; {args.decoder_steps} decoder steps, {args.steps} UNet steps of {args.batch}", flush=True)
    if (args.export_only and (args.weights or os.path.exists(checkpoint))) or (run.train() and not args.no_export):
        export(run, args.out)
        print(f"exported to {args.out} ({run.seconds / 60:.1f} min of training)", flush=True)


if __name__ == "__main__":
    main()

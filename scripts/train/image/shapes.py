"""The procedural pictures and captions wisp-tiny-diffusion learns from (shapes.json names them).

One picture: a shape (circle, square, triangle, star, stripes, ring) in a named colour, with a
size and a position, on a plain or gradient background of another colour. Each caption says the
colours and the shape, and sometimes the size, the position or the gradient, in varied wording.
The held-out combinations of shapes.json are never drawn: the bench asks for them.
"""
import json
import math
import os

import numpy as np
import torch

SPEC = json.load(open(os.path.join(os.path.dirname(__file__), "shapes.json")))
COLOURS = list(SPEC["colours"])
SHAPES = SPEC["shapes"]
SIZES = SPEC["sizes"]
POSITIONS = SPEC["positions"]
HELD_OUT = {tuple(t) for t in SPEC["held_out"]}

POSITION_WORDS = {
    "center": ["in the center", "in the middle"],
    "left": ["on the left"],
    "right": ["on the right"],
    "top": ["at the top"],
    "bottom": ["at the bottom"],
    "top left": ["in the top left corner", "at the top left"],
    "top right": ["in the top right corner", "at the top right"],
    "bottom left": ["in the bottom left corner", "at the bottom left"],
    "bottom right": ["in the bottom right corner", "at the bottom right"],
}


def sample_spec(rng, shape_weights=None):
    """A random picture description whose colour/shape/background triple is not held out; the
    shapes equally likely, or in proportion to shape_weights (one weight per SHAPES entry)."""
    while True:
        colour, background = rng.choice(len(COLOURS), 2, replace=False)
        shape = SHAPES[rng.integers(len(SHAPES))] if shape_weights is None else SHAPES[rng.choice(len(SHAPES), p=shape_weights)]
        triple = (COLOURS[colour], shape, COLOURS[background])
        if triple not in HELD_OUT:
            break
    say_size = rng.random() < 0.5
    say_position = rng.random() < 0.4
    return {
        "colour": triple[0],
        "shape": shape,
        "background": triple[2],
        "size": list(SIZES)[rng.integers(len(SIZES))] if say_size else None,
        "position": list(POSITIONS)[rng.integers(len(POSITIONS))] if say_position else None,
        "gradient": bool(rng.random() < 0.3),
    }


def caption(spec, rng):
    size = f"{spec['size']} " if spec["size"] else ""
    noun = f"{size}{spec['colour']} {spec['shape']}"
    # "stripes" is plural; the others take an article.
    thing = noun if spec["shape"] == "stripes" else ("an " if noun[0] in "aeiou" else "a ") + noun
    where = f" {rng.choice(POSITION_WORDS[spec['position']])}" if spec["position"] else ""
    background = spec["background"] + (" gradient" if spec["gradient"] else "")
    templates = [
        f"{thing}{where} on a {background} background",
        f"{thing}{where} on {background}",
        f"{noun}{where}, {background} background",
        f"a picture of {thing}{where} on a {background} background",
        f"{background} background with {thing}{where}",
        f"an image of {thing}{where} on a {background} background",
        f"{thing}{where} against a {background} background",
    ]
    return templates[rng.integers(len(templates))]


# A picture's numbers, drawn on the CPU with the caption; render() draws a batch of them at once
# (on the GPU when training there: the pictures themselves never cross from the data workers).
PARAMS = ["cx", "cy", "half", "shape", "r", "g", "b", "bg_r", "bg_g", "bg_b", "gradient", "across", "flip"]


def params(spec, rng):
    """The numbers render() draws spec's picture from, with its jitter (position, size, colour)."""
    half = (SIZES[spec["size"]] if spec["size"] else 0.2) * rng.uniform(0.9, 1.1)
    if spec["position"]:
        cx, cy = POSITIONS[spec["position"]]
        cx, cy = cx + rng.uniform(-0.04, 0.04), cy + rng.uniform(-0.04, 0.04)
    else:
        cx, cy = 0.5 + rng.uniform(-0.08, 0.08), 0.5 + rng.uniform(-0.08, 0.08)
    # Keep the whole shape in the picture, with a margin.
    margin = half + 0.03
    cx, cy = min(max(cx, margin), 1 - margin), min(max(cy, margin), 1 - margin)
    colour = np.clip(np.array(SPEC["colours"][spec["colour"]], np.float32) + rng.uniform(-12, 12, 3), 0, 255)
    # A gradient runs down or across, light to dark or the other way.
    across, flip = (rng.random() < 0.5, rng.random() < 0.5) if spec["gradient"] else (False, False)
    return [cx, cy, half, SHAPES.index(spec["shape"]), *colour, *SPEC["colours"][spec["background"]], spec["gradient"], across, flip]


def render(params, size, generator=None):
    """params [B, len(PARAMS)] (a tensor on the device to draw on) -> pictures [B, 3, size, size] in [-1, 1]."""
    p = params.float()
    coords = (torch.arange(size, dtype=torch.float32, device=p.device) + 0.5) / size
    y, x = torch.meshgrid(coords, coords, indexing="ij")
    column = lambda name: p[:, PARAMS.index(name), None, None]
    dx, dy, half = x - column("cx"), y - column("cy"), column("half")
    masks = torch.stack([shape_mask(shape, dx, dy, half) for shape in SHAPES], 1)
    index = column("shape").long()[:, None].expand(-1, 1, size, size)
    mask = masks.gather(1, index)  # [B, 1, size, size]

    background = p[:, PARAMS.index("bg_r"):PARAMS.index("bg_b") + 1, None, None]
    light, dark = background + (255 - background) * 0.3, background * 0.7
    ramp = torch.where(column("across") > 0.5, x, y)
    ramp = torch.where(column("flip") > 0.5, 1 - ramp, ramp)[:, None]
    backdrop = torch.where(column("gradient")[:, None] > 0.5, light + (dark - light) * ramp, background.expand(-1, 3, size, size))
    picture = torch.where(mask, p[:, PARAMS.index("r"):PARAMS.index("b") + 1, None, None], backdrop)
    # A little texture, as photos have.
    picture = picture + torch.randn(picture.shape, generator=generator, device=p.device) * 2
    return picture.clamp(0, 255) / 127.5 - 1


def shape_mask(shape, dx, dy, half):
    distance = torch.sqrt(dx * dx + dy * dy)
    if shape == "circle":
        return distance <= half
    if shape == "square":
        return (dx.abs() <= half * 0.85) & (dy.abs() <= half * 0.85)
    if shape == "triangle":  # pointing up
        return (dy <= half * 0.8) & (dx.abs() <= (dy + half) * 0.58)
    if shape == "ring":
        return (distance <= half) & (distance >= half * 0.6)
    if shape == "stripes":  # three horizontal bars in a square
        band = torch.floor((dy + half) / (2 * half) * 5)
        return (dx.abs() <= half) & (dy.abs() < half) & (band % 2 == 0)
    if shape == "star":  # five points, one up
        angle = torch.atan2(dx, -dy) % (2 * math.pi / 5) / (2 * math.pi / 5)
        radius = half * (0.42 + 0.58 * (1 - 2 * angle).abs())
        return distance <= radius
    raise ValueError(shape)


def batch(rng, count, drop_caption=0.0, shape_weights=None):
    """count pictures' params [count, len(PARAMS)] (for render()) and captions ("" for a dropped one)."""
    rows, captions = [], []
    for _ in range(count):
        spec = sample_spec(rng, shape_weights)
        rows.append(params(spec, rng))
        captions.append("" if rng.random() < drop_caption else caption(spec, rng))
    return torch.tensor(rows, dtype=torch.float32), captions

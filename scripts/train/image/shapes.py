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


def sample_spec(rng):
    """A random picture description whose colour/shape/background triple is not held out."""
    while True:
        colour, background = rng.choice(len(COLOURS), 2, replace=False)
        shape = SHAPES[rng.integers(len(SHAPES))]
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


def render(spec, rng, size=256):
    """The picture as float32 [3, size, size] in [-1, 1]."""
    half = SIZES[spec["size"]] if spec["size"] else 0.2
    half *= rng.uniform(0.9, 1.1)
    if spec["position"]:
        cx, cy = POSITIONS[spec["position"]]
        cx, cy = cx + rng.uniform(-0.04, 0.04), cy + rng.uniform(-0.04, 0.04)
    else:
        cx, cy = 0.5 + rng.uniform(-0.08, 0.08), 0.5 + rng.uniform(-0.08, 0.08)
    # Keep the whole shape in the picture, with a margin.
    margin = half + 0.03
    cx, cy = min(max(cx, margin), 1 - margin), min(max(cy, margin), 1 - margin)

    coords = (np.arange(size, dtype=np.float32) + 0.5) / size
    x, y = np.meshgrid(coords, coords)
    mask = shape_mask(spec["shape"], x - cx, y - cy, half)

    background = np.array(SPEC["colours"][spec["background"]], np.float32)
    if spec["gradient"]:
        light, dark = background + (255 - background) * 0.3, background * 0.7
        ramp = (y if rng.random() < 0.5 else x)[..., None]
        if rng.random() < 0.5:
            ramp = 1 - ramp
        picture = light + (dark - light) * ramp
    else:
        picture = np.broadcast_to(background, (size, size, 3)).copy()
    colour = np.clip(np.array(SPEC["colours"][spec["colour"]], np.float32) + rng.uniform(-12, 12, 3), 0, 255)
    picture[mask] = colour
    picture += rng.normal(0, 2, picture.shape).astype(np.float32)  # a little texture, as photos have
    return (np.clip(picture, 0, 255).transpose(2, 0, 1) / 127.5 - 1).astype(np.float32)


def shape_mask(shape, dx, dy, half):
    distance = np.sqrt(dx * dx + dy * dy)
    if shape == "circle":
        return distance <= half
    if shape == "square":
        return (np.abs(dx) <= half * 0.85) & (np.abs(dy) <= half * 0.85)
    if shape == "triangle":  # pointing up
        return (dy <= half * 0.8) & (np.abs(dx) <= (dy + half) * 0.58)
    if shape == "ring":
        return (distance <= half) & (distance >= half * 0.6)
    if shape == "stripes":  # three horizontal bars in a square
        band = np.floor((dy + half) / (2 * half) * 5)
        return (np.abs(dx) <= half) & (np.abs(dy) < half) & (band % 2 == 0)
    if shape == "star":  # five points, one up
        angle = np.arctan2(dx, -dy) % (2 * math.pi / 5) / (2 * math.pi / 5)
        radius = half * (0.42 + 0.58 * np.abs(1 - 2 * angle))
        return distance <= radius
    raise ValueError(shape)


def batch(rng, count, size=256, drop_caption=0.0):
    """count pictures [count, 3, size, size] and their captions ("" for a dropped one)."""
    pictures, captions = [], []
    for _ in range(count):
        spec = sample_spec(rng)
        pictures.append(render(spec, rng, size))
        captions.append("" if rng.random() < drop_caption else caption(spec, rng))
    return np.stack(pictures), captions

"""wisp-tiny-diffusion's three networks, with the inputs and outputs of a diffusers ONNX export.

The latent is the picture itself, averaged over 8x8 blocks (3 x 32 x 32 for 256 x 256): the
"VAE decoder" only has to sharpen it back to full size, and the denoiser works on what it sees.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

CONTEXT = 77
TEXT_WIDTH = 64
LATENT_CHANNELS = 3


def alphas_cumprod():
    """diffusers' scaled_linear betas (0.00085 to 0.012 over 1000 steps), as the scheduler config says."""
    betas = torch.linspace(0.00085 ** 0.5, 0.012 ** 0.5, 1000, dtype=torch.float64) ** 2
    return torch.cumprod(1 - betas, 0).float()


def downsample(pictures):
    """Pictures [B,3,H,W] in [-1,1] -> their latents [B,3,H/8,W/8]."""
    return F.avg_pool2d(pictures, 8)


def attention(q, k, v, heads, mask=None):
    """Multi-head attention of q [B,n,C] over k, v [B,m,C] (written out: it exports as plain ops);
    mask [n,m] is added to the scores."""
    b, n, c = q.shape
    split = lambda x: x.reshape(b, -1, heads, c // heads).transpose(1, 2)
    scores = split(q) @ split(k).transpose(-1, -2) / math.sqrt(c // heads)
    weights = torch.softmax(scores if mask is None else scores + mask, dim=-1)
    return (weights @ split(v)).transpose(1, 2).reshape(b, n, c)


class SelfAttention(nn.Module):
    """The pre-norm self-attention both kinds of block open with (their norm1, qkv and proj)."""

    def __init__(self, width, heads):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)

    def attend(self, x, mask=None):
        q, k, v = self.qkv(self.norm1(x)).chunk(3, dim=-1)
        return x + self.proj(attention(q, k, v, self.heads, mask))


class TextBlock(SelfAttention):
    def __init__(self, width, heads):
        super().__init__(width, heads)
        self.norm2 = nn.LayerNorm(width)
        self.mlp = nn.Sequential(nn.Linear(width, width * 2), nn.GELU(), nn.Linear(width * 2, width))

    def forward(self, x, mask=None):
        x = self.attend(x, mask)
        return x + self.mlp(self.norm2(x))


class TextEncoder(nn.Module):
    """input_ids [B,77] -> last_hidden_state [B,77,64], pooler_output [B,64].

    causal: each word sees only the words before it, as in CLIP's text encoder, so a word's state
    does not depend on what the caption says after it."""

    def __init__(self, vocab_size, layers=2, heads=4, causal=False):
        super().__init__()
        self.tokens = nn.Embedding(vocab_size, TEXT_WIDTH)
        self.positions = nn.Parameter(torch.randn(CONTEXT, TEXT_WIDTH) * 0.02)
        self.blocks = nn.ModuleList(TextBlock(TEXT_WIDTH, heads) for _ in range(layers))
        self.norm = nn.LayerNorm(TEXT_WIDTH)
        mask = torch.full((CONTEXT, CONTEXT), -1e4).triu(1) if causal else None
        self.register_buffer("mask", mask, persistent=False)

    def forward(self, input_ids):
        x = self.tokens(input_ids) + self.positions
        for block in self.blocks:
            x = block(x, self.mask)
        x = self.norm(x)
        return x, x.mean(dim=1)


def timestep_embedding(t, width):
    half = width // 2
    frequencies = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32, device=t.device) / half)
    angles = t.float()[:, None] * frequencies[None]
    return torch.cat([torch.sin(angles), torch.cos(angles)], dim=1)


class Block(SelfAttention):
    """Self-attention over the picture's patches, cross-attention to the prompt, an MLP."""

    def __init__(self, width, heads):
        super().__init__(width, heads)
        self.norm2 = nn.LayerNorm(width)
        self.q = nn.Linear(width, width)
        self.kv = nn.Linear(TEXT_WIDTH, 2 * width)
        self.cross_proj = nn.Linear(width, width)
        self.norm3 = nn.LayerNorm(width)
        self.mlp = nn.Sequential(nn.Linear(width, width * 4), nn.GELU(), nn.Linear(width * 4, width))

    def forward(self, x, context):
        x = self.attend(x)
        k, v = self.kv(context).chunk(2, dim=-1)
        x = x + self.cross_proj(attention(self.q(self.norm2(x)), k, v, self.heads))
        return x + self.mlp(self.norm3(x))


class Unet(nn.Module):
    """sample [B,3,h,w], timestep [B], encoder_hidden_states [B,77,64] -> out_sample (v prediction).

    Named for its place in the pipeline; inside it is a small transformer over patches of the
    latent (4x4 ones make an 8 x 8 grid at 256 x 256): cheaper to train than convolutions, and each
    patch sees the whole picture and the prompt at every layer. It predicts the clean latent, which
    it turns into the v the scheduler config names: flat colours are easy to draw, while the noise
    v asks for at low noise levels is hard to learn in a short training.
    """

    def __init__(self, width=128, layers=4, heads=4, patch=4):
        super().__init__()
        self.patch, grid = patch, 32 // patch  # the grid of a 256 x 256 picture's latent
        patch = LATENT_CHANNELS * patch * patch
        self.width = width
        self.time = nn.Sequential(nn.Linear(width, width), nn.SiLU(), nn.Linear(width, width))
        self.patch_in = nn.Linear(patch, width)
        self.position = nn.Parameter(torch.randn(1, width, grid, grid) * 0.02)
        self.blocks = nn.ModuleList(Block(width, heads) for _ in range(layers))
        self.norm_out = nn.LayerNorm(width)
        self.patch_out = nn.Linear(width, patch)
        self.register_buffer("sigmas", ((1 - alphas_cumprod()) / alphas_cumprod()).sqrt(), persistent=False)

    def forward(self, sample, timestep, encoder_hidden_states):
        return self.v_from_clean(sample, self.clean(sample, timestep, encoder_hidden_states), timestep)

    def v_from_clean(self, sample, clean, timestep):
        """v = (a * sample - clean) / s, where sample = a * clean + s * noise at this timestep."""
        # The sigma of a fractional timestep, interpolated as the scheduler does.
        low = timestep.float().floor().clamp(0, 999)
        high = (low + 1).clamp(max=999)
        fraction = (timestep.float() - low)[:, None, None, None]
        sigma = self.sigmas[low.long()][:, None, None, None] * (1 - fraction) + self.sigmas[high.long()][:, None, None, None] * fraction
        a = 1 / (sigma * sigma + 1).sqrt()
        return (a * sample - clean) / (sigma * a)

    def clean(self, sample, timestep, encoder_hidden_states):
        """The clean latent, as predicted from the noised one."""
        height, width = sample.shape[2], sample.shape[3]
        # A side that is not a multiple of the patch (a 72-pixel picture's 9) is padded, then cut.
        sample = F.pad(sample, (0, (-width) % self.patch, 0, (-height) % self.patch), mode="replicate")
        patches = F.pixel_unshuffle(sample, self.patch)  # [B, 3 * patch^2, h/patch, w/patch]
        b, c, h, w = patches.shape
        # Other picture sizes stretch the position grid over their patches.
        position = F.interpolate(self.position, size=(h, w), mode="bilinear", align_corners=False)
        x = (self.patch_in(patches.flatten(2).transpose(1, 2)) + position.flatten(2).transpose(1, 2)
             + self.time(timestep_embedding(timestep, self.width))[:, None, :])
        for block in self.blocks:
            x = block(x, encoder_hidden_states)
        out = self.patch_out(self.norm_out(x)).transpose(1, 2).reshape(b, c, h, w)
        return F.pixel_shuffle(out, self.patch)[:, :, :height, :width]


class VaeDecoder(nn.Module):
    """latent_sample [B,3,h,w] -> sample [B,3,8h,8w] in [-1,1]: three 2x upsamplings."""

    def __init__(self, channels=(48, 32, 16, 12)):
        super().__init__()
        self.conv_in = nn.Conv2d(LATENT_CHANNELS, channels[0], 3, padding=1)
        self.mid = nn.Conv2d(channels[0], channels[0], 3, padding=1)
        self.ups = nn.ModuleList(nn.Conv2d(a, b, 3, padding=1) for a, b in zip(channels, channels[1:]))
        self.conv_out = nn.Conv2d(channels[-1], 3, 3, padding=1)

    def forward(self, latent_sample):
        h = F.silu(self.conv_in(latent_sample))
        h = h + F.silu(self.mid(h))
        for up in self.ups:
            h = F.silu(up(F.interpolate(h, scale_factor=2.0, mode="nearest")))
        # The residual from the latent, upsampled: the network only learns the sharp edges.
        base = F.interpolate(latent_sample, scale_factor=8.0, mode="nearest")
        return torch.clamp(self.conv_out(h) + base, -1.0, 1.0)

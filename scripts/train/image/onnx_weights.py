"""The weights of an exported model folder (train_image.py's ONNX files, as shipped in
models/wisp-tiny-diffusion), as the state dicts a weights-STEP.pt file holds: so that --init can
go on from the shipped model on any clone, with no file kept from the run that trained it.

ONNX is protobuf; this reads the few fields an export's initializers need, without the onnx
package (Debian's python3-torch does not bring it).
"""
import os
import re

import numpy as np
import torch

# ONNX TensorProto data types an export stores weights in.
DTYPES = {1: np.float32, 10: np.float16}


def _varint(data, i):
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def _fields(data):
    """(field number, value) of a protobuf message: ints for varints, bytes for the rest."""
    i = 0
    while i < len(data):
        key, i = _varint(data, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = _varint(data, i)
        elif wire == 1 or wire == 5:
            size = 8 if wire == 1 else 4
            value, i = data[i:i + size], i + size
        elif wire == 2:
            size, i = _varint(data, i)
            value, i = data[i:i + size], i + size
        else:
            raise ValueError(f"protobuf wire type {wire} is not read here")
        yield number, value


def _packed(values):
    out = []
    for v in values:
        if isinstance(v, int):
            out.append(v)
        else:
            i = 0
            while i < len(v):
                d, i = _varint(v, i)
                out.append(d)
    return out


def _tensor(message, path):
    fields = list(_fields(message))
    name = next(v for n, v in fields if n == 8).decode()
    dims = _packed([v for n, v in fields if n == 1])
    dtype = next((v for n, v in fields if n == 2), 0)
    raw = next((v for n, v in fields if n == 9), None)
    if dtype not in DTYPES or raw is None:
        raise SystemExit(f"{path}: initializer {name} is not float32 or float16 raw data (external data is not read here)")
    return name, torch.from_numpy(np.frombuffer(raw, DTYPES[dtype]).reshape(dims).astype(np.float32))


def _module(node_name):
    """The module a node belongs to, from the scope torch's exporter names it by:
    "/blocks.0/mlp/mlp.0/MatMul" -> "blocks.0.mlp.0" (a child's scope repeats its parent's name)."""
    path = ""
    for part in node_name.strip("/").split("/")[:-1]:
        parent = path.rsplit(".", 1)[0] if path else ""
        if path and part.startswith(path.rsplit(".", 1)[-1] + "."):
            path = (parent + "." if parent else "") + part
        else:
            path = (path + "." if path else "") + part
    return path


def read_onnx(path):
    """{state dict name: float32 tensor} of one ONNX file. Parametrized weights (the float16
    matrices the export casts) get their module's name back; a Linear weight that constant
    folding turned into an anonymous MatMul operand gets its module's name from the node, transposed."""
    with open(path, "rb") as file:
        graph = next(v for n, v in _fields(file.read()) if n == 7)
    weights, anonymous, matmuls = {}, {}, []
    for number, value in _fields(graph):
        if number == 5:
            name, tensor = _tensor(value, path)
            if name.startswith("onnx::"):
                anonymous[name] = tensor
            else:
                weights[re.sub(r"(^|\.)parametrizations\.(\w+)\.original$", r"\1\2", name)] = tensor
        elif number == 1:
            node = list(_fields(value))
            inputs = [v.decode() for n, v in node if n == 1]
            if next(v for n, v in node if n == 4) == b"MatMul" and len(inputs) == 2:
                matmuls.append((next((v for n, v in node if n == 3), b"").decode(), inputs[1]))
    for name, operand in matmuls:
        if operand in anonymous:
            weights[f"{_module(name)}.weight"] = anonymous.pop(operand).t().contiguous()
    if anonymous:
        raise SystemExit(f"{path}: initializers {sorted(anonymous)} have no module to go to")
    return weights


def folder_weights(folder, heads, causal_text):
    """A model folder's weights in the layout of a weights-STEP.pt file (no step: the folder does not
    record one). The denoiser's shape comes from its weights; its heads and the text encoder's mask
    are not in them, so they are the ones given (train_image.py's --heads and --causal-text)."""
    text, unet, decoder = (read_onnx(os.path.join(folder, part, "model.onnx")) for part in ["text_encoder", "unet", "vae_decoder"])
    width, patch_values = unet["patch_in.weight"].shape
    layers = 1 + max(int(m.group(1)) for m in (re.match(r"blocks\.(\d+)\.", k) for k in unet) if m)
    shape = {"patch": int(round((patch_values / 3) ** 0.5)), "width": width, "layers": layers, "heads": heads, "causal_text": causal_text}
    return {"ema_text": text, "ema_unet": unet, "decoder": decoder, "shape": shape, "seconds": 0.0, "log": []}

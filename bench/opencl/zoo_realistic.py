#!/usr/bin/env python3
"""Issue 23 item 5: the zoo's architectures at sizes people run, compiled by Inductor on the GPU
machine, laid out so that e2e_gpu.py times them beside fxkit.

For each model (Hugging Face transformers and torchvision, random weights, no downloads; fewer
layers than the published models so that a capture takes seconds, every layer the same size as
the published one): torch.compile (default mode) with a post-grad custom pass that saves the
graph Inductor compiles as FX text (aten_post_0.graph.txt, as ../shared/zoo/capture/gen_zoo.py
does) and Inductor's generated module (output_code_0.py, whose get_args() makes the inputs);
with --max-autotune also the module of mode="max-autotune" (output_code_max_autotune_0.py).
Inference (torch.no_grad), float32, TF32 off (fxkit's GEMMs are float32).

Usage: zoo_realistic.py OUTDIR [--max-autotune] [MODEL...]
Then: e2e_gpu.py FXKIT OUTDIR WORKDIR
"""
import json
import os
import sys
import time

import torch
import torch._inductor.config as icfg
from torch._inductor.custom_graph_pass import CustomGraphPass
from torch._inductor.utils import run_and_get_code

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
icfg.fx_graph_cache = False


def hf(cfg_cls, model_cls, cfg, batch, seq, vocab, **call):
    import transformers
    m = getattr(transformers, model_cls)(getattr(transformers, cfg_cls)(**cfg)).eval()
    ids = torch.randint(0, vocab, (batch, seq))
    return (lambda ids: m(input_ids=ids, **call).last_hidden_state), [ids]


def bert():  # BERT-large layers: hidden 1024, 16 heads, FFN 4096; batch 8, sequence 512
    return hf("BertConfig", "BertModel", dict(hidden_size=1024, num_hidden_layers=4,
              num_attention_heads=16, intermediate_size=4096, vocab_size=30522,
              max_position_embeddings=512), 8, 512, 30522)


def llama():  # TinyLlama-1.1B layers: hidden 2048, 32 heads, 4 KV heads, FFN 5632; batch 4, 512
    return hf("LlamaConfig", "LlamaModel", dict(hidden_size=2048, num_hidden_layers=4,
              num_attention_heads=32, num_key_value_heads=4, intermediate_size=5632,
              vocab_size=32000, max_position_embeddings=2048), 4, 512, 32000, use_cache=False)


def gpt_neox():  # Pythia-410m layers: hidden 1024, 16 heads; batch 4, sequence 1024
    return hf("GPTNeoXConfig", "GPTNeoXModel", dict(hidden_size=1024, num_hidden_layers=4,
              num_attention_heads=16, intermediate_size=4096, vocab_size=50304,
              max_position_embeddings=2048), 4, 1024, 50304, use_cache=False)


def t5_encoder():  # T5-large encoder layers: d_model 1024, 16 heads, FFN 4096; batch 4, 512
    return hf("T5Config", "T5EncoderModel", dict(d_model=1024, d_kv=64, d_ff=4096, num_layers=4,
              num_heads=16, vocab_size=32128), 4, 512, 32128)


def vit():  # ViT-Base layers at 224 x 224, patch 16 (197 tokens); batch 16
    import transformers
    cfg = transformers.ViTConfig(hidden_size=768, num_hidden_layers=4, num_attention_heads=12,
                                 intermediate_size=3072, image_size=224, patch_size=16)
    m = transformers.ViTModel(cfg).eval()
    return (lambda x: m(pixel_values=x).last_hidden_state), [torch.randn(16, 3, 224, 224)]


def resnet18():  # the whole network at 224 x 224; batch 16
    import torchvision
    return torchvision.models.resnet18().eval(), [torch.randn(16, 3, 224, 224)]


def mobilenet_v2():  # the whole network at 224 x 224; batch 16
    import torchvision
    return torchvision.models.mobilenet_v2().eval(), [torch.randn(16, 3, 224, 224)]


MODELS = {f.__name__: f for f in [bert, llama, gpt_neox, t5_encoder, vit, resnet18, mobilenet_v2]}


class Record(CustomGraphPass):
    """Saves each post-grad graph Inductor compiles, as gen_zoo.py's Record does."""

    def __init__(self, out):
        self.out, self.n = out, 0

    def __call__(self, graph):
        with open(os.path.join(self.out, f"aten_post_{self.n}.graph.txt"), "w") as f:
            f.write(str(graph))
        self.n += 1

    def uuid(self):
        return None


def capture(name, out, max_autotune):
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    torch.set_default_device("cuda")
    fn, args = MODELS[name]()
    meta = {"model": name, "torch": torch.__version__, "gpu": torch.cuda.get_device_name(),
            "inputs": [list(a.shape) for a in args]}
    for mode in ([None, "max-autotune"] if max_autotune else [None]):
        torch._dynamo.reset()
        icfg.post_grad_custom_post_pass = Record(out) if mode is None else None
        opt = torch.compile(fn, mode=mode)
        t0 = time.time()
        with torch.no_grad():
            _, codes = run_and_get_code(opt, *args)
        suffix = "" if mode is None else "_max_autotune"
        meta[f"compile{suffix}_s"] = round(time.time() - t0, 1)
        meta[f"graphs{suffix}"] = len(codes)
        for i, code in enumerate(codes):
            with open(os.path.join(out, f"output_code{suffix}_{i}.py"), "w") as f:
                f.write(code)
    icfg.post_grad_custom_post_pass = None
    with open(os.path.join(out, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    print(json.dumps(meta), flush=True)


if __name__ == "__main__":
    out = sys.argv[1]
    rest = [a for a in sys.argv[2:] if a != "--max-autotune"]
    for name in rest or MODELS:
        try:
            capture(name, os.path.join(out, name), "--max-autotune" in sys.argv)
        except Exception as e:  # one model that fails is reported; the others still run
            print(json.dumps({"model": name, "error": repr(e)[:400]}), flush=True)

"""torch.export's default IR of real models, for fxkit's composite ops (tests/CompositeOpsTest.cpp).

python capture.py OUT_DIR

Builds real architectures nobody on this project wrote (torchvision, timm and Hugging Face
transformers model classes, small random-initialised configurations; no downloads), exports each
with torch.export.export as users do (eval mode, no decompositions) and writes:
  OUT_DIR/ops.json                {"torch": version, "models": {name: {"ops": [targets],
                                   "params": n}}, "failed": {name: error}}
  OUT_DIR/<name>.graph.txt        str(ep.graph)
  OUT_DIR/<name>.pt2              torch.export.save(ep), for models under SMALL parameters
  OUT_DIR/<name>.inputs.safetensors / .outputs.safetensors   eager inputs (arg_<i>) and
                                   flattened outputs (out_<i>), for the same models
"""
import json
import os
import sys
import traceback

import torch
import torch.nn as nn
import torch.utils._pytree as pytree
from safetensors.torch import save_file

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
SMALL = 400_000


class Wrap(nn.Module):
    """A model called with keyword inputs, returning one tensor."""

    def __init__(self, m, key, out_name=None, out_index=None):
        super().__init__()
        self.m, self.key, self.out_name, self.out_index = m, key, out_name, out_index

    def forward(self, x):
        r = self.m(**{self.key: x})
        if self.out_name:
            return getattr(r, self.out_name)
        return r[self.out_index or 0] if isinstance(r, (tuple, list)) else r


def hf(cfg_cls, model_cls, kw, key="input_ids", shape=(2, 16), vocab=100, out_name="last_hidden_state",
       dtype=None, **extra):
    def make():
        import transformers
        cfg = getattr(transformers, cfg_cls)(**kw)
        m = getattr(transformers, model_cls)(cfg, **extra).eval()
        if dtype == "float":
            x = torch.randn(*shape)
        else:
            x = torch.randint(0, vocab, shape)
        return Wrap(m, key, out_name), (x,)
    return make


def tv(name, shape=(2, 3, 32, 32), **kw):
    def make():
        import torchvision
        m = getattr(torchvision.models, name)(**kw).eval()
        return m, (torch.randn(*shape),)
    return make


def timm_model(name, shape=(2, 3, 32, 32), **kw):
    def make():
        import timm
        m = timm.create_model(name, pretrained=False, **kw).eval()
        return m, (torch.randn(*shape),)
    return make


def tiny(**kw):
    base = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
                vocab_size=100, max_position_embeddings=64)
    base.update(kw)
    return base


MODELS = {
    # torchvision
    "tv_resnet50": tv("resnet50", num_classes=10),
    "tv_mobilenet_v3_small": tv("mobilenet_v3_small", num_classes=10),
    "tv_efficientnet_b0": tv("efficientnet_b0", num_classes=10),
    "tv_convnext_tiny": tv("convnext_tiny", num_classes=10),
    "tv_regnet_y_400mf": tv("regnet_y_400mf", num_classes=10),
    "tv_densenet121": tv("densenet121", num_classes=10),
    "tv_shufflenet_v2_x0_5": tv("shufflenet_v2_x0_5", num_classes=10),
    "tv_squeezenet1_1": tv("squeezenet1_1", num_classes=10),
    "tv_swin_t": tv("swin_t", num_classes=10, shape=(1, 3, 64, 64)),
    "tv_vit_b_16": tv("vit_b_16", num_classes=10, image_size=32, shape=(1, 3, 32, 32)),
    "tv_mnasnet0_5": tv("mnasnet0_5", num_classes=10),
    "tv_googlenet": tv("googlenet", num_classes=10, aux_logits=False, init_weights=True, shape=(2, 3, 64, 64)),
    # timm
    "timm_vit_tiny": timm_model("vit_tiny_patch16_224", img_size=32, patch_size=8, num_classes=10),
    "timm_convnext_atto": timm_model("convnext_atto", num_classes=10),
    "timm_efficientnet_lite0": timm_model("efficientnet_lite0", num_classes=10),
    "timm_mobilevitv2_050": timm_model("mobilevitv2_050", num_classes=10, shape=(1, 3, 64, 64)),
    "timm_levit_128s": timm_model("levit_128s", num_classes=10, img_size=64, shape=(1, 3, 64, 64)),
    "timm_deit_tiny": timm_model("deit_tiny_patch16_224", img_size=32, patch_size=8, num_classes=10),
    "timm_resnest14d": timm_model("resnest14d", num_classes=10),
    # Hugging Face transformers
    "hf_gpt2": hf("GPT2Config", "GPT2Model", dict(n_embd=32, n_layer=2, n_head=4, vocab_size=100,
                                                  n_positions=64, use_cache=False)),
    "hf_distilbert": hf("DistilBertConfig", "DistilBertModel",
                        dict(dim=32, n_layers=2, n_heads=4, hidden_dim=64, vocab_size=100,
                             max_position_embeddings=64)),
    "hf_roberta": hf("RobertaConfig", "RobertaModel", tiny(max_position_embeddings=80)),
    "hf_albert": hf("AlbertConfig", "AlbertModel", tiny(embedding_size=16)),
    "hf_deberta_v2": hf("DebertaV2Config", "DebertaV2Model", tiny()),
    "hf_bart_encoder": hf("BartConfig", "BartModel", dict(d_model=32, encoder_layers=2, decoder_layers=2,
                                                          encoder_attention_heads=4, decoder_attention_heads=4,
                                                          encoder_ffn_dim=64, decoder_ffn_dim=64,
                                                          vocab_size=100, max_position_embeddings=64,
                                                          use_cache=False)),
    "hf_wav2vec2": hf("Wav2Vec2Config", "Wav2Vec2Model",
                      dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
                           conv_dim=(16, 16), conv_stride=(5, 2), conv_kernel=(10, 3),
                           num_conv_pos_embeddings=16, num_conv_pos_embedding_groups=4),
                      key="input_values", shape=(2, 400), dtype="float"),
    "hf_clip_text": hf("CLIPTextConfig", "CLIPTextModel", tiny()),
    "hf_clip_vision": hf("CLIPVisionConfig", "CLIPVisionModel",
                         dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
                              image_size=32, patch_size=8), key="pixel_values", shape=(2, 3, 32, 32),
                         dtype="float"),
    "hf_mistral": hf("MistralConfig", "MistralModel", tiny(num_key_value_heads=2, sliding_window=8, use_cache=False)),
    "hf_qwen2": hf("Qwen2Config", "Qwen2Model", tiny(num_key_value_heads=2, use_cache=False)),
    "hf_phi": hf("PhiConfig", "PhiModel", tiny(use_cache=False)),
    "hf_gemma": hf("GemmaConfig", "GemmaModel", tiny(num_key_value_heads=1, head_dim=8, use_cache=False)),
    "hf_opt": hf("OPTConfig", "OPTModel", dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                                               ffn_dim=64, vocab_size=100, max_position_embeddings=64,
                                               word_embed_proj_dim=32, use_cache=False)),
    "hf_falcon": hf("FalconConfig", "FalconModel", dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                                                        vocab_size=100, use_cache=False)),
    "hf_mobilebert": hf("MobileBertConfig", "MobileBertModel",
                        tiny(embedding_size=16, intra_bottleneck_size=16, true_hidden_size=16,
                             num_feedforward_networks=2)),
    "hf_convnext": hf("ConvNextConfig", "ConvNextModel", dict(hidden_sizes=[8, 16, 32, 64], depths=[1, 1, 1, 1]),
                      key="pixel_values", shape=(2, 3, 32, 32), dtype="float"),
    "hf_swin": hf("SwinConfig", "SwinModel", dict(image_size=32, patch_size=4, embed_dim=16, depths=[1, 1],
                                                  num_heads=[2, 4], window_size=4),
                  key="pixel_values", shape=(1, 3, 32, 32), dtype="float"),
    "hf_segformer": hf("SegformerConfig", "SegformerModel",
                       dict(hidden_sizes=[8, 16, 32, 64], num_attention_heads=[1, 1, 2, 2], depths=[1, 1, 1, 1],
                            decoder_hidden_size=32),
                       key="pixel_values", shape=(1, 3, 64, 64), dtype="float"),
    "hf_xlnet": hf("XLNetConfig", "XLNetModel", dict(d_model=32, n_layer=2, n_head=4, d_inner=64, vocab_size=100,
                                                    use_mems_eval=False)),
}

facts = {"torch": torch.__version__, "models": {}, "failed": {}}


def save(path, values, prefix):
    t, md = {}, {}
    for i, v in enumerate(values):
        if isinstance(v, torch.Tensor):
            t[f"{prefix}_{i}"] = v.detach().contiguous().clone().cpu()
        else:
            md[f"{prefix}_{i}"] = json.dumps(v if isinstance(v, (int, float, bool)) or v is None else str(v))
    save_file(t, path, metadata=md)


for name, make in MODELS.items():
    try:
        torch.manual_seed(0)
        m, args = make()
        ep = torch.export.export(m, args)
        ops = sorted({str(n.target) for n in ep.graph.nodes if n.op == "call_function"})
        for sub in ep.graph_module.modules():
            if sub is not ep.graph_module and hasattr(sub, "graph"):
                ops = sorted(set(ops) | {str(n.target) for n in sub.graph.nodes if n.op == "call_function"})
        params = sum(p.numel() for p in m.parameters()) + sum(b.numel() for b in m.buffers())
        facts["models"][name] = {"ops": ops, "params": params}
        with open(f"{out}/{name}.graph.txt", "w") as f:
            f.write(str(ep.graph))
        if params <= SMALL:
            torch.export.save(ep, f"{out}/{name}.pt2")
            with torch.no_grad():
                y = m(*args)
            save(f"{out}/{name}.inputs.safetensors", list(args), "arg")
            save(f"{out}/{name}.outputs.safetensors", pytree.tree_leaves(y), "out")
        print("ok", name, params, flush=True)
    except Exception as e:  # noqa: BLE001
        facts["failed"][name] = f"{type(e).__name__}: {str(e)[:300]}"
        print("FAIL", name, flush=True)
        traceback.print_exc(limit=3)

with open(f"{out}/ops.json", "w") as f:
    json.dump(facts, f, indent=1)

#!/usr/bin/env bash
# `fxkit info` reports counts, inputs/outputs with types (from nodes.json) and symbols.
. "$(dirname "$0")/lib.bash"
g="$DATA/corpus/inductor/dynamic_broadcast/aten_post_0.graph.txt"
expect_exit 0 "$FXKIT" info "$g"
expect_out "nodes: 11"
expect_out "arg2_1: f32[s77, s27][s27, 1]cuda:0"
expect_out "mul_11: f32[s77, s17][s17, 1]cuda:0"
expect_out "symbols: s17 s27 s77"
expect_out "1  torch.ops.aten.sum.dim_IntList"
expect_exit 0 "$FXKIT" info "$g" --json
expect_out '"nodes": 11'
expect_out '"symbols": ['
finish

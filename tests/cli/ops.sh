#!/usr/bin/env bash
# fxkit ops: the registry as data; docs/ops.md is its --markdown output.
. "$(dirname "$0")/lib.bash"
DOCS="$(dirname "$0")/../../docs/ops.md"
expect_exit 0 "$FXKIT" ops
expect_out "aten.add.Tensor"
expect_out "Core ATen: "
expect_exit 0 "$FXKIT" ops --core
grep -q "aten.acos.default" "$WORK/out" || fail "--core lacks aten.acos.default"
grep -q "operator.getitem" "$WORK/out" && fail "--core lists operator.getitem"
expect_exit 0 "$FXKIT" ops --json
expect_out '"total": 193'
expect_out '"target": "torch.ops.aten.acos.default"'
expect_exit 0 "$FXKIT" ops --markdown
cmp -s "$WORK/out" "$DOCS" ||
  fail "docs/ops.md differs from 'fxkit ops --markdown' (regenerate it: fxkit ops --markdown > docs/ops.md)"
expect_exit 2 "$FXKIT" ops --json --markdown
finish

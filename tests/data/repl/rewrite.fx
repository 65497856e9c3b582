# Rewrites, inspections and edits of small.graph.txt; every line must succeed.
replace-pattern square_add.pattern.graph.txt square_add.replacement.graph.txt
diff
insert after convert: %neg = call_function[target=torch.ops.aten.neg.default](args = (%convert,), kwargs = {})
insert before add_1: r = aten.relu.default(neg)
set-meta r python_type torch.Tensor
diff small@-3
find kernel=fused_*
why add_1
undo; undo; undo; undo

ancestors add_1; descendants x --depth 2
path x add_1 --all --limit 5
path add_1 x
slice --backward add; slice --forward mul --depth 1
let a = ancestors add_1
let b = find op=aten.add.* users>1
set; set a; show $a; users $b; print_tabular $a
extract $a as part
use part; verify; info; export fx
use g
match 'm = aten.mul.Tensor(a, a); aten.add.Tensor(m, b)'
match '%m : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%a, %a), kwargs = {})'
find op=mul; find name=ad; show ad; users nosuch
show output --full; print_tabular --full
extract add mul
pass dce; undo

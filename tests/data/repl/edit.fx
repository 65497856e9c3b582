# Inspect and edit the graph loaded from the command line; every line must succeed.
find users>1
show add
erase relu
rename add_1 result
pass dce
verify
undo
undo; redo
export fx

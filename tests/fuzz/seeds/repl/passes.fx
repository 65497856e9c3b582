pass infer-shapes lower fuse plan wrapper
show
run
undo
pass substitute-size-args
help; help pass; help find
quit

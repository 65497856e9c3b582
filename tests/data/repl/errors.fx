# Line 3 and line 5 fail; with --keep-going the lines after them still run.
list
erase add
users add
rename nope other
info

#!/usr/bin/env bash
# Outputs that are not plain files: a device or named pipe is written in place, never replaced
# by a renamed temporary (as root, `-o /dev/null` once turned /dev/null into a plain file that
# every later program wrote to and readline read back as its inputrc, dropping typed keys in
# the pseudo-terminal tests); a symbolic link stays a link and the file it names gets the
# output, atomically; a dangling link creates the file it names.
. "$(dirname "$0")/lib.bash"
g="$DATA/repl/small.graph.txt"
"$FXKIT" convert "$g" --to fx -o "$WORK/want.fx" || fail "convert to a plain file failed"

# /dev/null stays the character device it is (checked as whoever runs the tests; as root the
# rename would have succeeded).
expect_exit 0 "$FXKIT" convert "$g" --to fx -o /dev/null
[ -c /dev/null ] || fail "writing to /dev/null replaced it: $(ls -l /dev/null)"
expect_exit 0 "$FXKIT" -c "export fx /dev/null" "$g"
[ -c /dev/null ] || fail "export to /dev/null replaced it: $(ls -l /dev/null)"

# A named pipe: the reader gets the whole output, and the pipe is still a pipe.
mkfifo "$WORK/pipe"
cat "$WORK/pipe" >"$WORK/from_pipe" &
reader=$!
expect_exit 0 timeout 30 "$FXKIT" convert "$g" --to fx -o "$WORK/pipe"
wait "$reader"
[ -p "$WORK/pipe" ] || fail "writing to a named pipe replaced it"
cmp -s "$WORK/want.fx" "$WORK/from_pipe" || fail "the pipe's reader got other bytes than a file"

# A symbolic link: the link stays, the file it names holds the output.
echo old >"$WORK/real.fx"
ln -s real.fx "$WORK/link.fx"
expect_exit 0 "$FXKIT" convert "$g" --to fx -o "$WORK/link.fx"
[ -L "$WORK/link.fx" ] || fail "writing through a symbolic link replaced the link"
cmp -s "$WORK/want.fx" "$WORK/real.fx" || fail "the linked file does not hold the output"
# A dangling link: the file it names is created.
ln -s made.fx "$WORK/dangling.fx"
expect_exit 0 "$FXKIT" convert "$g" --to fx -o "$WORK/dangling.fx"
[ -L "$WORK/dangling.fx" ] && cmp -s "$WORK/want.fx" "$WORK/made.fx" ||
  fail "a dangling link did not lead to a new file"

# A folder is an error, and stays a folder.
mkdir "$WORK/folder"
expect_exit 2 "$FXKIT" convert "$g" --to fx -o "$WORK/folder"
expect_err "is a folder"
[ -d "$WORK/folder" ] || fail "the folder was replaced"
finish

#!/usr/bin/env bash
# Issue 21: a batch `fxkit convert IN... -o DIR --to FMT` keeps the input tree under DIR when two
# inputs share a name (with a note) or with --keep-tree, refuses a collision under --flat, finds
# a graph's nodes.json sidecar through a symlink and says which sidecar it used (load, info, the
# batch's summary), and repeats the failed inputs after the summary's counts. Inputs are small
# copies of tests/data/corpus graphs (PyTorch captures, see that folder's README) in a temp folder.
. "$(dirname "$0")/lib.bash"
R="$DATA/corpus/reference"
S="$WORK/src"
mkdir -p "$S/a" "$S/b/deep" "$S/c" "$WORK/links"
cp "$R/softmax/fw_0.graph.txt" "$R/softmax/fw_0.nodes.json" "$S/a/"
cp "$R/mlp/fw_0.graph.txt" "$R/mlp/fw_0.nodes.json" "$S/b/"
cp "$R/layernorm/fw_0.graph.txt" "$S/b/deep/" # no sidecar
cp "$R/pointwise/fw_0.graph.txt" "$S/c/other.graph.txt"
vals() { grep -o '"val"' "$1" | wc -l; }

# Three inputs named fw_0.graph.txt: the tree below their common folder ($S) is kept, and said.
expect_exit 0 "$FXKIT" convert "$S/a/fw_0.graph.txt" "$S/b/fw_0.graph.txt" \
  "$S/b/deep/fw_0.graph.txt" -o "$WORK/o1" --to json --jobs 2
expect_err "fxkit: note: inputs share names; keeping their folders under $WORK/o1 (--keep-tree)"
expect_err "converted 3 (2 with types from a sidecar), failed 0"
[ "$(grep -c 'note:' "$WORK/err")" -eq 1 ] || fail "the note is not said exactly once"
[ "$(cd "$WORK/o1" && find . -type f | sort | tr '\n' ' ')" = \
  "./a/fw_0.json ./b/deep/fw_0.json ./b/fw_0.json " ] || fail "o1 does not hold the kept tree"
# Each output is what converting its input alone writes (types from its own sidecar).
for f in a/fw_0 b/fw_0 b/deep/fw_0; do
  "$FXKIT" convert "$S/$f.graph.txt" --to json -o "$WORK/one.json" 2>/dev/null
  cmp -s "$WORK/one.json" "$WORK/o1/$f.json" || fail "$f.json differs from a single convert"
done
[ "$(vals "$WORK/o1/a/fw_0.json")" -eq 6 ] || fail "a/fw_0.json lost the sidecar's types"
[ "$(vals "$WORK/o1/b/deep/fw_0.json")" -eq 0 ] || fail "b/deep/fw_0.json has types from nowhere"

# --flat: the collision is refused before anything is written.
expect_exit 2 "$FXKIT" convert "$S/a/fw_0.graph.txt" "$S/b/fw_0.graph.txt" -o "$WORK/o2" \
  --to json --flat
expect_err "error: '$S/a/fw_0.graph.txt' and '$S/b/fw_0.graph.txt' would both be written to '$WORK/o2/fw_0.json'"
[ -e "$WORK/o2" ] && fail "a refused batch created its output folder"
expect_exit 2 "$FXKIT" convert "$S/a/fw_0.graph.txt" "$S/c/other.graph.txt" -o "$WORK/o2" \
  --to json --flat --keep-tree
expect_err "excludes"

# No collision: flat by default, without a note; --keep-tree keeps the folders anyway.
expect_exit 0 "$FXKIT" convert "$S/a/fw_0.graph.txt" "$S/c/other.graph.txt" -o "$WORK/o3" --to fx
grep -q 'note:' "$WORK/err" && fail "a note without a collision"
[ -s "$WORK/o3/fw_0.graph.txt" ] && [ -s "$WORK/o3/other.graph.txt" ] || fail "o3 is not flat"
expect_exit 0 "$FXKIT" convert "$S/a/fw_0.graph.txt" "$S/c/other.graph.txt" -o "$WORK/o4" \
  --to fx --keep-tree
grep -q 'note:' "$WORK/err" && fail "a note for an explicit --keep-tree"
[ "$(cd "$WORK/o4" && find . -type f | sort | tr '\n' ' ')" = \
  "./a/fw_0.graph.txt ./c/other.graph.txt " ] || fail "--keep-tree did not keep the tree"
cmp -s "$S/a/fw_0.graph.txt" "$WORK/o4/a/fw_0.graph.txt" || fail "a/fw_0 does not round-trip"

# A symlink with no sidecar beside it: the sidecar beside its target is used, and named.
ln -s "$S/a/fw_0.graph.txt" "$WORK/links/soft.graph.txt"
ln -s "$S/b/deep/fw_0.graph.txt" "$WORK/links/norm.graph.txt"
real="$(cd "$S/a" && pwd -P)/fw_0.nodes.json"
expect_exit 0 "$FXKIT" convert "$WORK/links/soft.graph.txt" --to json -o "$WORK/soft.json"
[ "$(vals "$WORK/soft.json")" -eq 6 ] || fail "the symlink's sidecar was not found"
expect_exit 0 "$FXKIT" -c "load '$WORK/links/soft.graph.txt' as s"
expect_err "loaded s: 7 nodes from $WORK/links/soft.graph.txt (types from $real)"
expect_exit 0 "$FXKIT" info "$WORK/links/soft.graph.txt"
expect_out "types from: $real"
expect_exit 0 "$FXKIT" info "$WORK/links/soft.graph.txt" --json
expect_out "\"types_from\": \"$real\""
expect_exit 0 "$FXKIT" info "$WORK/links/norm.graph.txt"
grep -q 'types from' "$WORK/out" && fail "info names a sidecar that does not exist"
expect_exit 0 "$FXKIT" -c "load '$WORK/links/norm.graph.txt' as n"
grep -q 'types from' "$WORK/err" && fail "load names a sidecar that does not exist"
# A symlinked folder: its sidecar is beside the graph through the link.
ln -s "$S/b" "$WORK/linked_b"
expect_exit 0 "$FXKIT" convert "$WORK"/links/*.graph.txt "$WORK/linked_b/fw_0.graph.txt" \
  -o "$WORK/o5" --to json
expect_err "converted 3 (2 with types from a sidecar), failed 0"
cmp -s "$WORK/o5/soft.json" "$WORK/o1/a/fw_0.json" || fail "soft.json differs from a/fw_0.json"
cmp -s "$WORK/o5/fw_0.json" "$WORK/o1/b/fw_0.json" || fail "linked_b's fw_0 lost its types"

# Failures are repeated after the counts, in input order, one line each.
printf 'graph():\n    %%x : [num_users=1] = placeholder[target=x]\n    %%y = bogus(\n' \
  >"$S/c/bad.graph.txt"
expect_exit 2 "$FXKIT" convert "$S/c/bad.graph.txt" "$S/a/fw_0.graph.txt" "$S/c/missing.graph.txt" \
  -o "$WORK/o6" --to json --jobs 2
sed -n '/^converted /,$p' "$WORK/err" >"$WORK/summary"
cat >"$WORK/want" <<EOF
converted 1 (1 with types from a sidecar), failed 2
  failed: $S/c/bad.graph.txt:3:7: error: expected ' : ' after the node name
  failed: $S/c/missing.graph.txt: error: cannot open '$S/c/missing.graph.txt': No such file or directory
EOF
diff "$WORK/want" "$WORK/summary" >&2 || fail "the summary does not list the failures"
[ -e "$WORK/o6/bad.json" ] && fail "a file was written for the bad input"
finish

#!/usr/bin/env bash
# Issue 21: the whole zoo (../shared/zoo: PyTorch 2.11 compiles of Hugging Face and torchvision
# models, not copied into tests/data) converts in one command. Every model folder has an
# aten_post_0.graph.txt, so the batch keeps the tree under -o (with its note), writes one file
# per input at the input's path, and keeps the types: for every input with a nodes.json sidecar
# the JSON holds the sidecar's `val` for every node that has one there. The same through a tree
# of symlinks to the graph files alone (no sidecar beside any link): the sidecars beside the
# targets are found and the outputs are the same bytes. Counts are asserted, so a graph that
# appears or stops working is noticed. Exits 77 (CTest: skipped) where the zoo is absent.
# Usage: batch_tree.sh FXKIT DATA
. "$(dirname "$0")/../cli/lib.bash"
ZOO="${ZOO_DIR:-$(cd "$(dirname "$0")/../../.." && pwd)/shared/zoo}"
[ -d "$ZOO/inductor" ] || { echo "zoo not found at $ZOO: skipped"; exit 77; }
inputs=88 sidecars=59

mapfile -t graphs < <(cd "$ZOO" && find . -name '*.graph.txt' | sed 's|^\./||' | sort)
[ "${#graphs[@]}" -eq "$inputs" ] || fail "found ${#graphs[@]} zoo graphs, expected $inputs"

expect_exit 0 "$FXKIT" convert "${graphs[@]/#/$ZOO/}" -o "$WORK/tree" --to json --jobs 2
expect_err "fxkit: note: inputs share names; keeping their folders under $WORK/tree (--keep-tree)"
expect_err "converted $inputs ($sidecars with types from a sidecar), failed 0"
[ "$(cd "$WORK/tree" && find . -type f | wc -l)" -eq "$inputs" ] ||
  fail "not one output per input under $WORK/tree"
for g in "${graphs[@]}"; do
  [ -s "$WORK/tree/${g%.graph.txt}.json" ] || fail "no output for $g at its place in the tree"
done

# The sidecars' types, node by node: the same `val` in the JSON.
python3 - "$ZOO" "$WORK/tree" "${graphs[@]}" >"$WORK/types" <<'EOF' || fail "types lost: $(head -c 600 "$WORK/types")"
import json, os, sys
zoo, out, graphs = sys.argv[1], sys.argv[2], sys.argv[3:]
files = values = bad = 0
for g in graphs:
    stem = g[: -len(".graph.txt")]
    sidecar = os.path.join(zoo, stem + ".nodes.json")
    if not os.path.exists(sidecar):
        continue
    files += 1
    with open(os.path.join(out, stem + ".json")) as f:
        nodes = {n["name"]: n for n in json.load(f)["nodes"]}
    with open(sidecar) as f:
        for entry in json.load(f):
            if entry.get("val") is None:
                continue
            values += 1
            got = nodes.get(entry["name"], {}).get("val")
            if got != entry["val"]:
                bad += 1
                if bad <= 5:
                    print(f"{g}: {entry['name']}: sidecar {entry['val']}, JSON {got}")
print(f"checked {files} files, {values} values, {bad} lost")
sys.exit(1 if bad else 0)
EOF
grep -q "^checked $sidecars files, " "$WORK/types" || fail "types: $(cat "$WORK/types")"

# Links to the graph files only, in a tree of real folders: the sidecars beside the targets.
for g in "${graphs[@]}"; do
  mkdir -p "$WORK/links/$(dirname "$g")"
  ln -s "$ZOO/$g" "$WORK/links/$g"
done
expect_exit 0 "$FXKIT" convert "${graphs[@]/#/$WORK/links/}" -o "$WORK/tree2" --to json --jobs 2
expect_err "converted $inputs ($sidecars with types from a sidecar), failed 0"
diff -r "$WORK/tree" "$WORK/tree2" >/dev/null || fail "converting through symlinks gives other files"
finish

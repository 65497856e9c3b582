#!/usr/bin/env python3
"""Every Inductor provenance mapping under a folder, read by fxkit on every stage it maps.

  provenance_check.py FXKIT ROOT EXPECTED

For each `inductor/<workload>/debug/<graph>/inductor_provenance_tracking_node_mappings.json`
under ROOT (a zoo or corpus folder), with the file also read here by Python's json module:

- `fxkit info output_code.py --json` (the mapping beside it attached by itself): every kernel
  handle `name:N` of the file is taken by one kernel or extern call, whose post-grad nodes are
  the file's for that handle; `name` is a kernel of that output_code.py (a definition
  `name = async_compile.*` or a call `name(`/`name.run(`) and its call carries the wrapper's
  `[Provenance debug handles] name:N` comment;
- `fxkit info fx_graph_transformed.py --json`: the post-grad stage, each post-grad node of the
  file annotated with the file's kernels and pre-grad nodes;
- `fxkit info dynamo_<i>.graph.txt --provenance FILE --json` (i from `model__<i>_...`): the
  pre-grad stage, each pre-grad node of the file annotated with its post-grad nodes.

Exits 1 on the first mismatch and when the number of files differs from EXPECTED.
"""
import json
import re
import subprocess
import sys
from pathlib import Path

NAME = "inductor_provenance_tracking_node_mappings.json"


def info(fxkit, graph, *extra):
    out = subprocess.run([fxkit, "info", str(graph), "--json", *extra], capture_output=True,
                         text=True)
    if out.returncode != 0:
        raise AssertionError(f"fxkit info {graph} exited {out.returncode}: {out.stderr[:400]}")
    return json.loads(out.stdout)["provenance"]


def union(lists):
    seen = []
    for names in lists:
        for n in names:
            if n not in seen:
                seen.append(n)
    return seen


def check(fxkit, mapping_path):
    folder = mapping_path.parent
    m = json.loads(mapping_path.read_text())
    code = (folder / "output_code.py").read_text()
    handles = m["cppCodeToPost"]

    # Kernel calls of the wrapper.
    p = info(fxkit, folder / "output_code.py")
    assert p["file"].endswith(NAME) and p["stage"] == "kernel calls", p.get("stage")
    assert p["unmatched_handles"] == [], f"handles no call took: {p['unmatched_handles']}"
    taken = {}
    for node in p["nodes"]:
        assert len(node["kernels"]) == 1, f"{node['name']}: {node['kernels']}"
        h = node["kernels"][0]
        assert h not in taken, f"handle {h} taken by {taken[h]} and {node['name']}"
        taken[h] = node["name"]
        assert node["post_grad"] == handles[h], f"{h}: {node['post_grad']} vs {handles[h]}"
        assert node["pre_grad"] == union(m["postToPre"].get(q, []) for q in handles[h])
    assert set(taken) == set(handles), sorted(set(handles) - set(taken))
    for h in handles:
        name = h.rsplit(":", 1)[0]
        defined = re.search(rf"^{re.escape(name)} = async_compile\.", code, re.M)
        called = re.search(rf"(^|[^\w.]){re.escape(name)}(\.run)?\(", code, re.M)
        assert defined or called, f"{h}: {name} is no kernel of output_code.py"
        assert f"# [Provenance debug handles] {h}\n" in code, f"{h}: no debug handle comment"

    # The post-grad graph.
    p = info(fxkit, folder / "fx_graph_transformed.py")
    assert p["stage"] == "post-grad", p["stage"]
    post = set(m["postToPre"]) | set(m["postToCppCode"])
    got = {n["name"]: n for n in p["nodes"]}
    assert set(got) == post, sorted(post ^ set(got))
    for name, n in got.items():
        assert n["kernels"] == m["postToCppCode"].get(name, []), name
        assert n["pre_grad"] == m["postToPre"].get(name, []), name

    # The pre-grad graph Dynamo captured.
    index = re.match(r"model__(\d+)_", folder.name).group(1)
    dynamo = folder.parent.parent / f"dynamo_{index}.graph.txt"
    p = info(fxkit, dynamo, "--provenance", str(mapping_path))
    assert p["stage"] == "pre-grad", p["stage"]
    got = {n["name"]: n for n in p["nodes"]}
    assert set(got) == set(m["preToPost"]), sorted(set(m["preToPost"]) ^ set(got))
    for name, n in got.items():
        assert n["post_grad"] == m["preToPost"][name], name
    return len(handles)


def main():
    fxkit, root, expected = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
    files = sorted(root.glob(f"inductor/*/debug/*/{NAME}"))
    handles = 0
    for f in files:
        try:
            handles += check(fxkit, f)
        except AssertionError as e:
            print(f"FAIL: {f}: {e}", file=sys.stderr)
            return 1
    print(f"provenance: {len(files)} mappings, {handles} kernel handles checked")
    if len(files) != expected:
        print(f"FAIL: checked {len(files)} provenance mappings, expected {expected}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Checks a site written by `fxkit report DIR -o SITE` (tests/cli/report_site*.sh).

usage: report_site_check.py SITE DIR [SITE DIR ...]

- every page the index links exists, and every graph file of DIR has a page;
- every internal link (href="page#anchor") resolves to a file of SITE and an id in it;
- nothing is fetched from the network (no http(s) URLs in src/href, no @import, no url(http));
- every kernel call of every output_code.py under DIR (`# [Provenance debug handles] H`) whose
  handle its compile's provenance mapping names has a row id="k-H" on that wrapper's page, which
  links to at least one post-grad node (`#n-...`), and that post-grad page has the row k-H too;
- every diff page (diff-*.html) is linked from the index, has its differences, identical pairs
  and `fxkit diff` text, and every graph page whose nodes it links links back to it; every row
  of its tables (id="d-...") that links a node of a graph page (`page#n-NAME`) is linked back
  from that node's row there (`diff-...html#d-...`), and every node row of a graph page that
  links a diff page links it at a row that lists that node (or at its section "same", for an
  identical pair past those listed);
- every post-grad page (aten_post_N, fx_graph_transformed.py) has a module section: rows whose
  node counts add up to the page's nodes, or a note saying why no module path was recovered.
Prints one line of counts per site; exits 1 with every problem listed.
"""
import html, json, os, re, sys

problems = []



ID = re.compile(r'\sid="([^"]*)"')
LINK = re.compile(r'\s(?:href|src)="([^"]*)"')
ROW = re.compile(r'<tr id="([^"]*)"[^>]*>(.*?)</tr>', re.S)
NETWORK = ('src="http', 'href="http', 'src="//', 'href="//', "@import", "url(http", "url('http", 'url("http')


class Page:
    """The ids, links and rows (id -> the links inside) of one page (regular expressions: the
    pages are fxkit's own, attributes always double-quoted)."""

    def __init__(self, text):
        unescape = html.unescape
        self.ids = set(unescape(i) for i in ID.findall(text))
        self.links = [unescape(l) for l in LINK.findall(text)]
        self.rows = {unescape(i): [unescape(l) for l in LINK.findall(body)] for i, body in ROW.findall(text)}
        self.text = text


def split_scripts(text):
    """The page without the contents of its script elements (their tags kept), and those
    contents."""
    out, scripts, pos = [], [], 0
    while (i := text.find("<script", pos)) >= 0:
        j = text.find(">", i) + 1
        k = text.find("</script>", j)
        if j == 0 or k < 0:
            break
        out.append(text[pos:j])
        scripts.append(text[j:k])
        pos = k
    out.append(text[pos:])
    return "".join(out), scripts


# Script contents already checked for network fetches: every page carries the same viewer
# bundle (180 kB), checked once.
script_fetches = {}


def fetches(text):
    return any(bad in text for bad in NETWORK)


def check(site, src):
    start = len(problems)
    pages = {}
    for name in os.listdir(site):
        if not name.endswith(".html"):
            problems.append(f"{name}: not an html page")
            continue
        text = open(os.path.join(site, name), encoding="utf-8").read()
        # The viewer's inline bundle and data (most of a page's bytes) hold no links or ids.
        text, scripts = split_scripts(text)
        for script in scripts:
            if script not in script_fetches:
                script_fetches[script] = fetches(script)
        if fetches(text) or any(script_fetches[script] for script in scripts):
            problems.append(f"{name}: fetches something from the network")
        pages[name] = Page(text)
    if "index.html" not in pages:
        problems.append("no index.html")

    links = 0
    for name, p in pages.items():
        for href in p.links:
            if href.startswith("#"):
                target, anchor = name, href[1:]
            else:
                target, _, anchor = href.partition("#")
            if re.match(r"^[a-z]+:", target):
                problems.append(f"{name}: external link {href}")
                continue
            links += 1
            if target not in pages:
                problems.append(f"{name}: link to missing page {href}")
            elif anchor and anchor not in pages[target].ids:
                problems.append(f"{name}: link to missing anchor {href}")


    def page_of(rel):
        return rel.replace("/", "-").replace(".", "_") + ".html"


    # Graph files of DIR and the debug folders in Inductor's order (M.K of `__N_kind_M.K`).
    zoo = re.compile(r"^(dynamo|aten_pre|aten_post|fxir)_(\d+)\.graph\.txt$|^(output_code|cpu_output_code|cpp_wrapper)_(\d+)\.py$")
    debug_files = ["fx_graph_readable.py", "fx_graph_transformed.py", "ir_pre_fusion.txt", "ir_post_fusion.txt", "output_code.py"]
    prov_name = "inductor_provenance_tracking_node_mappings.json"
    graph_files, debug_dirs = [], []
    for f in os.listdir(src):
        if zoo.match(f):
            graph_files.append(f)
    for root, dirs, files in os.walk(src):
        if any(f in files for f in debug_files + [prov_name]):
            debug_dirs.append(os.path.relpath(root, src))
            graph_files += [os.path.normpath(os.path.join(os.path.relpath(root, src), f)) for f in debug_files if f in files]


    def mk(d):
        m = re.search(r"__(\d+)_[A-Za-z]+_(\d+)\.(\d+)$", os.path.basename(os.path.abspath(os.path.join(src, d))))
        return (int(m.group(2)), int(m.group(3))) if m else (-1, -1)


    debug_dirs.sort(key=lambda d: (mk(d), d))
    bad = set()
    if "index.html" in pages:
        idx = open(os.path.join(site, "index.html"), encoding="utf-8").read()
        m = re.search(r'<h2 id="unreadable">.*', idx, re.S)
        if m:
            bad = set(html.unescape(x) for x in re.findall(r'<tr><td class="m">([^<]*)</td>', m.group(0)))
    for rel in graph_files:
        if page_of(rel) not in pages and rel not in bad:
            problems.append(f"{rel}: no page and not listed as unreadable")

    # Provenance: every output_code.py kernel call the mapping names.
    kernels = linked = 0
    wrappers = []
    for i, d in enumerate(debug_dirs):
        prov = os.path.join(src, d, prov_name)
        try:
            mapping = json.load(open(prov)).get("cppCodeToPost", {}) if os.path.exists(prov) else {}
        except ValueError:  # a broken mapping: the site says so and links nothing
            mapping = {}
        if os.path.exists(os.path.join(src, d, "output_code.py")):
            wrappers.append((os.path.normpath(os.path.join(d, "output_code.py")), mapping, i))
        if os.path.exists(os.path.join(src, f"output_code_{i}.py")):
            wrappers.append((f"output_code_{i}.py", mapping, i))
    for rel, mapping, i in wrappers:
        page = pages.get(page_of(rel))
        handles = re.findall(r"# \[Provenance debug handles\] (\S+)", open(os.path.join(src, rel)).read())
        for h in handles:
            if h not in mapping:
                continue
            kernels += 1
            hid = "k-" + re.sub(r"[^A-Za-z0-9_.:-]", "_", h)
            if page is None:
                problems.append(f"{rel}: no page")
                break
            if hid not in page.rows:
                problems.append(f"{rel}: kernel {h} has no row {hid}")
                continue
            posts = [l for l in page.rows[hid] if "#n-" in l]
            if not posts:
                problems.append(f"{rel}: kernel {h} links to no post-grad node")
                continue
            post_page = posts[0].partition("#")[0]
            if hid not in pages[post_page].rows:
                problems.append(f"{rel}: kernel {h} has no row on {post_page}")
                continue
            linked += 1

    # Diff pages: linked from the index and from both graphs' pages, with their sections.
    diffs = back_links = 0
    for name, p in pages.items():
        if not name.startswith("diff-"):
            continue
        diffs += 1
        if "index.html" in pages and name not in pages["index.html"].links:
            problems.append(f"{name}: not linked from the index")
        for section in ("differences", "same", "text"):
            if section not in p.ids and "no diff: " not in p.text:
                problems.append(f"{name}: no section '{section}'")
        for graph in sorted({l.partition("#")[0] for l in p.links if "#n-" in l}):
            if graph in pages and name not in pages[graph].links:
                problems.append(f"{name}: {graph}, whose nodes it links, does not link to it")
        # Back-links: each node a row names links back to that row.
        listed = {}  # (graph page, node anchor) -> the diff row listing it
        for rid, row_links in p.rows.items():
            if not rid.startswith("d-"):
                continue
            for l in row_links:
                graph, _, anchor = l.partition("#")
                if not anchor.startswith("n-") or graph not in pages:
                    continue
                listed[(graph, anchor)] = rid
                if f"{name}#{rid}" not in pages[graph].rows.get(anchor, []):
                    problems.append(f"{name}: {graph}'s node {anchor[2:]} does not link back to its row {rid}")
                else:
                    back_links += 1
        for graph in sorted({g for g, _ in listed}):
            for anchor, row_links in pages[graph].rows.items():
                for l in row_links:
                    target, _, rid = l.partition("#")
                    if target == name and rid != "same" and listed.get((graph, anchor)) != rid:
                        problems.append(f"{graph}: node {anchor[2:]} links {l}, a row that does not list it")

    # Module sections of the post-grad pages.
    post_pages = with_modules = 0
    for rel in graph_files:
        base = os.path.basename(rel)
        if not (re.match(r"aten_post_\d+\.graph\.txt$", base) or base == "fx_graph_transformed.py"):
            continue
        p = pages.get(page_of(rel))
        if p is None:
            continue
        post_pages += 1
        m = re.search(r'<h2 id="modules">(.*?)(?=<h2 |</body>)', p.text, re.S)
        if not m:
            problems.append(f"{rel}: the post-grad page has no module section")
            continue
        counts = [int(n) for n in re.findall(r'<tr data-nodes="[^"]*"><td class="m">[^<]*</td><td class="n">(\d+)</td>', m.group(1))]
        nodes = re.search(r'<h2 id="nodes">Nodes \((\d+)\)</h2>', p.text)
        if counts:
            with_modules += 1
            if nodes and sum(counts) != int(nodes.group(1)):
                problems.append(f"{rel}: the module rows count {sum(counts)} nodes of {nodes.group(1)}")
        elif "No module path could be recovered for this graph: " not in m.group(1):
            problems.append(f"{rel}: an empty module section that does not say why")

    problems[start:] = [f"{site}: {p}" for p in problems[start:]]
    print(f"{site}: {len(pages)} pages, {back_links} nodes linked back from diff rows, {links} internal links, {diffs} diff pages, {with_modules} of {post_pages} post-grad pages with module paths, {kernels} kernel calls with provenance, {linked} linked")


for i in range(1, len(sys.argv) - 1, 2):
    check(sys.argv[i], sys.argv[i + 1])
for p in problems[:50]:
    print("FAIL:", p, file=sys.stderr)
sys.exit(1 if problems else 0)

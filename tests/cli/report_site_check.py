#!/usr/bin/env python3
"""Checks a site written by `fxkit report DIR -o SITE` (tests/cli/report_site*.sh).

usage: report_site_check.py SITE DIR [SITE DIR ...]

- every page the index links exists, and every graph file of DIR has a page;
- every internal link (href="page#anchor") resolves to a file of SITE and an id in it;
- nothing is fetched from the network (no http(s) URLs in src/href, no @import, no url(http));
- every kernel call of every output_code.py under DIR (`# [Provenance debug handles] H`) whose
  handle its compile's provenance mapping names has a row id="k-H" on that wrapper's page, which
  links to at least one post-grad node (`#n-...`), and that post-grad page has the row k-H too.
Prints one line of counts per site; exits 1 with every problem listed.
"""
import html, json, os, re, sys

problems = []



ID = re.compile(r'\sid="([^"]*)"')
LINK = re.compile(r'\s(?:href|src)="([^"]*)"')
ROW = re.compile(r'<tr id="([^"]*)"[^>]*>(.*?)</tr>', re.S)


class Page:
    """The ids, links and rows (id -> the links inside) of one page (regular expressions: the
    pages are fxkit's own, attributes always double-quoted)."""

    def __init__(self, text):
        unescape = html.unescape
        self.ids = set(unescape(i) for i in ID.findall(text))
        self.links = [unescape(l) for l in LINK.findall(text)]
        self.rows = {unescape(i): [unescape(l) for l in LINK.findall(body)] for i, body in ROW.findall(text)}


def check(site, src):
    start = len(problems)
    pages = {}
    for name in os.listdir(site):
        if not name.endswith(".html"):
            problems.append(f"{name}: not an html page")
            continue
        text = open(os.path.join(site, name), encoding="utf-8").read()
        if any(bad in text for bad in ('src="http', 'href="http', 'src="//', 'href="//', "@import", "url(http", "url('http", 'url("http')):
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

    problems[start:] = [f"{site}: {p}" for p in problems[start:]]
    print(f"{site}: {len(pages)} pages, {links} internal links, {kernels} kernel calls with provenance, {linked} linked")


for i in range(1, len(sys.argv) - 1, 2):
    check(sys.argv[i], sys.argv[i + 1])
for p in problems[:50]:
    print("FAIL:", p, file=sys.stderr)
sys.exit(1 if problems else 0)

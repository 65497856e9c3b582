#include "exporters/HtmlReport.h"

#include "exporters/XmlEscape.h"

#include <cstdio>

namespace fxkit {
namespace {

constexpr const char *kStyle = R"CSS(
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
code, pre, td.m { font-family: ui-monospace, monospace; font-size: 0.85em; }
pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; }
table { border-collapse: collapse; } td, th { border: 1px solid #ddd; padding: 2px 6px; text-align: left; vertical-align: top; }
th { background: #eee; } td.n { text-align: right; }
tr.refused td.what { color: #b00; } tr.fused td.what { color: #060; }
.picture { overflow: auto; max-height: 80vh; border: 1px solid #ddd; }
.note { color: #666; font-style: italic; }
nav a { margin-right: 1em; }
)CSS";

std::string section(const char *id, const char *title) {
  return std::string("<h2 id=\"") + id + "\">" + title + "</h2>\n";
}

std::string note(const std::string &text) {
  return text.empty() ? "" : "<p class=\"note\">" + xmlEscape(text) + "</p>\n";
}

/// The kernels table and each distinct generated kernel's source.
std::string kernelSections(const HtmlReport &r, bool inductor) {
  std::string h;
  h += section("kernels", ("Kernels (" + std::to_string(r.kernels.size()) + ")").c_str());
  h += note(r.sourceNote);
  h += "<table>\n<tr><th>#</th><th>kernel</th><th>computes</th><th>space, bytes</th>";
  h += inductor ? "<th>Inductor's kernels of the same nodes</th></tr>\n" : "</tr>\n";
  for (size_t i = 0; i < r.kernels.size(); ++i) {
    const HtmlReport::Kernel &k = r.kernels[i];
    h += "<tr><td class=\"n\">" + std::to_string(i) + "</td><td class=\"m\">" + xmlEscape(k.name) +
         (k.isExtern ? " <em>(extern)</em>" : "") + "</td><td class=\"m\">" + xmlEscape(k.ops) +
         "</td><td class=\"m\">" + xmlEscape(k.detail) + "</td>";
    h += inductor ? "<td class=\"m\">" + xmlEscape(k.inductor) + "</td></tr>\n" : "</tr>\n";
  }
  h += "</table>\n";
  // Each distinct generated kernel's source once, folded.
  std::vector<std::string> shown;
  for (const HtmlReport::Kernel &k : r.kernels) {
    if (k.source.empty())
      continue;
    bool seen = false;
    for (const std::string &s : shown)
      seen = seen || s == k.name;
    if (seen)
      continue;
    shown.push_back(k.name);
    h += "<details><summary><code>" + xmlEscape(k.name) + "</code></summary>\n<pre>" +
         xmlEscape(k.source) + "</pre>\n</details>\n";
  }

  return h;
}

/// Fusion decisions, memory timeline and pass times.
std::string compiledSections(const HtmlReport &r) {
  std::string h;
  size_t refused = 0;
  for (const HtmlReport::Decision &d : r.decisions)
    refused += d.fused ? 0 : 1;
  h += section("fusion", ("Fusion decisions (" + std::to_string(r.decisions.size()) + ", " +
                          std::to_string(refused) + " refused)")
                             .c_str());
  h += "<table>\n<tr><th>decision</th><th>op</th><th>into kernel of</th><th>kind</th>"
       "<th>bytes saved</th><th>reason</th></tr>\n";
  for (const HtmlReport::Decision &d : r.decisions)
    h += std::string("<tr class=\"") + (d.fused ? "fused" : "refused") + "\"><td class=\"what\">" +
         (d.fused ? "fused" : "refused") + "</td><td class=\"m\">" + xmlEscape(d.op) +
         "</td><td class=\"m\">" + xmlEscape(d.kernelOp) + "</td><td>" + xmlEscape(d.kind) +
         "</td><td class=\"m n\">" + xmlEscape(d.bytesSaved) + "</td><td>" + xmlEscape(d.reason) +
         "</td></tr>\n";
  h += "</table>\n";

  h += section("memory", "Memory timeline");
  h += note(r.timelineNote);
  if (std::string svg = inlineSvg(r.timelineSvg); !svg.empty())
    h += "<div class=\"picture\">\n" + svg + "\n</div>\n";

  h += section("passes", "Passes");
  h += "<table>\n<tr><th>pass</th><th>time (ms)</th><th>changed</th></tr>\n";
  double total = 0;
  for (const HtmlReport::Pass &p : r.passes) {
    char ms[32];
    std::snprintf(ms, sizeof ms, "%.3f", p.seconds * 1e3);
    h += "<tr><td class=\"m\">" + xmlEscape(p.name) + "</td><td class=\"n\">" + ms + "</td><td>" +
         (p.changed ? "yes" : "no") + "</td></tr>\n";
    total += p.seconds;
  }
  char ms[32];
  std::snprintf(ms, sizeof ms, "%.3f", total * 1e3);
  h += std::string("<tr><th>total</th><th class=\"n\">") + ms + "</th><th></th></tr>\n</table>\n";
  return h;
}

} // namespace

std::string inlineSvg(const std::string &svg) {
  size_t at = svg.find("<svg");
  return at == std::string::npos ? std::string() : svg.substr(at);
}

std::string writeHtmlReport(const HtmlReport &r) {
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                  "<title>fxkit report: " +
                  xmlEscape(r.title) + "</title>\n<style>" + kStyle + "</style>\n" + r.head +
                  "</head>\n<body>\n";
  h += r.navigation;
  h += "<h1>fxkit report: <code>" + xmlEscape(r.title) + "</code></h1>\n";
  const bool inductor = !r.inductorKernels.empty();
  h += "<nav><a href=\"#graph\">graph</a>";
  if (r.compiled)
    h += "<a href=\"#kernels\">kernels</a>";
  if (inductor)
    h += "<a href=\"#inductor\">Inductor's kernels</a>";
  if (r.compiled)
    h += "<a href=\"#fusion\">fusion decisions</a><a href=\"#memory\">memory</a>"
         "<a href=\"#passes\">passes</a>";
  for (const HtmlReport::Section &s : r.extraSections)
    h += "<a href=\"#" + xmlEscape(s.id) + "\">" + xmlEscape(s.title) + "</a>";
  h += "</nav>\n<ul>\n";
  for (const std::string &f : r.facts)
    h += "<li>" + xmlEscape(f) + "</li>\n";
  h += "</ul>\n";

  h += section("graph", "Graph");
  h += r.graphViewer;
  h += note(r.graphNote);
  if (std::string svg = inlineSvg(r.graphSvg); !svg.empty())
    h += "<div class=\"picture\">\n" + svg + "\n</div>\n";

  if (r.compiled)
    h += kernelSections(r, inductor);

  if (inductor) {
    h += section("inductor", ("Inductor's kernels (" + std::to_string(r.inductorKernels.size()) +
                              ", from its provenance mapping)")
                                 .c_str());
    h += "<table>\n<tr><th>kernel call</th><th>computes</th><th>pre-grad nodes</th>"
         "<th>fxkit's kernels of the same nodes</th></tr>\n";
    for (const HtmlReport::InductorKernel &k : r.inductorKernels)
      h += "<tr><td class=\"m\">" + xmlEscape(k.handle) + "</td><td class=\"m\">" +
           xmlEscape(k.nodes) + "</td><td class=\"m\">" + xmlEscape(k.preGrad) +
           "</td><td class=\"m\">" + xmlEscape(k.fxkit) + "</td></tr>\n";
    h += "</table>\n";
  }

  if (r.compiled)
    h += compiledSections(r);
  for (const HtmlReport::Section &s : r.extraSections)
    h += section(s.id.c_str(), xmlEscape(s.title).c_str()) + s.html;
  h += r.script;
  h += "</body>\n</html>\n";
  return h;
}

} // namespace fxkit

#include "repl/ReplMatcher.h"

#include "exporters/GraphSummary.h"
#include "ir/DType.h"
#include "support/InductorProvenance.h"

#include <charconv>

namespace fxkit {
namespace {

constexpr std::string_view kTorchOps = "torch.ops.";

bool compareCount(NodeMatchTerm::Cmp cmp, int64_t have, int64_t want) {
  switch (cmp) {
  case NodeMatchTerm::Cmp::Eq:
    return have == want;
  case NodeMatchTerm::Cmp::Ne:
    return have != want;
  case NodeMatchTerm::Cmp::Lt:
    return have < want;
  case NodeMatchTerm::Cmp::Le:
    return have <= want;
  case NodeMatchTerm::Cmp::Gt:
    return have > want;
  case NodeMatchTerm::Cmp::Ge:
    return have >= want;
  }
  return false;
}

bool termHolds(const NodeMatchTerm &t, const Node &node, const NodeMatcher &m) {
  bool eq = false;
  switch (t.key) {
  case NodeMatchTerm::Key::Users:
    return compareCount(t.cmp, static_cast<int64_t>(node.users().size()), t.count);
  case NodeMatchTerm::Key::Inputs:
    return compareCount(t.cmp, static_cast<int64_t>(node.inputs().size()), t.count);
  case NodeMatchTerm::Key::Op: {
    // Only calls have an op: a placeholder's target is its own name.
    if (node.op() == OpKind::Placeholder || node.op() == OpKind::Output)
      return t.cmp == NodeMatchTerm::Cmp::Ne;
    std::string_view target = node.target();
    eq = globMatch(t.value, target) ||
         (target.starts_with(kTorchOps) && globMatch(t.value, target.substr(kTorchOps.size())));
    break;
  }
  case NodeMatchTerm::Key::Name:
    eq = globMatch(t.value, node.name());
    break;
  case NodeMatchTerm::Key::Kernel:
    if (m.inductorKernels) {
      if (const NodeProvenance *p = node.provenance())
        for (const std::string &k : p->kernels)
          eq = eq || globMatch(t.value, k) || globMatch(t.value, splitKernelHandle(k).first);
    } else if (m.kernels)
      if (auto it = m.kernels->find(node.name()); it != m.kernels->end())
        for (const std::string &k : it->second)
          eq = eq || globMatch(t.value, k);
    break;
  case NodeMatchTerm::Key::PostGrad:
  case NodeMatchTerm::Key::PreGrad:
    if (const NodeProvenance *p = node.provenance())
      for (const std::string &n : t.key == NodeMatchTerm::Key::PostGrad ? p->postGrad : p->preGrad)
        eq = eq || globMatch(t.value, n);
    break;
  case NodeMatchTerm::Key::Kind:
    eq = globMatch(t.value, opKindName(node.op()));
    break;
  case NodeMatchTerm::Key::Type:
    eq = globMatch(t.value, valueTypeString(node.value()));
    break;
  case NodeMatchTerm::Key::DType: {
    // parseNodeMatcher checked the spelling; a node matches when any tensor it yields has it.
    DType want = *parseDType(t.value);
    if (const TensorType *tt = node.value().tensor())
      eq = tt->dtype == want;
    else if (const auto *ts = node.value().tensors())
      for (const auto &x : *ts)
        eq = eq || (x && x->dtype == want);
    break;
  }
  }
  return t.cmp == NodeMatchTerm::Cmp::Eq ? eq : !eq;
}

} // namespace

bool globMatch(std::string_view pattern, std::string_view text) {
  // Iterative matcher with one backtrack point (the last `*`): linear for practical patterns.
  size_t p = 0, t = 0, starP = std::string_view::npos, starT = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      starP = p++;
      starT = t;
    } else if (starP != std::string_view::npos) {
      p = starP + 1;
      t = ++starT;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*')
    ++p;
  return p == pattern.size();
}

bool NodeMatcher::matches(const Node &node) const {
  for (const NodeMatchTerm &t : terms)
    if (!termHolds(t, node, *this))
      return false;
  return true;
}

bool NodeMatcher::needsKernels() const {
  for (const NodeMatchTerm &t : terms)
    if (t.key == NodeMatchTerm::Key::Kernel)
      return true;
  return false;
}

Expected<NodeMatcher> parseNodeMatcher(const std::vector<std::string> &terms) {
  NodeMatcher m;
  for (const std::string &text : terms) {
    size_t at = text.find_first_of("=!<>");
    if (at == std::string::npos || at == 0)
      return Error("bad term '" + text +
                   "': expected KEY=VALUE, KEY!=VALUE or KEY>N (keys: op, "
                   "name, kind, type, dtype, users, inputs, kernel, post, pre)");
    std::string_view key = std::string_view(text).substr(0, at);
    std::string_view rest = std::string_view(text).substr(at);
    NodeMatchTerm term{};
    static constexpr std::pair<std::string_view, NodeMatchTerm::Cmp> kCmps[] = {
        {"!=", NodeMatchTerm::Cmp::Ne}, {"<=", NodeMatchTerm::Cmp::Le},
        {">=", NodeMatchTerm::Cmp::Ge}, {"=", NodeMatchTerm::Cmp::Eq},
        {"<", NodeMatchTerm::Cmp::Lt},  {">", NodeMatchTerm::Cmp::Gt}};
    bool found = false;
    for (const auto &[spelling, cmp] : kCmps)
      if (rest.starts_with(spelling)) {
        term.cmp = cmp;
        term.value = std::string(rest.substr(spelling.size()));
        found = true;
        break;
      }
    if (!found)
      return Error("bad comparison in '" + text + "': expected =, !=, <, <=, > or >=");
    if (key == "op" || key == "target")
      term.key = NodeMatchTerm::Key::Op;
    else if (key == "name")
      term.key = NodeMatchTerm::Key::Name;
    else if (key == "kind")
      term.key = NodeMatchTerm::Key::Kind;
    else if (key == "type")
      term.key = NodeMatchTerm::Key::Type;
    else if (key == "dtype")
      term.key = NodeMatchTerm::Key::DType;
    else if (key == "users")
      term.key = NodeMatchTerm::Key::Users;
    else if (key == "inputs")
      term.key = NodeMatchTerm::Key::Inputs;
    else if (key == "kernel")
      term.key = NodeMatchTerm::Key::Kernel;
    else if (key == "post")
      term.key = NodeMatchTerm::Key::PostGrad;
    else if (key == "pre")
      term.key = NodeMatchTerm::Key::PreGrad;
    else
      return Error("unknown key '" + std::string(key) + "' in '" + text +
                   "' (keys: op, name, kind, type, dtype, users, inputs, kernel, post, pre)");
    bool counted = term.key == NodeMatchTerm::Key::Users || term.key == NodeMatchTerm::Key::Inputs;
    if (counted) {
      const char *first = term.value.data();
      const char *last = first + term.value.size();
      auto [end, ec] = std::from_chars(first, last, term.count);
      if (ec != std::errc() || end != last || first == last)
        return Error("'" + text + "': " + std::string(key) + " takes a whole number");
    } else if (term.cmp != NodeMatchTerm::Cmp::Eq && term.cmp != NodeMatchTerm::Cmp::Ne) {
      return Error("'" + text + "': " + std::string(key) + " takes only = or !=");
    }
    if (term.key == NodeMatchTerm::Key::DType && !parseDType(term.value))
      return Error("'" + text + "': unknown dtype '" + term.value + "' (f32, f16, bf16, i64, ...)");
    m.terms.push_back(std::move(term));
  }
  return m;
}

} // namespace fxkit

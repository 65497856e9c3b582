#include "ir/GraphMatch.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <unordered_set>
#include <utility>

namespace fxkit {

std::string_view matchReasonName(MatchReason reason) {
  switch (reason) {
  case MatchReason::Provenance:
    return "provenance";
  case MatchReason::Name:
    return "name";
  case MatchReason::Structure:
    return "structure";
  case MatchReason::Region:
    return "region";
  }
  return "?";
}

namespace {
constexpr MatchStrategy kStrategies[] = {MatchStrategy::Auto, MatchStrategy::Name,
                                         MatchStrategy::Structure, MatchStrategy::Provenance};
} // namespace

std::string_view matchStrategyName(MatchStrategy strategy) {
  switch (strategy) {
  case MatchStrategy::Auto:
    return "auto";
  case MatchStrategy::Name:
    return "name";
  case MatchStrategy::Structure:
    return "structure";
  case MatchStrategy::Provenance:
    return "provenance";
  }
  return "?";
}

std::optional<MatchStrategy> parseMatchStrategy(std::string_view text) {
  for (MatchStrategy s : kStrategies)
    if (matchStrategyName(s) == text)
      return s;
  return std::nullopt;
}

std::string matchStrategyList() {
  std::string out;
  constexpr size_t n = std::size(kStrategies);
  for (size_t i = 0; i < n; ++i) {
    out += i == 0 ? "" : i + 1 == n ? " or " : ", ";
    out += matchStrategyName(kStrategies[i]);
  }
  return out;
}

namespace {

/// Arguments equal up to the pairing: `samePair(a, b)` says whether node references a (in x)
/// and b (in y) point into the same pair. Walked with a stack (arguments nest).
template <typename SamePair>
bool argsEquivalent(const Argument &x, const Argument &y, const SamePair &samePair) {
  std::vector<std::pair<const Argument *, const Argument *>> stack{{&x, &y}};
  while (!stack.empty()) {
    auto [p, q] = stack.back();
    stack.pop_back();
    if (p->kind() != q->kind())
      return false;
    if (p->isNode()) {
      if (!samePair(p->asNode(), q->asNode()))
        return false;
      continue;
    }
    if (p->items().empty() && q->items().empty()) {
      if (!p->equals(*q))
        return false;
      continue;
    }
    if (p->items().size() != q->items().size())
      return false;
    for (size_t k = 0; k < p->items().size(); ++k)
      stack.emplace_back(&p->items()[k], &q->items()[k]);
  }
  return true;
}

/// One graph's nodes as indices, with their edges and the pair each belongs to.
struct Side {
  std::vector<const Node *> nodes;
  std::unordered_map<const Node *, uint32_t> index;
  std::unordered_map<std::string_view, uint32_t> byName;
  std::vector<std::vector<uint32_t>> inputs; ///< distinct inputs, in first-use order
  std::vector<std::vector<uint32_t>> users;
  std::vector<int32_t> group; ///< index into the matcher's groups, -1 unpaired

  explicit Side(const Graph &g) {
    nodes.reserve(g.size());
    index.reserve(g.size());
    byName.reserve(g.size());
    for (const Node *n : g) {
      index.emplace(n, static_cast<uint32_t>(nodes.size()));
      byName.emplace(n->name(), static_cast<uint32_t>(nodes.size()));
      nodes.push_back(n);
    }
    inputs.resize(nodes.size());
    users.resize(nodes.size());
    group.assign(nodes.size(), -1);
    if (!throughBuffers())
      for (uint32_t i = 0; i < nodes.size(); ++i)
        for (const Node *in : nodes[i]->inputs())
          if (auto it = index.find(in); it != index.end())
            inputs[i].push_back(it->second);
    for (uint32_t i = 0; i < nodes.size(); ++i)
      for (uint32_t in : inputs[i])
        users[in].push_back(i);
  }

  /// Storage: (the node whose storage it is, the element offset into it).
  using StorageKey = std::pair<uint32_t, int64_t>;
  std::vector<StorageKey> storage; ///< per node; the node itself for non-storage nodes
  std::vector<char> isStorage;

  /// PyTorch's FX IR of a wrapper (Inductor's `fxir`, fxkit's `--to fxir`) passes values
  /// through buffers that launches write (`out_ptr`, `in_out_ptr` of a Triton launch, `out=`
  /// of an extern, copy_'s destination): its edges run from a launch to its buffers, not to the
  /// launch that computed them. For such a graph a node's inputs are, instead of a buffer, the
  /// last node that wrote its storage (allocations and views of it are leaves); a buffer read
  /// before anything wrote it (a graph input, or one of its views) is read as itself. Returns
  /// false, with no edges made, for graphs that write no buffer.
  bool throughBuffers() {
    storage.resize(nodes.size());
    isStorage.assign(nodes.size(), 0);
    bool mutates = false;
    std::vector<const Node *> written;
    for (const Node *n : nodes) {
      writtenArgs(n, written, nullptr);
      mutates = mutates || !written.empty();
    }
    if (!mutates)
      return false;
    for (uint32_t i = 0; i < nodes.size(); ++i) {
      const Node *n = nodes[i];
      storage[i] = {i, 0};
      std::string_view t = n->target();
      bool view = n->op() == OpKind::CallFunction &&
                  (t == "torch.as_strided" || t == "torch.ops.aten.view.dtype");
      isStorage[i] = n->op() == OpKind::Placeholder ||
                     (n->op() == OpKind::CallFunction && t == "torch.empty_strided") || view;
      const Argument &args = n->args();
      if (view && !args.items().empty() && args.items()[0].isNode())
        if (auto it = index.find(args.items()[0].asNode()); it != index.end()) {
          int64_t offset = 0;
          if (t == "torch.as_strided" && args.items().size() > 3 &&
              args.items()[3].kind() == Argument::Kind::Int)
            offset = args.items()[3].asInt();
          storage[i] = {storage[it->second].first, offset};
        }
    }
    std::map<StorageKey, uint32_t> lastWriter;
    std::vector<char> readToo;
    for (uint32_t i = 0; i < nodes.size(); ++i) {
      if (isStorage[i])
        continue;
      const Node *n = nodes[i];
      writtenArgs(n, written, &readToo);
      for (const Node *in : n->inputs()) {
        auto it = index.find(in);
        if (it == index.end())
          continue;
        uint32_t j = it->second;
        if (!isStorage[j]) {
          inputs[i].push_back(j);
          continue;
        }
        size_t w = std::find(written.begin(), written.end(), in) - written.begin();
        if (w < written.size() && !readToo[w])
          continue; // only written
        if (auto last = lastWriter.find(storage[j]); last != lastWriter.end())
          inputs[i].push_back(last->second);
        else
          inputs[i].push_back(j); // read before any write: the buffer itself
      }
      std::vector<uint32_t> &ins = inputs[i];
      std::vector<uint32_t> seen;
      ins.erase(std::remove_if(ins.begin(), ins.end(),
                               [&](uint32_t x) {
                                 if (std::find(seen.begin(), seen.end(), x) != seen.end())
                                   return true;
                                 seen.push_back(x);
                                 return false;
                               }),
                ins.end());
      for (const Node *w : written)
        if (auto it = index.find(w); it != index.end())
          lastWriter[storage[it->second]] = i;
    }
    return true;
  }

  /// The buffers `n` writes, in argument order (`readToo`: whether it reads each first).
  static void writtenArgs(const Node *n, std::vector<const Node *> &out,
                          std::vector<char> *readToo) {
    out.clear();
    if (readToo)
      readToo->clear();
    if (n->op() != OpKind::CallFunction)
      return;
    auto add = [&](const Argument &a, bool read) {
      if (a.isNode()) {
        out.push_back(a.asNode());
        if (readToo)
          readToo->push_back(read);
      }
    };
    std::string_view t = n->target();
    if (t == "torch.ops.higher_order.triton_kernel_wrapper_mutation") {
      if (const Argument *kw = n->kwargs().find("kwargs"); kw && kw->kind() == Argument::Kind::Dict)
        for (size_t k = 0; k < kw->dictSize(); ++k) {
          std::string_view key = kw->dictKey(k);
          if (key.starts_with("out_ptr") || key.starts_with("in_out_ptr"))
            add(kw->dictValue(k), key.starts_with("in_out_ptr"));
        }
    } else if (t.ends_with(".out")) {
      if (const Argument *o = n->kwargs().find("out"))
        add(*o, false);
    } else if (t == "torch.ops.aten.copy_.default" && !n->args().items().empty()) {
      add(n->args().items()[0], false);
    }
  }
  bool paired(uint32_t i) const { return group[i] >= 0; }
  /// An allocation, view or input of a graph read through its buffers (throughBuffers).
  bool buffer(uint32_t i) const { return !isStorage.empty() && isStorage[i]; }
};

bool sameOp(const Node *x, const Node *y) {
  return x->op() == y->op() && (x->op() == OpKind::Placeholder || x->target() == y->target());
}

bool typesAgree(const Node *x, const Node *y) {
  return x->value().empty() || y->value().empty() || x->value() == y->value();
}

/// Regions larger than this are not paired: a decomposition replaces a few nodes, and a large
/// unpaired area is two different graphs, not one op written two ways.
constexpr size_t kMaxRegion = 64;

class Matcher {
public:
  Matcher(const Graph &a, const Graph &b) : A(a), B(b) {}

  GraphMatch run(MatchStrategy strategy) {
    const bool all = strategy == MatchStrategy::Auto;
    const bool names = all || strategy == MatchStrategy::Name;
    const bool structure = all || strategy == MatchStrategy::Structure;
    if (all || strategy == MatchStrategy::Provenance) {
      byProvenance(A, B, true);
      byProvenance(B, A, false);
    }
    pairOutputs();
    if (names)
      byName(strategy == MatchStrategy::Name);
    if (structure) {
      placeholdersByPosition();
      leavesByArguments();
    }
    for (int round = 0; round < 1000; ++round) {
      bool progress = false;
      if (structure) {
        progress |= structurePass();
        progress |= backwardPass();
        progress |= buffersByWriter();
      }
      if (names)
        progress |= looseNamePass();
      if (!progress && structure)
        progress = regionPass();
      if (!progress)
        break;
    }
    return result();
  }

private:
  struct Group {
    std::vector<uint32_t> a, b;
    MatchReason reason;
  };
  Side A, B;
  std::vector<Group> groups;

  int32_t newGroup(MatchReason reason) {
    groups.push_back(Group{{}, {}, reason});
    return static_cast<int32_t>(groups.size() - 1);
  }
  void join(int32_t g, bool sideA, uint32_t i) {
    (sideA ? A : B).group[i] = g;
    (sideA ? groups[g].a : groups[g].b).push_back(i);
  }
  void pair(uint32_t a, uint32_t b, MatchReason reason) {
    int32_t g = newGroup(reason);
    join(g, true, a);
    join(g, false, b);
  }

  /// x's provenance names nodes of y: of its two lists of names (pre-grad, post-grad), the one
  /// that names y's nodes (most of its names found there, so that names the stages share by
  /// chance, `mul`, do not count). Each node of x joins the pair of the first of its nodes in y
  /// that is paired already, else starts one; its other unpaired nodes in y join it.
  void byProvenance(Side &x, Side &y, bool xIsA) {
    size_t hits[2] = {0, 0}, total[2] = {0, 0};
    std::unordered_set<std::string_view> seen[2];
    auto listOf = [](const NodeProvenance &p, int which) -> const std::vector<std::string> & {
      return which == 0 ? p.preGrad : p.postGrad;
    };
    for (const Node *n : x.nodes)
      if (const NodeProvenance *p = n->provenance())
        for (int which = 0; which < 2; ++which)
          for (const std::string &name : listOf(*p, which))
            if (seen[which].insert(name).second) {
              ++total[which];
              hits[which] += y.byName.contains(name);
            }
    int which = hits[1] > hits[0] ? 1 : 0;
    if (hits[which] == 0 || hits[which] * 2 < total[which])
      return;
    std::vector<uint32_t> ys;
    for (uint32_t i = 0; i < x.nodes.size(); ++i) {
      const NodeProvenance *p = x.nodes[i]->provenance();
      if (!p || x.paired(i))
        continue;
      ys.clear();
      for (const std::string &name : listOf(*p, which))
        if (auto it = y.byName.find(name); it != y.byName.end())
          ys.push_back(it->second);
      if (ys.empty())
        continue;
      int32_t g = -1;
      for (uint32_t j : ys)
        if (y.paired(j) && groups[y.group[j]].reason == MatchReason::Provenance) {
          g = y.group[j];
          break;
        }
      if (g < 0)
        g = newGroup(MatchReason::Provenance);
      join(g, xIsA, i);
      for (uint32_t j : ys)
        if (!y.paired(j))
          join(g, !xIsA, j);
    }
  }

  void pairOutputs() {
    for (uint32_t j = 0; j < B.nodes.size(); ++j)
      if (B.nodes[j]->op() == OpKind::Output && !B.paired(j))
        for (uint32_t i = 0; i < A.nodes.size(); ++i)
          if (A.nodes[i]->op() == OpKind::Output && !A.paired(i)) {
            pair(i, j,
                 A.nodes[i]->name() == B.nodes[j]->name() ? MatchReason::Name
                                                          : MatchReason::Structure);
            return;
          }
  }

  /// Whether the inputs of A's node i and B's node j, place by place, never contradict each
  /// other (paired, but to different nodes); `agree`: how many places are paired together.
  bool inputsConsistent(uint32_t i, uint32_t j, size_t *agree = nullptr) const {
    if (A.inputs[i].size() != B.inputs[j].size())
      return false;
    size_t same = 0;
    for (size_t k = 0; k < A.inputs[i].size(); ++k) {
      int32_t ga = A.group[A.inputs[i][k]], gb = B.group[B.inputs[j][k]];
      if (ga >= 0 && gb >= 0 && ga != gb)
        return false;
      same += ga >= 0 && ga == gb;
    }
    if (agree)
      *agree = same;
    return true;
  }

  /// Pairs, by name, each unpaired node of B with the unpaired node of A of the same name where
  /// `accept(i, j)` holds, in B's order; whether it paired any.
  template <typename Accept> bool pairNamesakes(Accept accept) {
    bool progress = false;
    for (uint32_t j = 0; j < B.nodes.size(); ++j) {
      if (B.paired(j))
        continue;
      auto it = A.byName.find(B.nodes[j]->name());
      if (it == A.byName.end() || A.paired(it->second) || !accept(it->second, j))
        continue;
      pair(it->second, j, MatchReason::Name);
      progress = true;
    }
    return progress;
  }

  /// The same name and op over inputs that do not contradict the pairs made so far (two
  /// producers' generic names, `triton_kernel_wrapper_mutation_3`, are not the same launch);
  /// with `any`, the same name alone (the name-only diff).
  void byName(bool any) {
    pairNamesakes([&](uint32_t i, uint32_t j) {
      return any || (sameOp(A.nodes[i], B.nodes[j]) && inputsConsistent(i, j));
    });
  }

  /// A namesake whose op changed (an edit): paired when its inputs do not contradict the pairs
  /// and at least one of them is paired with the input in the same place (or it has none).
  bool looseNamePass() {
    return pairNamesakes([&](uint32_t i, uint32_t j) {
      if (A.buffer(i) || B.buffer(j)) // two producers' bufN are not the same buffer
        return false;
      size_t agree = 0;
      return A.nodes[i]->op() == B.nodes[j]->op() && inputsConsistent(i, j, &agree) &&
             (agree > 0 || A.inputs[i].empty());
    });
  }

  /// Unpaired inputs in order, k-th with k-th, where their types agree.
  void placeholdersByPosition() {
    std::vector<uint32_t> pa, pb;
    for (uint32_t i = 0; i < A.nodes.size(); ++i)
      if (A.nodes[i]->op() == OpKind::Placeholder && !A.paired(i))
        pa.push_back(i);
    for (uint32_t j = 0; j < B.nodes.size(); ++j)
      if (B.nodes[j]->op() == OpKind::Placeholder && !B.paired(j))
        pb.push_back(j);
    for (size_t k = 0; k < pa.size() && k < pb.size(); ++k)
      if (typesAgree(A.nodes[pa[k]], B.nodes[pb[k]]))
        pair(pa[k], pb[k], MatchReason::Structure);
  }

  /// Nodes without inputs (get_attr, iota, full, allocations): the same op and arguments, in
  /// order.
  void leavesByArguments() {
    std::unordered_map<std::string_view, std::vector<uint32_t>> leaves; // target -> A nodes
    for (uint32_t i = 0; i < A.nodes.size(); ++i) {
      const Node *n = A.nodes[i];
      if (!A.paired(i) && A.inputs[i].empty() && n->op() != OpKind::Placeholder &&
          n->op() != OpKind::Output)
        leaves[n->target()].push_back(i);
    }
    for (uint32_t j = 0; j < B.nodes.size(); ++j) {
      const Node *n = B.nodes[j];
      if (B.paired(j) || !B.inputs[j].empty() || n->op() == OpKind::Placeholder ||
          n->op() == OpKind::Output)
        continue;
      auto it = leaves.find(n->target());
      if (it == leaves.end())
        continue;
      for (uint32_t i : it->second)
        if (!A.paired(i) && A.nodes[i]->op() == n->op() && A.nodes[i]->args().equals(n->args()) &&
            A.nodes[i]->kwargs().equals(n->kwargs())) {
          pair(i, j, MatchReason::Structure);
          break;
        }
    }
  }

  /// Whether A's node i could be B's node j: the same op over inputs paired place by place.
  bool sameComputation(uint32_t i, uint32_t j) const {
    if (!sameOp(A.nodes[i], B.nodes[j]) || A.inputs[i].size() != B.inputs[j].size())
      return false;
    for (size_t k = 0; k < A.inputs[i].size(); ++k) {
      int32_t g = A.group[A.inputs[i][k]];
      if (g < 0 || g != B.group[B.inputs[j][k]])
        return false;
    }
    return true;
  }

  /// Forward propagation in B's order: a node whose inputs are all paired looks for its twin
  /// among the users of its least-used input's counterparts.
  bool structurePass() {
    bool progress = false;
    for (uint32_t j = 0; j < B.nodes.size(); ++j) {
      if (B.paired(j) || B.inputs[j].empty() || B.nodes[j]->op() == OpKind::Output)
        continue;
      const std::vector<uint32_t> &ins = B.inputs[j];
      bool ready = true;
      for (uint32_t in : ins)
        ready = ready && B.paired(in);
      if (!ready)
        continue;
      // The input whose counterparts have the fewest users bounds the search.
      int32_t via = -1;
      size_t fewest = SIZE_MAX;
      for (uint32_t in : ins) {
        size_t users = 0;
        for (uint32_t a : groups[B.group[in]].a)
          users += A.users[a].size();
        if (users < fewest) {
          fewest = users;
          via = B.group[in];
        }
      }
      int64_t best = -1;
      int score = -1;
      for (uint32_t a : groups[via].a)
        for (uint32_t u : A.users[a]) {
          if (A.paired(u) || !sameComputation(u, j))
            continue;
          int s = (typesAgree(A.nodes[u], B.nodes[j]) ? 1 : 0) + (sameArguments(u, j) ? 2 : 0);
          if (s > score) {
            score = s;
            best = u;
          }
        }
      if (best >= 0) {
        pair(static_cast<uint32_t>(best), j, MatchReason::Structure);
        progress = true;
      }
    }
    return progress;
  }

  /// Backward propagation in reverse B order: an unpaired node read by a one-to-one pair is
  /// paired with the input in the same place of that pair's other node, when their ops agree.
  bool backwardPass() {
    bool progress = false;
    for (uint32_t j = static_cast<uint32_t>(B.nodes.size()); j-- > 0;) {
      if (B.paired(j))
        continue;
      for (uint32_t u : B.users[j]) {
        if (!B.paired(u))
          continue;
        const Group &g = groups[B.group[u]];
        if (g.a.size() != 1 || g.b.size() != 1)
          continue;
        const std::vector<uint32_t> &uses = B.inputs[u];
        size_t pos = std::find(uses.begin(), uses.end(), j) - uses.begin();
        if (pos >= A.inputs[g.a[0]].size() || A.inputs[g.a[0]].size() != uses.size())
          continue;
        uint32_t i = A.inputs[g.a[0]][pos];
        if (A.paired(i) || !sameOp(A.nodes[i], B.nodes[j]) || !inputsConsistent(i, j))
          continue;
        pair(i, j, MatchReason::Structure);
        progress = true;
        break;
      }
    }
    return progress;
  }

  /// The buffers two paired launches write, place by place (a graph read through its
  /// buffers: they are the same values).
  bool buffersByWriter() {
    if (A.isStorage.empty() || B.isStorage.empty())
      return false;
    bool progress = false;
    std::vector<const Node *> wa, wb;
    // pair() appends to groups: walk those made so far by index.
    for (size_t gi = 0, n = groups.size(); gi < n; ++gi) {
      if (groups[gi].a.size() != 1 || groups[gi].b.size() != 1)
        continue;
      Side::writtenArgs(A.nodes[groups[gi].a[0]], wa, nullptr);
      Side::writtenArgs(B.nodes[groups[gi].b[0]], wb, nullptr);
      for (size_t k = 0; k < wa.size() && k < wb.size(); ++k) {
        auto ia = A.index.find(wa[k]);
        auto jb = B.index.find(wb[k]);
        if (ia == A.index.end() || jb == B.index.end() || A.paired(ia->second) ||
            B.paired(jb->second))
          continue;
        pair(ia->second, jb->second, MatchReason::Structure);
        progress = true;
      }
    }
    return progress;
  }

  /// Arguments equal with node references compared through the pairs made so far.
  bool sameArguments(uint32_t i, uint32_t j) const {
    auto samePair = [&](const Node *a, const Node *b) {
      auto ia = A.index.find(a);
      auto jb = B.index.find(b);
      return ia != A.index.end() && jb != B.index.end() && A.group[ia->second] >= 0 &&
             A.group[ia->second] == B.group[jb->second];
    };
    return argsEquivalent(A.nodes[i]->args(), B.nodes[j]->args(), samePair) &&
           argsEquivalent(A.nodes[i]->kwargs(), B.nodes[j]->kwargs(), samePair);
  }

  struct Region {
    std::vector<uint32_t> nodes;
    std::vector<int32_t> key;       ///< paired inputs' groups, -1, paired users' groups
    std::vector<int32_t> ins, outs; ///< the same, sorted, each on its own
  };

  /// Connected sets of unpaired nodes (edges either way), with their boundary.
  static std::vector<Region> regions(const Side &s) {
    std::vector<Region> out;
    std::vector<char> seen(s.nodes.size(), 0);
    std::vector<uint32_t> stack;
    for (uint32_t start = 0; start < s.nodes.size(); ++start) {
      if (seen[start] || s.paired(start) || s.nodes[start]->op() == OpKind::Output ||
          s.buffer(start))
        continue;
      Region r;
      std::vector<int32_t> ins, outs;
      seen[start] = 1;
      stack.assign(1, start);
      while (!stack.empty()) {
        uint32_t n = stack.back();
        stack.pop_back();
        r.nodes.push_back(n);
        for (int dir = 0; dir < 2; ++dir)
          for (uint32_t m : dir == 0 ? s.inputs[n] : s.users[n]) {
            if (s.paired(m)) {
              (dir == 0 ? ins : outs).push_back(s.group[m]);
            } else if (!seen[m] && s.nodes[m]->op() != OpKind::Output && !s.buffer(m)) {
              seen[m] = 1;
              stack.push_back(m);
            }
          }
      }
      if (r.nodes.size() > kMaxRegion || (ins.empty() && outs.empty()))
        continue;
      std::sort(r.nodes.begin(), r.nodes.end());
      for (auto *v : {&ins, &outs}) {
        std::sort(v->begin(), v->end());
        v->erase(std::unique(v->begin(), v->end()), v->end());
      }
      r.key = ins;
      r.key.push_back(-1);
      r.key.insert(r.key.end(), outs.begin(), outs.end());
      r.ins = std::move(ins);
      r.outs = std::move(outs);
      out.push_back(std::move(r));
    }
    return out;
  }

  /// Unpaired regions with the same paired inputs and users become one pair each.
  bool regionPass() {
    std::vector<Region> ra = regions(A), rb = regions(B);
    std::map<std::vector<int32_t>, std::vector<size_t>> byKey;
    for (size_t k = 0; k < ra.size(); ++k)
      byKey[ra[k].key].push_back(k);
    bool progress = false;
    for (Region &r : rb) {
      auto it = byKey.find(r.key);
      if (it == byKey.end() || it->second.empty())
        continue;
      const Region &twin = ra[it->second.front()];
      it->second.erase(it->second.begin());
      int32_t g = newGroup(MatchReason::Region);
      for (uint32_t i : twin.nodes)
        join(g, true, i);
      for (uint32_t j : r.nodes)
        join(g, false, j);
      progress = true;
    }
    if (!progress)
      progress = sameUsersRegions(ra, rb);
    if (!progress)
      progress = mergedRegions(rb, ra, true) || mergedRegions(ra, rb, false);
    return progress;
  }

  /// A region computed from other inputs (pre-grad `cumsum` of a tensor of ones, post-grad an
  /// `iota` chain) but read by the same paired users: paired when it is the only region of
  /// each side with those users.
  bool sameUsersRegions(const std::vector<Region> &ra, const std::vector<Region> &rb) {
    std::map<std::vector<int32_t>, std::pair<int, int>> counts; // users -> regions in A, B
    for (const Region &r : ra)
      counts[r.outs].first += !r.outs.empty();
    for (const Region &r : rb)
      counts[r.outs].second += !r.outs.empty();
    std::map<std::vector<int32_t>, size_t> onlyA;
    for (size_t k = 0; k < ra.size(); ++k)
      if (auto c = counts[ra[k].outs]; c.first == 1 && c.second == 1)
        onlyA[ra[k].outs] = k;
    bool progress = false;
    for (const Region &r : rb) {
      auto it = onlyA.find(r.outs);
      if (it == onlyA.end())
        continue;
      int32_t g = newGroup(MatchReason::Region);
      for (uint32_t i : ra[it->second].nodes)
        join(g, true, i);
      for (uint32_t j : r.nodes)
        join(g, false, j);
      progress = true;
    }
    return progress;
  }

  static bool subset(const std::vector<int32_t> &x, const std::vector<int32_t> &y) {
    return std::includes(y.begin(), y.end(), x.begin(), x.end());
  }

  /// An op that several separate ones became (pre-grad `amax` and `sum` apart, post-grad one
  /// `prepare_softmax_online` with two getitems): a region of `one` side pairs with every
  /// region of `many` whose paired users are among its own, when together they have exactly
  /// its users and its inputs are among theirs. `oneIsB`: `one` holds B's regions.
  bool mergedRegions(const std::vector<Region> &one, const std::vector<Region> &many, bool oneIsB) {
    std::unordered_map<int32_t, std::vector<size_t>> byOut;
    for (size_t k = 0; k < many.size(); ++k)
      for (int32_t g : many[k].outs)
        byOut[g].push_back(k);
    std::vector<char> used(many.size(), 0);
    bool progress = false;
    for (const Region &r : one) {
      if (r.outs.empty())
        continue;
      std::vector<size_t> parts;
      std::vector<int32_t> outs, ins;
      for (int32_t g : r.outs)
        if (auto it = byOut.find(g); it != byOut.end())
          for (size_t k : it->second)
            if (!used[k] && subset(many[k].outs, r.outs) &&
                std::find(parts.begin(), parts.end(), k) == parts.end()) {
              parts.push_back(k);
              outs.insert(outs.end(), many[k].outs.begin(), many[k].outs.end());
              ins.insert(ins.end(), many[k].ins.begin(), many[k].ins.end());
            }
      if (parts.size() < 2)
        continue;
      for (auto *v : {&ins, &outs}) {
        std::sort(v->begin(), v->end());
        v->erase(std::unique(v->begin(), v->end()), v->end());
      }
      if (outs != r.outs || !subset(r.ins, ins))
        continue;
      int32_t g = newGroup(MatchReason::Region);
      for (uint32_t n : r.nodes)
        join(g, !oneIsB ? true : false, n);
      for (size_t k : parts) {
        used[k] = 1;
        for (uint32_t n : many[k].nodes)
          join(g, oneIsB ? true : false, n);
      }
      progress = true;
    }
    return progress;
  }

  GraphMatch result() {
    GraphMatch m;
    std::vector<int32_t> slot(groups.size(), -1);
    for (uint32_t j = 0; j < B.nodes.size(); ++j) {
      int32_t g = B.group[j];
      if (g < 0) {
        m.added.push_back(B.nodes[j]);
        continue;
      }
      if (slot[g] >= 0)
        continue;
      slot[g] = static_cast<int32_t>(m.pairs.size());
      Group &grp = groups[g];
      std::sort(grp.a.begin(), grp.a.end());
      std::sort(grp.b.begin(), grp.b.end());
      NodeMatchPair p;
      p.reason = grp.reason;
      for (uint32_t i : grp.a)
        p.a.push_back(A.nodes[i]);
      for (uint32_t k : grp.b)
        p.b.push_back(B.nodes[k]);
      m.pairs.push_back(std::move(p));
    }
    for (uint32_t i = 0; i < A.nodes.size(); ++i)
      if (A.group[i] < 0)
        m.removed.push_back(A.nodes[i]);
    m.pairOf.reserve(A.nodes.size() + B.nodes.size());
    for (uint32_t k = 0; k < m.pairs.size(); ++k) {
      for (const Node *n : m.pairs[k].a)
        m.pairOf.emplace(n, k);
      for (const Node *n : m.pairs[k].b)
        m.pairOf.emplace(n, k);
    }
    return m;
  }
};

} // namespace

NodeChange GraphMatch::change(size_t i) const {
  NodeChange c;
  const NodeMatchPair &p = pairs[i];
  // A region, or nodes of two stages that provenance relates (a kernel call and its post-grad
  // op differ in op and arguments by nature): no change to report.
  if (p.a.size() != 1 || p.b.size() != 1 || p.reason == MatchReason::Provenance)
    return c;
  const Node *x = p.a.front();
  const Node *y = p.b.front();
  c.target = x->op() != y->op() || (x->op() != OpKind::Placeholder && x->target() != y->target());
  auto samePair = [&](const Node *a, const Node *b) {
    auto i = pairOf.find(a);
    auto j = pairOf.find(b);
    return i != pairOf.end() && j != pairOf.end() && i->second == j->second;
  };
  c.args = !argsEquivalent(x->args(), y->args(), samePair) ||
           !argsEquivalent(x->kwargs(), y->kwargs(), samePair);
  // A type or Python type only one side knows (a Dynamo graph without types; `Tensor` from a
  // file, none on a rewritten node) is not a change.
  c.type =
      (!x->value().empty() && !y->value().empty() && x->value() != y->value()) ||
      (!x->pythonType().empty() && !y->pythonType().empty() && x->pythonType() != y->pythonType());
  return c;
}

GraphMatch matchGraphs(const Graph &a, const Graph &b, MatchStrategy strategy) {
  return Matcher(a, b).run(strategy);
}

} // namespace fxkit

#include "importers/inductor/WrapperAnalysis.h"

#include "importers/inductor/InductorWrapper.h"
#include "ir/Node.h"
#include "ir/Try.h"

#include <algorithm>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace fxkit {

namespace {

const Argument *kwarg(const Node &n, std::string_view key) {
  for (size_t i = 0; i < n.kwargs().dictSize(); ++i)
    if (n.kwargs().dictKey(i) == key)
      return &n.kwargs().dictValue(i);
  return nullptr;
}

bool isReuse(const Node &n) {
  return n.target() == "torch.as_strided" && kwarg(n, "reuse") != nullptr;
}

/// Bytes of the storage a layout needs: 1 + sum((size - 1) * stride) elements.
Expected<int64_t> storageBytes(const TensorType &t, const SymExpr::Bindings &bindings) {
  int64_t elements = 1;
  for (size_t i = 0; i < t.sizes.size(); ++i) {
    FXKIT_ASSIGN_OR_RETURN(auto size, t.sizes[i].evaluate(bindings));
    if (size == 0)
      return 0;
    FXKIT_ASSIGN_OR_RETURN(auto stride, i < t.strides.size() ? t.strides[i].evaluate(bindings)
                                                             : Expected<int64_t>(1));
    elements += (size - 1) * stride;
  }
  return elements * dtypeItemSize(t.dtype);
}

std::string join(const std::vector<std::string> &v, std::string_view sep = ", ") {
  std::string s;
  for (const auto &x : v)
    s += (s.empty() ? "" : std::string(sep)) + x;
  return s;
}

} // namespace

Expected<WrapperAnalysis> analyzeInductorWrapper(const Graph &wrapper) {
  const InductorWrapperInfo *info = inductorWrapperInfo(wrapper);
  if (!info)
    return Error("not a graph read from Inductor's wrapper code");
  WrapperAnalysis a;
  // Example sizes: get_args() lists the inputs in placeholder order.
  size_t input = 0;
  std::unordered_map<const Node *, const InductorExampleInput *> example;
  for (Node *n : wrapper) {
    if (n->op() != OpKind::Placeholder)
      continue;
    if (input < info->exampleInputs.size()) {
      example[n] = &info->exampleInputs[input];
      if (info->exampleInputs[input].integer && n->value().sym())
        a.bindings[n->name()] = *info->exampleInputs[input].integer;
    }
    ++input;
  }
  // `s0 = arg0_1.size(0)` of an example tensor; symbols computed from data (`u0 = buf.item()`,
  // the size of nonzero's result) have no example value: their allocations count as unknown.
  std::unordered_set<std::string> dataDependent;
  for (Node *n : wrapper) {
    if (n->op() == OpKind::Placeholder || !n->value().sym())
      continue;
    bool shape = n->target() == "torch.ops.aten.sym_size.int" ||
                 n->target() == "torch.ops.aten.sym_stride.int";
    const auto &args = n->args().items();
    const TensorType *t = nullptr;
    if (shape && args.size() == 2 && args[0].isNode() && args[1].kind() == Argument::Kind::Int)
      if (auto it = example.find(args[0].asNode()); it != example.end() && it->second->tensor)
        t = &*it->second->tensor;
    int64_t dim = t ? args[1].asInt() : -1;
    const std::vector<SymExpr> *dims =
        t ? (n->target() == "torch.ops.aten.sym_size.int" ? &t->sizes : &t->strides) : nullptr;
    if (dims && dim >= 0 && dim < static_cast<int64_t>(dims->size()) && (*dims)[dim].isConstant())
      a.bindings[n->name()] = (*dims)[dim].constant();
    else
      dataDependent.insert(n->name());
  }
  std::map<std::string, size_t, std::less<>> kernelIndex;
  for (const auto &k : info->kernels) {
    WrapperAnalysis::Kernel out;
    out.name = k.name;
    out.kind = k.kind == inductor::InductorKernel::Kind::Cpp ? "cpp" : "triton " + k.heuristic;
    out.sourceNodes = k.sourceNodes;
    out.atenOps = k.atenOps;
    kernelIndex[k.name] = a.kernels.size();
    a.kernels.push_back(std::move(out));
  }

  std::unordered_map<const Node *, size_t> storageOf; // a name -> its storage
  int64_t live = 0;
  size_t index = 0;
  auto allocate = [&](const Node &n, std::string how) -> Status {
    const TensorType *t = n.value().tensor();
    WrapperAnalysis::Storage s;
    s.name = n.name();
    s.how = std::move(how);
    bool unbacked = false;
    if (t)
      for (const auto *dims : {&t->sizes, &t->strides})
        for (const SymExpr &x : *dims)
          for (const std::string &sym : x.symbols())
            unbacked = unbacked || (dataDependent.count(sym) && !a.bindings.count(sym));
    if (t && !unbacked) {
      auto bytes = storageBytes(*t, a.bindings);
      if (!bytes)
        return Error("size of " + n.name() + ": " + bytes.error().message +
                     " (get_args() does not give it)");
      s.type = t->str();
      s.bytes = *bytes;
    } else {
      if (t)
        s.type = t->str();
      s.sizeKnown = false;
      ++a.unknownSizes;
    }
    s.allocatedAt = s.lastUse = index;
    storageOf[&n] = a.storages.size();
    a.storages.push_back(std::move(s));
    live += s.bytes;
    if (live > a.peakBytes) {
      a.peakBytes = live;
      a.peakAt = n.name();
    }
    return Status::ok();
  };
  for (Node *n : wrapper) {
    std::string_view t = n->target();
    // Every node that mentions a name uses its storage (views only through their users).
    if (!(t == "torch.as_strided" && !isReuse(*n)) && t != "fxkit.free")
      for (const Node *in : n->inputs())
        if (auto it = storageOf.find(in); it != storageOf.end())
          a.storages[it->second].lastUse = std::max(a.storages[it->second].lastUse, index);
    if (n->op() == OpKind::Output) {
      for (const Node *in : n->inputs())
        if (auto it = storageOf.find(in); it != storageOf.end())
          a.storages[it->second].isOutput = true;
    } else if (t == "fxkit.alloc_from_pool" && n->args().items()[0].isNode() &&
               storageOf.count(n->args().items()[0].asNode())) {
      // A tensor placed in a pool (Inductor's memory_planning): the pool's storage.
      storageOf[n] = storageOf[n->args().items()[0].asNode()];
    } else if (t == "torch.empty_strided" || t == "fxkit.alloc_from_pool") {
      FXKIT_TRY(allocate(*n, std::string(t)));
    } else if (t == "torch.as_strided") {
      const Node *base = n->args().items()[0].asNode();
      if (auto it = storageOf.find(base); it != storageOf.end()) {
        storageOf[n] = it->second;
        if (isReuse(*n))
          a.storages[it->second].reusedAs.push_back(n->name());
      }
    } else if (t == "fxkit.extern") {
      WrapperAnalysis::Extern e;
      e.name = n->name();
      if (const Argument *op = kwarg(*n, "op"))
        e.op = std::string(op->asString());
      if (const Argument *outs = kwarg(*n, "out"))
        for (const Argument &o : outs->items())
          if (o.isNode())
            e.outs.push_back(o.asNode()->name());
      if (e.outs.empty() && n->value().tensor()) { // returns a new tensor
        FXKIT_TRY(allocate(*n, e.op));
      }
      if (e.outs.empty()) // returns its results (one tensor, or a tuple taken apart by getitem)
        e.outs.push_back(n->name());
      a.externs.push_back(std::move(e));
    } else if (t == "operator.getitem") {
      const Node *base = n->args().items()[0].asNode();
      if (base->target() == "fxkit.extern")
        FXKIT_TRY(allocate(*n, "getitem of " + base->name()));
    } else if (t == "fxkit.kernel") {
      if (const Argument *name = kwarg(*n, "name"))
        if (auto it = kernelIndex.find(name->asString()); it != kernelIndex.end())
          ++a.kernels[it->second].launches;
    } else if (t == "fxkit.free") {
      const Node *x = n->args().items()[0].asNode();
      a.frees.push_back(x->name());
      if (auto it = storageOf.find(x); it != storageOf.end()) {
        WrapperAnalysis::Storage &s = a.storages[it->second];
        if (!s.freedAt) {
          s.freedAt = index;
          live -= s.bytes;
        }
      }
    }
    ++index;
  }
  a.statements = index;
  return a;
}

std::string printWrapperAnalysis(const WrapperAnalysis &a) {
  std::ostringstream o;
  if (!a.bindings.empty()) {
    o << "example sizes (get_args):";
    for (const auto &[s, v] : a.bindings)
      o << " " << s << "=" << v;
    o << "\n";
  }
  o << "kernels: " << a.kernels.size() << "\n";
  for (const auto &k : a.kernels) {
    o << "  " << k.name << "  [" << k.kind << "]  launches: " << k.launches << "\n";
    if (!k.sourceNodes.empty())
      o << "    fuses: " << join(k.sourceNodes) << "\n";
    if (!k.atenOps.empty())
      o << "    aten: " << join(k.atenOps) << "\n";
  }
  o << "allocations: " << a.storages.size() << "\n";
  for (const auto &s : a.storages) {
    if (s.sizeKnown)
      o << "  " << s.name << ": " << s.type << "  " << s.bytes << " bytes";
    else
      o << "  " << s.name << ": size unknown "
        << (s.type.empty() ? "(the wrapper gives no layout)"
                           : "(" + s.type + ": its sizes depend on data)");
    if (s.how != "torch.empty_strided")
      o << "  (" << s.how << ")";
    if (!s.reusedAs.empty())
      o << "  reused as " << join(s.reusedAs);
    o << (s.freedAt ? "" : s.isOutput ? "  [output]" : "  [live at return]") << "\n";
  }
  o << "frees: " << a.frees.size();
  if (!a.frees.empty())
    o << "  (" << join(a.frees, " ") << ")";
  o << "\n";
  o << "extern calls: " << a.externs.size() << "\n";
  for (const auto &e : a.externs)
    o << "  " << e.op << " -> " << join(e.outs) << "\n";
  o << "peak bytes: " << a.peakBytes << (a.peakAt.empty() ? "" : "  (at " + a.peakAt + ")");
  if (a.unknownSizes)
    o << "  not counting " << a.unknownSizes << " allocation(s) of unknown size";
  o << "\n";
  return o.str();
}

} // namespace fxkit

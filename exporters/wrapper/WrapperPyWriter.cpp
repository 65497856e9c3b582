#include "exporters/wrapper/WrapperPyWriter.h"

#include "exporters/PyRepr.h"
#include "exporters/wrapper/PyKernelWriter.h"
#include "exporters/wrapper/PySymExpr.h"
#include "exporters/wrapper/WrapperSignature.h"
#include "ir/Node.h"
#include "ir/ops/ArgumentNodes.h"
#include "ir/ops/OpRegistry.h"
#include "ir/ops/ShapeRules.h"
#include "transforms/CompilationState.h"

#include <cctype>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace fxkit {

using namespace loop;

namespace {

std::string sizeText(const SymExpr &e) { return pySymExpr(e.isConstant() ? e : e.simplify()); }

std::string tupleText(const std::vector<SymExpr> &xs) {
  std::string out = "(";
  for (size_t i = 0; i < xs.size(); ++i)
    out += (i ? ", " : "") + sizeText(xs[i]);
  return out + (xs.size() == 1 ? ",)" : ")");
}

const char *const kModuleHelpers = R"PY(def assert_size_stride(t, size, stride, name):
    if tuple(t.size()) != tuple(size):
        raise AssertionError(f"{name}: expected size {tuple(size)}, got {tuple(t.size())}")
    for d, (n, s) in enumerate(zip(size, stride)):
        if n > 1 and t.stride(d) != s:
            raise AssertionError(f"{name}: expected stride {tuple(stride)}, got {t.stride()}")


def reinterpret_tensor(t, size, stride, offset=0, dtype=None):
    # A view of t's storage starting at t's own storage offset plus `offset` elements.
    if dtype is not None and dtype != t.dtype:
        # Storage reused under another dtype: the bytes from t's start, retyped.
        numel = t.untyped_storage().nbytes() // t.element_size() - t.storage_offset()
        itemsize = torch.empty((), dtype=dtype).element_size()
        numel = numel * t.element_size() // itemsize * itemsize // t.element_size()
        t = torch.as_strided(t, (numel,), (1,), t.storage_offset()).view(dtype)
    return t.as_strided(size, stride, t.storage_offset() + offset)


def alloc_from_pool(pool, offset, dtype, size, stride):
    # `offset` bytes into the pool: the buffer's bytes, typed, then laid out.
    itemsize = torch.empty((), dtype=dtype).element_size()
    numel = 0 if 0 in size else 1 + sum((n - 1) * s for n, s in zip(size, stride))
    raw = pool[offset:offset + max(numel, 1) * itemsize]
    return raw.view(dtype).as_strided(size, stride)


def rand_strided(size, stride, dtype=torch.float32, device="cpu"):
    numel = 0 if 0 in size else 1 + sum((n - 1) * s for n, s in zip(size, stride))
    if dtype.is_floating_point:
        flat = torch.randn(numel, dtype=dtype, device=device)
    elif dtype == torch.bool:
        flat = torch.randint(0, 2, (numel,), device=device).to(torch.bool)
    else:
        flat = torch.randint(0, 2, (numel,), device=device).to(dtype)
    return torch.as_strided(flat, size, stride)
)PY";

class ModuleWriter {
public:
  ModuleWriter(const LoopProgram &p, const FusedProgram &f, const MemoryPlan *plan)
      : p_(p), f_(f), plan_(plan) {}
  Expected<std::string> run();

private:
  void line(const std::string &s) {
    call_ += "    ";
    call_ += s;
    call_ += '\n';
  }
  std::string viewText(const BufferView &v);
  Status allocate(int32_t b);
  Status emitKernel(const Kernel &k);
  Status emitExtern(const Kernel &k);
  Expected<std::string> externArg(const Argument &a,
                                  const std::map<const Node *, BufferView> &views);

  const LoopProgram &p_;
  const FusedProgram &f_;
  const MemoryPlan *plan_;
  std::string kernels_, call_;
  std::vector<std::string> names_; ///< per buffer: its Python name once allocated
  /// Kernel name and code (as generated, under its own name) -> the function it is emitted as.
  std::unordered_map<std::string, std::string> functionOf_;
  std::unordered_set<std::string> functions_;        ///< names of the emitted functions
  std::unordered_map<std::string, int> nextVariant_; ///< kernel name -> next `_vN` to try
  std::map<int32_t, int> reusers_; ///< buffer -> Own buffers yet to take its storage
  bool pool_ = false;
};

std::string ModuleWriter::viewText(const BufferView &v) {
  const TensorType &t = p_.buffers[v.buffer].type;
  bool whole = symIs(v.offset, 0) && v.sizes.size() == t.sizes.size();
  for (size_t i = 0; whole && i < v.sizes.size(); ++i)
    whole = symEq(v.sizes[i], t.sizes[i]) && symEq(v.strides[i], t.strides[i]);
  if (whole)
    return names_[v.buffer];
  return "reinterpret_tensor(" + names_[v.buffer] + ", " + tupleText(v.sizes) + ", " +
         tupleText(v.strides) + ", " + sizeText(v.offset) + ")";
}

Status ModuleWriter::allocate(int32_t b) {
  const Buffer &buf = p_.buffers[b];
  const BufferPlacement *place = plan_ ? &plan_->buffers[b] : nullptr;
  std::string sizes = tupleText(buf.type.sizes), strides = tupleText(buf.type.strides);
  std::string dtype = pyTorchDType(buf.type.dtype);
  if (place && place->kind == BufferPlacement::Kind::Pool && pool_) {
    line(buf.name + " = alloc_from_pool(pool, " + std::to_string(place->offset) + ", " + dtype +
         ", " + sizes + ", " + strides + ")");
  } else if (place && (place->kind == BufferPlacement::Kind::InPlace ||
                       (place->kind == BufferPlacement::Kind::Own && place->reuseOf >= 0))) {
    bool inPlace = place->kind == BufferPlacement::Kind::InPlace;
    int32_t from = inPlace ? place->inPlaceOf : place->reuseOf;
    if (from < 0 || names_[from].empty())
      return Error("wrapper-py: " + buf.name + " reuses a buffer that was never allocated");
    std::string retype = p_.buffers[from].type.dtype == buf.type.dtype ? "" : ", 0, " + dtype;
    std::string text = buf.name + " = reinterpret_tensor(" + names_[from] + ", " + sizes + ", " +
                       strides + retype + ")";
    // In place: the donor is read by the kernel that writes this, so it goes after it.
    if (!inPlace && --reusers_[from] == 0 && !p_.buffers[from].isInput)
      text += "; del " + names_[from];
    line(text + "  # reuse");
  } else {
    line(buf.name + " = empty_strided(" + sizes + ", " + strides + ", dtype=" + dtype +
         ", device=device)");
  }
  names_[b] = buf.name;
  return Status::ok();
}

Status ModuleWriter::emitKernel(const Kernel &k) {
  auto kernel = writePyKernel(p_, k, k.name);
  if (!kernel)
    return kernel.takeError();
  // Kernels with one signature share one definition; a name whose code differs gets its own
  // (`NAME_v1`, `NAME_v2`, ...). One lookup per launch: probing the variants in order for every
  // launch was quadratic (50k kernels: 3.4 s).
  std::string key = k.name + '\n' + kernel->code;
  std::string name;
  if (auto it = functionOf_.find(key); it != functionOf_.end()) {
    name = it->second;
  } else {
    int &n = nextVariant_[k.name];
    do {
      name = n == 0 ? k.name : k.name + "_v" + std::to_string(n);
      ++n;
    } while (functions_.count(name));
    std::string code = kernel->code;
    code.replace(4, k.name.size(), name);
    kernels_ += "\n\n" + code + "\n";
    functions_.insert(name);
    functionOf_.emplace(std::move(key), name);
  }
  std::string args;
  for (const PyKernelParam &param : kernel->params) {
    args += args.empty() ? "" : ", ";
    args += param.buffer >= 0 ? names_[param.buffer] : sizeText(param.size);
  }
  line(name + "(" + args + ")");
  return Status::ok();
}

Expected<std::string> ModuleWriter::externArg(const Argument &a,
                                              const std::map<const Node *, BufferView> &views) {
  using K = Argument::Kind;
  switch (a.kind()) {
  case K::NodeRef: {
    const Node *n = a.asNode();
    if (auto it = views.find(n); it != views.end())
      return viewText(it->second);
    if (const SymExpr *s = n->value().sym())
      return sizeText(*s);
    return Error("wrapper-py: extern argument '" + n->name() + "' is neither a tensor nor a size");
  }
  case K::Sym:
    return sizeText(a.asSym());
  case K::Device:
    // Wherever the inputs live, not where the graph was captured.
    return std::string("device");
  case K::List:
  case K::Tuple: {
    std::string out = a.kind() == K::List ? "[" : "(";
    for (size_t i = 0; i < a.items().size(); ++i) {
      auto item = externArg(a.items()[i], views);
      if (!item)
        return item;
      out += (i ? ", " : "") + *item;
    }
    if (a.kind() == K::Tuple && a.items().size() == 1)
      out += ",";
    return out + (a.kind() == K::List ? "]" : ")");
  }
  default: {
    std::string out;
    printPyArg(out, a);
    return out;
  }
  }
}

Status ModuleWriter::emitExtern(const Kernel &k) {
  const LoopOp &op = p_.ops[k.ops.front()];
  const Node *node = op.externNode;
  if (!node)
    return Error("wrapper-py: extern kernel " + k.name + " has no ATen node");
  // The node's tensor inputs in schema order are the op's externInputs.
  std::map<const Node *, BufferView> views;
  const OpInfo *info = OpRegistry::instance().lookup(node->target());
  if (!info)
    return Error("wrapper-py: unknown extern op " + std::string(node->target()));
  auto bound = bindArgs(*node, *info);
  if (!bound)
    return bound.takeError();
  size_t next = 0;
  for (const Node *in : argumentNodes(*bound)) {
    if (in->value().sym() || views.count(in))
      continue;
    if (next >= op.externInputs.size())
      return Error("wrapper-py: extern op '" + node->name() + "' has more inputs than lowered");
    views[in] = op.externInputs[next++];
  }
  std::string args;
  for (const Argument &a : node->args().items()) {
    auto text = externArg(a, views);
    if (!text)
      return text.takeError();
    args += (args.empty() ? "" : ", ") + *text;
  }
  const auto &kw = node->kwargs().items();
  for (size_t i = 0; i + 1 < kw.size(); i += 2) {
    auto text = externArg(kw[i + 1], views);
    if (!text)
      return text.takeError();
    args += (args.empty() ? "" : ", ") + std::string(kw[i].asString()) + "=" + *text;
  }
  std::string origins;
  for (const std::string &o : op.origins)
    origins += (origins.empty() ? "" : ", ") + o;
  line("# " + op.name + ": extern " + std::string(node->target()) + " (" + origins + ")");
  line("extern_out = " + std::string(node->target()) + "(" + args + ")");
  bool single = op.externOutputs.size() == 1 && node->value().tensor();
  auto result = [&](int32_t i) {
    return "extern_out" + (single || i < 0 ? std::string() : "[" + std::to_string(i) + "]");
  };
  // Unbacked symbols it defines (Inductor's codegen_unbacked_symbol_defs: `u0 = buf.item()`,
  // `u1 = buf.size(0)`), then the buffers they size, then the checks they decide.
  for (const SymbolDef &d : op.defines)
    line(d.symbol + " = " +
         (d.output < 0 ? result(-1) : result(d.output) + ".size(" + std::to_string(d.dim) + ")"));
  for (const RuntimeCheck &c : op.checks) {
    std::string message;
    printPyArg(message, Argument::string(c.message + " (node " + c.node + ")"));
    line("if not (" + pySymExpr(c.condition) + "):");
    line("    raise RuntimeError(" + message + ")");
  }
  for (size_t i = 0; i < op.externOutputs.size(); ++i)
    if (op.externOutputs[i] >= 0 && op.definesSizeOf(i))
      if (Status s = allocate(op.externOutputs[i]); !s)
        return s;
  for (size_t i = 0; i < op.externOutputs.size(); ++i) {
    int32_t b = op.externOutputs[i];
    if (b < 0)
      continue;
    line(names_[b] + ".copy_(" + result(static_cast<int32_t>(i)) + ")");
  }
  line("del extern_out");
  return Status::ok();
}

Expected<std::string> ModuleWriter::run() {
  names_.assign(p_.buffers.size(), "");
  if (plan_ && plan_->buffers.size() != p_.buffers.size())
    return Error("wrapper-py: the memory plan does not match the program");
  if (plan_)
    for (const BufferPlacement &b : plan_->buffers)
      if (b.kind == BufferPlacement::Kind::Own && b.reuseOf >= 0)
        ++reusers_[b.reuseOf];

  // Inputs, size symbols, checks.
  std::vector<std::string> inputNames;
  std::set<std::string, std::less<>> bound;
  std::string getArgs;
  for (const WrapperParam &param : wrapperSignature(p_)) {
    inputNames.push_back(param.name);
    if (param.buffer < 0)
      bound.insert(param.name);
    else
      names_[param.buffer] = param.name;
  }
  std::string unpack;
  for (const std::string &n : inputNames)
    unpack += n + ", ";
  line(inputNames.empty()
           ? "assert not args"
           : unpack.substr(0, unpack.size() - 2) + (inputNames.size() == 1 ? "," : "") + " = args");
  line("args.clear()");
  std::set<std::string> hinted;
  for (size_t i = 0; i < p_.inputs.size(); ++i) {
    int32_t b = p_.inputs[i];
    if (b < 0)
      continue;
    const TensorType &t = p_.buffers[b].type;
    for (size_t d = 0; d < t.sizes.size(); ++d) {
      const SymExpr &s = t.sizes[d];
      if (s.isConstant() || s.kind() != SymExpr::Kind::Symbol || bound.count(s.name()))
        continue;
      bound.insert(std::string(s.name()));
      line(std::string(s.name()) + " = " + names_[b] + ".size(" + std::to_string(d) + ")");
    }
  }
  std::string firstTensor;
  for (size_t i = 0; i < p_.inputs.size(); ++i) {
    int32_t b = p_.inputs[i];
    if (b < 0)
      continue;
    const TensorType &t = p_.buffers[b].type;
    line("assert_size_stride(" + names_[b] + ", " + tupleText(t.sizes) + ", " +
         tupleText(t.strides) + ", '" + names_[b] + "')");
    if (firstTensor.empty())
      firstTensor = names_[b];
  }
  line(firstTensor.empty()
           ? std::string("device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')")
           : "device = " + firstTensor + ".device");
  if (plan_ && !plan_->symbolic && plan_->poolBytes > 0) {
    pool_ = true;
    line("pool = empty_strided((" + std::to_string(plan_->poolBytes) +
         ",), (1,), dtype=torch.uint8, device=device)");
  }

  for (size_t ki = 0; ki < f_.kernels.size(); ++ki) {
    const Kernel &k = f_.kernels[ki];
    // An extern output sized by a symbol the call binds is allocated after it (emitExtern).
    auto [writes, sizedByCall] = launchWrites(p_, k);
    for (int32_t b : writes)
      if (names_[b].empty() && !sizedByCall.count(b))
        if (Status s = allocate(b); !s)
          return s.takeError();
    Status s = k.isExtern ? emitExtern(k) : emitKernel(k);
    if (!s)
      return s.takeError();
    // Donors of in-place results die in the kernel that took their storage.
    for (int32_t b : writes) {
      const BufferPlacement *place = plan_ ? &plan_->buffers[b] : nullptr;
      if (place && place->kind == BufferPlacement::Kind::InPlace && place->inPlaceOf >= 0 &&
          !p_.buffers[place->inPlaceOf].isInput && !p_.buffers[place->inPlaceOf].isOutput &&
          !names_[place->inPlaceOf].empty())
        line("del " + names_[place->inPlaceOf]);
    }
    if (plan_ && ki < plan_->freedAfter.size())
      for (int32_t b : plan_->freedAfter[ki])
        if (!names_[b].empty() && !p_.buffers[b].isInput && reusers_[b] == 0)
          line("del " + names_[b]);
  }
  std::string outs;
  for (const LoopProgram::Output &o : p_.outputs) {
    std::string text;
    if (o.isNone)
      text = "None";
    else if (o.view.buffer < 0)
      text = sizeText(o.symbol);
    else if (names_[o.view.buffer].empty())
      return Error("wrapper-py: output buffer " + p_.buffers[o.view.buffer].name +
                   " is never written");
    else
      text = viewText(o.view);
    outs += (outs.empty() ? "" : ", ") + text;
  }
  line("return (" + outs + (p_.outputs.size() == 1 ? ",)" : ")"));

  // get_args(): every size symbol at a hint, then inputs laid out as declared.
  std::string args;
  std::set<std::string> symbols;
  for (size_t i = 0; i < p_.inputs.size(); ++i) {
    int32_t b = p_.inputs[i];
    if (b < 0) {
      symbols.insert(inputNames[i]);
      continue;
    }
    for (const std::string &s : symProduct(p_.buffers[b].type.sizes).symbols())
      symbols.insert(s);
  }
  std::string harness =
      "def get_args():\n"
      "    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n";
  for (const std::string &s : symbols)
    harness += "    " + s + " = 8  # size hint\n";
  std::string list;
  for (size_t i = 0; i < p_.inputs.size(); ++i) {
    int32_t b = p_.inputs[i];
    if (b >= 0) {
      const TensorType &t = p_.buffers[b].type;
      harness += "    " + inputNames[i] + " = rand_strided(" + tupleText(t.sizes) + ", " +
                 tupleText(t.strides) + ", dtype=" + pyTorchDType(t.dtype) + ", device=device)\n";
    }
    list += (list.empty() ? "" : ", ") + inputNames[i];
  }
  harness += "    return [" + list + "]\n";
  harness += R"PY(

def benchmark_compiled_module(times=10, repeat=10):
    args = get_args()

    def sync():
        if torch.cuda.is_available():
            torch.cuda.synchronize()

    call(list(args))
    best = float("inf")
    for _ in range(repeat):
        sync()
        start = time.perf_counter()
        for _ in range(times):
            call(list(args))
        sync()
        best = min(best, (time.perf_counter() - start) / times)
    print(f"{best * 1e3:.6f} ms")
    return best


if __name__ == "__main__":
    benchmark_compiled_module()
)PY";

  size_t generated = 0, externs = 0;
  for (const Kernel &k : f_.kernels)
    (k.isExtern ? externs : generated)++;
  std::string out;
  out += "# Generated by fxkit (--to wrapper-py): " + std::to_string(generated) +
         " generated kernel launches, " + std::to_string(externs) + " extern calls";
  if (pool_)
    out += ", one pool of " + std::to_string(plan_->poolBytes) + " bytes";
  out += ".\n# Needs only PyTorch (CPU or GPU): kernels are PyTorch functions that index the\n"
         "# flat storage of their buffers exactly as the fused loop program does.\n\n";
  out += "import time\n\nimport torch\nfrom torch import empty_strided\n\n\n";
  out += kPySymHelpers;
  out += "\n\n";
  out += kPyKernelHelpers;
  out += "\n\n";
  out += kModuleHelpers;
  out += kernels_;
  out += "\n\ndef call(args):\n" + call_;
  out += "\n\n" + harness;
  return out;
}

} // namespace

Expected<std::string> writeWrapperPy(const LoopProgram &program, const FusedProgram &fused,
                                     const MemoryPlan *plan) {
  return ModuleWriter(program, fused, plan).run();
}

Expected<std::string> writeWrapperPy(Graph &graph) {
  CompilationState *state = compilationState(graph);
  if (!state || !state->program || !state->fused)
    return Error("wrapper-py needs the compiled program: run the passes lower and fuse "
                 "(--passes lower,fuse,plan,wrapper)");
  return writeWrapperPy(*state->program, *state->fused, state->plan ? &*state->plan : nullptr);
}

} // namespace fxkit

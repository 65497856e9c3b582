#include "exporters/wrapper/WrapperPyWriter.h"

#include "exporters/PyRepr.h"
#include "exporters/wrapper/PyKernelWriter.h"
#include "exporters/wrapper/PySymExpr.h"
#include "exporters/wrapper/WrapperSignature.h"
#include "ir/Node.h"
#include "ir/Try.h"
#include "ir/ops/ShapeRules.h"
#include "ir/wrapper/WrapperDialect.h"
#include "transforms/CompilationState.h"
#include "transforms/WrapperGraph.h"

#include <cctype>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace fxkit {

using namespace loop;

namespace {

std::string exprText(const SymExpr &e) { return pySymExpr(e.isConstant() ? e : e.simplify()); }

std::string tupleText(const std::vector<SymExpr> &xs) {
  std::string out = "(";
  for (size_t i = 0; i < xs.size(); ++i)
    out += (i ? ", " : "") + exprText(xs[i]);
  return out + (xs.size() == 1 ? ",)" : ")");
}

const char *const kModuleHelpers =
    R"PY(# Inductor's nan_asserts: FXKIT_NAN_ASSERTS=1 checks every floating-point buffer a kernel
# wrote for NaN and infinity (as the C++ wrapper's runtime does).
nan_asserts = os.environ.get("FXKIT_NAN_ASSERTS", "0") not in ("", "0")


def check_finite(t, buffer, kernel):
    bad = ~torch.isfinite(t)
    if bad.any():
        index = [int(i) for i in bad.nonzero()[0]]
        v = t[tuple(index)].item()
        what = "NaN" if v != v else ("inf" if v > 0 else "-inf")
        raise AssertionError(
            f"nan_asserts: buffer {buffer} written by kernel {kernel} holds {what} at {index}")


def assert_size_stride(t, size, stride, name):
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

/// Prints a wrapper graph (transforms/WrapperGraph.h) line by line. The loop program and its
/// kernels give only what the graph names but does not spell: the body of the kernel a launch
/// names (PyKernelWriter.h) and the ATen call of an extern launch.
class ModuleWriter : WrapperWalk {
public:
  using WrapperWalk::WrapperWalk;
  Expected<std::string> run();

private:
  void line(const std::string &s) {
    call_ += "    ";
    call_ += s;
    call_ += '\n';
  }
  Expected<std::string> printSize(const SymExpr &e) const override { return pySymExpr(e); }
  /// A tensor argument: a buffer's name, or a view of one as reinterpret_tensor.
  Expected<std::string> tensorText(const Node *n);
  Status pool(int64_t bytes) override {
    line("pool = empty_strided((" + std::to_string(bytes) +
         ",), (1,), dtype=torch.uint8, device=device)");
    return Status::ok();
  }
  Status allocation(const Node &n) override;
  Status kernel(const Node &n, const wrapper::KernelCall &call, const Kernel &k) override;
  Status externCall(const Node &n, const wrapper::ExternCall &call, const LoopOp &op,
                    const wrapper::ExternResults &results) override;
  void release(const std::string &value) override { line("del " + value); }
  Status output(const Node &n) override;
  Expected<std::string> externArg(const Argument &a,
                                  const std::map<const Node *, const Argument *> &views);
  bool isOutput(const Node *n) const;

  std::string kernels_, call_;
  /// Kernel name and code (as generated, under its own name) -> the function it is emitted as.
  std::unordered_map<std::string, std::string> functionOf_;
  std::unordered_set<std::string> functions_;        ///< names of the emitted functions
  std::unordered_map<std::string, int> nextVariant_; ///< kernel name -> next `_vN` to try
};

Expected<std::string> ModuleWriter::tensorText(const Node *n) {
  if (wrapper::wrapperOpOf(*n) != wrapper::WrapperOp::View)
    return valueOf(n);
  const auto &args = n->args().items();
  const TensorType *t = n->value().tensor();
  if (args.size() < 4 || !args[0].isNode() || !t)
    return Error("wrapper-py: view '" + n->name() + "' has no base or type");
  auto base = valueOf(args[0].asNode());
  if (!base)
    return base;
  auto offset = sizeText(args[3]);
  if (!offset)
    return offset;
  return "reinterpret_tensor(" + *base + ", " + tupleText(t->sizes) + ", " + tupleText(t->strides) +
         ", " + *offset + ")";
}

Status ModuleWriter::output(const Node &n) {
  const Argument &values = n.args().items().at(0);
  std::string outs;
  for (const Argument &o : values.items()) {
    Expected<std::string> text = std::string("None");
    if (o.isNode() && o.asNode()->value().tensor())
      text = tensorText(o.asNode());
    else if (!o.isNone())
      text = sizeText(o);
    if (!text)
      return text.takeError();
    outs += (outs.empty() ? "" : ", ") + *text;
  }
  line("return (" + outs + (values.items().size() == 1 ? ",)" : ")"));
  return Status::ok();
}

bool ModuleWriter::isOutput(const Node *n) const {
  for (const Node *u : n->users()) {
    if (u->op() == OpKind::Output)
      return true;
    if (wrapper::wrapperOpOf(*u) == wrapper::WrapperOp::View)
      for (const Node *v : u->users())
        if (v->op() == OpKind::Output)
          return true;
  }
  return false;
}

Status ModuleWriter::allocation(const Node &n) {
  const TensorType *t = n.value().tensor();
  if (!t)
    return Error("wrapper-py: allocation '" + n.name() + "' has no type");
  std::string sizes = tupleText(t->sizes), strides = tupleText(t->strides);
  std::string dtype = pyTorchDType(t->dtype);
  const auto &args = n.args().items();
  switch (wrapper::wrapperOpOf(n)) {
  case wrapper::WrapperOp::AllocFromPool:
    if (args.size() < 2 || args[1].kind() != Argument::Kind::Int)
      return Error("wrapper-py: pool buffer '" + n.name() + "' has no offset");
    line(n.name() + " = alloc_from_pool(pool, " + std::to_string(args[1].asInt()) + ", " + dtype +
         ", " + sizes + ", " + strides + ")");
    break;
  case wrapper::WrapperOp::Reuse: {
    auto r = wrapper::asReuse(n);
    auto donor = valueOf(r->donor);
    if (!donor)
      return Error("wrapper-py: " + n.name() + " reuses a buffer that was never allocated");
    const TensorType *dt = r->donor->value().tensor();
    std::string retype = dt && dt->dtype == t->dtype ? "" : ", 0, " + dtype;
    std::string text =
        n.name() + " = reinterpret_tensor(" + *donor + ", " + sizes + ", " + strides + retype + ")";
    // In place: the donor is read by the kernel that writes this, so it goes after it.
    if (!r->inPlace && reusersLeft(r->donor) == 0 && r->donor->op() != OpKind::Placeholder)
      text += "; del " + *donor;
    line(text + "  # reuse");
    break;
  }
  default:
    line(n.name() + " = empty_strided(" + sizes + ", " + strides + ", dtype=" + dtype +
         ", device=device)");
  }
  values_[&n] = n.name();
  return Status::ok();
}

Status ModuleWriter::kernel(const Node &n, const wrapper::KernelCall &call, const Kernel &k) {
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
    int &v = nextVariant_[k.name];
    do {
      name = v == 0 ? k.name : k.name + "_v" + std::to_string(v);
      ++v;
    } while (functions_.count(name));
    std::string code = kernel->code;
    code.replace(4, k.name.size(), name);
    kernels_ += "\n\n" + code + "\n";
    functions_.insert(name);
    functionOf_.emplace(std::move(key), name);
  }
  // The launch's arguments by parameter name; a symbol the kernel body reads beyond those the
  // launch passes is the symbol itself.
  std::map<std::string_view, const Argument *> byName;
  for (size_t i = 0; i < call.args->dictSize(); ++i)
    byName[call.args->dictKey(i)] = &call.args->dictValue(i);
  std::string args;
  std::vector<std::string> nanChecks; ///< Inductor's nan_asserts: after the launch, when on
  for (const PyKernelParam &param : kernel->params) {
    auto it = byName.find(param.name);
    std::string text;
    if (param.buffer >= 0) {
      if (it == byName.end() || !it->second->isNode())
        return Error("wrapper-py: launch '" + n.name() + "' passes no buffer as " + param.name);
      auto b = valueOf(it->second->asNode());
      if (!b)
        return b.takeError();
      text = b.take();
      const TensorType *t = it->second->asNode()->value().tensor();
      if (param.name.starts_with("out_ptr") && t && dtypeIsFloating(t->dtype))
        nanChecks.push_back("if nan_asserts: check_finite(" + text + ", '" +
                            it->second->asNode()->name() + "', '" + k.name + "')");
    } else if (it == byName.end()) {
      text = exprText(param.size);
    } else {
      auto e = sizeText(*it->second);
      if (!e)
        return e.takeError();
      text = e.take();
    }
    args += args.empty() ? "" : ", ";
    args += text;
  }
  line(name + "(" + args + ")");
  for (const std::string &check : nanChecks)
    line(check);
  // Donors of in-place results die in the kernel that took their storage.
  for (size_t i = 0; i < call.args->dictSize(); ++i) {
    const Argument &a = call.args->dictValue(i);
    if (!call.args->dictKey(i).starts_with("out_ptr") || !a.isNode())
      continue;
    auto r = wrapper::asReuse(*a.asNode());
    if (r && r->inPlace && r->donor->op() != OpKind::Placeholder && !isOutput(r->donor) &&
        values_.count(r->donor))
      release(values_[r->donor]);
  }
  return Status::ok();
}

Expected<std::string>
ModuleWriter::externArg(const Argument &a, const std::map<const Node *, const Argument *> &views) {
  using K = Argument::Kind;
  switch (a.kind()) {
  case K::NodeRef: {
    const Node *n = a.asNode();
    if (auto it = views.find(n); it != views.end()) {
      if (!it->second->isNode())
        return Error("wrapper-py: extern input of '" + n->name() + "' is not a tensor");
      return tensorText(it->second->asNode());
    }
    if (const SymExpr *s = n->value().sym())
      return exprText(*s);
    return Error("wrapper-py: extern argument '" + n->name() + "' is neither a tensor nor a size");
  }
  case K::Sym:
    return exprText(a.asSym());
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

Status ModuleWriter::externCall(const Node &n, const wrapper::ExternCall &call, const LoopOp &op,
                                const wrapper::ExternResults &results) {
  const Node *node = op.externNode;
  // The node's tensor inputs in schema order are the call's inputs.
  FXKIT_ASSIGN_OR_RETURN(auto operands, externOperands(call, op, "wrapper-py"));
  std::map<const Node *, const Argument *> views;
  for (const ExternOperand &o : operands)
    if (o.input)
      views[o.node] = o.input;
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
  const auto &outs = call.out->items();
  bool single = outs.size() == 1 && node->value().tensor();
  auto result = [&](int64_t i) {
    return "extern_out" + (single || i < 0 ? std::string() : "[" + std::to_string(i) + "]");
  };
  // The unbacked symbols it binds (Inductor's codegen_unbacked_symbol_defs: `u0 = buf.item()`,
  // `u1 = buf.size(0)`), the checks they decide, then the results it sized.
  for (const wrapper::ExternResults::Symbol &s : results.symbols)
    line(std::string(s.name) + " = " + result(s.output) +
         (s.output < 0 ? "" : ".size(" + std::to_string(s.dim) + ")"));
  for (const Node *c : results.checks) {
    std::string message;
    printPyArg(message, c->args().items()[1]);
    line("if not (" + pySymExpr(c->args().items()[0].asSym()) + "):");
    line("    raise RuntimeError(" + message + ")");
  }
  // The buffers of results the call sized, named as the loop program names them.
  for (const auto &[i, r] : results.sized) {
    const TensorType *t = r->value().tensor();
    if (!t || i >= static_cast<int64_t>(op.externOutputs.size()) || op.externOutputs[i] < 0)
      return Error("wrapper-py: extern result '" + r->name() + "' has no buffer");
    std::string name = p_.buffers[op.externOutputs[i]].name;
    line(name + " = empty_strided(" + tupleText(t->sizes) + ", " + tupleText(t->strides) +
         ", dtype=" + pyTorchDType(t->dtype) + ", device=device)");
    values_[r] = name;
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    const Node *b = outs[i].isNode() ? outs[i].asNode() : nullptr;
    if (auto it = results.sized.find(static_cast<int64_t>(i)); !b && it != results.sized.end())
      b = it->second;
    if (!b)
      continue;
    auto name = valueOf(b);
    if (!name)
      return name.takeError();
    line(*name + ".copy_(" + result(static_cast<int64_t>(i)) + ")");
  }
  line("del extern_out");
  return Status::ok();
}

Expected<std::string> ModuleWriter::run() {
  WrapperEntry entry = wrapperEntry(w_);
  std::vector<std::string> inputNames;
  std::vector<const Node *> inputs;
  for (const WrapperParam &param : entry.params) {
    inputNames.push_back(param.name);
    inputs.push_back(param.node);
    values_[param.node] = param.name;
  }
  std::string unpack;
  for (const std::string &name : inputNames)
    unpack += name + ", ";
  line(inputNames.empty()
           ? "assert not args"
           : unpack.substr(0, unpack.size() - 2) + (inputNames.size() == 1 ? "," : "") + " = args");
  line("args.clear()");
  // Sizes of tensor inputs that bind symbols.
  for (const Node *s : entry.inputSizes)
    line(std::string(s->value().sym()->name()) + " = " + values_[s->args().items()[0].asNode()] +
         ".size(" + std::to_string(s->args().items()[1].asInt()) + ")");
  std::string firstTensor;
  for (const Node *in : inputs) {
    const TensorType *t = in->value().tensor();
    if (!t)
      continue;
    const std::string &name = values_[in];
    line("assert_size_stride(" + name + ", " + tupleText(t->sizes) + ", " + tupleText(t->strides) +
         ", '" + name + "')");
    if (firstTensor.empty())
      firstTensor = name;
  }
  line(firstTensor.empty()
           ? std::string("device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')")
           : "device = " + firstTensor + ".device");
  if (Status s = walk(entry.body); !s)
    return s.takeError();

  // get_args(): every size symbol at a hint, then inputs laid out as declared.
  std::string args;
  std::set<std::string> symbols;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorType *t = inputs[i]->value().tensor();
    if (!t) {
      symbols.insert(inputNames[i]);
      continue;
    }
    for (const std::string &s : symProduct(t->sizes).symbols())
      symbols.insert(s);
  }
  std::string harness =
      "def get_args():\n"
      "    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n";
  for (const std::string &s : symbols)
    harness += "    " + s + " = 8  # size hint\n";
  std::string list;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (const TensorType *t = inputs[i]->value().tensor())
      harness += "    " + inputNames[i] + " = rand_strided(" + tupleText(t->sizes) + ", " +
                 tupleText(t->strides) + ", dtype=" + pyTorchDType(t->dtype) + ", device=device)\n";
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

  std::string out;
  out += "# Generated by fxkit (--to wrapper-py): " + std::to_string(launches_) +
         " generated kernel launches, " + std::to_string(externs_) + " extern calls";
  if (poolBytes_ >= 0)
    out += ", one pool of " + std::to_string(poolBytes_) + " bytes";
  out += ".\n# Needs only PyTorch (CPU or GPU): kernels are PyTorch functions that index the\n"
         "# flat storage of their buffers exactly as the fused loop program does.\n\n";
  out += "import os\nimport time\n\nimport torch\nfrom torch import empty_strided\n\n\n";
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
  if (plan && plan->buffers.size() != program.buffers.size())
    return Error("wrapper-py: the memory plan does not match the program");
  auto wrapper = buildWrapperGraph(program, fused, plan);
  if (!wrapper)
    return wrapper.takeError();
  return ModuleWriter(program, fused, *wrapper, "wrapper-py").run();
}

Expected<std::string> writeWrapperPy(Graph &graph) {
  CompilationState *state = compilationState(graph);
  if (!state || !state->program || !state->fused)
    return Error("wrapper-py needs the compiled program: run the passes lower and fuse "
                 "(--passes lower,fuse,plan,wrapper)");
  return writeWrapperPy(*state->program, *state->fused, state->plan ? &*state->plan : nullptr);
}

} // namespace fxkit

#include "exporters/wrapper/InductorModule.h"

#include "exporters/wrapper/FxIrWriter.h"
#include "exporters/wrapper/InductorFxIr.h"
#include "importers/inductor/InductorWrapper.h"
#include "ir/Node.h"

namespace fxkit {

namespace {

using inductor::InductorKernel;

/// The body of a `'''...'''` Python string whose value is `text`: backslashes doubled, and a
/// quote escaped where it would close the string (next to another quote, or last).
std::string tripleQuotedBody(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 16);
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\'' &&
               (i + 1 == text.size() || text[i + 1] == '\'' || (i > 0 && text[i - 1] == '\''))) {
      out += "\\'";
    } else {
      out += c;
    }
  }
  return out;
}

/// `'text'` as a Python string literal.
std::string pyString(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\\' || c == '\'')
      out += '\\';
    out += c;
  }
  return out + "'";
}

std::string intTuple(const std::vector<SymExpr> &xs) {
  std::string out = "(";
  for (const SymExpr &x : xs)
    out += x.str() + ", ";
  return out + ")";
}

/// Replaces a triton_kernel_wrapper_mutation's literal side-table indices by lookups in the
/// module's own tables: the kernel side table is process-wide, so the ids the module gets when
/// it registers its kernels are only known at load time.
void useSideTableIds(Graph &fx) {
  for (Node *n : fx) {
    if (n->target() != "torch.ops.higher_order.triton_kernel_wrapper_mutation")
      continue;
    const Argument &kw = n->kwargs();
    std::vector<std::pair<std::string, Argument>> entries;
    for (size_t i = 0; i < kw.dictSize(); ++i) {
      std::string key(kw.dictKey(i));
      const Argument &v = kw.dictValue(i);
      if (key == "kernel_idx" && v.kind() == Argument::Kind::Int)
        entries.push_back(
            {key, Argument::opaque("_kernel_ids[" + std::to_string(v.asInt()) + "]")});
      else if (key == "constant_args_idx" && v.kind() == Argument::Kind::Int)
        entries.push_back(
            {key, Argument::opaque("_constant_args_ids[" + std::to_string(v.asInt()) + "]")});
      else
        entries.push_back({key, v});
    }
    n->setKwargs(Argument::dict(std::move(entries)));
  }
}

/// `def forward(self, ...):` and its body, indented as a method.
std::string forwardMethod(const Graph &fx) {
  std::string code = printFxIrCode(fx);
  size_t start = code.find("def forward");
  assert(start != std::string::npos && "printFxIrCode writes a forward function");
  std::string out;
  size_t pos = start;
  while (pos < code.size()) {
    size_t end = code.find('\n', pos);
    if (end == std::string::npos)
      end = code.size();
    std::string_view line(code.data() + pos, end - pos);
    if (line.find_first_not_of(' ') != std::string_view::npos)
      out += "    " + std::string(line) + "\n";
    pos = end + 1;
  }
  return out;
}

void writeKernel(std::string &out, const InductorKernel &k) {
  for (const std::string &c : k.comments)
    out += "#" + (c.empty() || c[0] == ' ' ? c : " " + c) + "\n";
  out += k.name + " = _triton_kernel(" + pyString(k.name) + ", '''" + tripleQuotedBody(k.source) +
         "''')\n\n";
}

std::string getArgs(const InductorWrapperInfo &info, const Graph &fx) {
  std::string out = "def get_args():\n    from torch._dynamo.testing import rand_strided\n";
  std::string names;
  for (const InductorExampleInput &in : info.exampleInputs) {
    if (in.integer) {
      out += "    " + in.name + " = " + std::to_string(*in.integer) + "\n";
    } else if (in.tensor) {
      out += "    " + in.name + " = rand_strided(" + intTuple(in.tensor->sizes) + ", " +
             intTuple(in.tensor->strides) + ", device=" + pyString(in.tensor->device.str()) +
             ", dtype=torch." + std::string(dtypeName(in.tensor->dtype)) + ")\n";
    }
    names += in.name + ", ";
  }
  if (info.exampleInputs.empty()) {
    // No get_args() in the source: inputs cannot be made, say so when asked.
    size_t inputs = 0;
    for (const Node *n : fx)
      inputs += n->op() == OpKind::Placeholder;
    return "def get_args():\n    raise NotImplementedError('the source module had no get_args(); "
           "pass the " +
           std::to_string(inputs) + " inputs yourself')\n";
  }
  return out + "    return [" + names + "]\n";
}

} // namespace

Expected<std::string> writeInductorModule(const Graph &graph, const std::string &sourceName) {
  const InductorWrapperInfo *info = inductorWrapperInfo(graph);
  if (!info)
    return Error("fxpy: the graph was not read from Inductor's Python wrapper code");
  auto fx = buildInductorFxIr(graph);
  if (!fx)
    return fx.takeError();
  useSideTableIds(fx->graph);

  std::string out;
  out += "# Inductor's compiled program from " + sourceName +
         ", written by fxkit as a runnable module:\n";
  out += "# the original Triton kernels, and the program's FX IR as GraphModule.forward, which\n"
         "# launches them through torch.ops.higher_order.triton_kernel_wrapper_mutation with the\n"
         "# grid and block sizes of each kernel's first heuristic config.\n";
  if (!info->aotId.empty())
    out += "# AOT ID: ['" + info->aotId + "']\n";
  std::string added = describeAddedKinds(fx->addedKinds);
  if (!added.empty())
    out += "# Beyond PyTorch's own FX IR converter: " + added + "\n";
  out += "import operator\n"
         "\n"
         "import torch\n"
         "from torch._higher_order_ops.triton_kernel_wrap import kernel_side_table\n"
         "from torch._inductor.codecache import PyCodeCache\n"
         "\n"
         "\n"
         "def _triton_kernel(name, source):\n"
         "    # The @triton.jit function of an Inductor kernel source: loading the source makes\n"
         "    # Inductor's autotuner around it (nothing is compiled yet); fn is the JIT function.\n"
         "    return getattr(PyCodeCache.load(source), name).fn\n"
         "\n"
         "\n";
  for (const InductorKernel &k : info->kernels)
    writeKernel(out, k);
  out += "_kernel_ids = [kernel_side_table.add_kernel(kernel) for kernel in (";
  for (const std::string &name : fx->kernelNames)
    out += name + ", ";
  out += ")]\n";
  out += "_constant_args_ids = [kernel_side_table.add_constant_args({}) for _ in range(" +
         std::to_string(fx->launches) + ")]\n\n\n";
  out += "class GraphModule(torch.nn.Module):\n";
  out += forwardMethod(fx->graph);
  out += "\n\n";
  out += getArgs(*info, fx->graph);
  out += "\n\n"
         "if __name__ == '__main__':\n"
         "    outputs = GraphModule()(*get_args())\n"
         "    torch.cuda.synchronize()\n"
         "    outputs = outputs if isinstance(outputs, (list, tuple)) else [outputs]\n"
         "    print(f'{len(outputs)} outputs:', ', '.join(str(tuple(o.shape)) for o in outputs))\n";
  return out;
}

} // namespace fxkit

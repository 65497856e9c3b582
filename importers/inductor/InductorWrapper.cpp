#include "importers/inductor/InductorWrapper.h"

#include "importers/inductor/CallGraphBuilder.h"
#include "importers/inductor/PyStatements.h"
#include "ir/Try.h"
#include "ir/Verifier.h"

#include <set>

namespace fxkit {

using namespace inductor;

bool looksLikeInductorWrapper(std::string_view content) {
  return content.find("async_compile") != std::string_view::npos &&
         (content.find("def call(args)") != std::string_view::npos ||
          content.find("def call(self, args)") != std::string_view::npos);
}

const InductorWrapperInfo *inductorWrapperInfo(const Graph &graph) {
  auto it = graph.attachments.find(kInductorWrapperAttachment);
  return it == graph.attachments.end()
             ? nullptr
             : dynamic_cast<const InductorWrapperInfo *>(it->second.get());
}

namespace {

using K = PyExpr::Kind;

/// Functions of the module that only run benchmarks or manage partitions: their bodies carry
/// nothing of the program and are skipped.
const std::set<std::string_view> kBoilerplateFunctions = {"__init__", "recursively_apply_fns",
                                                          "benchmark_compiled_module"};

class ModuleReader {
public:
  ModuleReader(std::string_view text, const std::string &file) : text_(text), file_(file) {}

  Expected<InductorWrapper> read();

private:
  Error error(int line, int col, std::string message) const {
    return Error(std::move(message), SourceLoc{file_, line, col},
                 std::string(sourceLine(text_, line)));
  }
  Error error(const PyStmt &s, std::string message) const {
    return error(s.line, s.col, std::move(message));
  }
  Error error(const PyExpr &e, std::string message) const {
    return error(e.line, e.col, std::move(message));
  }

  Status topLevel(const PyStmt &s);
  /// `name = async_compile.multi_kernel('name', [k1, k2, ][, '''launcher source'''][,
  /// arg_index=...])`, or `size_hint_multi_kernel('name', {hint: k1, ...}, ...)`.
  Status multiKernel(const std::string &name, const PyExpr &call);
  Status function(const PyStmt &s);
  Status exampleInputs(const PyStmt &def);
  /// `aten = torch.ops.aten`, `async_compile = AsyncCompile()`, `runner = Runner(partitions=[])`:
  /// names the module sets up for itself.
  static bool isSetupValue(const PyExpr &e, int depth = 0);

  std::string_view text_;
  const std::string &file_;
  std::vector<Token> tokens_;
  std::shared_ptr<InductorWrapperInfo> info_ = std::make_shared<InductorWrapperInfo>();
  const PyStmt *call_ = nullptr;
  ModuleFunctions functions_;
  std::vector<std::string> partitions_;
};

bool ModuleReader::isSetupValue(const PyExpr &e, int depth) {
  if (depth > 8)
    return false;
  switch (e.kind) {
  case K::Name:
  case K::Attribute:
    return !e.dotted().empty();
  case K::Const:
  case K::Int:
  case K::Float:
  case K::String:
    return true;
  case K::List:
  case K::Tuple:
  case K::Dict: // `arg_index = {0: [slice(0, 5, None)], ...}` of a multi-kernel
  case K::Set:
    for (const PyExpr &x : e.items)
      if (!isSetupValue(x, depth + 1))
        return false;
    return true;
  case K::Call:
    if (e.callee().empty())
      return false;
    for (const PyExpr &x : e.args())
      if (!isSetupValue(x, depth + 1))
        return false;
    for (const PyExpr &x : e.keywords)
      if (!isSetupValue(x, depth + 1))
        return false;
    return true;
  default:
    return false;
  }
}

Status ModuleReader::multiKernel(const std::string &name, const PyExpr &call) {
  auto args = call.args();
  if (args.size() < 2 || args[0].kind != K::String || args[0].text != name)
    return error(call, "expected " + call.callee() + "('" + name + "', [kernels, ...])");
  InductorMultiKernel m;
  m.name = name;
  const PyExpr &list = args[1];
  bool dict = list.kind == K::Dict;
  if (list.kind != K::List && list.kind != K::Tuple && !dict)
    return error(list, "expected the list of the multi-kernel's kernels");
  for (size_t i = dict ? 1 : 0; i < list.items.size(); i += dict ? 2 : 1) {
    const PyExpr &k = list.items[i];
    if (k.kind != K::Name)
      return error(k, "expected a kernel name");
    bool defined = false;
    for (const InductorKernel &d : info_->kernels)
      defined = defined || d.name == k.text;
    if (!defined)
      return error(k, "multi-kernel '" + name + "' names kernel '" + k.text +
                          "', which is not defined before it");
    m.choices.push_back(k.text);
  }
  if (m.choices.empty())
    return error(list, "a multi-kernel without kernels");
  for (const InductorMultiKernel &other : info_->multiKernels)
    if (other.name == name)
      return error(call, "multi-kernel '" + name + "' is defined twice");
  info_->multiKernels.push_back(std::move(m));
  return Status::ok();
}

Status ModuleReader::exampleInputs(const PyStmt &def) {
  for (const PyStmt &s : def.body) {
    if (s.kind == PyStmt::Kind::Import || s.kind == PyStmt::Kind::Return)
      continue;
    if (s.kind != PyStmt::Kind::Assign || s.targets.size() != 1 || s.targets[0].kind != K::Name)
      return error(s, "unsupported statement in get_args()");
    InductorExampleInput in;
    in.name = s.targets[0].text;
    const PyExpr &v = s.value;
    if (v.kind == K::Int || (v.kind == K::Unary && v.text == "-" && v.items[0].kind == K::Int)) {
      in.integer = v.kind == K::Int ? v.value : -v.items[0].value;
    } else if (v.kind == K::Call && v.callee() == "rand_strided" && v.args().size() == 2) {
      TensorType t;
      for (int which = 0; which < 2; ++which) {
        const PyExpr &tuple = v.args()[which];
        if (tuple.kind != K::Tuple)
          return error(tuple, "expected a tuple of integers");
        for (const PyExpr &x : tuple.items) {
          if (x.kind != K::Int)
            return error(x, "expected an integer");
          (which == 0 ? t.sizes : t.strides).push_back(SymExpr(x.value));
        }
      }
      const PyExpr *device = v.keyword("device");
      const PyExpr *dtype = v.keyword("dtype");
      if (!device || device->kind != K::String || !dtype)
        return error(v, "expected rand_strided(sizes, strides, device='...', dtype=torch....)");
      auto dev = Device::parse(device->text);
      if (!dev)
        return error(*device, "unknown device '" + device->text + "'");
      auto dt = parseDType(dtype->dotted());
      if (!dt)
        return error(*dtype, "unknown dtype '" + dtype->dotted() + "'");
      t.device = *dev;
      t.dtype = *dt;
      in.tensor = std::move(t);
    } else {
      return error(v, "unsupported example input in get_args()");
    }
    info_->exampleInputs.push_back(std::move(in));
  }
  return Status::ok();
}

Status ModuleReader::function(const PyStmt &s) {
  if (s.name == "call") {
    if (call_)
      return error(s, "a second call() function (the first is on line " +
                          std::to_string(call_->line) + ")");
    call_ = &s;
    return Status::ok();
  }
  if (s.name == "get_args")
    return exampleInputs(s);
  if (kBoilerplateFunctions.count(s.name))
    return Status::ok();
  // `def partition_0(args):` (graph partitions, run by the Runner), `def subgraph_0(args):`
  // (invoke_subgraph, cond and while_loop bodies, decompose_k): call() runs them with a list.
  if (s.params.size() == 1 && s.params[0] == "args" && !s.bodySkipped) {
    if (functions_.count(s.name))
      return error(s, "a second function '" + s.name + "'");
    functions_[s.name] = &s;
    return Status::ok();
  }
  return error(s, "unsupported function '" + s.name + "' in Inductor wrapper code");
}

Status ModuleReader::topLevel(const PyStmt &s) {
  switch (s.kind) {
  case PyStmt::Kind::Import:
  case PyStmt::Kind::Pass:
    return Status::ok();
  case PyStmt::Kind::Assign: {
    if (s.targets.size() != 1 || s.targets[0].kind != K::Name)
      return error(s, "unsupported assignment at module level");
    const std::string &name = s.targets[0].text;
    if (s.value.kind == K::Call && (s.value.callee() == "async_compile.multi_kernel" ||
                                    s.value.callee() == "async_compile.size_hint_multi_kernel"))
      return multiKernel(name, s.value);
    if (s.value.kind == K::Call && s.value.callee().starts_with("async_compile.")) {
      FXKIT_ASSIGN_OR_RETURN(
          auto k, parseKernelDefinition(name, s.value, tokens_, s.comments, text_, file_));
      for (const InductorKernel &other : info_->kernels)
        if (other.name == name)
          return error(s, "kernel '" + name + "' is defined twice");
      info_->kernels.push_back(std::move(k));
      return Status::ok();
    }
    // `_frozen_param0 = None  # <hash of the value>`: a graph constant (write_constant).
    if (s.value.kind == K::Const && s.value.text == "None" && !s.trailingComment.empty()) {
      info_->constants.push_back(name);
      return Status::ok();
    }
    // `runner = Runner(partitions=[partition_0, partition_1,])`: self.partitions[i] of call().
    if (s.value.kind == K::Call && s.value.callee() == "Runner")
      if (const PyExpr *parts = s.value.keyword("partitions"); parts && parts->kind == K::List) {
        partitions_.clear();
        for (const PyExpr &p : parts->items) {
          if (p.kind != K::Name)
            return error(p, "expected the name of a partition function");
          partitions_.push_back(p.text);
        }
      }
    if (isSetupValue(s.value))
      return Status::ok();
    return error(s.value, "unsupported value assigned to '" + name + "' at module level");
  }
  case PyStmt::Kind::Expr:
    if (s.value.kind == K::Call && s.value.callee() == "async_compile.wait")
      return Status::ok();
    return error(s, "unsupported statement at module level");
  case PyStmt::Kind::Del:
    for (const PyExpr &t : s.targets)
      if (!t.isName("async_compile"))
        return error(t, "unsupported del at module level");
    return Status::ok();
  case PyStmt::Kind::Compound:
    if (s.keyword == "def")
      return function(s);
    if (s.keyword == "class") {
      for (const PyStmt &m : s.body) {
        if (m.kind == PyStmt::Kind::Pass)
          continue;
        if (m.kind != PyStmt::Kind::Compound || m.keyword != "def")
          return error(m, "unsupported statement in class '" + s.name + "'");
        FXKIT_TRY(function(m));
      }
      return Status::ok();
    }
    if (s.keyword == "if" && s.value.kind == K::Binary && s.value.text == "==" &&
        s.value.items[0].isName("__name__"))
      return Status::ok(); // the benchmark entry point
    return error(s, "unsupported '" + s.keyword + "' statement at module level");
  default:
    return error(s, "unsupported statement at module level");
  }
}

Expected<InductorWrapper> ModuleReader::read() {
  FXKIT_ASSIGN_OR_RETURN(auto toks, lexPython(text_, file_));
  tokens_ = std::move(toks);
  // Parse the bodies of call() and get_args() (and of the class holding them); skip the
  // benchmark helpers and `if __name__ == "__main__":`.
  BodyFilter filter = [](const PyStmt &h, int depth) {
    if (h.keyword == "def")
      return !kBoilerplateFunctions.count(h.name) || depth >= 2;
    if (h.keyword == "class")
      return depth == 0;
    if (h.keyword == "if")
      return depth > 0;
    return true;
  };
  FXKIT_ASSIGN_OR_RETURN(auto stmts, parsePyModule(tokens_, text_, file_, filter));
  if (!stmts.empty())
    for (const std::string &c : stmts.front().comments)
      if (c.starts_with("AOT ID: ['") && c.ends_with("']"))
        info_->aotId = c.substr(10, c.size() - 12);
  for (const PyStmt &s : stmts)
    FXKIT_TRY(topLevel(s));
  if (!call_)
    return error(1, 1, "no 'def call(args)' function: not Inductor's Python wrapper code");
  for (const std::string &p : partitions_)
    if (!functions_.count(p))
      return error(1, 1, "the Runner's partition '" + p + "' is not a function of the module");
  FXKIT_ASSIGN_OR_RETURN(auto graph,
                         buildCallGraph(*call_, *info_, functions_, partitions_, text_, file_));
  if (Status st = verifyGraph(graph); !st) {
    Error err = st.takeError();
    err.loc.file = file_;
    return err;
  }
  graph.attachments[std::string(kInductorWrapperAttachment)] = info_;
  return InductorWrapper{std::move(graph), info_};
}

} // namespace

Expected<InductorWrapper> importInductorWrapper(std::string_view text,
                                                const std::string &fileName) {
  return ModuleReader(text, fileName).read();
}

} // namespace fxkit

#include "tests/gen/Differential.h"

#include "backends/interp/Interpreter.h"
#include "backends/interp/LoopInterpreter.h"
#include "exporters/Export.h"
#include "exporters/FxTextPrinter.h"
#include "importers/FxTextParser.h"
#include "importers/Import.h"
#include "transforms/GraphReduction.h"
#include "transforms/Pipeline.h"
#include "transforms/ShapeInference.h"

#ifdef FXKIT_HAVE_OPENCL
#include "backends/opencl/runtime/OpenCLProgram.h"
#ifdef FXKIT_HAVE_LLVM
#include "backends/llvm/LLVMProgram.h"
#endif
#endif

#include <cmath>
#include <memory>
#include <sstream>

namespace fxkit::testing {

const char *diffStageName(DiffStage stage) {
  switch (stage) {
  case DiffStage::Parse:
    return "parse";
  case DiffStage::Infer:
    return "shape inference";
  case DiffStage::Interpret:
    return "reference interpreter";
  case DiffStage::Formats:
    return "text formats";
  case DiffStage::Compile:
    return "compile (lower, fuse, plan)";
  case DiffStage::Loops:
    return "loops backend";
  case DiffStage::OpenCL:
    return "opencl backend";
  case DiffStage::LLVM:
    return "llvm backend";
  }
  return "?";
}

#ifdef FXKIT_HAVE_OPENCL
opencl::OpenCLContext *openclContext() {
  static std::unique_ptr<opencl::OpenCLContext> ctx = [] {
    std::unique_ptr<opencl::OpenCLContext> out;
    auto device = opencl::selectDevice("");
    if (!device)
      return out;
    auto c = opencl::OpenCLContext::create(*device);
    if (c)
      out = c.take();
    return out;
  }();
  return ctx.get();
}
#endif

Status compileLoops(Graph &graph, CompiledLoops &c) {
  auto result = fxkit::compile(graph, PipelineSpec::toPlan());
  if (!result)
    return result.takeError();
  auto program = takeCompiledProgram(graph);
  if (!program)
    return program.takeError();
  c.program = std::move(program->program);
  c.fused = std::move(program->fused);
  c.plan = std::move(*program->plan);
  return Status::ok();
}

namespace {

/// Compares a backend's outputs with the reference's. Floats: within tol of the value plus
/// tol times the output's largest magnitude (float32 sums lose digits against their largest
/// terms; real errors are of the order of the values); NaN matches NaN, inf matches inf.
/// Integers and bools: exact.
std::optional<std::string> compareOutputs(const InterpretResult &got, const InterpretResult &want,
                                          double floatTol) {
  if (got.outputs.size() != want.outputs.size())
    return "returned " + std::to_string(got.outputs.size()) + " values, expected " +
           std::to_string(want.outputs.size());
  for (size_t i = 0; i < got.outputs.size(); ++i) {
    const Tensor *a = got.outputs[i].tensor();
    const Tensor *b = want.outputs[i].tensor();
    std::string which = "output " + std::to_string(i);
    if ((a == nullptr) != (b == nullptr))
      return which + ": tensor vs non-tensor";
    if (!a)
      continue;
    if (a->dtype() != b->dtype())
      return which + ": dtype " + std::string(dtypeName(a->dtype())) + ", expected " +
             std::string(dtypeName(b->dtype()));
    if (a->sizes() != b->sizes())
      return which + ": sizes " + a->typeOf().str() + ", expected " + b->typeOf().str();
    bool floating = dtypeIsFloating(b->dtype());
    double tol = b->dtype() == DType::Float16 ? std::max(floatTol, 2e-2) : floatTol;
    double scale = 0;
    if (floating)
      Tensor::forEachIndex(b->sizes(), [&](std::span<const int64_t> idx) {
        double y = b->getDouble(idx);
        if (std::isfinite(y))
          scale = std::max(scale, std::abs(y));
      });
    std::optional<std::string> bad;
    Tensor::forEachIndex(b->sizes(), [&](std::span<const int64_t> idx) {
      if (bad)
        return;
      double x = a->getDouble(idx), y = b->getDouble(idx);
      bool same;
      if (!floating)
        same = x == y;
      else if (std::isnan(y) || std::isnan(x))
        same = std::isnan(x) && std::isnan(y);
      else if (std::isinf(y) || std::isinf(x))
        same = x == y;
      else
        same = std::abs(x - y) <= tol * (1 + scale) + tol * std::abs(y);
      if (!same) {
        std::ostringstream os;
        os << which << " [";
        for (size_t k = 0; k < idx.size(); ++k)
          os << (k ? ", " : "") << idx[k];
        os << "]: got " << x << ", expected " << y;
        bad = os.str();
      }
    });
    if (bad)
      return bad;
  }
  return std::nullopt;
}

std::optional<DiffFailure> fail(DiffStage stage, std::string message) {
  return DiffFailure{stage, std::move(message)};
}

/// Export + re-import through each format gives an equal graph, and printing is idempotent.
std::optional<std::string> checkFormats(const Graph &graph) {
  std::vector<GraphFormat> formats = {GraphFormat::FxText, GraphFormat::FxPy};
#ifdef FXKIT_HAVE_JSON
  formats.push_back(GraphFormat::Json);
#endif
  for (GraphFormat f : formats) {
    std::string name(graphFormatName(f));
    // FX text carries types only in its typed form (Inductor's comments); plain `str(graph)`
    // has none (they come from a nodes.json sidecar), so the typed form is the one to check.
    auto text = f == GraphFormat::FxText ? Expected<std::string>(printFxText(graph, {true}))
                                         : exportGraph(graph, f);
    if (!text)
      return name + " export: " + text.error().str();
    auto back = importGraph(*text, f, "<roundtrip." + name + ">");
    if (!back)
      return name + " re-import: " + back.error().str() + "\n" + *text;
    std::string why;
    Graph want = graph.clone();
    if (f != GraphFormat::Json) {
      // FX text's typed form and the annotated Python spell one tensor per node: the output's
      // and multi-output nodes' values (split, var_mean) have no place in them (shape
      // inference recomputes them); JSON keeps everything.
      for (Graph *g : {&want, &*back})
        for (Node *n : *g)
          if (n->op() == OpKind::Output || n->value().tensors())
            n->value() = NodeValue{};
    }
    if (!graphsEqual(want, *back, &why))
      return name + " round trip changed the graph: " + why;
    auto again = f == GraphFormat::FxText ? Expected<std::string>(printFxText(*back, {true}))
                                          : exportGraph(*back, f);
    if (!again || *again != *text)
      return name + " printing is not canonical (a re-imported graph prints differently)";
  }
  return std::nullopt;
}

} // namespace

bool haveOpenCLDevice() {
#ifdef FXKIT_HAVE_OPENCL
  return openclContext() != nullptr;
#else
  return false;
#endif
}

std::optional<DiffFailure> checkGraphDifferentially(const std::string &fxText,
                                                    const SymExpr::Bindings &symbols,
                                                    const DifferentialOptions &options) {
  registerReferenceKernels();
  auto parsed = parseFxText(fxText, "<random>");
  if (!parsed)
    return fail(DiffStage::Parse, parsed.error().str());
  Graph &graph = *parsed;
  // float16 anywhere: float32 results downstream carry float16 rounding too.
  double floatTol =
      fxText.find("f16") != std::string::npos || fxText.find("float16") != std::string::npos ? 2e-2
                                                                                             : 1e-4;

  if (options.formats)
    if (auto bad = checkFormats(graph))
      return fail(DiffStage::Formats, "untyped graph: " + *bad);

  Graph typed = graph.clone();
  if (Status s = inferShapes(typed); !s)
    return fail(DiffStage::Infer, s.error().str());
  if (options.formats)
    if (auto bad = checkFormats(typed))
      return fail(DiffStage::Formats, "typed graph: " + *bad);

  auto inputs = options.inputs ? Expected<std::vector<RuntimeValue>>(*options.inputs)
                               : makeRandomInputs(typed, symbols, options.inputSeed);
  if (!inputs)
    return fail(DiffStage::Interpret, "inputs: " + inputs.error().str());
  Graph reference = typed.clone();
  auto expected = interpretGraph(reference, *inputs);
  if (!expected)
    return fail(DiffStage::Interpret, expected.error().str());

  if (!options.loops && !options.opencl && !options.llvm)
    return std::nullopt;
  if (options.injectedBug)
    if (auto bad = options.injectedBug(fxText))
      return fail(DiffStage::Compile, *bad);
  Graph lowered = typed.clone();
  CompiledLoops c;
  if (Status s = compileLoops(lowered, c); !s)
    return fail(DiffStage::Compile, s.error().str());

  if (options.loops) {
    auto got = interpretLoopProgram(c.program, c.fused, *inputs);
    if (!got)
      return fail(DiffStage::Loops, got.error().str());
    if (auto bad = compareOutputs(*got, *expected, floatTol))
      return fail(DiffStage::Loops, *bad);
  }
#ifdef FXKIT_HAVE_OPENCL
  if (options.opencl && openclContext()) {
    opencl::OpenCLOptions clOptions;
    clOptions.cache = false;
    clOptions.tune = false;
    auto program =
        opencl::OpenCLProgram::load(*openclContext(), c.program, c.fused, c.plan, clOptions);
    if (!program)
      return fail(DiffStage::OpenCL, program.error().str());
    auto got = (*program)->run(*inputs);
    if (!got)
      return fail(DiffStage::OpenCL, got.error().str());
    if (auto bad = compareOutputs(*got, *expected, floatTol))
      return fail(DiffStage::OpenCL, *bad);
  }
#endif
#ifdef FXKIT_HAVE_LLVM
  if (options.llvm) {
    llvmjit::LLVMOptions llOptions;
    llOptions.cache = false;
    auto program = llvmjit::LLVMProgram::load(c.program, c.fused, c.plan, llOptions);
    if (!program)
      return fail(DiffStage::LLVM, program.error().str());
    auto got = (*program)->run(*inputs);
    if (!got)
      return fail(DiffStage::LLVM, got.error().str());
    if (auto bad = compareOutputs(*got, *expected, floatTol))
      return fail(DiffStage::LLVM, *bad);
  }
#endif
  return std::nullopt;
}

namespace {

/// FX text with only the placeholders typed (other nodes' types are recomputed on parsing).
std::string printWithInputTypes(Graph &graph) {
  for (Node *n : graph)
    if (n->op() != OpKind::Placeholder)
      n->value() = NodeValue{};
  FxTextOptions o;
  o.tensorTypes = true;
  return printFxText(graph, o);
}

} // namespace

std::string minimiseFailingGraph(const std::string &fxText, const SymExpr::Bindings &symbols,
                                 const DiffFailure &failure, const DifferentialOptions &options) {
  auto parsed = parseFxText(fxText, "<min>");
  if (!parsed)
    return fxText;
  Graph small = reduceFailingGraph(*parsed, [&](const Graph &candidate) {
    Graph g = candidate.clone();
    auto r = checkGraphDifferentially(printWithInputTypes(g), symbols, options);
    return r && r->stage == failure.stage;
  });
  return printWithInputTypes(small);
}

} // namespace fxkit::testing

#include "ir/ops/OpCoverage.h"
#include "ir/ops/OpFamilies.h"

#include <algorithm>
#include <set>

namespace fxkit {

namespace {

/// Other ops that need no code: they name a value the program already has (size arithmetic
/// the wrapper does on the host), or state an assumption about one (_assert_scalar).
bool isInline(const OpInfo &op) {
  std::string_view t = op.target;
  if (t.starts_with("operator.") || t.starts_with("torch.ops.aten.sym_"))
    return true;
  for (const OpRow &row : symbolicOpRows())
    if (row.target == t)
      return true;
  return false;
}

CompiledForm compiledFormOf(const OpInfo &op) {
  if (isInline(op))
    return CompiledForm::Inline;
  // Every FFT-family op, the views included, reads or produces a complex tensor, which loop
  // bodies never compute with: lowering makes each an extern call.
  for (const OpRow &row : fftOpRows())
    if (row.target == op.target)
      return CompiledForm::Extern;
  switch (op.category) {
  case OpCategory::Pointwise:
  case OpCategory::Reduction:
  case OpCategory::View:
  case OpCategory::Creation:
  case OpCategory::Other:
    return CompiledForm::Loops;
  case OpCategory::Extern:
    return CompiledForm::Extern;
  case OpCategory::Composite:
    return CompiledForm::Decomposed;
  }
  return CompiledForm::None;
}

} // namespace

std::string_view compiledFormName(CompiledForm form) {
  switch (form) {
  case CompiledForm::None:
    return "none";
  case CompiledForm::Loops:
    return "loops";
  case CompiledForm::Extern:
    return "extern";
  case CompiledForm::Inline:
    return "inline";
  case CompiledForm::Decomposed:
    return "decomposed";
  }
  return "none";
}

const std::vector<std::string> &coreAtenTargets() {
  static const std::vector<std::string> targets = {
#define FXKIT_CORE_ATEN(target) "torch.ops." target,
#include "ir/ops/CoreAtenOps.def"
  };
  return targets;
}

bool isCoreAten(std::string_view target) {
  static const std::set<std::string, std::less<>> index(coreAtenTargets().begin(),
                                                        coreAtenTargets().end());
  return index.count(target) > 0;
}

std::vector<OpCoverage> opCoverage() {
  std::vector<OpCoverage> out;
  std::set<std::string, std::less<>> seen;
  for (const OpInfo &op : OpRegistry::instance().ops()) {
    OpCoverage c;
    c.target = op.target;
    c.schema = op.schema.str();
    c.core = isCoreAten(op.target);
    c.category = op.category;
    c.infer = op.infer != nullptr;
    c.kernel = op.kernel != nullptr;
    c.compiled = compiledFormOf(op);
    seen.insert(c.target);
    out.push_back(std::move(c));
  }
  for (const std::string &target : coreAtenTargets())
    if (!seen.count(target)) {
      OpCoverage c;
      c.target = target;
      c.core = true;
      out.push_back(std::move(c));
    }
  std::sort(out.begin(), out.end(),
            [](const OpCoverage &a, const OpCoverage &b) { return a.target < b.target; });
  return out;
}

} // namespace fxkit

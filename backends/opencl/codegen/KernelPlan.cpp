#include "backends/opencl/codegen/KernelPlan.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace fxkit::opencl {

const char *kernelFormName(KernelForm form) {
  switch (form) {
  case KernelForm::Pointwise:
    return "pointwise";
  case KernelForm::Reduction:
    return "reduction";
  case KernelForm::Scan:
    return "scan";
  }
  return "?";
}

void decideForms(KernelPlan &plan, int persistentCandidate) {
  // Per load expression: the loops that read it, and whether every read is unmasked (a masked read
  // may skip points, so no later loop may count on its value).
  struct Use {
    std::set<int> loops;
    bool masked = false;
    std::string type;
    int array = -1;
  };
  std::map<std::string, Use> uses;
  for (const PlannedLoad &l : plan.loads) {
    Use &u = uses[l.text];
    u.loops.insert(l.loop);
    u.masked = u.masked || l.masked;
    u.type = l.type;
  }
  // Registers are finite: at most four rows held, the most often repeated first.
  std::vector<std::pair<size_t, std::string>> repeated;
  for (const auto &[text, u] : uses)
    if (persistentCandidate > 0 && u.loops.size() > 1 && !u.masked)
      repeated.push_back({u.loops.size(), text});
  std::stable_sort(repeated.begin(), repeated.end(),
                   [](const auto &a, const auto &b) { return a.first > b.first; });
  plan.registerArrays.clear();
  for (const auto &[count, text] : repeated) {
    if (plan.registerArrays.size() == 4)
      break;
    Use &u = uses.at(text);
    u.array = static_cast<int>(plan.registerArrays.size());
    plan.registerArrays.push_back({text, u.type});
  }
  // In a loop's vector form, every vector load of one expression reads the first one's float4.
  std::map<std::pair<int, std::string>, int> firstVector;
  bool anyVector = false;
  for (size_t n = 0; n < plan.loads.size(); ++n) {
    PlannedLoad &l = plan.loads[n];
    const Use &u = uses.at(l.text);
    l.array = u.array;
    l.keeps = u.array >= 0 && l.loop == *u.loops.begin();
    l.vectorSource = -1;
    if (l.vector)
      l.vectorSource =
          firstVector.emplace(std::make_pair(l.loop, l.text), static_cast<int>(n)).first->second;
    anyVector = anyVector || l.vector;
  }
  for (const PlannedStore &s : plan.stores)
    anyVector = anyVector || s.vector;
  // A form nothing uses gains nothing: without a load that two loops repeat, no persistent form;
  // without an access with a vector form, no vector form. A reduction that reads only across rows
  // (a column sum) takes rows fastest.
  plan.persistentPoints = plan.registerArrays.empty() ? 0 : persistentCandidate;
  plan.vectorWidth = anyVector ? kVectorWidth : 0;
  plan.rowsFastest = plan.unitReducedLoads == 0 && plan.unitRowLoads > 0;
}

} // namespace fxkit::opencl

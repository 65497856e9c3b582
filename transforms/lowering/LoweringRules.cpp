#include "transforms/lowering/LoweringRules.h"

#include <cassert>
#include <map>

namespace fxkit::lowering {

namespace {

const std::map<std::string_view, const LoweringRule *> &ruleTable() {
  static const std::map<std::string_view, const LoweringRule *> table = [] {
    std::map<std::string_view, const LoweringRule *> t;
    for (std::span<const LoweringRule> family :
         {indexingLoweringRules(), scanLoweringRules(), reductionLoweringRules(),
          creationLoweringRules(), normLoweringRules(), poolingLoweringRules(),
          distanceLoweringRules(), randomLoweringRules()})
      for (const LoweringRule &rule : family) {
        [[maybe_unused]] bool inserted = t.emplace(rule.target, &rule).second;
        assert(inserted && "an op has two lowering rules");
      }
    return t;
  }();
  return table;
}

} // namespace

const LoweringRule *findLoweringRule(std::string_view target) {
  auto it = ruleTable().find(target);
  return it == ruleTable().end() ? nullptr : it->second;
}

} // namespace fxkit::lowering

#include "transforms/lowering/Lowerer.h"
#include "transforms/lowering/LoweringRules.h"

namespace fxkit::lowering {

std::span<const LoweringRule> indexingLoweringRules() { return {}; }

} // namespace fxkit::lowering

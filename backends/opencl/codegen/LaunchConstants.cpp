#include "backends/opencl/codegen/LaunchConstants.h"

namespace fxkit::opencl {

std::string launchConstantsOptions(int64_t rnumel, int lanes, int rows) {
  return " -DFX_LAUNCH_R=" + std::to_string(rnumel) + " -D" + std::string(kLaunchLanesMacro) + "=" +
         std::to_string(lanes) + " -DFX_LAUNCH_W=" + std::to_string(rows);
}

bool takesLaunchConstants(std::string_view source) {
  return source.find("#ifdef " + std::string(kLaunchLanesMacro)) != std::string_view::npos;
}

std::string launchConstantsPrologue() {
  // The row's length as long, as the argument: its products with lanes and points must not wrap.
  return "#ifdef " + std::string(kLaunchLanesMacro) +
         "\n"
         "  // Built for one launch (LaunchConstants.h): sizes the compiler folds.\n"
         "  const long rnumel = FX_LAUNCH_R;\n"
         "  const int fx_L = FX_LAUNCH_L, fx_W = FX_LAUNCH_W;\n"
         "#else\n"
         "  const long rnumel = rnumel_arg;\n"
         "  const int fx_L = fx_L_arg, fx_W = fx_W_arg;\n"
         "#endif\n";
}

} // namespace fxkit::opencl

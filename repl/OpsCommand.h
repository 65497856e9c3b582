#pragma once
/// \file `fxkit ops`: the op registry as data. One entry per registered overload and per Core
/// ATen overload: its schema, category, inference, reference kernel, compiled form, and
/// whether it is Core ATen; a summary of Core ATen coverage. `--markdown` writes docs/ops.md.

#include <string>

namespace fxkit {

struct OpsCommandOptions {
  bool json = false;     ///< one JSON object: summary and ops
  bool markdown = false; ///< the coverage table of docs/ops.md
  bool coreOnly = false; ///< only Core ATen overloads
};

int runOpsCommand(const OpsCommandOptions &options);

} // namespace fxkit

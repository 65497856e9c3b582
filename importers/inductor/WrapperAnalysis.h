#pragma once
/// \file What an imported Inductor wrapper does, in call order (`fxkit info output_code.py`,
/// `fxkit plan --wrapper output_code.py`): its kernels with the source ops they fuse, the
/// allocations, frees and extern calls of `call()`, and the bytes its allocations occupy.
///
/// Memory is simulated the way the wrapper runs: an allocation (`empty_strided_*`, an extern
/// call or fallback that returns new tensors) adds its storage's bytes; a reuse (`b1 = b0`,
/// `reinterpret_tensor(b0, ..); del b0  # reuse`) and views add nothing; `del` of the last
/// name of a storage frees it. Inputs are not counted (they exist before the call). Storage
/// bytes are those of the allocation's layout (1 + sum((size-1)*stride) elements), without the
/// caching allocator's rounding. Symbolic sizes take the values `get_args()` gives them (an
/// integer input, or a size of an example tensor read by `s0 = arg0_1.size(0)`).

#include "ir/Error.h"
#include "ir/Graph.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fxkit {

struct WrapperAnalysis {
  struct Kernel {
    std::string name;
    std::string kind; ///< "triton pointwise", "triton persistent_reduction", "cpp"
    size_t launches = 0;
    std::vector<std::string> sourceNodes; ///< `Topologically Sorted Source Nodes`
    std::vector<std::string> atenOps;     ///< `Original ATen`
  };
  /// One storage: allocated once, used by the names that reuse or view it.
  struct Storage {
    std::string name;  ///< the allocating name (buf0)
    std::string type;  ///< f32[s77, s17][s17, 1]cuda:0
    std::string how;   ///< empty_strided, or the extern op that returned it
    int64_t bytes = 0; ///< at the example sizes
    /// false for results of fallback ops the wrapper gives no layout, and for layouts with
    /// symbols computed from data (`u0 = buf.item()`, nonzero's row count): no example value
    bool sizeKnown = true;
    size_t allocatedAt = 0;            ///< statement index in call order
    std::optional<size_t> freedAt;     ///< the `del` that frees it; unset: live at the return
    size_t lastUse = 0;                ///< last statement that reads or writes any of its names
    std::vector<std::string> reusedAs; ///< names that took the storage over (`# reuse`)
    bool isOutput = false;
  };
  struct Extern {
    std::string name; ///< node name (mm, buf0)
    std::string op;   ///< extern_kernels.mm, torch.ops.aten.x.default
    std::vector<std::string> outs;
  };
  std::vector<Kernel> kernels;    ///< in definition order
  std::vector<Storage> storages;  ///< in allocation order
  std::vector<std::string> frees; ///< names `del` frees (a storage's last name), in order
  std::vector<Extern> externs;
  std::map<std::string, int64_t, std::less<>> bindings; ///< symbol -> example value
  int64_t peakBytes = 0;                                ///< simulated, in call order
  std::string peakAt;                                   ///< the allocation that reached the peak
  size_t statements = 0;   ///< nodes of call() (the time axis of lifetimes)
  size_t unknownSizes = 0; ///< allocations left out of the peak (no layout known)
};

/// Analyses a graph read from Inductor's Python or C++ wrapper code. Fails when a size cannot
/// be evaluated (a symbol get_args() does not bind).
Expected<WrapperAnalysis> analyzeInductorWrapper(const Graph &wrapper);

/// `fxkit info`'s wrapper section: kernels, allocations, frees, extern calls, peak.
std::string printWrapperAnalysis(const WrapperAnalysis &analysis);

} // namespace fxkit

#pragma once
/// \file What the OpenCL code generator decides about one fused kernel before it prints it (issue
/// 20): the kernel's form, the loop over reduced points each op runs in, the loads at reduced
/// points that two loops repeat (held in registers in the persistent form) and the accesses that
/// have a vector form (float4). `planKernel` computes it; `generateOpenCL` then prints each form of
/// each loop with the plan in hand, so no text is patched after printing.

#include "ir/Error.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fxkit::opencl {

/// How a kernel runs: a grid-stride loop over rows (pointwise), lanes per row combined in local
/// memory (reduction), or one chunk of a row per lane (scan, a kernel of its own).
enum class KernelForm : uint8_t { Pointwise, Reduction, Scan };

/// The form's name ("pointwise", "reduction", "scan").
const char *kernelFormName(KernelForm form);

/// Points per vector access (float4): the widest load NVIDIA's and PoCL's compilers turn into one
/// 16-byte instruction.
inline constexpr int kVectorWidth = 4;

/// A load of a buffer the kernel does not write, at a reduced point (inside a loop over them).
struct PlannedLoad {
  int32_t buffer = -1;
  std::string text; ///< its C expression: one text, one value, in every loop
                    ///< that reads it
  std::string type; ///< its compute type
  int loop = 0;     ///< the loop over reduced points it is in (1, 2, ...)
  bool masked = false;
  /// Read as a component of a float4 in the vector form: a float32 buffer read unmasked at an index
  /// that grows by 1 with the reduced index.
  bool vector = false;
  /// Vector loads: the load (index in KernelPlan::loads) whose float4 it reads, the first one of
  /// its text in its loop.
  int vectorSource = -1;
  /// Persistent form: the register array (`fx_row<array>`) holding its points (-1: none).
  int array = -1;
  /// With an array: this is the first loop that reads it, which fills the register; later loops
  /// read the register.
  bool keeps = false;
};

/// A store at a reduced point.
struct PlannedStore {
  int32_t buffer = -1;
  int loop = 0;
  bool vector = false; ///< as PlannedLoad::vector, for a float32 buffer
};

/// A register array of the persistent form: a lane's points of one repeated load.
struct RegisterArray {
  std::string text; ///< the load it holds
  std::string type;
};

/// The decisions about one kernel, computed before any of its text is printed.
struct KernelPlan {
  KernelForm form = KernelForm::Pointwise;
  /// Per op of the kernel (in order): the loop over reduced points it runs in, 1, 2, ...; 0 for an
  /// op that runs once per row. Ops of one loop are consecutive.
  std::vector<int> loopOf;
  int loops = 0; ///< loops over reduced points
  /// Loads and stores at reduced points, in the order the kernel's ops make them (a value
  /// recomputed where it is read brings its producer's loads into the reading loop).
  std::vector<PlannedLoad> loads;
  std::vector<PlannedStore> stores;
  /// Loads that two or more loops repeat, unmasked, most repeated first (at most 4: registers are
  /// finite); empty without a persistent form.
  std::vector<RegisterArray> registerArrays;
  /// The persistent form: a lane's points per row kept in registers when the row fits (rnumel <=
  /// persistentPoints * fx_L); 0 when no load repeats.
  int persistentPoints = 0;
  /// The vector form's points per access (0: no access has one).
  int vectorWidth = 0;
  /// Loads at reduced points whose index grows by 1 with the first reduced variable, and with the
  /// innermost row variable.
  int unitReducedLoads = 0, unitRowLoads = 0;
  /// Neighbouring work-items take neighbouring rows: the kernel reads only across rows.
  bool rowsFastest = false;
};

/// Fills the decisions of `plan` from its accesses (loads, stores, the unit-stride counts):
/// register arrays and which load keeps each (when `persistentCandidate` > 0 points per lane are
/// allowed), each vector load's source, persistentPoints, vectorWidth, rowsFastest. A form nothing
/// uses is not taken.
void decideForms(KernelPlan &plan, int persistentCandidate);

/// The plan of kernel `kernel` of `program`. A persistent form is planned with
/// `persistentPoints` points per lane where given (0: none), else as the row's length decides
/// (rows of up to 2048 points, 8 per lane at 256 lanes). Errors name the kernel and the construct
/// that has no OpenCL form.
Expected<KernelPlan> planKernel(const loop::LoopProgram &program, const loop::Kernel &kernel,
                                std::optional<int> persistentPoints = std::nullopt);

} // namespace fxkit::opencl

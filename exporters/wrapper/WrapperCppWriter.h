#pragma once
/// \file The compiled program as C++ (`fxkit compile G --to wrapper-cpp -o DIR`): a C++17
/// translation unit and its header against fxkit's wrapper runtime (backends/opencl/rt/: OpenCL
/// device storage, the kernels built lazily in the background and autotuned on first use,
/// extern ops on the host), a driver that runs it on safetensors files, and a CMakeLists.txt
/// that builds both. The kernels are the OpenCL C of `--to opencl`, embedded as raw strings;
/// `Model::run` is the wrapper graph (transforms/WrapperGraph.h) printed node by node.
///
///   class Model : public fxkit::rt::Model {          // in namespace fxkit_generated::NAME
///     explicit Model(fxkit::rt::Runtime &rt);        // starts building the kernels
///     fxkit::rt::Status run(const HostTensor &arg0_1 /* f32[8, 16] */, int64_t s0,
///                           std::vector<fxkit::rt::Value> *outputs);
///   };

#include "ir/Error.h"
#include "ir/Graph.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"
#include "ir/loop/MemoryPlan.h"

#include <string>
#include <string_view>

namespace fxkit {

/// The files of an exported C++ wrapper, by file name.
struct WrapperCppFiles {
  std::string name; ///< the program's identifier: NAME.h, NAME.cpp, NAME_driver
  std::string header, source, driver, cmake;
};

/// Writes `program` fused into `fused` and planned by `plan` (required: the wrapper allocates
/// as the plan says), printing the wrapper graph buildWrapperGraph makes of them. `name` becomes the namespace and file names (made an identifier);
/// `runtimeCmake` is the default path of fxkit's `fxkit-runtime.cmake` in the CMakeLists.txt.
Expected<WrapperCppFiles> writeWrapperCpp(const loop::LoopProgram &program,
                                          const loop::FusedProgram &fused,
                                          const loop::MemoryPlan &plan, const std::string &name,
                                          const std::string &runtimeCmake);

/// The same for a graph the compiler passes ran on (lower, fuse and plan at least).
Expected<WrapperCppFiles> writeWrapperCpp(Graph &graph, const std::string &name,
                                          const std::string &runtimeCmake);

/// The C entry point every exported wrapper defines (`fxkit_wrapper_create_NAME`): it returns a
/// new Model on a runtime, so a program that loads the compiled wrapper (`fxkit run --backend
/// cpp-wrapper`) needs no C++ name mangling to find it.
std::string wrapperFactorySymbol(const std::string &name);

/// A C++ raw string literal holding `text` exactly, with a delimiter that does not occur in it.
std::string cppRawString(std::string_view text);

} // namespace fxkit

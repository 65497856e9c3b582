#pragma once
/// \file The graph file formats fxkit reads, by name: the one list that the readers
/// (importers/Import.h) and the graph writers (exporters/Export.h) share, below both.

#include <optional>
#include <string>
#include <string_view>

namespace fxkit {

/// InductorPy: Inductor's Python wrapper code (output_code.py), read only (see
/// importers/inductor/InductorWrapper.h). InductorIr: Inductor's scheduler dumps
/// (ir_pre_fusion.txt, ir_post_fusion.txt), read only (importers/inductor/SchedulerDump.h).
/// InductorCpp: Inductor's C++ wrapper code (cpp_wrapper_*.py), read only
/// (importers/inductor/InductorCppWrapper.h).
/// Pt2: torch.export's archive (`.pt2`, importers/pt2/Pt2Reader.h), read and written
/// (exporters/pt2/Pt2Writer.h); binary, so its "text" is the archive's bytes.
/// The input formats only: what fxkit writes (pictures, wrapper code, ...) is the output-format
/// table (repl/OutputFormats.h); FxText, FxPy, Json and Pt2 are both.
enum class GraphFormat { FxText, FxPy, Json, InductorPy, InductorIr, InductorCpp, Pt2 };

/// "fx", "fxpy", "json", "inductor-py", "inductor-ir", "inductor-cpp", "pt2".
std::string_view graphFormatName(GraphFormat format);
std::optional<GraphFormat> parseGraphFormat(std::string_view name);

/// The input formats for messages: "fx, fxpy, json, pt2, inductor-py, inductor-cpp or
/// inductor-ir".
std::string inputFormatList();

} // namespace fxkit

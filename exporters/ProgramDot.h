#pragma once
/// \file Graphviz DOT of a compiled (lowered and fused) loop program: the picture of what the
/// compiler made of a graph. Loop ops are boxes (op, kind, the ATen ops they compute, result
/// type); the ops fused into one kernel sit in one cluster labelled with the kernel's name and
/// filled with its colour (kernels sharing generated code share the colour); extern calls are
/// yellow hexagons; edges are buffers, labelled with name and bytes (values that never leave
/// their kernel are grey: they stay in registers). With RenderOptions::fusion, every refused
/// fusion is a dashed red edge from the candidate kernel's first op to the op offered,
/// labelled with the reason, and every GEMM epilogue (a kernel a GEMM template may run at each
/// element of the product before it) a dashed green one from the product to the kernel.
/// CollapseMode::Kernel draws one box per kernel launch.

#include "exporters/RenderOptions.h"
#include "ir/loop/Kernel.h"
#include "ir/loop/LoopIR.h"

#include <string>

namespace fxkit {

std::string writeProgramDot(const loop::LoopProgram &program, const loop::FusedProgram &fused,
                            const RenderOptions &options = {});

} // namespace fxkit

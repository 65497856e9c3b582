#include "exporters/wrapper/OpenCLSources.h"

#include "backends/opencl/codegen/OpenCLKernelGen.h"
#include "ir/Node.h"

#include <nlohmann/json.hpp>

#include <set>

namespace fxkit {

using namespace loop;
using nlohmann::ordered_json;

namespace {

const char *paramKind(opencl::KernelParam::Kind k) {
  switch (k) {
  case opencl::KernelParam::Kind::Buffer:
    return "buffer";
  case opencl::KernelParam::Kind::Size:
    return "size";
  case opencl::KernelParam::Kind::Numel:
    return "numel";
  case opencl::KernelParam::Kind::Lanes:
    return "lanes";
  case opencl::KernelParam::Kind::Scratch:
    return "local";
  }
  return "?";
}

std::string sizeText(const SymExpr &e) { return (e.isConstant() ? e : e.simplify()).str(); }

ordered_json sizeList(const std::vector<SymExpr> &xs) {
  ordered_json out = ordered_json::array();
  for (const SymExpr &e : xs)
    out.push_back(sizeText(e));
  return out;
}

const char *placementKind(BufferPlacement::Kind k) {
  switch (k) {
  case BufferPlacement::Kind::Input:
    return "input";
  case BufferPlacement::Kind::Internal:
    return "internal";
  case BufferPlacement::Kind::Pool:
    return "pool";
  case BufferPlacement::Kind::InPlace:
    return "in_place";
  case BufferPlacement::Kind::Own:
    return "own";
  case BufferPlacement::Kind::Unbacked:
    return "unbacked";
  }
  return "?";
}

} // namespace

Expected<std::vector<std::pair<std::string, std::string>>>
writeOpenCLSources(const LoopProgram &p, const FusedProgram &f, const MemoryPlan *plan) {
  auto gen = opencl::generateOpenCL(p, f);
  if (!gen)
    return gen.takeError();
  std::vector<std::pair<std::string, std::string>> files;
  ordered_json manifest;
  manifest["format"] = "fxkit-opencl";
  manifest["version"] = 1;
  manifest["build_options"] = opencl::openclBuildOptions(p, *gen);
  manifest["launch_grid"] = {
      {"pointwise", "global = min(ceil(xnumel / (local * per_item * points_per_step)), 65536) * "
                    "local; each work-item strides over the rows, points_per_step consecutive "
                    "ones at a time"},
      {"reduction", "global = min(ceil(xnumel / rows), 65536) * lanes * rows; local = lanes * "
                    "rows; fx_L = lanes, fx_W = rows; local memory = lanes * rows * "
                    "local_bytes_per_item"}};
  ordered_json kernels = ordered_json::array(), launches = ordered_json::array();
  std::set<std::string> written;
  for (size_t k = 0; k < gen->launches.size(); ++k) {
    const opencl::GeneratedKernel &g = gen->launches[k];
    const Kernel &kernel = f.kernels[k];
    if (g.name.empty()) {
      const LoopOp &op = p.ops[kernel.ops.front()];
      ordered_json ext = {{"extern", op.externNode ? std::string(op.externNode->target()) : ""},
                          {"name", kernel.name}};
      ordered_json ins = ordered_json::array(), outs = ordered_json::array();
      for (const BufferView &v : op.externInputs)
        ins.push_back(p.buffers[v.buffer].name);
      for (int32_t b : op.externOutputs)
        outs.push_back(b >= 0 ? ordered_json(p.buffers[b].name) : ordered_json());
      ext["inputs"] = ins;
      ext["outputs"] = outs;
      launches.push_back(ext);
      continue;
    }
    if (written.insert(g.name).second) {
      files.push_back(
          {g.name + ".cl", opencl::GeneratedProgram::prelude(g.usesDouble) + "\n" + g.source});
      ordered_json params = ordered_json::array();
      for (const opencl::KernelParam &param : g.params) {
        ordered_json j = {{"name", param.name}, {"kind", paramKind(param.kind)}};
        if (param.kind == opencl::KernelParam::Kind::Buffer) {
          j["type"] = "global pointer + ulong byte offset (" + param.name + "_offset)";
          j["written"] = param.written;
        } else if (param.kind == opencl::KernelParam::Kind::Lanes) {
          j["type"] = "int";
        } else if (param.kind == opencl::KernelParam::Kind::Scratch) {
          j["type"] = "local memory";
        } else {
          j["type"] = "fx_index_t";
        }
        params.push_back(j);
      }
      kernels.push_back({{"name", g.name},
                         {"file", g.name + ".cl"},
                         {"reduction", g.isReduction},
                         {"uses_double", g.usesDouble},
                         {"local_bytes_per_item", g.scratchBytesPerItem},
                         {"points_per_step", g.isReduction ? 1 : std::max(1, g.vectorWidth)},
                         {"params", params}});
    }
    ordered_json args = ordered_json::object();
    for (const opencl::KernelParam &param : g.params) {
      if (param.kind == opencl::KernelParam::Kind::Buffer)
        args[param.name] = p.buffers[param.buffer].name;
      else if (param.kind == opencl::KernelParam::Kind::Size ||
               param.kind == opencl::KernelParam::Kind::Numel)
        args[param.name] = sizeText(param.value);
    }
    launches.push_back({{"kernel", g.name},
                        {"xnumel", sizeText(g.xnumel)},
                        {"rnumel", sizeText(g.rnumel)},
                        {"args", args}});
  }
  manifest["kernels"] = kernels;
  manifest["launches"] = launches;
  ordered_json buffers = ordered_json::array();
  for (size_t b = 0; b < p.buffers.size(); ++b) {
    const Buffer &buf = p.buffers[b];
    ordered_json j = {{"name", buf.name},
                      {"dtype", std::string(dtypeName(buf.type.dtype))},
                      {"sizes", sizeList(buf.type.sizes)},
                      {"strides", sizeList(buf.type.strides)},
                      {"bytes", sizeText(buf.storageBytes())}};
    if (plan && b < plan->buffers.size()) {
      const BufferPlacement &pl = plan->buffers[b];
      j["placement"] = placementKind(pl.kind);
      if (pl.kind == BufferPlacement::Kind::Pool)
        j["pool_offset"] = pl.offset;
      if (pl.kind == BufferPlacement::Kind::InPlace && pl.inPlaceOf >= 0)
        j["storage_of"] = p.buffers[pl.inPlaceOf].name;
      if (pl.kind == BufferPlacement::Kind::Own && pl.reuseOf >= 0)
        j["storage_of"] = p.buffers[pl.reuseOf].name;
    }
    buffers.push_back(j);
  }
  manifest["buffers"] = buffers;
  if (plan && !plan->symbolic)
    manifest["pool_bytes"] = plan->poolBytes;
  ordered_json inputs = ordered_json::array(), outputs = ordered_json::array();
  for (size_t i = 0; i < p.inputs.size(); ++i)
    inputs.push_back(p.inputs[i] >= 0 ? ordered_json{{"buffer", p.buffers[p.inputs[i]].name}}
                                      : ordered_json{{"symbol", p.inputSymbols[i]}});
  for (const LoopProgram::Output &o : p.outputs) {
    if (o.isNone)
      outputs.push_back(nullptr);
    else if (o.view.buffer < 0)
      outputs.push_back({{"symbol", sizeText(o.symbol)}});
    else
      outputs.push_back({{"buffer", p.buffers[o.view.buffer].name},
                         {"sizes", sizeList(o.view.sizes)},
                         {"strides", sizeList(o.view.strides)},
                         {"offset", sizeText(o.view.offset)}});
  }
  manifest["inputs"] = inputs;
  manifest["outputs"] = outputs;
  files.push_back({"manifest.json", manifest.dump(2) + "\n"});
  return files;
}

} // namespace fxkit

#include "backends/llvm/PtxExport.h"

#include "backends/llvm/HostTarget.h"
#include "backends/llvm/KernelCompiler.h"
#include "backends/llvm/KernelEntry.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

namespace fxkit::llvmjit {

namespace fs = std::filesystem;
using opencl::GeneratedKernel;
using opencl::KernelParam;

std::string findLibdevice() {
  if (const char *env = std::getenv("FXKIT_LIBDEVICE"); env && *env)
    return env;
  std::vector<fs::path> roots;
  if (const char *home = std::getenv("CUDA_HOME"); home && *home)
    roots.push_back(home);
  roots.push_back("/usr/local/cuda");
  std::error_code ec;
  std::vector<fs::path> versioned;
  for (const auto &e : fs::directory_iterator("/usr/local", ec))
    if (e.path().filename().string().starts_with("cuda-"))
      versioned.push_back(e.path());
  std::sort(versioned.rbegin(), versioned.rend());
  roots.insert(roots.end(), versioned.begin(), versioned.end());
  roots.push_back("/usr/lib/cuda");
  for (const fs::path &r : roots) {
    fs::path p = r / "nvvm" / "libdevice" / "libdevice.10.bc";
    if (fs::exists(p, ec))
      return p.string();
  }
  return "";
}

namespace {

std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      continue;
    }
    out += c;
  }
  return out + "\"";
}

const char *kindName(KernelParam::Kind k) {
  switch (k) {
  case KernelParam::Kind::Buffer:
    return "buffer";
  case KernelParam::Kind::Size:
    return "size";
  case KernelParam::Kind::Numel:
    return "numel";
  case KernelParam::Kind::Lanes:
    return "lanes";
  case KernelParam::Kind::Scratch:
    return "scratch";
  }
  return "?";
}

} // namespace

Expected<std::vector<PtxFile>> exportPtx(const loop::LoopProgram &program,
                                         const loop::FusedProgram &fused,
                                         const PtxExportOptions &options) {
  auto generated = opencl::generateOpenCL(program, fused);
  if (!generated)
    return generated.takeError();
  std::string libdevice = options.libdevice.empty() ? findLibdevice() : options.libdevice;
  std::string buildOptions = opencl::openclBuildOptions(program, *generated);
  std::vector<PtxFile> files;
  std::string kernels, launches;
  std::set<std::string> done;
  for (const GeneratedKernel &g : generated->launches) {
    if (g.name.empty() || !done.insert(g.name).second)
      continue;
    auto unit = nvptxTranslationUnit(g, options.maxWorkGroup);
    if (!unit)
      return unit.takeError();
    std::string path = (fs::temp_directory_path() / ("fxkit-ptx-" + g.name + ".cl")).string();
    CompileRequest request{*unit, path, buildOptions, {g.name}};
    auto ptx = compileToPtx(request, options.arch, libdevice);
    if (!ptx)
      return Error("kernel " + g.name + " does not compile for " + options.arch + ": " +
                   ptx.error().message);
    files.push_back({g.name + ".ptx", ptx.take()});
    std::string params;
    for (const KernelParam &p : g.params) {
      if (p.kind == KernelParam::Kind::Scratch)
        continue; // a __local array inside the kernel
      std::string kind = p.kind == KernelParam::Kind::Lanes ? (p.name == "fx_L" ? "lanes" : "rows")
                                                            : kindName(p.kind);
      if (p.kind == KernelParam::Kind::Buffer) {
        params += std::string(params.empty() ? "" : ", ") +
                  "{\"name\": " + jsonString(p.name + "_base") +
                  ", \"kind\": \"buffer\", \"type\": \"u64\"}";
        params += ", {\"name\": " + jsonString(p.name + "_offset") +
                  ", \"kind\": \"buffer_offset\", \"type\": \"u64\"}";
        continue;
      }
      bool lanes = p.kind == KernelParam::Kind::Lanes;
      params += std::string(params.empty() ? "" : ", ") + "{\"name\": " + jsonString(p.name) +
                ", \"kind\": \"" + kind + "\", \"type\": \"" + (lanes ? "s32" : "s64") + "\"}";
    }
    kernels += std::string(kernels.empty() ? "" : ",\n") + "    {\"name\": " + jsonString(g.name) +
               ", \"file\": " + jsonString(g.name + ".ptx") +
               ", \"reduction\": " + (g.isReduction ? "true" : "false") +
               ", \"max_threads_per_block\": " + std::to_string(options.maxWorkGroup) +
               ",\n     \"params\": [" + params + "]}";
  }
  for (size_t k = 0; k < fused.kernels.size(); ++k) {
    const loop::Kernel &kernel = fused.kernels[k];
    const GeneratedKernel &g = generated->launches[k];
    std::string entry;
    if (kernel.isExtern) {
      const loop::LoopOp &op = program.ops[kernel.ops.front()];
      entry = "{\"extern\": " + jsonString(kernel.name) + ", \"op\": " + jsonString(op.name) + "}";
    } else {
      std::string args;
      for (const KernelParam &p : g.params) {
        if (p.kind == KernelParam::Kind::Scratch)
          continue;
        std::string a;
        if (p.kind == KernelParam::Kind::Buffer)
          a = "{\"buffer\": " + jsonString(program.buffers[p.buffer].name) + "}";
        else if (p.kind == KernelParam::Kind::Lanes)
          a = std::string("{\"config\": \"") + (p.name == "fx_L" ? "lanes" : "rows") + "\"}";
        else
          a = "{\"value\": " + jsonString(p.value.str()) + "}";
        args += (args.empty() ? "" : ", ") + a;
      }
      entry = "{\"kernel\": " + jsonString(g.name) + ", \"xnumel\": " + jsonString(g.xnumel.str()) +
              ", \"rnumel\": " + jsonString(g.rnumel.str()) + ",\n     \"args\": [" + args + "]}";
    }
    launches += std::string(launches.empty() ? "" : ",\n") + "    " + entry;
  }
  std::string buffers;
  for (const loop::Buffer &b : program.buffers)
    buffers += std::string(buffers.empty() ? "" : ",\n") + "    {\"name\": " + jsonString(b.name) +
               ", \"type\": " + jsonString(b.type.str()) +
               ", \"bytes\": " + jsonString(b.storageBytes().str()) +
               ", \"input\": " + (b.isInput ? "true" : "false") +
               ", \"output\": " + (b.isOutput ? "true" : "false") + "}";
  std::string inputs, outputs;
  for (size_t i = 0; i < program.inputs.size(); ++i) {
    int32_t b = program.inputs[i];
    inputs += std::string(inputs.empty() ? "" : ", ") +
              (b < 0 ? "{\"symbol\": " + jsonString(program.inputSymbols[i]) + "}"
                     : "{\"buffer\": " + jsonString(program.buffers[b].name) + "}");
  }
  auto exprs = [](const std::vector<SymExpr> &v) {
    std::string out;
    for (const SymExpr &e : v)
      out += (out.empty() ? "" : ", ") + jsonString(e.str());
    return "[" + out + "]";
  };
  for (const loop::LoopProgram::Output &o : program.outputs) {
    std::string entry = o.isNone ? "{\"none\": true}"
                        : o.view.buffer < 0
                            ? "{\"symbol\": " + jsonString(o.symbol.str()) + "}"
                            : "{\"buffer\": " + jsonString(program.buffers[o.view.buffer].name) +
                                  ", \"sizes\": " + exprs(o.view.sizes) +
                                  ", \"strides\": " + exprs(o.view.strides) +
                                  ", \"offset\": " + jsonString(o.view.offset.str()) + "}";
    outputs += std::string(outputs.empty() ? "" : ",\n") + "    " + entry;
  }
  std::string manifest = "{\n  \"format\": \"fxkit-ptx-1\",\n";
  manifest += "  \"target\": \"nvptx64-nvidia-cuda\",\n  \"arch\": " + jsonString(options.arch) +
              ",\n  \"llvm\": " + jsonString(hostTarget().llvmVersion) + ",\n";
  manifest += "  \"build_options\": " + jsonString(buildOptions) + ",\n";
  manifest += "  \"launch_rules\": " +
              jsonString("1-D grid. Pointwise kernels: any block size up to "
                         "max_threads_per_block and any grid (a grid-stride loop covers xnumel "
                         "rows). Reductions: block = lanes * rows threads (lanes a power of "
                         "two; fx_L = lanes, fx_W = rows), any grid. A buffer argument is the "
                         "allocation's device address and a byte offset into it.") +
              ",\n";
  manifest += "  \"kernels\": [\n" + kernels + "\n  ],\n";
  manifest += "  \"buffers\": [\n" + buffers + "\n  ],\n";
  manifest += "  \"inputs\": [" + inputs + "],\n";
  manifest += "  \"outputs\": [\n" + outputs + "\n  ],\n";
  manifest += "  \"launches\": [\n" + launches + "\n  ]\n}\n";
  files.push_back({"manifest.json", std::move(manifest)});
  return files;
}

} // namespace fxkit::llvmjit

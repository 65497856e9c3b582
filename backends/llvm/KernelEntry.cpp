#include "backends/llvm/KernelEntry.h"

#include "backends/llvm/WorkItemPrelude.h"

namespace fxkit::llvmjit {

using opencl::GeneratedKernel;
using opencl::KernelParam;

std::string entryName(const GeneratedKernel &kernel) { return "fx_entry_" + kernel.name; }

namespace {

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

/// Work-item functions of dimension 0 only: the NDRange is one-dimensional.
Status checkDimensions(const GeneratedKernel &k) {
  for (const char *fn : {"get_global_id(", "get_group_id(", "get_local_id(", "get_global_size(",
                         "get_num_groups(", "get_local_size("}) {
    size_t all = count(k.source, fn), dim0 = count(k.source, std::string(fn) + "0)");
    if (all != dim0)
      return Error("kernel " + k.name + ": uses " + std::string(fn) +
                   "...) beyond dimension 0, which the LLVM backend does not model");
  }
  return Status::ok();
}

/// Checks the code generator's guarantees the execution model relies on.
Status checkModel(const GeneratedKernel &k) {
  // xnumel: the parameter, the row loop bound, and (reductions) the mask of the rows past the
  // end; anything else would see the chunk's end instead of the kernel's row count.
  std::string rest = k.source;
  for (const char *known : {"const long xnumel", "xindex < xnumel", "xbase < xnumel",
                            "xbase + slot < xnumel", ": xnumel - 1", "row xnumel - 1"}) {
    for (size_t at = rest.find(known); at != std::string::npos; at = rest.find(known, at))
      rest.replace(at, std::string(known).size(), "");
  }
  if (rest.find("xnumel") != std::string::npos)
    return Error("kernel " + k.name +
                 ": uses xnumel beyond its row bound; the LLVM backend cannot chunk its rows");
  return checkDimensions(k);
}

} // namespace

Expected<std::string> kernelTranslationUnit(const GeneratedKernel &k) {
  if (Status s = checkModel(k); !s)
    return s.takeError();
  std::string source = k.source;
  std::string head = "__kernel void " + k.name + "(";
  size_t at = source.find(head);
  if (at == std::string::npos || source.find(head, at + 1) != std::string::npos)
    return Error("kernel " + k.name + ": no single `" + head + "` in its source (internal error)");
  source.replace(at, head.size(),
                 "static inline __attribute__((always_inline)) void " + k.name +
                     "(const long fx_first, ");

  // The entry: unpacks the arguments in the kernel's parameter order.
  std::string call;
  size_t word = 0;
  auto arg = [&](const std::string &text) { call += (call.empty() ? "" : ", ") + text; };
  auto next = [&] { return "fx_args[" + std::to_string(word++) + "]"; };
  for (const KernelParam &p : k.params) {
    switch (p.kind) {
    case KernelParam::Kind::Buffer:
      arg("(__global uchar *)" + next());
      arg(next());
      break;
    case KernelParam::Kind::Size:
      arg("(long)" + next());
      break;
    case KernelParam::Kind::Numel:
      arg(p.name == "xnumel" ? std::string("fx_end") : "(long)" + next());
      break;
    case KernelParam::Kind::Lanes:
      arg("1"); // fx_L and fx_W: one row per work-item, one work-item per group
      break;
    case KernelParam::Kind::Scratch:
      arg("fx_scratch");
      break;
    }
  }
  std::string out = workItemPrelude();
  out += "\n" + opencl::GeneratedProgram::prelude(k.usesDouble) + "\n" + source + "\n";
  out += "/// The host's entry: rows [fx_begin, fx_end) as one work-item.\n";
  out += "void " + entryName(k) +
         "(const long fx_begin, const long fx_end, __global const ulong *fx_args, "
         "__local double *fx_scratch) {\n";
  out += "  " + k.name + "(fx_begin, " + call + ");\n}\n";
  return out;
}

Expected<std::string> nvptxTranslationUnit(const GeneratedKernel &k, int maxWorkGroup) {
  if (Status s = checkDimensions(k); !s)
    return s.takeError();
  std::string out = nvptxPrelude();
  out += "\n" + opencl::GeneratedProgram::prelude(k.usesDouble) + "\n";
  bool scratch = false;
  for (const KernelParam &p : k.params)
    scratch = scratch || p.kind == KernelParam::Kind::Scratch;
  if (!scratch)
    return out + k.source;
  // The signature's parameters, as the generator joins them.
  std::string head = "__kernel void " + k.name + "(";
  size_t at = k.source.find(head);
  size_t close = at == std::string::npos ? at : k.source.find(") {", at);
  if (close == std::string::npos)
    return Error("kernel " + k.name + ": no `" + head + "...) {` in its source (internal error)");
  std::string signature = k.source.substr(at + head.size(), close - at - head.size());
  std::vector<std::string> decls;
  for (size_t start = 0; start <= signature.size();) {
    size_t comma = signature.find(',', start);
    if (comma == std::string::npos)
      comma = signature.size();
    std::string d = signature.substr(start, comma - start);
    d.erase(0, d.find_first_not_of(" \n"));
    decls.push_back(d);
    start = comma + 1;
  }
  if (decls.empty() || decls.back() != "__local double *fx_scratch")
    return Error("kernel " + k.name + ": fx_scratch is not its last parameter (internal error)");
  decls.pop_back();
  std::string source = k.source;
  source.replace(at, head.size(),
                 "static inline __attribute__((always_inline)) void " + k.name + "_body(");
  std::string params, args;
  for (const std::string &d : decls) {
    size_t name = d.find_last_of(" *") + 1;
    params += (params.empty() ? "" : ",\n    ") + d;
    args += d.substr(name) + ", ";
  }
  int doubles = std::max(1, k.scratchBytesPerItem / 8) * maxWorkGroup;
  out += source + "\n";
  out += "/// The lane tree's local memory for up to " + std::to_string(maxWorkGroup) +
         " work-items per group.\n";
  out += "__kernel void " + k.name + "(" + params + ") {\n";
  out += "  __local double fx_scratch[" + std::to_string(doubles) + "];\n";
  out += "  " + k.name + "_body(" + args + "fx_scratch);\n}\n";
  return out;
}

} // namespace fxkit::llvmjit

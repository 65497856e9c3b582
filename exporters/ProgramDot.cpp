#include "exporters/ProgramDot.h"

#include "exporters/DotStyle.h"

#include <map>
#include <set>
#include <unordered_map>

namespace fxkit {
namespace {

using loop::Buffer;
using loop::FusedProgram;
using loop::Kernel;
using loop::LoopOp;
using loop::LoopOpKind;
using loop::LoopProgram;

std::string quoted(std::string_view s) { return "\"" + dotEscape(s) + "\""; }

std::string join(const std::vector<std::string> &items, std::string_view sep, size_t most) {
  std::string out;
  for (size_t i = 0; i < items.size() && i < most; ++i)
    out += (i ? std::string(sep) : "") + items[i];
  if (items.size() > most)
    out += std::string(sep) + "...";
  return out;
}

std::string opKindText(const LoopOp &op) {
  if (op.kind == LoopOpKind::Reduction)
    return "reduction " + std::string(loop::reductionKindName(op.reduction));
  if (op.kind == LoopOpKind::Scan)
    return "scan " + std::string(loop::scanKindName(op.scan));
  return std::string(loop::loopOpKindName(op.kind));
}

std::string opLabel(const LoopProgram &p, const LoopOp &op) {
  std::string label = op.name + " " + opKindText(op);
  if (!op.originOps.empty())
    label += "\n" + join(op.originOps, ", ", 6);
  std::vector<std::string> types;
  for (int32_t b : op.writes())
    types.push_back(p.buffers[b].type.str());
  if (!types.empty())
    label += "\n" + join(types, "\n", 3);
  return label;
}

std::string bufferNode(const Buffer &b) { return "in:" + b.name; }

/// Where each loop op runs: its kernel (schedule position).
std::vector<int32_t> kernelOfOps(const LoopProgram &p, const FusedProgram &f) {
  std::vector<int32_t> kernelOf(p.ops.size(), -1);
  for (size_t k = 0; k < f.kernels.size(); ++k)
    for (int32_t o : f.kernels[k].ops)
      kernelOf[o] = static_cast<int32_t>(k);
  return kernelOf;
}

/// Colour per kernel name: launches of one generated kernel share it.
std::vector<const char *> kernelColours(const FusedProgram &f) {
  std::map<std::string, size_t> byName;
  std::vector<const char *> out;
  for (const Kernel &k : f.kernels)
    out.push_back(k.isExtern ? kExternColour
                             : kernelColour(byName.emplace(k.name, byName.size()).first->second));
  return out;
}

/// The program's returned values: one edge each into the output node from a few drawn nodes;
/// beyond RenderOptions::outputEdgesUpTo, a mark on each (DotStyle.h drawsOutputEdges).
struct ReturnedValues {
  bool edges = true;
  /// Per output position with a buffer: the drawn node it comes from and the buffer.
  std::vector<std::pair<std::string, const Buffer *>> values;
  std::unordered_map<std::string, std::vector<size_t>> positions;
  std::vector<std::string> types;

  /// The mark of drawn node `node` ("" when it returns nothing or edges are drawn).
  std::string mark(const std::string &node) const {
    auto it = positions.find(node);
    return edges || it == positions.end() ? std::string() : "\n" + outputMark(it->second);
  }
  std::string attrs(const std::string &node) const {
    return mark(node).empty() ? std::string() : std::string(kReturnedAttrs);
  }
  /// The output node's statement.
  std::string outputNode(const RenderOptions &o, size_t outputs) const {
    std::string text = edges ? "output" : markedOutputLabel(outputs, types, o);
    return "  \"output\" [label=" + quoted(text) + ", shape=ellipse];\n";
  }
};

/// `nodeOf(buffer)`: the drawn node a buffer comes from (its producer op or kernel, or the input).
template <typename NodeOf>
ReturnedValues returnedValues(const LoopProgram &p, const RenderOptions &o, NodeOf &&nodeOf) {
  ReturnedValues r;
  for (const LoopProgram::Output &output : p.outputs) {
    size_t position = r.types.size();
    if (output.view.buffer < 0) {
      r.types.push_back(output.isNone ? "None" : "Sym(" + output.symbol.str() + ")");
      continue;
    }
    const Buffer &buf = p.buffers[output.view.buffer];
    r.types.push_back(buf.type.str());
    r.values.emplace_back(nodeOf(buf), &buf);
    r.positions[r.values.back().first].push_back(position);
  }
  r.edges = drawsOutputEdges(r.positions.size(), o);
  return r;
}

/// The program's input buffers (read by an op or returned) as nodes, with their marks.
std::string inputNodes(const LoopProgram &p, std::set<int32_t> &used,
                       const ReturnedValues &returned) {
  std::string out;
  for (const LoopOp &op : p.ops)
    for (int32_t b : op.reads())
      if (p.buffers[b].producer < 0)
        used.insert(b);
  for (const LoopProgram::Output &output : p.outputs)
    if (output.view.buffer >= 0 && p.buffers[output.view.buffer].producer < 0)
      used.insert(output.view.buffer);
  for (int32_t b : used) {
    std::string node = bufferNode(p.buffers[b]);
    out += "  " + quoted(node) + " [label=" +
           quoted(p.buffers[b].name + "\n" + p.buffers[b].type.str() + returned.mark(node)) +
           ", shape=ellipse" + returned.attrs(node) + "];\n";
  }
  return out;
}

/// What both pictures (kernels collapsed, or loop ops in kernel clusters) start from: the
/// kernel of each loop op, a colour per kernel, the returned values, the program's input
/// buffers and their nodes.
struct PictureParts {
  std::vector<int32_t> kernelOf;
  std::vector<const char *> colours;
  ReturnedValues returned;
  std::set<int32_t> inputs;
  std::string inputText;
};

/// `collapsed`: values come from kernels (`kN`), else from loop ops.
PictureParts pictureParts(const LoopProgram &p, const FusedProgram &f, const RenderOptions &o,
                          bool collapsed) {
  PictureParts parts{kernelOfOps(p, f), kernelColours(f), {}, {}, {}};
  parts.returned = returnedValues(p, o, [&](const Buffer &buf) {
    if (buf.producer < 0)
      return bufferNode(buf);
    return collapsed ? "k" + std::to_string(parts.kernelOf[buf.producer])
                     : p.ops[buf.producer].name;
  });
  parts.inputText = inputNodes(p, parts.inputs, parts.returned);
  return parts;
}

std::string collapsedDot(const LoopProgram &p, const FusedProgram &f, const RenderOptions &o) {
  const PictureParts parts = pictureParts(p, f, o, true);
  const std::vector<int32_t> &kernelOf = parts.kernelOf;
  size_t drawn = f.kernels.size() + parts.inputs.size() + 1;
  const bool large = isLargeGraph(drawn, o);
  std::string out = dotHeader(drawn, o) + parts.inputText;
  for (size_t k = 0; k < f.kernels.size(); ++k) {
    const Kernel &kernel = f.kernels[k];
    std::vector<std::string> ops;
    for (int32_t op : kernel.ops)
      for (const std::string &origin : p.ops[op].originOps)
        ops.push_back(origin);
    std::string label = "#" + std::to_string(k) + " " + kernel.name + "\n" +
                        std::to_string(kernel.ops.size()) + " loop ops: " + join(ops, ", ", 5);
    if (!kernel.isExtern)
      label += "\nreads " + formatBytes(kernel.bytesRead) + ", writes " +
               formatBytes(kernel.bytesWritten);
    std::string node = "k" + std::to_string(k);
    out += "  " + quoted(node) + " [label=" + quoted(label + parts.returned.mark(node)) +
           (kernel.isExtern ? ", shape=hexagon" : "") + ", style=filled, fillcolor=\"" +
           parts.colours[k] + "\"" + parts.returned.attrs(node) + "];\n";
  }
  out += parts.returned.outputNode(o, p.outputs.size());
  // Inputs read by many kernels are drawn again beside each reader (proxyInputsAbove).
  std::vector<size_t> readers(p.buffers.size(), 0);
  for (const Kernel &kernel : f.kernels)
    for (int32_t b : kernel.inputs)
      ++readers[b];
  // Edges: buffer producer kernel (or input) -> reader kernel, one per buffer.
  std::set<std::pair<std::string, std::string>> seen;
  auto edge = [&](const std::string &from, const std::string &to, const Buffer &b) {
    if (!seen.insert({from + "\n" + b.name, to}).second)
      return;
    std::string attrs = dotEdgeLabel(b.name + ": " + formatBytes(b.storageBytes()), large);
    out += "  " + quoted(from) + " -> " + quoted(to) + (attrs.empty() ? "" : " [" + attrs + "]") +
           ";\n";
  };
  for (size_t k = 0; k < f.kernels.size(); ++k)
    for (int32_t b : f.kernels[k].inputs) {
      const Buffer &buf = p.buffers[b];
      std::string from =
          buf.producer < 0 ? bufferNode(buf) : "k" + std::to_string(kernelOf[buf.producer]);
      if (buf.producer < 0 && readers[b] > o.proxyInputsAbove) {
        from += "@k" + std::to_string(k);
        out += "  " + quoted(from) + " [label=" + quoted(buf.name) +
               ", shape=ellipse, style=dashed, fontsize=8];\n";
      }
      edge(from, "k" + std::to_string(k), buf);
    }
  if (parts.returned.edges)
    for (const auto &[from, buf] : parts.returned.values)
      edge(from, "output", *buf);
  out += "}\n";
  return out;
}

} // namespace

std::string writeProgramDot(const LoopProgram &p, const FusedProgram &f,
                            const RenderOptions &options) {
  if (options.collapse == CollapseMode::Kernel)
    return collapsedDot(p, f, options);
  const PictureParts parts = pictureParts(p, f, options, false);
  const std::vector<int32_t> &kernelOf = parts.kernelOf;
  size_t drawn = p.ops.size() + parts.inputs.size() + 1;
  const bool large = isLargeGraph(drawn, options);
  std::string out = dotHeader(drawn, options);
  out += "  compound=true;\n" + parts.inputText;
  for (size_t k = 0; k < f.kernels.size(); ++k) {
    const Kernel &kernel = f.kernels[k];
    std::string indent = "  ";
    if (!kernel.isExtern) {
      out += "  subgraph " + quoted("cluster_k" + std::to_string(k)) +
             " {\n    label=" + quoted("#" + std::to_string(k) + " " + kernel.name) +
             "; style=\"filled,rounded\"; fillcolor=\"" + parts.colours[k] +
             "\"; fontname=\"monospace\"; fontsize=10;\n";
      indent = "    ";
    }
    for (int32_t o : kernel.ops) {
      const LoopOp &op = p.ops[o];
      std::string attrs = kernel.isExtern
                              ? std::string(", shape=hexagon, style=filled, fillcolor=\"") +
                                    kExternColour + "\", penwidth=2"
                              : ", style=filled, fillcolor=white";
      out += indent + quoted(op.name) +
             " [label=" + quoted(opLabel(p, op) + parts.returned.mark(op.name)) + attrs +
             parts.returned.attrs(op.name) + "];\n";
    }
    if (!kernel.isExtern)
      out += "  }\n";
  }
  out += parts.returned.outputNode(options, p.outputs.size());
  // Inputs read by many ops are drawn again beside each reader in the cheap layout (see
  // RenderOptions::proxyInputsAbove).
  std::vector<size_t> readers(p.buffers.size(), 0);
  for (const LoopOp &op : p.ops)
    for (int32_t b : op.reads())
      ++readers[b];
  // Data edges: one per (buffer, reader).
  for (size_t o = 0; o < p.ops.size(); ++o) {
    const LoopOp &op = p.ops[o];
    for (int32_t b : op.reads()) {
      const Buffer &buf = p.buffers[b];
      bool internal = buf.producer >= 0 && kernelOf[buf.producer] == kernelOf[o] && !buf.isOutput;
      std::string from = buf.producer < 0 ? bufferNode(buf) : p.ops[buf.producer].name;
      if (buf.producer < 0 && readers[b] > options.proxyInputsAbove) {
        from += "@" + op.name;
        out += "  " + quoted(from) + " [label=" + quoted(buf.name) +
               ", shape=ellipse, style=dashed, fontsize=8];\n";
      }
      std::string text = buf.name + ": " + formatBytes(buf.storageBytes());
      std::string attrs = dotEdgeLabel(text, large);
      if (internal)
        attrs += ", color=gray50, fontcolor=gray50";
      out += "  " + quoted(from) + " -> " + quoted(op.name) + " [" + attrs + "];\n";
    }
  }
  if (parts.returned.edges)
    for (const auto &[from, buf] : parts.returned.values)
      out += "  " + quoted(from) + " -> \"output\" [" +
             dotEdgeLabel(buf->name + ": " + formatBytes(buf->storageBytes()), large) + "];\n";
  if (options.fusion) {
    std::unordered_map<std::string, size_t> opIndex;
    for (size_t o = 0; o < p.ops.size(); ++o)
      opIndex.emplace(p.ops[o].name, o);
    for (const loop::FusionDecision &d : f.decisions) {
      if (!opIndex.count(d.op) || !opIndex.count(d.kernelOp))
        continue;
      if (d.fused && d.kind == loop::FusionKind::GemmEpilogue) {
        // Two kernels in the program, one where a GEMM template runs the product: a green
        // edge from the product to the kernel it runs at each element it stores.
        out += "  " + quoted(d.kernelOp) + " -> " + quoted(d.op) +
               " [style=dashed, color=darkgreen, fontcolor=darkgreen, constraint=false, " +
               dotEdgeLabel("gemm epilogue", large) + ", tooltip=" +
               quoted(d.op + " runs in the GEMM template of " + d.kernelOp + " (" + d.reason +
                      "; saves " + formatBytes(d.bytesSaved) + ")") +
               "];\n";
        continue;
      }
      if (d.fused)
        continue;
      // constraint=false: a refusal is no dependence, so it must not change the ranks.
      std::string reason = std::string(loop::fusionKindName(d.kind)) + ": " + d.reason;
      out += "  " + quoted(d.kernelOp) + " -> " + quoted(d.op) +
             " [style=dashed, color=red, fontcolor=red, constraint=false, " +
             dotEdgeLabel(reason, large) + ", tooltip=" +
             quoted("refused " + d.op + " into kernel of " + d.kernelOp + " (" + reason +
                    "; would save " + formatBytes(d.bytesSaved) + ")") +
             "];\n";
    }
  }
  out += "}\n";
  return out;
}

} // namespace fxkit

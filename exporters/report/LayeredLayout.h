#pragma once
/// \file Positions for drawing a large DAG without a layout engine: the report's interactive
/// viewer (GraphViewer.h) gets them precomputed so the browser never lays out 100k nodes.
/// A layered (Sugiyama-style) layout cut down to what stays linear-ish: longest-path layers
/// (sources moved down to just above their first user), a few barycentre sweeps to order each
/// layer, centred rows; a very deep graph is wrapped into side-by-side columns so the whole
/// picture is roughly square. Every walk is an iterative loop over arrays (no recursion over
/// edges): graphs of millions of nodes.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace fxkit {

/// A graph as the layout reads it: node i's inputs are `inputs[inStart[i] .. inStart[i+1])`.
/// Edges whose input is not before the node (`input >= i`: a cycle of collapsed groups) are
/// drawn but do not constrain layers.
struct LayoutGraph {
  std::vector<uint32_t> inStart{0};
  std::vector<uint32_t> inputs;
  size_t size() const { return inStart.size() - 1; }
};

/// Integer grid positions: `x` in half-node units (a layer of width w is centred on 0), `y`
/// the row (0 at the top; grows downwards).
struct LayeredLayout {
  std::vector<int32_t> x, y;
};

/// `sweeps` barycentre passes (down, up, down, ...).
LayeredLayout layeredLayout(const LayoutGraph &graph, int sweeps = 4);

} // namespace fxkit

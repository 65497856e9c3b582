#pragma once
/// \file The side-by-side picture of a diff (`fxkit diff A B -o diff.svg`): graph A on the
/// left and B on the right, each in a cluster, their nodes coloured by what the node matcher
/// (ir/GraphMatch.h) found, and every pair that is not the same node under the same name linked
/// across by a dashed edge labelled with why it was made. Laid out like every picture
/// (exporters/GraphvizRender.h renderDot); the cheap layout from RenderOptions::largeGraphNodes
/// drawn nodes on.

#include "exporters/RenderOptions.h"
#include "ir/GraphMatch.h"

#include <string>
#include <string_view>

namespace fxkit {

/// The fills: identical pairs grey, renamed blue, changed orange, each region one palette colour
/// on both sides, removed red, added green (a legend in the picture says so).
std::string diffDot(const Graph &a, const Graph &b, const GraphMatch &match, std::string_view aName,
                    std::string_view bName, const RenderOptions &options = {});

} // namespace fxkit

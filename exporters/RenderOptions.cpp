#include "exporters/RenderOptions.h"

namespace fxkit {

std::string_view renderFormatName(RenderFormat format) {
  switch (format) {
  case RenderFormat::Dot:
    return "dot";
  case RenderFormat::Svg:
    return "svg";
  case RenderFormat::Png:
    return "png";
  case RenderFormat::Pdf:
    return "pdf";
  }
  return "?";
}

std::optional<RenderFormat> parseRenderFormat(std::string_view name) {
  for (RenderFormat f :
       {RenderFormat::Dot, RenderFormat::Svg, RenderFormat::Png, RenderFormat::Pdf})
    if (renderFormatName(f) == name)
      return f;
  return std::nullopt;
}

std::string_view collapseModeName(CollapseMode mode) {
  switch (mode) {
  case CollapseMode::None:
    return "none";
  case CollapseMode::Kernel:
    return "kernel";
  case CollapseMode::Module:
    return "module";
  }
  return "?";
}

std::optional<CollapseMode> parseCollapseMode(std::string_view name) {
  for (CollapseMode m : {CollapseMode::None, CollapseMode::Kernel, CollapseMode::Module})
    if (collapseModeName(m) == name)
      return m;
  return std::nullopt;
}

} // namespace fxkit

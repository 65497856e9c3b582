#include "ir/ops/PoolingWindows.h"

#include "ir/Try.h"
#include "ir/ops/OpRegistry.h"

#include <string>

namespace fxkit {

namespace {

/// A pooling list expanded to nd entries: a single value repeats; empty (or None) gives `fill`.
Expected<std::vector<int64_t>> spatialList(const BoundArgs &b, const IntListReader &read,
                                           std::string_view name, size_t nd,
                                           const std::vector<int64_t> &fill) {
  FXKIT_ASSIGN_OR_RETURN(auto v, read(name));
  const std::vector<int64_t> &list = v;
  if (list.empty())
    return fill;
  if (list.size() == 1)
    return std::vector<int64_t>(nd, list[0]);
  if (list.size() != nd)
    return b.error(std::string(name) + " has " + std::to_string(list.size()) + " entries for " +
                   std::to_string(nd) + " spatial dims");
  return list;
}

} // namespace

Expected<PoolWindow> readPoolWindow(const BoundArgs &b, size_t nd, const IntListReader &reader) {
  IntListReader read = reader;
  if (!read)
    read = [&b](std::string_view name) -> Expected<std::vector<int64_t>> {
      FXKIT_ASSIGN_OR_RETURN(auto v, b.intList(name));
      return v.value_or(std::vector<int64_t>{});
    };
  PoolWindow w;
  FXKIT_ASSIGN_OR_RETURN(auto kernel, spatialList(b, read, "kernel_size", nd, {}));
  FXKIT_ASSIGN_OR_RETURN(auto stride, spatialList(b, read, "stride", nd, kernel));
  FXKIT_ASSIGN_OR_RETURN(auto padding,
                         spatialList(b, read, "padding", nd, std::vector<int64_t>(nd, 0)));
  w.kernel = std::move(kernel);
  w.stride = std::move(stride);
  w.padding = std::move(padding);
  w.dilation.assign(nd, 1);
  const OpSchema &schema = b.op().schema;
  if (schema.indexOf("dilation") >= 0) {
    FXKIT_ASSIGN_OR_RETURN(auto dilation, spatialList(b, read, "dilation", nd, w.dilation));
    w.dilation = std::move(dilation);
  }
  if (schema.indexOf("ceil_mode") >= 0) {
    FXKIT_ASSIGN_OR_RETURN(auto ceil, b.boolean("ceil_mode"));
    w.ceil = ceil;
  }
  if (w.kernel.size() != nd || w.stride.size() != nd || w.padding.size() != nd)
    return b.error("kernel_size, stride and padding must have " + std::to_string(nd) + " entries");
  for (size_t d = 0; d < nd; ++d)
    if (w.kernel[d] <= 0 || w.stride[d] <= 0 || w.dilation[d] <= 0)
      return b.error("kernel size, stride and dilation must be positive");
  return w;
}

Expected<std::optional<double>> upsampleScale(const BoundArgs &b, size_t d) {
  const Argument &a = b.get("scale_factors");
  if (a.isNone())
    return std::optional<double>();
  if (!a.isContainer() || d >= a.items().size())
    return b.error("scale_factors has too few entries");
  const Argument &item = a.items()[d];
  double s;
  if (item.kind() == Argument::Kind::Int)
    s = static_cast<double>(item.asInt());
  else if (item.kind() == Argument::Kind::Float)
    s = item.asFloat();
  else
    return b.error("scale_factors must hold numbers");
  return s > 0 ? std::optional<double>(s) : std::nullopt;
}

} // namespace fxkit

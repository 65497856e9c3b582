#include "ir/TensorType.h"

#include "ir/StorageSpan.h"

#include "ir/StringPool.h"

#include <cctype>

namespace fxkit {

Expected<Device> Device::parse(std::string_view text) {
  Device d;
  size_t colon = text.find(':');
  std::string_view type = text.substr(0, colon);
  if (type.empty())
    return Error("empty device type");
  for (char c : type)
    if (!std::islower(static_cast<unsigned char>(c)) && c != '_')
      return Error("bad device '" + std::string(text) + "'");
  d.type = intern(type);
  if (colon != std::string_view::npos) {
    std::string_view idx = text.substr(colon + 1);
    if (idx.empty() || idx.size() > 6)
      return Error("bad device index in '" + std::string(text) + "'");
    int v = 0;
    for (char c : idx) {
      if (!std::isdigit(static_cast<unsigned char>(c)))
        return Error("bad device index in '" + std::string(text) + "'");
      v = v * 10 + (c - '0');
    }
    d.index = v;
  }
  return d;
}

std::string Device::str() const {
  std::string out(type);
  if (index >= 0)
    out += ":" + std::to_string(index);
  return out;
}

std::string Device::pyRepr() const {
  std::string out = "device(type='" + std::string(type) + "'";
  if (index >= 0)
    out += ", index=" + std::to_string(index);
  return out + ")";
}

void TensorType::print(std::string &out) const {
  out += dtypeShortName(dtype);
  auto list = [&out](const std::vector<SymExpr> &xs) {
    out.push_back('[');
    for (size_t i = 0; i < xs.size(); ++i) {
      if (i)
        out += ", ";
      xs[i].print(out);
    }
    out.push_back(']');
  };
  list(sizes);
  if (hasStrides)
    list(strides);
  if (hasDevice)
    out += device.str();
}

Status checkTensorExtent(const TensorType &t) {
  // Shape inference asks this of every value: the sizes and strides of the usual ranks are
  // copied to the stack, not to two heap vectors per tensor.
  constexpr size_t kStackRank = 8;
  int64_t stack[2 * kStackRank];
  std::vector<int64_t> heap;
  size_t rank = t.sizes.size(), strideRank = t.strides.size();
  int64_t *sizes = stack, *strides = stack + kStackRank;
  if (rank > kStackRank || strideRank > kStackRank) {
    heap.resize(rank + strideRank);
    sizes = heap.data();
    strides = heap.data() + rank;
  }
  for (size_t d = 0; d < rank; ++d) {
    if (!t.sizes[d].isConstant())
      return Status::ok(); // checked when bound (loop::checkBoundBufferSizes)
    sizes[d] = t.sizes[d].constant();
  }
  for (size_t d = 0; d < strideRank; ++d) // a symbolic stride reaches no further than its size
    strides[d] = t.strides[d].isConstant() ? t.strides[d].constant() : 0;
  if (auto span = storageSpan({sizes, rank}, {strides, strideRank}, dtypeItemSize(t.dtype)); !span)
    return Error("tensor " + t.str() + " " + span.error().message);
  return Status::ok();
}

std::string TensorType::str() const {
  std::string out;
  print(out);
  return out;
}

namespace {

/// Splits "a, b*(c + d), e" at top-level commas.
Expected<std::vector<SymExpr>> parseSymList(std::string_view body, size_t offset) {
  std::vector<SymExpr> out;
  if (body.find_first_not_of(' ') == std::string_view::npos)
    return out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= body.size(); ++i) {
    if (i < body.size() && body[i] == '(')
      ++depth;
    else if (i < body.size() && body[i] == ')')
      --depth;
    else if (i == body.size() || (body[i] == ',' && depth == 0)) {
      auto e = SymExpr::parse(body.substr(start, i - start));
      if (!e) {
        Error err = e.takeError();
        err.loc.col += static_cast<int>(offset + start);
        return err;
      }
      out.push_back(*e);
      start = i + 1;
    }
  }
  return out;
}

} // namespace

Expected<TensorType> TensorType::parse(std::string_view text) {
  auto fail = [&](std::string msg, size_t pos) {
    Error err("bad tensor type '" + std::string(text) + "': " + msg);
    err.loc.col = static_cast<int>(pos) + 1;
    return err;
  };
  size_t open = text.find('[');
  if (open == std::string_view::npos)
    return fail("expected '[' after the dtype", text.size());
  auto dtype = parseDType(text.substr(0, open));
  if (!dtype)
    return fail("unknown dtype '" + std::string(text.substr(0, open)) + "'", 0);
  TensorType t;
  t.dtype = *dtype;
  size_t pos = open;
  for (int which = 0; which < 2; ++which) {
    if (which == 1 && pos == text.size()) { // sizes only: `f32[8, 128]`
      t.hasStrides = false;
      t.hasDevice = false;
      // Shape rules index strides; assume the layout eager gives (contiguous). hasStrides keeps
      // them out of the printed and compared forms of the value.
      t.strides = contiguousStrides(t.sizes);
      return t;
    }
    if (pos >= text.size() || text[pos] != '[')
      return fail(which == 0 ? "expected '[' before sizes" : "expected '[' before strides", pos);
    int depth = 0;
    size_t close = pos;
    for (; close < text.size(); ++close) {
      if (text[close] == '[')
        ++depth;
      else if (text[close] == ']' && --depth == 0)
        break;
    }
    if (close >= text.size())
      return fail("unbalanced '['", pos);
    auto list = parseSymList(text.substr(pos + 1, close - pos - 1), pos + 1);
    if (!list) {
      Error err = list.takeError();
      return fail(err.message, static_cast<size_t>(err.loc.col - 1));
    }
    (which == 0 ? t.sizes : t.strides) = list.take();
    pos = close + 1;
  }
  if (t.sizes.size() != t.strides.size())
    return fail("sizes and strides have different ranks", open);
  if (pos == text.size()) { // no device: `f32[8][1]`
    t.hasDevice = false;
    return t;
  }
  auto device = Device::parse(text.substr(pos));
  if (!device)
    return fail(device.error().message, pos);
  t.device = *device;
  return t;
}

std::vector<SymExpr> TensorType::contiguousStrides(const std::vector<SymExpr> &sizes) {
  std::vector<SymExpr> strides(sizes.size());
  SymExpr acc(1);
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = acc;
    // A size of 0 counts as 1, as in PyTorch's contiguous strides (sizes [2, 0, 2] have strides
    // [2, 2, 1]); a symbol is never 0.
    const SymExpr size = sizes[i].isConstant() && sizes[i].constant() == 0 ? SymExpr(1) : sizes[i];
    acc = (acc.isConstant() && acc.constant() == 1)
              ? size
              : SymExpr::binary(SymExpr::Kind::Mul, size, acc).simplify();
  }
  return strides;
}

} // namespace fxkit

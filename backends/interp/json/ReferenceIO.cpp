#include "backends/interp/json/ReferenceIO.h"

#include <charconv>
#include <cmath>
#include <sstream>

namespace fxkit {

namespace {

std::optional<int64_t> parseInteger(std::string_view text) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size())
    return std::nullopt;
  return v;
}

std::string shortType(const Tensor &t) {
  std::string s(dtypeShortName(t.dtype()));
  s += "[";
  for (int64_t d = 0; d < t.dim(); ++d)
    s += (d ? ", " : "") + std::to_string(t.size(d));
  return s + "]";
}

std::string numberText(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

/// The text of a scalar output, as stored in `__metadata__`; nullopt for tensors and None.
std::optional<std::string> scalarText(const RuntimeValue &v) {
  if (const int64_t *i = v.integer())
    return std::to_string(*i);
  if (const double *d = std::get_if<double>(&v.v))
    return numberText(*d);
  if (const bool *b = std::get_if<bool>(&v.v))
    return std::string(*b ? "True" : "False");
  return std::nullopt;
}

OutputCheck compareTensor(const std::string &name, const Tensor &actual, const Tensor &expected,
                          const Tolerance &tolerance) {
  OutputCheck c{name, shortType(actual), false, ""};
  if (actual.dtype() != expected.dtype() || actual.sizes() != expected.sizes()) {
    c.detail = "expected " + shortType(expected);
    return c;
  }
  auto [rtol, atol] = defaultTolerance(actual.dtype());
  rtol = tolerance.rtol.value_or(rtol);
  atol = tolerance.atol.value_or(atol);
  auto cmp = compareTensors(actual, expected, rtol, atol);
  if (!cmp) {
    c.detail = cmp.error().message;
    return c;
  }
  c.ok = cmp->allClose;
  std::ostringstream os;
  os << cmp->str();
  if (dtypeIsFloating(actual.dtype()))
    os << " (rtol " << rtol << ", atol " << atol << ")";
  c.detail = os.str();
  return c;
}

} // namespace

Expected<std::vector<RuntimeValue>> readGraphInputs(const SafetensorsFile &file, size_t count,
                                                    std::string_view fileName) {
  std::vector<RuntimeValue> inputs;
  std::string where(fileName);
  for (size_t i = 0; i < count; ++i) {
    std::string name = "arg_" + std::to_string(i);
    if (const Tensor *t = file.find(name)) {
      inputs.push_back(RuntimeValue{*t});
      continue;
    }
    auto meta = file.metadata.find(name);
    if (meta == file.metadata.end())
      return Error(where + ": no input '" + name + "' (the graph takes " + std::to_string(count) +
                   " inputs: tensors arg_<i>, integers in __metadata__)");
    auto v = parseInteger(meta->second);
    if (!v)
      return Error(where + ": __metadata__ '" + name + "' is '" + meta->second +
                   "', expected an integer");
    inputs.push_back(RuntimeValue{*v});
  }
  // An input beyond the graph's count is a sign of the wrong file or graph.
  std::string extra = "arg_" + std::to_string(count);
  if (file.find(extra) || file.metadata.count(extra))
    return Error(where + ": holds more inputs than the graph's " + std::to_string(count) +
                 " (found '" + extra + "')");
  return inputs;
}

SafetensorsFile graphOutputsFile(std::span<const RuntimeValue> outputs, std::string_view prefix) {
  SafetensorsFile file;
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::string name = std::string(prefix) + std::to_string(i);
    if (const Tensor *t = outputs[i].tensor())
      file.tensors.emplace_back(name, t->contiguous());
    else if (auto text = scalarText(outputs[i]))
      file.metadata[name] = *text;
  }
  return file;
}

Expected<std::vector<OutputCheck>> checkGraphOutputs(std::span<const RuntimeValue> outputs,
                                                     const SafetensorsFile &expected,
                                                     const Tolerance &tolerance) {
  std::vector<OutputCheck> checks;
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::string name = "out_" + std::to_string(i);
    const RuntimeValue &out = outputs[i];
    const Tensor *want = expected.find(name);
    auto meta = expected.metadata.find(name);
    if (const Tensor *t = out.tensor()) {
      if (want)
        checks.push_back(compareTensor(name, *t, *want, tolerance));
      else
        checks.push_back({name, shortType(*t), false, "no expected tensor '" + name + "'"});
      continue;
    }
    std::optional<std::string> text = scalarText(out);
    if (!text) { // None: nothing is stored for it, or the metadata says null (backward graphs)
      bool absent = !want && (meta == expected.metadata.end() || meta->second == "null" ||
                              meta->second == "None");
      checks.push_back({name, "None", absent, absent ? "" : "expected a value"});
      continue;
    }
    if (meta == expected.metadata.end()) {
      checks.push_back({name, *text, false, "no expected value '" + name + "'"});
      continue;
    }
    bool same = meta->second == *text;
    if (!same && out.integer()) {
      auto v = parseInteger(meta->second);
      if (!v)
        return Error("expected outputs: __metadata__ '" + name + "' is '" + meta->second +
                     "', expected an integer");
      same = *v == *out.integer();
    }
    checks.push_back({name, *text, same, same ? "" : "expected " + meta->second});
  }
  // Expected values the graph did not produce.
  for (size_t i = outputs.size();; ++i) {
    std::string name = "out_" + std::to_string(i);
    if (!expected.find(name) && !expected.metadata.count(name))
      break;
    checks.push_back({name, "missing", false,
                      "the graph returns only " + std::to_string(outputs.size()) + " values"});
  }
  return checks;
}

} // namespace fxkit

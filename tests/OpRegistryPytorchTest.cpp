/// The op registry against PyTorch's own list of overloads (tests/data/pytorch-ops.json.gz,
/// dumped from torch.ops of PyTorch 2.11; see tests/data/README.md): every schema PyTorch
/// declares parses, every registered aten/prims overload has exactly PyTorch's schema, and the
/// Core ATen list of ir/ops/CoreAtenOps.def is PyTorch's.

#include "ir/ops/OpCoverage.h"
#include "ir/ops/OpRegistry.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <zlib.h>

#include <map>
#include <set>
#include <string>

using namespace fxkit;

namespace {

/// The file's JSON ("ops": target -> {schema, core, ...}).
nlohmann::json pytorchOps() {
  std::string path = std::string(FXKIT_TEST_DATA) + "/pytorch-ops.json.gz";
  gzFile f = gzopen(path.c_str(), "rb");
  EXPECT_NE(f, nullptr) << path;
  std::string text;
  char buf[1 << 16];
  for (int n; f && (n = gzread(f, buf, sizeof buf)) > 0;)
    text.append(buf, static_cast<size_t>(n));
  if (f)
    gzclose(f);
  return nlohmann::json::parse(text, nullptr, false);
}

/// PyTorch's schema without its namespace: `aten::add.Tensor(...)` -> `add.Tensor(...)`.
std::string withoutNamespace(const std::string &schema) {
  size_t colons = schema.find("::");
  return colons == std::string::npos ? schema : schema.substr(colons + 2);
}

TEST(OpRegistryPytorch, EveryPytorchSchemaParses) {
  nlohmann::json ops = pytorchOps()["ops"];
  ASSERT_GE(ops.size(), 3000u);
  size_t parsed = 0;
  for (auto &[target, facts] : ops.items()) {
    auto schema = parseSchema(withoutNamespace(facts["schema"].get<std::string>()));
    EXPECT_TRUE(schema) << target << ": " << (schema ? "" : schema.error().str());
    parsed += schema.hasValue();
  }
  EXPECT_EQ(parsed, ops.size());
}

TEST(OpRegistryPytorch, RegisteredSchemasArePytorchs) {
  nlohmann::json ops = pytorchOps()["ops"];
  size_t compared = 0;
  for (const OpInfo &op : OpRegistry::instance().ops()) {
    std::string target(op.target);
    if (!target.starts_with("torch.ops."))
      continue; // operator.* are Python's
    // The fused CPU encoder layer of nn.TransformerEncoderLayer's fast path (a corpus graph
    // calls it): a native function the dump of torch.ops does not list.
    if (target == "torch.ops.aten._transformer_encoder_layer_fwd.default")
      continue;
    // torchvision's ops are not in PyTorch's dump: their schemas as torchvision defines them
    // (torchvision/csrc/ops/roi_align.cpp, TORCH_LIBRARY_FRAGMENT).
    static const std::map<std::string, std::string> kTorchvision = {
        {"torch.ops.torchvision.roi_align.default",
         "roi_align(Tensor input, Tensor rois, float spatial_scale, SymInt pooled_height, SymInt "
         "pooled_width, int sampling_ratio, bool aligned) -> Tensor"}};
    if (target.starts_with("torch.ops.torchvision.")) {
      ASSERT_TRUE(kTorchvision.contains(target)) << target << " is not a known torchvision op";
      auto theirs = parseSchema(kTorchvision.at(target));
      ASSERT_TRUE(theirs) << target;
      EXPECT_EQ(op.schema.str(), theirs->str()) << target;
      continue;
    }
    ASSERT_TRUE(ops.contains(target)) << target << " is not a PyTorch 2.11 overload";
    auto theirs = parseSchema(withoutNamespace(ops[target]["schema"].get<std::string>()));
    ASSERT_TRUE(theirs) << target;
    EXPECT_EQ(op.schema.str(), theirs->str()) << target;
    ++compared;
  }
  EXPECT_GE(compared, 150u);
}

TEST(OpRegistryPytorch, CoreAtenListIsPytorchs) {
  nlohmann::json ops = pytorchOps()["ops"];
  std::set<std::string> theirs;
  for (auto &[target, facts] : ops.items())
    if (facts["core"].get<bool>())
      theirs.insert(target);
  std::set<std::string> ours(coreAtenTargets().begin(), coreAtenTargets().end());
  EXPECT_EQ(ours, theirs);
  EXPECT_EQ(ours.size(), 193u);
  EXPECT_TRUE(isCoreAten("torch.ops.aten.add.Tensor"));
  EXPECT_FALSE(isCoreAten("torch.ops.aten.relu_.default"));
}

TEST(OpRegistryPytorch, CoverageListsEveryRegisteredAndCoreOp) {
  std::vector<OpCoverage> cov = opCoverage();
  size_t core = 0, registered = 0;
  for (const OpCoverage &c : cov) {
    core += c.core;
    registered += c.category.has_value();
    if (c.category) {
      EXPECT_TRUE(c.infer) << c.target;
      // Every registered op compiles (out= variants as their functional form).
      EXPECT_NE(c.compiled, CompiledForm::None) << c.target;
    }
  }
  EXPECT_EQ(core, 193u);
  EXPECT_EQ(registered, OpRegistry::instance().ops().size());
}

} // namespace

#include "experiment/yaml_node.h"

#include <gtest/gtest.h>

#include <optional>

namespace mr::experiment {
namespace {

// YAML::Node's operator= writes into the shared document; YamlNode's must rebind. Before
// the fix, `name = map.Require("policy")` turned the policy's map into the scalar "klps",
// and the policy's label and options were silently dropped.
TEST(YamlNodeTest, AssignmentRebindsAndLeavesTheDocumentAlone) {
  std::string source = "test.yaml";
  YamlNode map(YAML::Load("{policy: klps, label: k2}"), "policies[0]", &source);
  std::optional<YamlNode> name = map;
  Result<YamlNode> policy = map.Require("policy");
  ASSERT_TRUE(policy.ok());
  name = *policy;
  EXPECT_EQ(*name->Text(), "klps");
  EXPECT_EQ(name->path(), "policies[0].policy");
  ASSERT_TRUE(map.IsMap());
  ASSERT_TRUE(map.Get("label").has_value());
  EXPECT_EQ(*map.Get("label")->Text(), "k2");
}

TEST(YamlNodeTest, ErrorsNameSourceLineAndPath) {
  std::string source = "e.yaml";
  YamlNode root(YAML::Load("a: 1\nb:\n  c: x\n"), "", &source);
  Result<YamlNode> b = root.Require("b");
  ASSERT_TRUE(b.ok());
  Result<YamlNode> c = b->Require("c");
  ASSERT_TRUE(c.ok());
  Result<int64_t> v = c->Int(0, 9);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().message(), "e.yaml:3: b.c: must be an integer in 0..9, got 'x'");
  EXPECT_EQ(root.Require("d").status().message(), "e.yaml:1: missing key 'd'");
  Result<int64_t> a = root.Get("a")->Int(0, 9);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(*a, 1);
}

}  // namespace
}  // namespace mr::experiment

#include "experiment/yaml_node.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>

#include "common/units.h"

namespace mr::experiment {

namespace {
std::string Quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

std::string JoinKnown(std::span<const std::string_view> known) {
  std::string out;
  for (std::string_view k : known) out += (out.empty() ? "" : ", ") + std::string(k);
  return out;
}
}  // namespace

int YamlNode::line() const {
  if (!node_.IsDefined()) return 0;
  YAML::Mark mark = node_.Mark();
  return mark.line < 0 ? 0 : mark.line + 1;
}

Status YamlNode::Error(std::string_view what) const {
  std::string where = source_ != nullptr && !source_->empty() ? *source_ : "experiment";
  if (line() > 0) where += ":" + std::to_string(line());
  if (!path_.empty()) where += ": " + path_;
  return Status::InvalidArgument(where + ": " + std::string(what));
}

std::string YamlNode::ChildPath(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

Result<std::string> YamlNode::Text() const {
  if (node_.IsNull()) return Error("has no value");
  if (!node_.IsScalar())
    return Error(node_.IsMap() ? "must be a value, not a map" : "must be a value, not a list");
  return node_.Scalar();
}

Result<int64_t> YamlNode::Int(int64_t min, int64_t max) const {
  MR_ASSIGN_OR_RETURN(std::string text, Text());
  int64_t v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || v < min || v > max) {
    return Error("must be an integer in " + std::to_string(min) + ".." + std::to_string(max) +
                 ", got " + Quoted(text));
  }
  return v;
}

Result<double> YamlNode::Number(double min, double max, bool min_open) const {
  MR_ASSIGN_OR_RETURN(std::string text, Text());
  double v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  bool in_range = std::isfinite(v) && (min_open ? v > min : v >= min) && v <= max;
  if (ec != std::errc() || p != text.data() + text.size() || !in_range) {
    char range[96];
    std::snprintf(range, sizeof(range), "%c%g, %g]", min_open ? '(' : '[', min, max);
    return Error("must be a number in " + std::string(range) + ", got " + Quoted(text));
  }
  return v;
}

Result<bool> YamlNode::Bool() const {
  MR_ASSIGN_OR_RETURN(std::string text, Text());
  if (text == "true") return true;
  if (text == "false") return false;
  return Error("must be true or false, got " + Quoted(text));
}

Result<double> YamlNode::Rate() const {
  MR_ASSIGN_OR_RETURN(std::string text, Text());
  Result<double> v = ParseRate(text);
  if (!v.ok()) return Error(v.status().message());
  return *v;
}

Result<double> YamlNode::Duration() const {
  MR_ASSIGN_OR_RETURN(std::string text, Text());
  Result<double> v = ParseDuration(text);
  if (!v.ok()) return Error(v.status().message());
  return *v;
}

Status YamlNode::CheckMap(std::span<const std::string_view> known) const {
  MR_RETURN_IF_ERROR(Entries().status());  // a map, plain keys, none twice
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    const std::string& key = it->first.Scalar();
    bool found = false;
    for (std::string_view k : known) found = found || k == key;
    if (!found) {
      return Child(it->first, ChildPath(key))
          .Error("unknown key (known here: " + JoinKnown(known) + ")");
    }
  }
  return Status::Ok();
}

std::optional<YamlNode> YamlNode::Get(std::string_view key) const {
  if (!node_.IsMap()) return std::nullopt;
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    if (it->first.IsScalar() && it->first.Scalar() == key) return Child(it->second, ChildPath(key));
  }
  return std::nullopt;
}

Result<YamlNode> YamlNode::Require(std::string_view key) const {
  if (!node_.IsMap()) return Error("must be a map");
  std::optional<YamlNode> v = Get(key);
  if (!v) return Error("missing key '" + std::string(key) + "'");
  return *v;
}

Result<std::vector<YamlNode>> YamlNode::Items() const {
  if (!node_.IsSequence()) return Error("must be a list");
  std::vector<YamlNode> out;
  for (size_t i = 0; i < node_.size(); ++i) {
    out.push_back(Child(node_[i], path_ + "[" + std::to_string(i) + "]"));
  }
  return out;
}

Result<std::vector<std::pair<std::string, YamlNode>>> YamlNode::Entries() const {
  if (!node_.IsMap()) return Error("must be a map");
  std::vector<std::pair<std::string, YamlNode>> out;
  std::set<std::string> seen;
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    YamlNode key = Child(it->first, path_);
    if (!it->first.IsScalar()) return key.Error("a key must be a plain name");
    std::string name = it->first.Scalar();
    YamlNode value = Child(it->second, ChildPath(name));
    if (!seen.insert(name).second)
      return Child(it->first, ChildPath(name)).Error("key given twice");
    out.emplace_back(std::move(name), std::move(value));
  }
  return out;
}

}  // namespace mr::experiment

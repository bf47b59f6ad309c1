// A YAML node together with the key path that reached it ("cluster.workers[0].speed") and
// the file it came from, so that every error an experiment file can produce names the key
// and the line: "exp.yaml:12: cluster.workers[0].speed: must be a number in (0, 1000], got
// 'fast'". Scalars are read as text and converted here (common/units for sizes, rates and
// durations), never through yaml-cpp's exceptions. A value type; it borrows `source`,
// which must outlive it. Thread-compatible.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace mr::experiment {

class YamlNode {
 public:
  YamlNode(YAML::Node node, std::string path, const std::string* source)
      : node_(std::move(node)), path_(std::move(path)), source_(source) {}

  YamlNode(const YamlNode&) = default;
  // Rebinds to other's node. (YAML::Node's own operator= writes other's content into the
  // shared document instead, so the defaulted assignment would change the parsed file.)
  YamlNode& operator=(const YamlNode& other) {
    node_.reset(other.node_);
    path_ = other.path_;
    source_ = other.source_;
    return *this;
  }

  const std::string& path() const { return path_; }
  int line() const;  // 1-based; 0 when unknown
  bool IsMap() const { return node_.IsMap(); }
  bool IsSequence() const { return node_.IsSequence(); }
  bool IsScalar() const { return node_.IsScalar(); }

  // InvalidArgument "SOURCE:LINE: PATH: what".
  Status Error(std::string_view what) const;

  // REQUIRES nothing: a node of the wrong kind is an error naming what was expected.
  Result<std::string> Text() const;
  Result<int64_t> Int(int64_t min, int64_t max) const;
  // A decimal number in [min, max] (open at min when min_open).
  Result<double> Number(double min, double max, bool min_open = false) const;
  Result<bool> Bool() const;
  Result<double> Rate() const;      // ParseRate: "20MB/s", 0 = unlimited
  Result<double> Duration() const;  // ParseDuration, seconds

  // A map whose keys are all in `known` and appear once; the error for an unknown key
  // names it, its line and the known keys. Not a map -> error.
  Status CheckMap(std::span<const std::string_view> known) const;
  Status CheckMap(std::initializer_list<std::string_view> known) const {
    return CheckMap(std::span<const std::string_view>(known.begin(), known.size()));
  }
  // The value at `key` of a map (path extended), or nullopt when absent.
  std::optional<YamlNode> Get(std::string_view key) const;
  // As Get, an error naming the key when absent.
  Result<YamlNode> Require(std::string_view key) const;
  // The elements of a sequence, paths "path[i]". Not a sequence -> error.
  Result<std::vector<YamlNode>> Items() const;
  // The entries of a map in file order: key text and value node (path "path.key").
  // Duplicate keys are errors.
  Result<std::vector<std::pair<std::string, YamlNode>>> Entries() const;

 private:
  YamlNode Child(const YAML::Node& node, std::string path) const {
    return {node, std::move(path), source_};
  }
  std::string ChildPath(std::string_view key) const;

  YAML::Node node_;
  std::string path_;
  const std::string* source_;
};

}  // namespace mr::experiment

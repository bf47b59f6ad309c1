#include "scheduler/policies/pool_table.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <sstream>
#include <string>
#include <tuple>

#include "common/file_util.h"

namespace mr::sched {
namespace {

std::vector<std::string_view> Tokens(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

template <typename T>
bool ParseNumber(std::string_view s, T* out) {
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

// Applies one "key=value" token; returns an error message or "".
std::string ApplyField(std::string_view tok, PoolConfig* pool) {
  size_t eq = tok.find('=');
  if (eq == std::string_view::npos) return "expected key=value, got '" + std::string(tok) + "'";
  std::string_view key = tok.substr(0, eq), value = tok.substr(eq + 1);
  int* count = key == "min_maps"      ? &pool->min_maps
               : key == "min_reduces" ? &pool->min_reduces
               : key == "max_maps"    ? &pool->max_maps
               : key == "max_reduces" ? &pool->max_reduces
                                      : nullptr;
  if (count != nullptr) {
    int n = 0;
    if (!ParseNumber(value, &n) || n < 0) {
      return std::string(key) + " must be a non-negative integer, got '" + std::string(value) + "'";
    }
    *count = n;
    return "";
  }
  if (key == "weight") {
    double w = 0;
    if (!ParseNumber(value, &w) || !std::isfinite(w) || w <= 0) {
      return "weight must be a positive number, got '" + std::string(value) + "'";
    }
    pool->weight = w;
    return "";
  }
  return "unknown key '" + std::string(key) + "' (known: min_maps, min_reduces, max_maps, max_reduces, weight)";
}

// Parses one non-empty, comment-free line; returns an error message or "".
std::string ParseLine(std::string_view line, PoolConfig* pool) {
  std::vector<std::string_view> tok = Tokens(line);
  if (tok[0] != "pool") return "expected 'pool NAME key=value...', got '" + std::string(tok[0]) + "'";
  if (tok.size() < 2 || tok[1].find('=') != std::string_view::npos) return "missing pool name";
  pool->name = std::string(tok[1]);
  for (size_t i = 2; i < tok.size(); ++i) {
    std::string err = ApplyField(tok[i], pool);
    if (!err.empty()) return err;
  }
  for (auto [lo, hi, lo_name, hi_name] : {std::tuple{pool->min_maps, pool->max_maps, "min_maps", "max_maps"},
                                          std::tuple{pool->min_reduces, pool->max_reduces, "min_reduces", "max_reduces"}}) {
    if (hi > 0 && lo > hi) {
      return std::string(lo_name) + " " + std::to_string(lo) + " is above " + hi_name + " " + std::to_string(hi);
    }
  }
  return "";
}

}  // namespace

PoolTable::PoolTable() { default_.name = "default"; }

Result<PoolTable> PoolTable::Parse(std::string_view text, std::string_view source) {
  PoolTable table;
  int line_no = 0;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    line = line.substr(0, line.find('#'));
    if (Tokens(line).empty()) continue;
    PoolConfig pool;
    std::string err = ParseLine(line, &pool);
    for (const PoolConfig& p : table.pools_) {
      if (err.empty() && p.name == pool.name) err = "pool '" + pool.name + "' defined twice";
    }
    if (!err.empty()) {
      std::ostringstream msg;
      msg << source << ":" << line_no << ": " << err;
      return Status::InvalidArgument(msg.str());
    }
    table.pools_.push_back(std::move(pool));
  }
  std::sort(table.pools_.begin(), table.pools_.end(),
            [](const PoolConfig& a, const PoolConfig& b) { return a.name < b.name; });
  if (const PoolConfig& d = table.Lookup("default"); d.name == "default") table.default_ = d;
  return table;
}

Result<PoolTable> PoolTable::Load(const std::string& path) {
  MR_ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
  return Parse(text, path);
}

const PoolConfig& PoolTable::Lookup(std::string_view pool) const {
  auto it = std::lower_bound(pools_.begin(), pools_.end(), pool,
                             [](const PoolConfig& p, std::string_view n) { return p.name < n; });
  if (it != pools_.end() && it->name == pool) return *it;
  return default_;
}

}  // namespace mr::sched

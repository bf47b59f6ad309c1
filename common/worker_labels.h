// Worker labels: KEY=VALUE pairs a worker is started with (`mr worker --label`, an
// experiment's worker group, a simulator WorkerSpec), so that policies can tell classes of
// machines apart (capacity groups, node classes). Named "labels", as YARN node labels and
// Kubernetes labels are, because "pool" already means a fair-scheduler job pool here.
//
// The syntax, checked wherever labels enter (flag, experiment file, master's message checks):
//   KEY    1..63 bytes of [A-Za-z0-9._-], starting with a letter or a digit;
//   VALUE  1..63 bytes of [A-Za-z0-9._:/-];
//   at most kMaxWorkerLabels labels per worker, no key twice.
// So a label prints as KEY=VALUE and a set of them as "k1=v1,k2=v2" without quoting.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace mr {

inline constexpr size_t kMaxWorkerLabels = 16;
inline constexpr size_t kMaxLabelKeyBytes = 63;
inline constexpr size_t kMaxLabelValueBytes = 63;

struct Label {
  std::string key;
  std::string value;
  friend bool operator==(const Label&, const Label&) = default;
};

// InvalidArgument naming what is wrong with key or value (syntax above); Ok otherwise.
Status CheckLabel(std::string_view key, std::string_view value);
// "KEY=VALUE" (the first '=' splits) into a checked Label; InvalidArgument otherwise.
Result<Label> ParseLabel(std::string_view text);

// A worker's labels, sorted by key. An immutable value: copies share one list (a reference
// count, no allocation), so a snapshot of every worker costs nothing per label. The empty
// set allocates nothing. Thread-safe to copy and read from any thread.
class WorkerLabels {
 public:
  WorkerLabels() = default;  // no labels

  // Checks the count, each label and that no key repeats; sorts by key.
  // Errors: InvalidArgument naming the first problem.
  static Result<WorkerLabels> Make(std::vector<Label> labels);
  // Each text "KEY=VALUE" (ParseLabel), then Make.
  static Result<WorkerLabels> Parse(const std::vector<std::string>& texts);

  bool empty() const { return size() == 0; }
  size_t size() const { return items_ ? items_->size() : 0; }
  const Label* begin() const { return items_ ? items_->data() : nullptr; }
  const Label* end() const { return begin() + size(); }

  // The value of key, or nullptr when the worker has no such label. Valid while this object
  // (or a copy sharing its list) lives.
  const std::string* Find(std::string_view key) const;
  bool Has(std::string_view key, std::string_view value) const;
  // "k1=v1,k2=v2" in key order; "" when empty.
  std::string ToString() const;

  friend bool operator==(const WorkerLabels& a, const WorkerLabels& b);

 private:
  explicit WorkerLabels(std::shared_ptr<const std::vector<Label>> items) : items_(std::move(items)) {}
  std::shared_ptr<const std::vector<Label>> items_;  // null when empty
};

// The label that names a worker (`mr cluster start` gives its workers name=worker-I, after
// their log files and work directories; `mr worker --label name=...` by hand).
inline constexpr char kNameLabel[] = "name";
// One name per worker, everywhere it is shown (mr status, /api/workers, the pages, mr
// logs), always beside its id: its name label, else its host.
inline std::string WorkerName(const WorkerLabels& labels, std::string_view host) {
  const std::string* name = labels.Find(kNameLabel);
  return name != nullptr ? *name : std::string(host);
}

}  // namespace mr

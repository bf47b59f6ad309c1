#include "common/worker_labels.h"

#include <algorithm>

namespace mr {

namespace {

bool IsAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
bool IsKeyChar(char c) { return IsAlnum(c) || c == '.' || c == '_' || c == '-'; }
bool IsValueChar(char c) { return IsKeyChar(c) || c == ':' || c == '/'; }

// The text for an error message: at most 64 bytes, non-printable bytes as '?'.
std::string Shown(std::string_view s) {
  std::string out(s.substr(0, 64));
  for (char& c : out) {
    if (c < 0x20 || c > 0x7e) c = '?';
  }
  return s.size() > 64 ? out + "..." : out;
}

Status CheckCount(size_t n) {
  if (n <= kMaxWorkerLabels) return Status::Ok();
  return Status::InvalidArgument("at most " + std::to_string(kMaxWorkerLabels) + " labels per worker, got " +
                                 std::to_string(n));
}

}  // namespace

Status CheckLabel(std::string_view key, std::string_view value) {
  if (key.empty()) return Status::InvalidArgument("label with an empty key (KEY=VALUE)");
  if (key.size() > kMaxLabelKeyBytes) {
    return Status::InvalidArgument("label key '" + Shown(key) + "' is longer than " +
                                   std::to_string(kMaxLabelKeyBytes) + " bytes");
  }
  if (!IsAlnum(key[0]) || !std::all_of(key.begin(), key.end(), IsKeyChar)) {
    return Status::InvalidArgument("label key '" + Shown(key) +
                                   "' must be letters, digits, '.', '_', '-', starting with a letter or digit");
  }
  if (value.empty()) return Status::InvalidArgument("label '" + Shown(key) + "' has an empty value (KEY=VALUE)");
  if (value.size() > kMaxLabelValueBytes) {
    return Status::InvalidArgument("label '" + Shown(key) + "' has a value longer than " +
                                   std::to_string(kMaxLabelValueBytes) + " bytes");
  }
  if (!std::all_of(value.begin(), value.end(), IsValueChar)) {
    return Status::InvalidArgument("label '" + Shown(key) + "' value '" + Shown(value) +
                                   "' must be letters, digits, '.', '_', '-', ':', '/'");
  }
  return Status::Ok();
}

Result<Label> ParseLabel(std::string_view text) {
  size_t eq = text.find('=');
  if (eq == std::string_view::npos) {
    return Status::InvalidArgument("label '" + Shown(text) + "' is not KEY=VALUE");
  }
  Label l{std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))};
  MR_RETURN_IF_ERROR(CheckLabel(l.key, l.value));
  return l;
}

Result<WorkerLabels> WorkerLabels::Make(std::vector<Label> labels) {
  MR_RETURN_IF_ERROR(CheckCount(labels.size()));
  if (labels.empty()) return WorkerLabels();
  for (const Label& l : labels) MR_RETURN_IF_ERROR(CheckLabel(l.key, l.value));
  std::sort(labels.begin(), labels.end(), [](const Label& a, const Label& b) { return a.key < b.key; });
  for (size_t i = 1; i < labels.size(); ++i) {
    if (labels[i].key == labels[i - 1].key) {
      return Status::InvalidArgument("label key '" + labels[i].key + "' given twice");
    }
  }
  return WorkerLabels(std::make_shared<const std::vector<Label>>(std::move(labels)));
}

Result<WorkerLabels> WorkerLabels::Parse(const std::vector<std::string>& texts) {
  MR_RETURN_IF_ERROR(CheckCount(texts.size()));
  std::vector<Label> labels;
  labels.reserve(texts.size());
  for (const std::string& t : texts) {
    MR_ASSIGN_OR_RETURN(Label l, ParseLabel(t));
    labels.push_back(std::move(l));
  }
  return Make(std::move(labels));
}

const std::string* WorkerLabels::Find(std::string_view key) const {
  auto it = std::lower_bound(begin(), end(), key, [](const Label& l, std::string_view k) { return l.key < k; });
  return it != end() && it->key == key ? &it->value : nullptr;
}

bool WorkerLabels::Has(std::string_view key, std::string_view value) const {
  const std::string* v = Find(key);
  return v != nullptr && *v == value;
}

std::string WorkerLabels::ToString() const {
  std::string out;
  for (const Label& l : *this) {
    if (!out.empty()) out += ',';
    out += l.key + '=' + l.value;
  }
  return out;
}

bool operator==(const WorkerLabels& a, const WorkerLabels& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

}  // namespace mr

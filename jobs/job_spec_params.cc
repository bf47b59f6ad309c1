#include "jobs/job_spec_params.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <algorithm>
#include <array>
#include <climits>

namespace mr::jobs {
namespace {

using google::protobuf::FieldDescriptor;
using sched::JobParamRow;
using sched::JobParamType;

FieldDescriptor::CppType WantedType(JobParamType type) {
  switch (type) {
    case JobParamType::kText:
      return FieldDescriptor::CPPTYPE_STRING;
    case JobParamType::kNumber:
    case JobParamType::kBytes:
    case JobParamType::kDuration:
      return FieldDescriptor::CPPTYPE_DOUBLE;
    case JobParamType::kSwitch:
      return FieldDescriptor::CPPTYPE_BOOL;
    case JobParamType::kCount:
      return FieldDescriptor::CPPTYPE_UINT32;
  }
  return FieldDescriptor::CPPTYPE_MESSAGE;  // never a parameter's type
}

const char* FieldName(const JobParamRow& row) { return row.proto_field != nullptr ? row.proto_field : row.key; }

// Row i's field, or nullptr when the spec has none of the row's type. Looked up once.
const FieldDescriptor* FieldOf(size_t i) {
  static const auto fields = [] {
    std::array<const FieldDescriptor*, std::size(sched::kJobParamRows)> out{};
    for (size_t r = 0; r < out.size(); ++r) {
      const JobParamRow& row = sched::kJobParamRows[r];
      const FieldDescriptor* f = proto::JobSpec::descriptor()->FindFieldByName(FieldName(row));
      if (f != nullptr && !f->is_repeated() && f->cpp_type() == WantedType(row.type)) out[r] = f;
    }
    return out;
  }();
  return fields[i];
}

}  // namespace

sched::JobParams JobParamsFromSpec(const proto::JobSpec& spec) {
  const auto* reflection = spec.GetReflection();
  const sched::JobParams defaults;
  sched::JobParams p;
  for (size_t i = 0; i < std::size(sched::kJobParamRows); ++i) {
    const JobParamRow& row = sched::kJobParamRows[i];
    const FieldDescriptor* f = FieldOf(i);
    if (f == nullptr) continue;
    switch (row.type) {
      case JobParamType::kText:
        if (std::string v = reflection->GetString(spec, f); !v.empty()) p.*row.text = std::move(v);
        break;
      case JobParamType::kNumber:
      case JobParamType::kBytes:
      case JobParamType::kDuration:
        if (double v = reflection->GetDouble(spec, f); v != 0) p.*row.number = v;
        break;
      case JobParamType::kSwitch:
        if (reflection->GetBool(spec, f)) p.*row.on = !(defaults.*row.on);
        break;
      case JobParamType::kCount:
        // Above INT_MAX it reads as INT_MAX, which every count's range refuses.
        if (uint32_t v = reflection->GetUInt32(spec, f); v != 0) {
          p.*row.count = static_cast<int>(std::min<uint32_t>(v, INT_MAX));
        }
        break;
    }
  }
  return p;
}

void JobParamsToSpec(const sched::JobParams& params, proto::JobSpec* spec) {
  const auto* reflection = spec->GetReflection();
  const sched::JobParams defaults;
  for (size_t i = 0; i < std::size(sched::kJobParamRows); ++i) {
    const JobParamRow& row = sched::kJobParamRows[i];
    const FieldDescriptor* f = FieldOf(i);
    if (f == nullptr) continue;
    switch (row.type) {
      case JobParamType::kText:
        reflection->SetString(spec, f, params.*row.text);
        break;
      case JobParamType::kNumber:
      case JobParamType::kBytes:
      case JobParamType::kDuration:
        reflection->SetDouble(spec, f, params.*row.number);
        break;
      case JobParamType::kSwitch:
        reflection->SetBool(spec, f, params.*row.on != defaults.*row.on);
        break;
      case JobParamType::kCount:  // REQUIRES (Validate): not negative
        reflection->SetUInt32(spec, f, static_cast<uint32_t>(std::max(0, params.*row.count)));
        break;
    }
  }
}

Status CheckJobParamFields() {
  for (size_t i = 0; i < std::size(sched::kJobParamRows); ++i) {
    if (FieldOf(i) == nullptr) {
      const JobParamRow& row = sched::kJobParamRows[i];
      return Status::Internal(std::string("per-job parameter '") + row.key + "' has no JobSpec field '" +
                              FieldName(row) + "' of its type");
    }
  }
  return Status::Ok();
}

}  // namespace mr::jobs

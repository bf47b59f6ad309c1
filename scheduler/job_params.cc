#include "scheduler/job_params.h"

#include <charconv>
#include <cmath>
#include <optional>
#include <vector>

#include "common/units.h"
#include "scheduler/flex/metrics.h"

namespace mr::sched {
namespace {

Status Bad(const JobParamRow& row, ParamNames names, const std::string& what) {
  return Status::InvalidArgument(JobParamName(row, names) + " " + what);
}

// "must be positive" / "must be a finite number >= 0" below the range (or not finite), "must
// be at most HI" above it: the wording `mr run` has always used for --weight and the hints.
Status CheckNumber(const JobParamRow& row, double v, ParamNames names) {
  const bool below = !std::isfinite(v) || v < row.lo || (row.lo_open && v == row.lo);
  if (below) {
    if (row.lo_open && row.lo == 0) return Bad(row, names, "must be positive");
    return Bad(row, names, std::string("must be a finite number ") + (row.lo_open ? "> " : ">= ") +
                               FormatNumber(row.lo, "%.15g"));
  }
  if (v > row.hi) return Bad(row, names, "must be at most " + FormatNumber(row.hi, "%.15g"));
  return Status::Ok();
}

Result<double> ParseNumber(const JobParamRow& row, std::string_view text, ParamNames names) {
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    return Bad(row, names, "must be a number, not '" + std::string(text) + "'");
  }
  return v;
}

// A kCount: a whole number within the row's range.
Status CheckCount(const JobParamRow& row, int v, ParamNames names) {
  if (v < row.lo) return Bad(row, names, "must be a whole number >= " + FormatNumber(row.lo, "%.15g"));
  if (v > row.hi) return Bad(row, names, "must be at most " + FormatNumber(row.hi, "%.15g"));
  return Status::Ok();
}

Result<int> ParseCount(const JobParamRow& row, std::string_view text, ParamNames names) {
  long long v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v < row.lo || v > row.hi) {
    return Bad(row, names,
               "must be a whole number in [" + FormatNumber(row.lo, "%.15g") + ", " + FormatNumber(row.hi, "%.15g") +
                   "], not '" + std::string(text) + "'");
  }
  return static_cast<int>(v);
}

// "+90s" and "90s" are the same: seconds after submission.
Result<double> ParseSeconds(const JobParamRow& row, std::string_view text, ParamNames names) {
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  Result<double> v = ParseDuration(text);
  if (!v.ok()) return Bad(row, names, "must be a duration (90, 90s, 2h), not '" + std::string(text) + "'");
  return *v;
}

std::string Named(const char* key, ParamNames names) { return JobParamName(*FindJobParam(key), names); }

}  // namespace

std::string FlexMetricNames() { return flex::MetricNameList(); }

const JobParamRow* FindJobParam(std::string_view key) {
  for (const JobParamRow& row : kJobParamRows) {
    if (key == row.key) return &row;
  }
  return nullptr;
}

Status CheckFlexParams(const JobParams& p, ParamNames names) {
  std::optional<flex::Metric> metric;
  if (!p.metric.empty()) {
    Result<flex::Metric> m = flex::ParseMetric(p.metric);
    if (!m.ok()) return m.status().WithContext(Named("metric", names));
    metric = *m;
  }
  if (!p.sla.empty()) {
    Result<std::vector<flex::SlaStep>> steps = flex::ParseSla(p.sla);
    if (!steps.ok()) return steps.status().WithContext(Named("sla", names));
    if (steps->front().deadline <= 0) {
      return Status::InvalidArgument(Named("sla", names) + ": pseudo-deadlines are seconds after submission, " +
                                     "so must be > 0, got " + FormatNumber(steps->front().deadline));
    }
  }
  if (metric) {
    const flex::MetricInfo& info = flex::InfoOf(*metric);
    if (info.needs_deadline && p.deadline <= 0) {
      return Status::InvalidArgument(Named("metric", names) + " " + p.metric + " needs " + Named("deadline", names));
    }
    if (info.needs_sla && p.sla.empty()) {
      return Status::InvalidArgument(Named("metric", names) + " " + p.metric + " needs " + Named("sla", names));
    }
  }
  if (p.max_slots > 0 && p.min_slots > p.max_slots) {
    return Status::InvalidArgument(Named("min_slots", names) + " " + std::to_string(p.min_slots) + " is above " +
                                   Named("max_slots", names) + " " + std::to_string(p.max_slots));
  }
  return Status::Ok();
}

std::string JobParamName(const JobParamRow& row, ParamNames names) {
  switch (names) {
    case ParamNames::kFlag:
      return std::string("--") + row.flag;
    case ParamNames::kKey:
      return "'" + std::string(row.key) + "'";
    case ParamNames::kName:
      return row.name;
  }
  return row.name;
}

Status CheckJobParam(const JobParamRow& row, const JobParams& params, ParamNames names) {
  switch (row.type) {
    case JobParamType::kText:
      if (static_cast<double>((params.*row.text).size()) > row.hi) {
        return Bad(row, names, "must be at most " + FormatNumber(row.hi, "%.15g") + " bytes");
      }
      return Status::Ok();
    case JobParamType::kNumber:
    case JobParamType::kBytes:
    case JobParamType::kDuration:
      return CheckNumber(row, params.*row.number, names);
    case JobParamType::kSwitch:
      return Status::Ok();
    case JobParamType::kCount:
      return CheckCount(row, params.*row.count, names);
  }
  return Status::Ok();
}

Status JobParams::Validate(ParamNames names) const {
  for (const JobParamRow& row : kJobParamRows) MR_RETURN_IF_ERROR(CheckJobParam(row, *this, names));
  return CheckFlexParams(*this, names);
}

Status SetJobParam(const JobParamRow& row, std::string_view text, JobParams* params, ParamNames names) {
  switch (row.type) {
    case JobParamType::kText:
      params->*row.text = std::string(text);
      break;
    case JobParamType::kNumber: {
      MR_ASSIGN_OR_RETURN(params->*row.number, ParseNumber(row, text, names));
      break;
    }
    case JobParamType::kBytes: {
      MR_ASSIGN_OR_RETURN(uint64_t bytes, ParseBytes(text));
      params->*row.number = static_cast<double>(bytes);
      break;
    }
    case JobParamType::kSwitch:
      if (text != "on" && text != "off") return Bad(row, names, "must be on or off, not '" + std::string(text) + "'");
      params->*row.on = text == "on";
      break;
    case JobParamType::kDuration: {
      MR_ASSIGN_OR_RETURN(params->*row.number, ParseSeconds(row, text, names));
      break;
    }
    case JobParamType::kCount: {
      MR_ASSIGN_OR_RETURN(params->*row.count, ParseCount(row, text, names));
      break;
    }
  }
  return CheckJobParam(row, *params, names);
}

}  // namespace mr::sched

#include "scheduler/job_params.h"

#include <charconv>
#include <cmath>

#include "common/units.h"

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

}  // namespace

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
      return CheckNumber(row, params.*row.number, names);
    case JobParamType::kSwitch:
      return Status::Ok();
  }
  return Status::Ok();
}

Status JobParams::Validate(ParamNames names) const {
  for (const JobParamRow& row : kJobParamRows) MR_RETURN_IF_ERROR(CheckJobParam(row, *this, names));
  return Status::Ok();
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
  }
  return CheckJobParam(row, *params, names);
}

}  // namespace mr::sched

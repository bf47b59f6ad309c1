#include "cli/job_options.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/units.h"

#include "jobs/job_table.h"
#include "jobs/sized_defaults.h"
#include "scheduler/job_params.h"
#include "shuffle/net/input_client.h"
#include "shuffle/net/output_client.h"

namespace mr::cli {

namespace {

// "2026-05-01T12:00:00Z", "...T12:00Z", "...T12:00:00+02:00" or without a zone (local time,
// as date(1) reads it): epoch seconds. A fraction of a second is not taken.
Result<double> ParseIsoTime(std::string_view text) {
  const std::string s(text);
  std::tm tm{};
  const char* rest = strptime(s.c_str(), "%Y-%m-%dT%H:%M", &tm);
  if (rest != nullptr && *rest == ':') rest = strptime(rest, ":%S", &tm);
  auto bad = [&] {
    return Status::InvalidArgument("--deadline '" + s +
                                   "' is not a time like 2026-05-01T12:00:00Z (or +02:00, or local without a zone)");
  };
  if (rest == nullptr) return bad();
  const std::string zone(rest);
  if (zone.empty()) {
    tm.tm_isdst = -1;
    const time_t local = mktime(&tm);
    if (local == static_cast<time_t>(-1)) return bad();
    return static_cast<double>(local);
  }
  int offset = 0;
  if (zone != "Z") {
    int h = 0, m = 0;
    char sign = 0;
    if (std::sscanf(zone.c_str(), "%c%2d:%2d", &sign, &h, &m) != 3 || (sign != '+' && sign != '-') ||
        zone.size() != 6 || h > 23 || m > 59) {
      return bad();
    }
    offset = (sign == '+' ? 1 : -1) * (h * 3600 + m * 60);
  }
  return static_cast<double>(timegm(&tm)) - offset;
}

// A job flag as `mr run` shows it: one per name, with every job that declares it.
struct JobFlagEntry {
  const jobs::JobFlag* flag;
  std::string jobs;  // the jobs that declare it: "JOB" or "JOB1, JOB2"
};

// The job table's flags, each name once, in table order. REQUIRES (tests/jobs/job_table_test.cc):
// jobs that share a flag name declare the same type, default and parameter.
std::vector<JobFlagEntry> JobFlagEntries() {
  std::vector<JobFlagEntry> out;
  for (const jobs::JobRow& row : jobs::JobTable()) {
    for (const jobs::JobFlag& f : row.flags) {
      auto same = std::find_if(out.begin(), out.end(),
                               [&](const JobFlagEntry& e) { return std::string_view(e.flag->name) == f.name; });
      if (same != out.end()) {
        same->jobs += std::string(", ") + row.name;
      } else {
        out.push_back({&f, row.name});
      }
    }
  }
  return out;
}

// The per-job parameters' flags, one per row of their table: numbers parsed by the flags
// library (so a malformed one gets its usual message), the rest as text (SetJobParam).
void AddJobParamOptions(po::options_description& desc) {
  for (const sched::JobParamRow& row : sched::JobParamTable()) {
    const std::string help = row.choices == nullptr ? row.help : std::string(row.help) + " (one of: " + row.choices() + ")";
    if (row.type == sched::JobParamType::kNumber) {
      desc.add_options()(row.flag, po::value<double>()->default_value(std::stod(row.default_text), row.default_text),
                         help.c_str());
    } else {
      desc.add_options()(row.flag, po::value<std::string>()->default_value(row.default_text), help.c_str());
    }
  }
}

Result<sched::JobParams> JobParamsFromFlags(const po::variables_map& vm) {
  sched::JobParams p;
  for (const sched::JobParamRow& row : sched::JobParamTable()) {
    if (row.type == sched::JobParamType::kNumber) {
      p.*row.number = vm[row.flag].as<double>();
    } else if (row.number == &sched::JobParams::deadline) {
      MR_ASSIGN_OR_RETURN(std::string after, DeadlineAfterSubmission(vm[row.flag].as<std::string>(),
                                                                     SystemClock::Get()->Now()));
      MR_RETURN_IF_ERROR(sched::SetJobParam(row, after, &p));
    } else {
      MR_RETURN_IF_ERROR(sched::SetJobParam(row, vm[row.flag].as<std::string>(), &p));
    }
  }
  MR_RETURN_IF_ERROR(p.Validate());  // across the fields, e.g. a metric's deadline
  return p;
}

bool Declares(const jobs::JobRow& row, std::string_view flag) {
  for (const jobs::JobFlag& f : row.flags) {
    if (flag == f.name) return true;
  }
  return false;
}

// The flags `row`'s job takes on `mr run`: every flag of desc but the other jobs' own.
std::vector<std::string> FlagsOfJob(const po::options_description& desc, const jobs::JobRow& row) {
  std::vector<std::string> out;
  for (const std::string& flag : KnownFlags(desc)) {
    bool others = false;
    for (const JobFlagEntry& e : JobFlagEntries()) others = others || ("--" + std::string(e.flag->name)) == flag;
    if (!others || Declares(row, std::string_view(flag).substr(2))) out.push_back(flag);
  }
  return out;
}

// A job-table flag given on the command line that the chosen job does not declare.
Status CheckJobFlags(const po::variables_map& vm, const jobs::JobRow& row) {
  for (const JobFlagEntry& e : JobFlagEntries()) {
    const jobs::JobFlag& f = *e.flag;
    if (Declares(row, f.name) || !vm.count(f.name) || vm[f.name].defaulted()) continue;
    po::options_description desc;
    po::positional_options_description positional;
    AddJobOptions(desc, positional);
    const std::vector<std::string> near = NearestFlags("--" + std::string(f.name), FlagsOfJob(desc, row));
    std::string own;
    for (const jobs::JobFlag& g : row.flags) own += (own.empty() ? "--" : ", --") + std::string(g.name);
    return Status::InvalidArgument("--" + std::string(f.name) + " is a flag of " + e.jobs + ", not of " + row.name +
                                   DidYouMean(near) + "; " + row.name + "'s own flags: " +
                                   (own.empty() ? "none" : own) + " (mr help run)");
  }
  return Status::Ok();
}

// A job-table flag the user gave (or that has a default): its parameter, or the number of maps.
Status ApplyJobFlag(const po::variables_map& vm, const jobs::JobFlag& f, jobs::JobRequest* r) {
  if (!vm.count(f.name)) return Status::Ok();
  std::string text;
  switch (f.type) {
    case jobs::JobFlagType::kUint:
      text = std::to_string(vm[f.name].as<uint32_t>());
      break;
    case jobs::JobFlagType::kString:
      text = vm[f.name].as<std::string>();
      break;
    case jobs::JobFlagType::kBytes: {
      MR_ASSIGN_OR_RETURN(uint64_t b, ParseBytes(vm[f.name].as<std::string>()));
      text = std::to_string(b);
      break;
    }
  }
  if (std::string_view(f.param) == jobs::kNumMapsParam) {
    r->num_maps = vm[f.name].as<uint32_t>();
  } else {
    r->params[f.param] = text;
  }
  return Status::Ok();
}

}  // namespace

Result<std::string> DeadlineAfterSubmission(std::string_view text, double now) {
  std::optional<double> at;
  if (!text.empty() && text[0] == '@') {
    double epoch = 0;
    auto [end, ec] = std::from_chars(text.data() + 1, text.data() + text.size(), epoch);
    if (text.size() < 2 || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(epoch)) {
      return Status::InvalidArgument("--deadline '" + std::string(text) + "': @ takes epoch seconds (@1777636800)");
    }
    at = epoch;
  } else if (text.size() > 10 && text[4] == '-' && text[10] == 'T') {
    MR_ASSIGN_OR_RETURN(at, ParseIsoTime(text));
  }
  if (!at) return std::string(text);  // relative: checked by the parameter's row
  if (*at <= now) {
    return Status::InvalidArgument("--deadline " + std::string(text) + " is not in the future");
  }
  return FormatNumber(*at - now, "%.17g");
}

void AddJobOptions(po::options_description& desc, po::positional_options_description& positional) {
  desc.add_options()
      ("job", po::value<std::string>(), ("job: " + jobs::JobNameList()).c_str())
      ("input,i", po::value<std::vector<std::string>>()->multitoken(),
       "input files, directories or quoted glob patterns ('data/*.txt': mr expands them, as "
       "Hadoop does); in a directory, names starting with '_' or '.' are skipped and "
       "subdirectories are read only with --recursive")
      ("recursive", po::bool_switch(), "read input directories' subdirectories too (hidden names skipped)")
      ("input-server", po::value<std::string>(),
       "HOST:PORT of the data server (mr data-server) on the host that holds the inputs: the "
       "master and the workers read them from it, so they need not be on every machine; "
       "--input paths are then absolute paths on that host (docs/multi-host.md)")
      ("output,o", po::value<std::string>(), "output directory (must not exist)")
      ("output-server", po::value<std::string>(),
       "HOST:PORT of the data server (mr data-server --export-output DIR) on the host where the "
       "output directory is to be: the tasks push their parts there and the master commits them "
       "there, so no shared file system is needed; --output is then an absolute path on that "
       "host, under an exported output directory (docs/multi-host.md, \"Outputs\")")
      ("reducers,r", po::value<uint32_t>()->default_value(1),
       "number of reduce tasks, 1..10000 (each is a task, a part file and a partition in every "
       "map's output: more would be bookkeeping, not work)")
      ("split-size", po::value<std::string>()->default_value("32MiB"),
       "input split size, at least 4KiB (smaller would turn one input into millions of maps)")
      ("slow-start", po::value<double>()->default_value(0.05, "0.05"),
       "fraction of maps done before reducers start fetching")
      ("sort-buffer", po::value<std::string>()->default_value("100MiB"), "map-side sort buffer (as Hadoop's io.sort.mb)")
      ("name", po::value<std::string>(), "job name (default: the job kind)");
  AddJobParamOptions(desc);
  for (const JobFlagEntry& e : JobFlagEntries()) {
    const jobs::JobFlag& f = *e.flag;
    std::string help = e.jobs + ": " + f.help;
    if (f.type == jobs::JobFlagType::kUint) {
      auto* value = po::value<uint32_t>();
      if (f.default_text != nullptr) value->default_value(static_cast<uint32_t>(std::stoul(f.default_text)));
      desc.add_options()(f.name, value, help.c_str());
    } else {
      auto* value = po::value<std::string>();
      if (f.default_text != nullptr) value->default_value(f.default_text);
      desc.add_options()(f.name, value, help.c_str());
    }
  }
  desc.add_options()("param", po::value<std::vector<std::string>>()->composing(), "extra job parameter KEY=VALUE");
  positional.add("job", 1);
}

std::vector<std::string> OtherJobsFlags(const Args& args) {
  const jobs::JobRow* named = nullptr;
  for (int i = 1; i < args.argc && named == nullptr; ++i) {
    std::string_view word = args.argv[i];
    if (word == "--job" && i + 1 < args.argc) {
      named = jobs::FindJob(args.argv[i + 1]);
    } else if (word.rfind("--job=", 0) == 0) {
      named = jobs::FindJob(word.substr(6));
    } else if (!word.empty() && word[0] != '-') {
      named = jobs::FindJob(word);
    }
  }
  std::vector<std::string> out;
  if (named == nullptr) return out;
  for (const JobFlagEntry& e : JobFlagEntries()) {
    if (!Declares(*named, e.flag->name)) out.push_back("--" + std::string(e.flag->name));
  }
  return out;
}

Result<jobs::JobRequest> JobRequestFromFlags(const po::variables_map& vm) {
  jobs::JobRequest r;
  if (vm.count("job")) r.job = vm["job"].as<std::string>();
  if (vm.count("input")) r.inputs = vm["input"].as<std::vector<std::string>>();
  r.recursive = vm.count("recursive") && vm["recursive"].as<bool>();
  if (vm.count("output")) r.output = vm["output"].as<std::string>();
  r.reducers = vm["reducers"].as<uint32_t>();
  MR_ASSIGN_OR_RETURN(r.split_bytes, ParseBytes(vm["split-size"].as<std::string>()));
  r.slow_start = vm["slow-start"].as<double>();
  MR_ASSIGN_OR_RETURN(r.sort_buffer_bytes, ParseBytes(vm["sort-buffer"].as<std::string>()));
  if (vm.count("name")) r.name = vm["name"].as<std::string>();
  MR_ASSIGN_OR_RETURN(r.scheduling, JobParamsFromFlags(vm));
  const jobs::JobRow* row = jobs::FindJob(r.job);
  if (row != nullptr) MR_RETURN_IF_ERROR(CheckJobFlags(vm, *row));
  for (const JobFlagEntry& e : JobFlagEntries()) {
    if (row == nullptr || Declares(*row, e.flag->name)) MR_RETURN_IF_ERROR(ApplyJobFlag(vm, *e.flag, &r));
  }
  if (vm.count("param")) {
    for (const auto& kv : vm["param"].as<std::vector<std::string>>()) {
      auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) return Status::InvalidArgument("--param '" + kv + "' is not KEY=VALUE");
      r.params[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
  }
  return r;
}

// The sized defaults (jobs/sized_defaults.h) for the flags the user left at their default,
// from the inputs MakeJobSpec already resolved (listed once here, not resolved again). An
// input that cannot be listed keeps the fixed defaults: the master reports it.
Status ApplySizedDefaults(const po::variables_map& vm, const jobs::ClusterSlots& slots, proto::JobSpec* spec) {
  if (spec->inputs().empty()) return Status::Ok();
  auto files = jobs::LocalInputs().List({spec->inputs().begin(), spec->inputs().end()});
  if (!files.ok()) return Status::Ok();
  uint64_t bytes = 0;
  for (const jobs::InputFile& f : *files) bytes += f.size;
  const jobs::SizedDefaults d = jobs::DeriveSizedDefaults(bytes, slots);
  if (vm["split-size"].defaulted()) spec->set_split_bytes(d.split_bytes);
  if (vm["reducers"].defaulted()) spec->set_reducers(d.reducers);
  if (vm["sort-buffer"].defaulted() && bytes >= jobs::kSizedInputBytes) {
    spec->set_sort_buffer_bytes(std::max<uint64_t>(spec->sort_buffer_bytes(), spec->split_bytes() + spec->split_bytes() / 2));
  }
  return jobs::ValidateJobSpec(*spec);
}

// --output-server: the output directory is on that data server's host. Checked there, as
// the master will check it again before claiming it.
Status ApplyOutputServer(const po::variables_map& vm, proto::JobSpec* spec) {
  if (!vm.count("output-server")) return Status::Ok();
  const std::string server = vm["output-server"].as<std::string>();
  MR_ASSIGN_OR_RETURN(auth::ClusterToken token, TokenOption(vm));
  auto store = shuffle::RemoteOutputs::Create(server, std::move(token));
  if (!store.ok()) return Status::InvalidArgument("--output-server: " + store.status().message());
  auto state = (*store)->State(spec->output());
  if (!state.ok()) return state.status().WithContext("--output-server " + server);
  if (*state == jobs::OutputState::kTaken) {
    return Status::AlreadyExists("output directory " + spec->output() + " already exists on " + server);
  }
  spec->set_output_server(server);
  return Status::Ok();
}

// The spec with its inputs resolved where they are (locally, or through --input-server).
Result<proto::JobSpec> BuildJobSpecInputs(const po::variables_map& vm, const jobs::ClusterSlots* slots) {
  MR_ASSIGN_OR_RETURN(jobs::JobRequest request, JobRequestFromFlags(vm));
  if (!vm.count("input-server")) {
    MR_ASSIGN_OR_RETURN(proto::JobSpec spec, jobs::MakeJobSpec(request, jobs::LocalInputs()));
    if (slots != nullptr) MR_RETURN_IF_ERROR(ApplySizedDefaults(vm, *slots, &spec));
    return spec;
  }
  // The inputs are resolved where they are, through the data server the job will name.
  const std::string server = vm["input-server"].as<std::string>();
  for (const std::string& in : request.inputs) {
    if (in.empty() || in[0] != '/') {
      return Status::InvalidArgument("--input " + in + ": with --input-server, inputs are absolute paths on its host");
    }
  }
  MR_ASSIGN_OR_RETURN(auth::ClusterToken token, TokenOption(vm));
  auto remote = shuffle::RemoteInputs::Create(server, std::move(token));
  if (!remote.ok()) return Status::InvalidArgument("--input-server: " + remote.status().message());
  MR_ASSIGN_OR_RETURN(proto::JobSpec spec, jobs::MakeJobSpec(request, **remote));
  spec.set_input_server(server);
  return spec;
}

Result<proto::JobSpec> BuildJobSpec(const po::variables_map& vm, const jobs::ClusterSlots* slots) {
  MR_ASSIGN_OR_RETURN(proto::JobSpec spec, BuildJobSpecInputs(vm, slots));
  MR_RETURN_IF_ERROR(ApplyOutputServer(vm, &spec));
  return spec;
}

}  // namespace mr::cli

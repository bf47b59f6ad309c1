#include "experiment/experiment_file.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <utility>

#include "experiment/batch_order.h"
#include "experiment/cluster_shape.h"
#include "experiment/report.h"
#include "experiment/workload_params.h"
#include "experiment/yaml_node.h"
#include "scheduler/stages/map_placement.h"
#include "scheduler/policy_table.h"

namespace mr::experiment {

namespace {

// Names that become directory names (results/NAME/, one per policy label).
bool IsPlainName(const std::string& s) {
  if (s.empty() || s.size() > 100 || s[0] == '.' || s[0] == '-') return false;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

Result<std::string> PlainName(const YamlNode& node) {
  MR_ASSIGN_OR_RETURN(std::string text, node.Text());
  if (!IsPlainName(text))
    return node.Error("must be a plain name (letters, digits, '.', '_', '-'), got '" + text + "'");
  return text;
}

// `path` as written, anchored at the experiment file's directory when relative.
std::string Anchor(const std::string& path, const std::string& source_path) {
  std::filesystem::path p(path);
  if (p.is_absolute() || source_path.empty()) return path;
  return (std::filesystem::path(source_path).parent_path() / p).lexically_normal().string();
}

Result<WorkloadSpec> ParseWorkload(const YamlNode& node, const std::string& source_path) {
  const std::vector<std::string_view> source_keys = WorkloadSourceKeys();
  std::vector<std::string_view> keys = source_keys;
  keys.insert(keys.end(), {"params", "seed", "batch"});
  MR_RETURN_IF_ERROR(node.CheckMap(keys));
  WorkloadSpec w;
  int sources = 0;
  std::optional<YamlNode> source;
  if (auto v = node.Get("generator")) {
    ++sources;
    source = v;
    w.kind = WorkloadKind::kGenerator;
    MR_ASSIGN_OR_RETURN(w.generator, v->Text());
    if (FindWorkloadSource(w) == nullptr) {
      return v->Error("unknown generator '" + w.generator + "' (known: " + GeneratorNames() + ")");
    }
  }
  for (const WorkloadSource& file : WorkloadSources()) {
    if (file.kind == WorkloadKind::kGenerator) continue;
    if (auto v = node.Get(file.name)) {
      ++sources;
      source = v;
      w.kind = file.kind;
      MR_ASSIGN_OR_RETURN(std::string path, v->Text());
      w.path = Anchor(path, source_path);
    }
  }
  if (sources != 1) {
    std::string names;
    for (std::string_view k : source_keys) names += (names.empty() ? "" : ", ") + std::string(k);
    return (sources == 0 ? node : *source).Error("give exactly one of " + names);
  }
  const WorkloadSource& chosen = *FindWorkloadSource(w);
  if (auto params = node.Get("params")) {
    MR_ASSIGN_OR_RETURN(auto entries, params->Entries());
    for (const auto& [name, value] : entries) {
      MR_ASSIGN_OR_RETURN(std::string text, value.Text());
      Result<sched::OptionValue> parsed = ParseWorkloadParam(chosen, name, text);
      if (!parsed.ok()) return value.Error(parsed.status().message());
      w.params[name] = text;
    }
  }
  if (auto v = node.Get("seed")) {
    MR_ASSIGN_OR_RETURN(int64_t seed, v->Int(0, INT64_MAX));
    w.seed = static_cast<uint64_t>(seed);
  }
  if (auto v = node.Get("batch")) {
    MR_ASSIGN_OR_RETURN(w.batch, v->Bool());
  }
  return w;
}

// A number or a list of numbers as the flag's text: 2 -> "2", [1, 2.5] -> "1,2.5".
Result<std::string> ListText(const YamlNode& node) {
  if (!node.IsSequence()) return node.Text();
  MR_ASSIGN_OR_RETURN(std::vector<YamlNode> items, node.Items());
  std::string text;
  for (const YamlNode& item : items) {
    MR_ASSIGN_OR_RETURN(std::string t, item.Text());
    text += (text.empty() ? "" : ",") + t;
  }
  return text;
}

// A placement run: its label suffix and the master's --placement flags.
struct PlacementChoice {
  std::string suffix;
  std::map<std::string, std::string> flags;
};

// placement: dep | {mode: mep, model: dtd, d: 100, scv: 1, ca2: 1, rates: [1, 2, 4], label: mep-d100}
// (label: the suffix of the run's label, the mode's name by default). Checked as the
// master checks its flags (sched::PlacementConfigFromFlags).
Result<PlacementChoice> ParsePlacementChoice(const YamlNode& node) {
  PlacementChoice c;
  std::optional<YamlNode> mode_node = node;
  if (node.IsMap()) {
    MR_RETURN_IF_ERROR(node.CheckMap({"mode", "model", "d", "scv", "ca2", "rates", "label"}));
    MR_ASSIGN_OR_RETURN(mode_node, node.Require("mode"));
  }
  MR_ASSIGN_OR_RETURN(std::string mode, mode_node->Text());
  if (!sched::ParsePlacementMode(mode).ok()) {
    return mode_node->Error("unknown placement '" + mode + "' (known: " + sched::PlacementModeList() + ")");
  }
  c.flags["placement"] = mode;
  c.suffix = mode;
  if (node.IsMap()) {
    static constexpr std::pair<const char*, const char*> kKeys[] = {
        {"model", "placement-model"}, {"d", "placement-d"}, {"scv", "placement-scv"},
        {"ca2", "placement-ca2"}, {"rates", "placement-rates"}};
    for (const auto& [key, flag] : kKeys) {
      auto v = node.Get(key);
      if (!v) continue;
      MR_ASSIGN_OR_RETURN(c.flags[flag], ListText(*v));
      std::map<std::string, std::string, std::less<>> one(c.flags.begin(), c.flags.end());
      if (Result<sched::PlacementConfig> r = sched::PlacementConfigFromFlags(one); !r.ok()) {
        return v->Error(r.status().message());
      }
    }
    if (auto v = node.Get("label")) {
      MR_ASSIGN_OR_RETURN(c.suffix, PlainName(*v));
    }
  }
  std::map<std::string, std::string, std::less<>> all(c.flags.begin(), c.flags.end());
  if (Result<sched::PlacementConfig> r = sched::PlacementConfigFromFlags(all); !r.ok()) {
    return node.Error(r.status().message());
  }
  if (c.flags["placement"] == "pull") c.flags.clear();  // pull: no flags, as a plain run
  return c;
}

// speculative: on | off
Result<bool> ParseSpeculative(const YamlNode& node) {
  MR_ASSIGN_OR_RETURN(std::string text, node.Text());
  if (text == "on" || text == "true") return true;
  if (text == "off" || text == "false") return false;
  return node.Error("speculative must be on or off, not '" + text + "'");
}


Result<PolicyRun> ParsePolicy(const YamlNode& node, const std::string& source_path, bool speculative) {
  PolicyRun run;
  run.speculative = speculative;
  std::optional<YamlNode> name_node = node;
  if (node.IsMap()) {
    MR_RETURN_IF_ERROR(node.CheckMap({"policy", "options", "label", "placement", "speculative"}));
    MR_ASSIGN_OR_RETURN(name_node, node.Require("policy"));
  }
  MR_ASSIGN_OR_RETURN(run.policy, name_node->Text());
  // johnson, reverse-johnson: a batch order played under fifo; balancedpools: the plan's
  // pools as capacity queues (PolicyRun::batch_order; experiment/batch_order.h).
  if (IsBatchOrder(run.policy)) {
    run.batch_order = std::exchange(run.policy, run.policy == "balancedpools" ? "capacity" : "fifo");
    if (node.IsMap() && node.Get("options") && run.batch_order == "balancedpools") {
      return name_node->Error("balancedpools takes no options: its queues come from the plan");
    }
  }
  const sched::PolicyRow* row = sched::FindPolicy(run.policy);
  if (row == nullptr) return name_node->Error(sched::UnknownPolicy(run.policy).message());
  run.label = run.batch_order.empty() ? run.policy : run.batch_order;
  if (!node.IsMap()) return run;
  if (auto v = node.Get("label")) {
    MR_ASSIGN_OR_RETURN(run.label, PlainName(*v));
  }
  sched::PolicyOptions given;
  if (auto options = node.Get("options")) {
    MR_ASSIGN_OR_RETURN(auto entries, options->Entries());
    for (const auto& [name, value] : entries) {
      const sched::OptionSpec* spec = nullptr;
      for (const sched::OptionSpec& s : row->options) spec = name == s.name ? &s : spec;
      if (spec == nullptr) {
        std::string known;
        for (const sched::OptionSpec& s : row->options)
          known += (known.empty() ? "" : ", ") + std::string(s.name);
        return value.Error("policy " + run.policy + " has no option '" + name +
                           "' (its options: " + (known.empty() ? "none" : known) + ")");
      }
      MR_ASSIGN_OR_RETURN(std::string text, value.Text());
      if (spec->type == sched::OptionType::kPath) text = Anchor(text, source_path);
      if (Status s = given.Set(*spec, text); !s.ok()) return value.Error(s.message());
      run.options[name] = text;
    }
  }
  if (auto resolved = sched::ResolvePolicyOptions(run.policy, given); !resolved.ok()) {
    return node.Error(resolved.status().message());
  }
  if (auto v = node.Get("placement")) {
    MR_ASSIGN_OR_RETURN(PlacementChoice c, ParsePlacementChoice(*v));
    run.placement = std::move(c.flags);
  }
  if (auto v = node.Get("speculative")) {
    MR_ASSIGN_OR_RETURN(run.speculative, ParseSpeculative(*v));
  }
  return run;
}

// policies, each run once per entry of the top-level `placements` list (when present) that
// its own `placement` key does not override: label LABEL-SUFFIX (fifo-dep, fifo-mep, ...).
Result<std::vector<PolicyRun>> ParsePolicies(const YamlNode& node, const std::string& source_path,
                                             const std::optional<YamlNode>& placements, bool speculative) {
  MR_ASSIGN_OR_RETURN(std::vector<YamlNode> items, node.Items());
  if (items.empty()) return node.Error("needs at least one policy");
  std::vector<PlacementChoice> choices;
  if (placements) {
    MR_ASSIGN_OR_RETURN(std::vector<YamlNode> list, placements->Items());
    if (list.empty()) return placements->Error("needs at least one placement (e.g. [pull, dep, sep, mep])");
    for (const YamlNode& p : list) {
      MR_ASSIGN_OR_RETURN(PlacementChoice c, ParsePlacementChoice(p));
      choices.push_back(std::move(c));
    }
  }
  std::vector<PolicyRun> runs;
  std::set<std::string> labels;
  for (const YamlNode& item : items) {
    MR_ASSIGN_OR_RETURN(PolicyRun run, ParsePolicy(item, source_path, speculative));
    std::vector<PolicyRun> expanded;
    if (choices.empty() || (item.IsMap() && item.Get("placement"))) {
      expanded.push_back(std::move(run));
    } else {
      for (const PlacementChoice& c : choices) {
        PolicyRun r = run;
        r.placement = c.flags;
        r.label = run.label + "-" + c.suffix;
        expanded.push_back(std::move(r));
      }
    }
    for (PolicyRun& r : expanded) {
      if (!labels.insert(r.label).second) {
        return item.Error("'" + r.label +
                          "' is already in the list: give each run of a policy its own label");
      }
      runs.push_back(std::move(r));
    }
  }
  return runs;
}

// band: {runs: 8, jitter: 1ms, map_time_cv: 0}: runs 0 (no band) or 2..64; jitter above 0,
// at most 1 s; map_time_cv in [0, 1].
Status ParseBand(const YamlNode& node, ReportSpec* r) {
  if (!node.IsMap()) return node.Error("band is a map (runs, jitter, map_time_cv)");
  MR_RETURN_IF_ERROR(node.CheckMap({"runs", "jitter", "map_time_cv"}));
  if (auto v = node.Get("map_time_cv")) {
    MR_ASSIGN_OR_RETURN(r->band_map_time_cv, v->Number(0, 1));
  }
  if (auto v = node.Get("runs")) {
    MR_ASSIGN_OR_RETURN(int64_t runs, v->Int(0, 64));
    if (runs == 1) return v->Error("band runs must be 0 (no band) or at least 2");
    r->band_runs = static_cast<int>(runs);
  }
  if (auto v = node.Get("jitter")) {
    MR_ASSIGN_OR_RETURN(r->band_jitter, v->Duration());
    if (!(r->band_jitter > 0 && r->band_jitter <= 1)) return v->Error("band jitter must be above 0 and at most 1s");
  }
  return Status::Ok();
}

// report: {tail: 90, plots: [scatter, cdf, gantt], gantt: {run: fifo-1, job: slowest},
//          band: {runs: 8, jitter: 1ms}}
Result<ReportSpec> ParseReport(const YamlNode& node) {
  if (!node.IsMap()) return node.Error("report is a map (tail, plots, gantt, band)");
  MR_RETURN_IF_ERROR(node.CheckMap({"tail", "plots", "gantt", "band"}));
  ReportSpec r;
  if (auto v = node.Get("band")) MR_RETURN_IF_ERROR(ParseBand(*v, &r));
  if (auto v = node.Get("tail")) {
    MR_ASSIGN_OR_RETURN(int64_t tail, v->Int(51, 99));
    r.tail_percentile = static_cast<int>(tail);
  }
  if (auto v = node.Get("plots")) {
    MR_ASSIGN_OR_RETURN(std::vector<YamlNode> items, v->Items());
    r.scatter = r.cdf = r.gantt = false;
    for (const YamlNode& item : items) {
      MR_ASSIGN_OR_RETURN(std::string plot, item.Text());
      if (!EnablePlot(plot, &r)) return item.Error("unknown plot '" + plot + "' (known: " + kPlotNames + ")");
    }
  }
  if (auto v = node.Get("gantt")) {
    if (!v->IsMap()) return v->Error("gantt is a map (run, job)");
    MR_RETURN_IF_ERROR(v->CheckMap({"run", "job"}));
    if (auto run = v->Get("run")) {
      MR_ASSIGN_OR_RETURN(r.gantt_run, run->Text());
    }
    if (auto job = v->Get("job")) {
      MR_ASSIGN_OR_RETURN(r.gantt_job, job->Text());
      const bool index = !r.gantt_job.empty() &&
                         r.gantt_job.find_first_not_of("0123456789") == std::string::npos && r.gantt_job.size() < 9;
      if (r.gantt_job != "slowest" && r.gantt_job != "fastest" && !index) {
        return job->Error("gantt job must be slowest, fastest or a job's index in the workload, not '" +
                          r.gantt_job + "'");
      }
    }
  }
  return r;
}

Result<Experiment> ParseRoot(const YamlNode& root, const std::string& source_path) {
  if (!root.IsMap())
    return root.Error("an experiment file is a map (name, cluster, workload, policies, ...)");
  MR_RETURN_IF_ERROR(
      root.CheckMap({"name", "cluster", "workload", "policies", "placements", "speculative", "repetitions", "report"}));
  Experiment e;
  e.source_path = source_path;
  MR_ASSIGN_OR_RETURN(YamlNode name, root.Require("name"));
  MR_ASSIGN_OR_RETURN(e.name, PlainName(name));
  MR_ASSIGN_OR_RETURN(YamlNode cluster, root.Require("cluster"));
  MR_ASSIGN_OR_RETURN(e.cluster, ParseClusterShape(cluster));
  MR_ASSIGN_OR_RETURN(YamlNode workload, root.Require("workload"));
  MR_ASSIGN_OR_RETURN(e.workload, ParseWorkload(workload, source_path));
  MR_ASSIGN_OR_RETURN(YamlNode policies, root.Require("policies"));
  bool speculative = false;  // the file's default for its policy entries
  if (auto v = root.Get("speculative")) {
    MR_ASSIGN_OR_RETURN(speculative, ParseSpeculative(*v));
  }
  MR_ASSIGN_OR_RETURN(e.policies, ParsePolicies(policies, source_path, root.Get("placements"), speculative));
  if (auto v = root.Get("repetitions")) {
    MR_ASSIGN_OR_RETURN(int64_t reps, v->Int(1, 100));
    e.repetitions = static_cast<int>(reps);
  }
  if (auto v = root.Get("report")) {
    MR_ASSIGN_OR_RETURN(e.report, ParseReport(*v));
    if (!e.report.gantt_run.empty()) {
      bool known = false;
      for (const PolicyRun& run : e.policies) {  // labels are set (and unique) by ParsePolicies
        for (int rep = 1; rep <= e.repetitions; ++rep) known |= e.report.gantt_run == run.label + "-" + std::to_string(rep);
      }
      if (!known) {
        return v->Error("gantt run '" + e.report.gantt_run +
                        "' is not a run of this file (LABEL-REP, e.g. " + e.policies.front().policy + "-1)");
      }
    }
  }
  return e;
}

}  // namespace

Result<Experiment> ParseExperiment(std::string_view yaml_text, const std::string& source_path) {
  std::string where = source_path.empty() ? "experiment" : source_path;
  try {
    YAML::Node doc = YAML::Load(std::string(yaml_text));
    return ParseRoot(YamlNode(doc, "", &source_path), source_path);
  } catch (const YAML::Exception& e) {
    std::string line = e.mark.line >= 0 ? ":" + std::to_string(e.mark.line + 1) : "";
    return Status::InvalidArgument(where + line + ": not valid YAML: " + e.msg);
  }
}

Result<Experiment> LoadExperimentFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::NotFound("cannot read experiment file " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return ParseExperiment(text.str(), path);
}

}  // namespace mr::experiment

#include "hadoop/streaming_args.h"

#include <charconv>
#include <optional>

#include "common/file_util.h"
#include "hadoop/hdfs_paths.h"
#include "jobs/streaming_conf.h"

namespace mr::hadoop {
namespace {

using U = OptionUse;

constexpr StreamingOption kOptions[] = {
    // Streaming options (StreamJob).
    {"input", true, U::kApplied, "input files, directories or globs; repeatable, or comma-separated"},
    {"output", true, U::kApplied, "the output directory (must not exist)"},
    {"mapper", true, U::kApplied, "the mapper command (split like Hadoop, no shell), or IdentityMapper"},
    {"combiner", true, U::kApplied, "the combiner command, run on each sorted run of a map's output"},
    {"reducer", true, U::kApplied, "the reducer command, or IdentityReducer (the default); NONE: map-only"},
    {"file", true, U::kApplied, "a file shipped into each task's working directory; repeatable"},
    {"inputformat", true, U::kApplied, "TextInputFormat or KeyValueTextInputFormat"},
    {"outputformat", true, U::kApplied, "TextOutputFormat only"},
    {"partitioner", true, U::kApplied, "HashPartitioner or KeyFieldBasedPartitioner"},
    {"numReduceTasks", true, U::kApplied, "the number of reduce tasks (0: a map-only job)"},
    {"cmdenv", true, U::kApplied, "NAME=VALUE in the programs' environment; repeatable"},
    {"jobconf", true, U::kApplied, "KEY=VALUE, as -D (deprecated in Hadoop)"},
    {"cacheFile", true, U::kApplied, "URI#NAME shipped as -files does"},
    {"io", true, U::kApplied, "text only (typedbytes and rawbytes are refused)"},
    {"verbose", false, U::kNoEffect, "mrlab's progress is shown anyway"},
    {"debug", false, U::kNoEffect, "nothing is kept for debugging"},
    {"info", false, U::kApplied, "prints this front end's usage"},
    {"help", false, U::kApplied, "prints this front end's usage"},
    {"dfs", true, U::kNoEffect, "hdfs:// names map to the local root (docs/streaming.md)"},
    {"cacheArchive", true, U::kRefused, "archives are not unpacked"},
    {"inputreader", true, U::kRefused, "StreamXmlRecordReader and other readers"},
    {"mapdebug", true, U::kRefused, "no debug scripts"},
    {"reducedebug", true, U::kRefused, "no debug scripts"},
    {"lazyOutput", false, U::kRefused, "every reducer writes its part file"},
    {"background", false, U::kRefused, "mr hadoop jar waits for the job (use mr submit)"},
    {"additionalconfspec", true, U::kRefused, "no configuration files"},
    // Generic options (GenericOptionsParser).
    {"D", true, U::kApplied, "KEY=VALUE: a property (docs/streaming.md lists each)"},
    {"files", true, U::kApplied, "comma-separated files shipped into each task's directory, PATH#NAME aliases"},
    {"fs", true, U::kNoEffect, "file:/// or hdfs://...: the local file system either way"},
    {"jt", true, U::kNoEffect, "the job goes to $MR_MASTER, or an embedded local cluster"},
    {"conf", true, U::kRefused, "configuration files are not read: give -D"},
    {"libjars", true, U::kRefused, "no JVM: jars cannot be used"},
    {"archives", true, U::kRefused, "archives are not unpacked"},
    {"tokenCacheFile", true, U::kRefused, "no Kerberos"},
};

const StreamingOption* FindOption(std::string_view name) {
  for (const StreamingOption& o : kOptions) {
    if (name == o.name) return &o;
  }
  return nullptr;
}

std::vector<std::string> SplitCommas(const std::string& v) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    const size_t comma = v.find(',', start);
    std::string part = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!part.empty()) out.push_back(std::move(part));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// A file to ship, "URI[#NAME]" -> "ABSOLUTE_LOCAL_PATH#NAME" (NAME: the base name by default).
Result<std::string> ShippedFile(const std::string& spec) {
  const size_t hash = spec.find('#');
  const std::string uri = spec.substr(0, hash);
  MR_ASSIGN_OR_RETURN(std::string local, LocalPath(uri));
  local = AbsolutePath(local);
  if (!PathExists(local)) return Status::InvalidArgument("shipped file " + uri + " does not exist (" + local + ")");
  std::string name = hash == std::string::npos ? local.substr(local.rfind('/') + 1) : spec.substr(hash + 1);
  return local + "#" + name;
}

// Hadoop's program given as a Java class: the identity ones are mrlab's; others refused.
Result<std::optional<std::string>> Program(const std::string& role, const std::string& value) {
  if (value == "org.apache.hadoop.mapred.lib.IdentityMapper" || value == "IdentityMapper") {
    return std::optional<std::string>("cat");
  }
  if (value == "org.apache.hadoop.mapred.lib.IdentityReducer" || value == "IdentityReducer") {
    return std::optional<std::string>();
  }
  if (value == "aggregate" || (StartsWith(value, "org.apache.hadoop.") && value.find(' ') == std::string::npos)) {
    return Status::InvalidArgument("-" + role + " " + value +
                                   " is not supported by mrlab: Java classes cannot run (a command, or the identity)");
  }
  return std::optional<std::string>(value);
}

struct Parsed {
  std::vector<std::string> inputs;
  std::optional<std::string> output, mapper;
  std::optional<std::optional<std::string>> combiner;  // set: -combiner given (nullopt inside: identity)
  std::optional<std::optional<std::string>> reducer;  // set: -reducer given (nullopt inside: identity)
  std::vector<std::string> files, cmdenv, conf;
  bool help = false;
};

Status Apply(const StreamingOption& o, const std::string& v, Parsed* p) {
  const std::string name = o.name;
  if (o.use == U::kRefused) {
    return Status::InvalidArgument("-" + name + " is not supported by mrlab (" + o.what + "; docs/streaming.md)");
  }
  if (name == "input") {
    for (const std::string& in : SplitCommas(v)) {
      MR_ASSIGN_OR_RETURN(std::string local, LocalPath(in));
      p->inputs.push_back(local);
    }
  } else if (name == "output") {
    p->output = v;
  } else if (name == "mapper") {
    MR_ASSIGN_OR_RETURN(auto prog, Program("mapper", v));
    if (!prog) return Status::InvalidArgument("-mapper " + v + " is not a mapper");
    p->mapper = *prog;
  } else if (name == "combiner") {
    MR_ASSIGN_OR_RETURN(auto prog, Program("combiner", v));
    p->combiner = prog;
  } else if (name == "reducer") {
    if (v == "NONE") {  // a map-only job
      p->conf.push_back("mapreduce.job.reduces=0");
      return Status::Ok();
    }
    MR_ASSIGN_OR_RETURN(auto prog, Program("reducer", v));
    p->reducer = prog;
  } else if (name == "file") {
    MR_ASSIGN_OR_RETURN(std::string f, ShippedFile(v));
    p->files.push_back(f);
  } else if (name == "files" || name == "cacheFile") {
    for (const std::string& f : SplitCommas(v)) {
      MR_ASSIGN_OR_RETURN(std::string shipped, ShippedFile(f));
      p->files.push_back(shipped);
    }
  } else if (name == "inputformat") {
    p->conf.push_back("mapred.input.format.class=" + v);
  } else if (name == "outputformat") {
    p->conf.push_back("mapred.output.format.class=" + v);
  } else if (name == "partitioner") {
    p->conf.push_back("mapred.partitioner.class=" + v);
  } else if (name == "numReduceTasks") {
    p->conf.push_back("mapreduce.job.reduces=" + v);
  } else if (name == "cmdenv") {
    if (v.find('=') == std::string::npos) return Status::InvalidArgument("-cmdenv " + v + " is not NAME=VALUE");
    p->cmdenv.push_back(v);
  } else if (name == "D" || name == "jobconf") {
    if (v.find('=') == std::string::npos || v[0] == '=') return Status::InvalidArgument("-" + name + " " + v + " is not KEY=VALUE");
    p->conf.push_back(v);
  } else if (name == "io") {
    if (v != "text") return Status::InvalidArgument("-io " + v + " is not supported by mrlab: text only");
  } else if (name == "info" || name == "help") {
    p->help = true;
  }
  return Status::Ok();
}

// The request's properties as `mr run` flags (jobs::PropertyUse::kRequest).
Status RequestFlags(const jobs::HadoopConf& c, std::vector<std::string>* run) {
  auto flag = [run](const char* f, std::string v) {
    run->push_back(std::string("--") + f);
    run->push_back(std::move(v));
  };
  if (auto v = c.Get("mapreduce.job.reduces")) {
    uint32_t n = 0;
    auto [ptr, ec] = std::from_chars(v->data(), v->data() + v->size(), n);
    if (ec != std::errc() || ptr != v->data() + v->size()) {
      return Status::InvalidArgument("-numReduceTasks / mapreduce.job.reduces: not a number: '" + *v + "'");
    }
    flag("reducers", *v);
  }
  if (auto v = c.Get("mapreduce.job.name")) flag("name", *v);
  if (auto v = c.Get("mapreduce.job.queuename")) flag("pool", *v);
  auto m = c.Get("mapreduce.map.speculative"), r = c.Get("mapreduce.reduce.speculative");
  if (m || r) {
    const std::string ms = m.value_or("true"), rs = r.value_or("true");
    if (ms != rs) {
      return Status::InvalidArgument("mapreduce.map.speculative=" + ms + " with mapreduce.reduce.speculative=" + rs +
                                     " is not supported by mrlab: one switch for both");
    }
    flag("speculative", ms == "false" ? "off" : "on");
  }
  if (auto v = c.Get("mapreduce.task.io.sort.mb")) flag("sort-buffer", *v + "MiB");
  if (auto v = c.Get("mapreduce.job.reduce.slowstart.completedmaps")) flag("slow-start", *v);
  if (auto v = c.Get("mapreduce.input.fileinputformat.input.dir.recursive"); v && *v == "true") {
    run->push_back("--recursive");
  }
  return Status::Ok();
}

}  // namespace

std::span<const StreamingOption> StreamingOptions() { return kOptions; }

Result<StreamingInvocation> ParseStreamingArgs(const std::vector<std::string>& args) {
  Parsed p;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() < 2 || a[0] != '-') return Status::InvalidArgument("unexpected argument '" + a + "'");
    std::string name = a.substr(a[1] == '-' ? 2 : 1);
    std::string value;
    bool joined = false;
    if (StartsWith(name, "D") && name.size() > 1) {  // -Dkey=value
      value = name.substr(1);
      name = "D";
      joined = true;
    }
    const StreamingOption* o = FindOption(name);
    if (o == nullptr) {
      return Status::InvalidArgument("unknown Hadoop Streaming option " + a + " (docs/streaming.md lists them)");
    }
    if (o->takes_value && !joined) {
      if (i + 1 >= args.size()) return Status::InvalidArgument("option " + a + " needs a value");
      value = args[++i];
    }
    MR_RETURN_IF_ERROR(Apply(*o, value, &p));
  }
  StreamingInvocation out;
  if (p.help) {
    out.help = true;
    return out;
  }
  if (p.inputs.empty()) return Status::InvalidArgument("missing -input");
  if (!p.output) return Status::InvalidArgument("missing -output");
  if (!p.mapper) return Status::InvalidArgument("missing -mapper");
  out.output_as_given = *p.output;
  MR_ASSIGN_OR_RETURN(out.output, LocalPath(*p.output));
  MR_ASSIGN_OR_RETURN(jobs::HadoopConf conf, jobs::HadoopConf::FromLines(p.conf));
  std::vector<std::string>& run = out.run_args;
  run = {"streaming", "--dialect", "hadoop", "--mapper", *p.mapper};
  if (p.combiner && *p.combiner) run.insert(run.end(), {"--combiner", **p.combiner});
  if (p.reducer && *p.reducer) run.insert(run.end(), {"--reducer", **p.reducer});
  for (const std::string& in : p.inputs) run.insert(run.end(), {"--input", in});
  run.insert(run.end(), {"--output", out.output});
  if (!p.conf.empty()) run.insert(run.end(), {"--hadoop-conf", jobs::EncodeLines(p.conf)});
  if (!p.cmdenv.empty()) run.insert(run.end(), {"--cmdenv", jobs::EncodeLines(p.cmdenv)});
  if (!p.files.empty()) run.insert(run.end(), {"--files", jobs::EncodeLines(p.files)});
  MR_RETURN_IF_ERROR(RequestFlags(conf, &run));
  return out;
}

}  // namespace mr::hadoop

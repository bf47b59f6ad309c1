#include "jobs/streaming_conf.h"

#include <algorithm>
#include <charconv>

#include "jobs/params.h"

namespace mr::jobs {
namespace {

using U = PropertyUse;

constexpr HadoopProperty kProperties[] = {
    // The job request, applied by `mr hadoop jar`.
    {"mapreduce.job.reduces", "mapred.reduce.tasks", U::kRequest, nullptr,
     "number of reduce tasks (0: map-only, part-NNNNN written by each map)"},
    {"mapreduce.job.name", "mapred.job.name", U::kRequest, nullptr, "the job's name (mr status, the page)"},
    {"mapreduce.job.queuename", "mapred.job.queue.name", U::kRequest, nullptr, "the fair scheduler's pool"},
    {"mapreduce.map.speculative", "mapred.map.tasks.speculative.execution", U::kRequest, nullptr,
     "speculation; mrlab has one switch: both false turns it off, both true (the default) on, mixed is refused"},
    {"mapreduce.reduce.speculative", "mapred.reduce.tasks.speculative.execution", U::kRequest, nullptr,
     "see mapreduce.map.speculative"},
    {"mapreduce.task.io.sort.mb", "io.sort.mb", U::kRequest, nullptr, "the map-side sort buffer, MiB"},
    {"mapreduce.job.reduce.slowstart.completedmaps", "mapred.reduce.slowstart.completed.maps", U::kRequest, nullptr,
     "the share of maps done before reducers are placed"},
    {"mapreduce.input.fileinputformat.input.dir.recursive", "mapred.input.dir.recursive", U::kRequest, nullptr,
     "read input directories' subdirectories too"},
    // The job.
    {"mapreduce.job.maps", "mapred.map.tasks", U::kJob, nullptr,
     "the number of maps asked for: splits aim at total input / this (default 2)"},
    {"dfs.blocksize", "dfs.block.size", U::kJob, nullptr,
     "the block size that caps a split (default 128m; Hadoop's suffixes k, m, g)"},
    {"mapreduce.input.fileinputformat.split.minsize", "mapred.min.split.size", U::kJob, nullptr,
     "the smallest split (default 1)"},
    {"mapred.input.format.class", nullptr, U::kJob, nullptr,
     "-inputformat: TextInputFormat (default) or KeyValueTextInputFormat"},
    {"mapred.output.format.class", nullptr, U::kJob, nullptr, "-outputformat: TextOutputFormat only"},
    {"mapred.partitioner.class", nullptr, U::kJob, nullptr,
     "-partitioner: HashPartitioner (default) or KeyFieldBasedPartitioner"},
    {"stream.map.input.ignoreKey", nullptr, U::kJob, nullptr,
     "false: the mapper gets the line's byte offset, a separator and the line"},
    {"stream.map.input.field.separator", nullptr, U::kJob, nullptr, "between key and value on the mapper's stdin"},
    {"mapreduce.input.keyvaluelinerecordreader.key.value.separator", "key.value.separator.in.input.line", U::kJob,
     nullptr, "KeyValueTextInputFormat's separator (default a tab)"},
    {"stream.map.output.field.separator", nullptr, U::kJob, nullptr, "cuts the mapper's lines into key and value"},
    {"stream.num.map.output.key.fields", nullptr, U::kJob, nullptr, "fields of the mapper's line in the key (1)"},
    {"stream.reduce.input.field.separator", nullptr, U::kJob, nullptr, "between key and value on the reducer's stdin"},
    {"stream.reduce.output.field.separator", nullptr, U::kJob, nullptr,
     "cuts the reducer's (and combiner's) lines into key and value"},
    {"stream.num.reduce.output.key.fields", nullptr, U::kJob, nullptr, "fields of the reducer's line in the key (1)"},
    {"mapreduce.output.textoutputformat.separator", "mapred.textoutputformat.separator", U::kJob, nullptr,
     "between key and value in the output files"},
    {"mapreduce.map.output.key.field.separator", "map.output.key.field.separator", U::kJob, nullptr,
     "the separator of key fields for -k options"},
    {"mapreduce.partition.keypartitioner.options", "mapred.text.key.partitioner.options", U::kJob, nullptr,
     "KeyFieldBasedPartitioner's -k options"},
    {"num.key.fields.for.partition", nullptr, U::kJob, nullptr, "KeyFieldBasedPartitioner on the first N fields"},
    {"mapreduce.partition.keycomparator.options", "mapred.text.key.comparator.options", U::kJob, nullptr,
     "KeyFieldBasedComparator's -k, -n, -r options"},
    {"mapreduce.job.output.key.comparator.class", "mapred.output.key.comparator.class", U::kJob, nullptr,
     "KeyFieldBasedComparator only (either package)"},
    {"stream.non.zero.exit.is.failure", nullptr, U::kJob, nullptr, "false: a program's non-zero exit is success"},
    {"stream.stderr.reporter.prefix", nullptr, U::kJob, nullptr, "the prefix of counter and status lines (reporter:)"},
    {"stream.jobconf.truncate.limit", nullptr, U::kJob, nullptr, "cuts environment values to this length (-1: none)"},
    // Refused unless at Hadoop's default: mrlab cannot do what they ask.
    {"mapreduce.output.fileoutputformat.compress", "mapred.output.compress", U::kRefused, "false",
     "compressed output files"},
    {"stream.map.input", nullptr, U::kRefused, "text", "-io: text only (no typedbytes, rawbytes)"},
    {"stream.map.output", nullptr, U::kRefused, "text", "-io: text only"},
    {"stream.reduce.input", nullptr, U::kRefused, "text", "-io: text only"},
    {"stream.reduce.output", nullptr, U::kRefused, "text", "-io: text only"},
    {"textinputformat.record.delimiter", nullptr, U::kRefused, "\n", "records end at \\n, \\r or \\r\\n only"},
    {"mapreduce.input.linerecordreader.line.maxlength", "mapred.linerecordreader.maxlength", U::kRefused,
     "2147483647", "lines of any length are read"},
    // Accepted; nothing in mrlab changes.
    {"mapreduce.job.output.group.comparator.class", "mapred.output.value.groupfn.class", U::kNoEffect, nullptr,
     "grouping is invisible to a streaming reducer, which gets every record as a line"},
    {"mapreduce.map.output.compress", "mapred.compress.map.output", U::kNoEffect, nullptr,
     "map output is not compressed"},
    {"mapreduce.map.output.compress.codec", "mapred.map.output.compression.codec", U::kNoEffect, nullptr,
     "map output is not compressed"},
    {"mapreduce.task.io.sort.factor", "io.sort.factor", U::kNoEffect, nullptr, "merges take every run at once"},
    {"mapreduce.reduce.shuffle.parallelcopies", "mapred.reduce.parallel.copies", U::kNoEffect, nullptr,
     "the shuffle's fetch threads are the worker's"},
    {"mapreduce.map.memory.mb", "mapred.job.map.memory.mb", U::kNoEffect, nullptr, "no containers"},
    {"mapreduce.reduce.memory.mb", "mapred.job.reduce.memory.mb", U::kNoEffect, nullptr, "no containers"},
    {"mapreduce.map.java.opts", nullptr, U::kNoEffect, nullptr, "no JVM"},
    {"mapreduce.reduce.java.opts", nullptr, U::kNoEffect, nullptr, "no JVM"},
    {"mapred.child.java.opts", nullptr, U::kNoEffect, nullptr, "no JVM"},
    {"mapreduce.map.cpu.vcores", nullptr, U::kNoEffect, nullptr, "slots, not vcores"},
    {"mapreduce.reduce.cpu.vcores", nullptr, U::kNoEffect, nullptr, "slots, not vcores"},
    {"mapreduce.task.timeout", "mapred.task.timeout", U::kNoEffect, nullptr,
     "the cluster's --task-timeout decides (mr master)"},
    {"mapreduce.map.maxattempts", "mapred.map.max.attempts", U::kNoEffect, nullptr,
     "the master's --max-attempts decides"},
    {"mapreduce.reduce.maxattempts", "mapred.reduce.max.attempts", U::kNoEffect, nullptr,
     "the master's --max-attempts decides"},
    {"mapreduce.job.priority", "mapred.job.priority", U::kNoEffect, nullptr, "the cluster's policy decides"},
    {"mapreduce.framework.name", nullptr, U::kNoEffect, nullptr, "the job runs on mrlab"},
    {"fs.defaultFS", "fs.default.name", U::kNoEffect, nullptr,
     "paths without a scheme are local; hdfs:// paths map to the HDFS root (docs/streaming.md)"},
    {"stream.tmpdir", nullptr, U::kNoEffect, nullptr, "no job jar is packed"},
    {"stream.joindelay.milli", nullptr, U::kNoEffect, nullptr, "mrlab reads a program's output to its end"},
};

Status Refused(const std::string& key, const std::string& value, const char* why) {
  return Status::InvalidArgument("-D " + key + "=" + value + " is not supported by mrlab (" + why +
                                 "; docs/streaming.md)");
}

// A Java class name as Hadoop would accept it: the full name or the simple one.
bool IsClass(std::string_view given, std::string_view simple, std::initializer_list<std::string_view> packages) {
  if (given == simple) return true;
  for (std::string_view p : packages) {
    if (given.size() == p.size() + 1 + simple.size() && given.substr(0, p.size()) == p &&
        given[p.size()] == '.' && given.substr(p.size() + 1) == simple) {
      return true;
    }
  }
  return false;
}

Result<int64_t> ParseInt(std::string_view key, std::string_view v) {
  int64_t n = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || p != v.data() + v.size() || v.empty()) {
    return Status::InvalidArgument("-D " + std::string(key) + ": not an integer: '" + std::string(v) + "'");
  }
  return n;
}

Result<bool> ParseBool(std::string_view key, std::string_view v) {
  if (v == "true" || v == "TRUE" || v == "True") return true;
  if (v == "false" || v == "FALSE" || v == "False") return false;
  return Status::InvalidArgument("-D " + std::string(key) + ": not true or false: '" + std::string(v) + "'");
}

// The properties with a fixed accepted value, and (dialect mrlab) those of a job request.
Status CheckRefused(const HadoopConf& conf, StreamingDialect dialect) {
  for (const HadoopProperty& p : kProperties) {
    auto v = conf.Get(p.name);
    if (!v) continue;
    if (p.use == U::kRefused && *v != p.accepted) return Refused(p.name, *v, p.what);
    if (p.use == U::kRequest && dialect == StreamingDialect::kMrlab) {
      return Status::InvalidArgument(std::string(p.name) +
                                     " belongs to the job request: give it as mr run's own flag, or submit with "
                                     "mr hadoop jar (docs/streaming.md)");
    }
  }
  return Status::Ok();
}

Status ReadRecords(const HadoopConf& c, StreamingConf* s) {
  auto str = [&c](const char* key, std::string* out) {
    if (auto v = c.Get(key)) *out = *v;
  };
  str("stream.map.input.field.separator", &s->map_input_separator);
  str("mapreduce.input.keyvaluelinerecordreader.key.value.separator", &s->key_value_separator);
  str("stream.map.output.field.separator", &s->map_output_separator);
  str("stream.reduce.input.field.separator", &s->reduce_input_separator);
  str("stream.reduce.output.field.separator", &s->reduce_output_separator);
  str("mapreduce.output.textoutputformat.separator", &s->output_separator);
  str("stream.stderr.reporter.prefix", &s->reporter_prefix);
  if (auto v = c.Get("mapred.input.format.class")) {
    if (IsClass(*v, "TextInputFormat", {"org.apache.hadoop.mapred"})) {
      s->input_format = InputFormat::kText;
    } else if (IsClass(*v, "KeyValueTextInputFormat", {"org.apache.hadoop.mapred"})) {
      s->input_format = InputFormat::kKeyValueText;
      s->map_input_ignore_key = false;
    } else {
      return Status::InvalidArgument("-inputformat " + *v +
                                     " is not supported by mrlab: TextInputFormat or KeyValueTextInputFormat");
    }
  }
  if (auto v = c.Get("mapred.output.format.class"); v && !IsClass(*v, "TextOutputFormat", {"org.apache.hadoop.mapred"})) {
    return Status::InvalidArgument("-outputformat " + *v + " is not supported by mrlab: TextOutputFormat only");
  }
  if (auto v = c.Get("stream.map.input.ignoreKey")) {
    MR_ASSIGN_OR_RETURN(s->map_input_ignore_key, ParseBool("stream.map.input.ignoreKey", *v));
  }
  auto fields = [&c](const char* key, int* out) -> Status {
    auto v = c.Get(key);
    if (!v) return Status::Ok();
    MR_ASSIGN_OR_RETURN(int64_t n, ParseInt(key, *v));
    *out = static_cast<int>(std::clamp<int64_t>(n, -1, 1 << 20));
    return Status::Ok();
  };
  MR_RETURN_IF_ERROR(fields("stream.num.map.output.key.fields", &s->map_output_key_fields));
  MR_RETURN_IF_ERROR(fields("stream.num.reduce.output.key.fields", &s->reduce_output_key_fields));
  if (s->map_output_separator.empty() || s->reduce_output_separator.empty()) {
    return Status::InvalidArgument("stream.map.output.field.separator and stream.reduce.output.field.separator "
                                   "must not be empty");
  }
  return Status::Ok();
}

Status ReadKeys(const HadoopConf& c, StreamingConf* s) {
  const std::string sep = c.Get("mapreduce.map.output.key.field.separator").value_or("\t");
  if (auto v = c.Get("mapreduce.job.output.key.comparator.class")) {
    const std::initializer_list<std::string_view> pkgs = {"org.apache.hadoop.mapred.lib",
                                                          "org.apache.hadoop.mapreduce.lib.partition"};
    if (!IsClass(*v, "KeyFieldBasedComparator", pkgs)) {
      return Status::InvalidArgument("-D mapreduce.job.output.key.comparator.class=" + *v +
                                     " is not supported by mrlab: KeyFieldBasedComparator only");
    }
    const std::string options = c.Get("mapreduce.partition.keycomparator.options").value_or("");
    auto parsed = KeyFieldOptions::Parse(options, sep);
    if (!parsed.ok()) return parsed.status().WithContext("mapreduce.partition.keycomparator.options");
    if (!parsed->specs().empty()) s->comparator = std::move(*parsed);
  }
  if (auto v = c.Get("mapred.partitioner.class")) {
    if (IsClass(*v, "KeyFieldBasedPartitioner", {"org.apache.hadoop.mapred.lib"})) {
      s->key_field_partitioner = true;
    } else if (!IsClass(*v, "HashPartitioner", {"org.apache.hadoop.mapred.lib"})) {
      return Status::InvalidArgument("-partitioner " + *v +
                                     " is not supported by mrlab: org.apache.hadoop.mapred.lib.HashPartitioner or "
                                     "KeyFieldBasedPartitioner (the old API's, as Hadoop Streaming needs)");
    }
  }
  if (s->key_field_partitioner) {
    if (auto n = c.Get("num.key.fields.for.partition")) {
      MR_ASSIGN_OR_RETURN(int64_t fields, ParseInt("num.key.fields.for.partition", *n));
      s->partition_options = KeyFieldOptions::FirstFields(static_cast<int>(fields), sep);
    } else if (auto o = c.Get("mapreduce.partition.keypartitioner.options")) {
      auto parsed = KeyFieldOptions::Parse(*o, sep);
      if (!parsed.ok()) return parsed.status().WithContext("mapreduce.partition.keypartitioner.options");
      s->partition_options = std::move(*parsed);
    }
  }
  return Status::Ok();
}

Status ReadProgramsAndSplits(const HadoopConf& c, StreamingConf* s) {
  if (auto v = c.Get("stream.non.zero.exit.is.failure")) {
    MR_ASSIGN_OR_RETURN(s->nonzero_exit_is_failure, ParseBool("stream.non.zero.exit.is.failure", *v));
  }
  if (auto v = c.Get("stream.jobconf.truncate.limit")) {
    MR_ASSIGN_OR_RETURN(s->env_truncate_limit, ParseInt("stream.jobconf.truncate.limit", *v));
  }
  if (auto v = c.Get("mapreduce.job.maps")) {
    MR_ASSIGN_OR_RETURN(int64_t n, ParseInt("mapreduce.job.maps", *v));
    s->maps_hint = static_cast<uint32_t>(std::clamp<int64_t>(n, 0, 1000000));
  }
  if (auto v = c.Get("dfs.blocksize")) {
    auto b = ParseHadoopBytes(*v);
    if (!b.ok() || *b == 0) return Status::InvalidArgument("-D dfs.blocksize: not a size: '" + *v + "'");
    s->block_size = *b;
  }
  if (auto v = c.Get("mapreduce.input.fileinputformat.split.minsize")) {
    MR_ASSIGN_OR_RETURN(int64_t n, ParseInt("mapreduce.input.fileinputformat.split.minsize", *v));
    s->min_split_size = static_cast<uint64_t>(std::max<int64_t>(n, 1));
  }
  return Status::Ok();
}

Status ReadFiles(const std::vector<std::string>& lines, StreamingConf* s) {
  for (const std::string& l : lines) {
    const size_t hash = l.rfind('#');
    ShippedFileParam f{l.substr(0, hash), hash == std::string::npos ? "" : l.substr(hash + 1)};
    if (f.name.empty()) f.name = f.path.substr(f.path.rfind('/') + 1);
    if (f.path.empty() || f.path[0] != '/') return Status::InvalidArgument("shipped file '" + f.path + "' must be absolute");
    if (f.name.empty() || f.name == "." || f.name == ".." || f.name.find('/') != std::string::npos) {
      return Status::InvalidArgument("shipped file name '" + f.name + "' must be one path component (" + l + ")");
    }
    for (const auto& g : s->files) {
      if (g.name == f.name) return Status::InvalidArgument("two shipped files named '" + f.name + "'");
    }
    s->files.push_back(std::move(f));
  }
  return Status::Ok();
}

}  // namespace

std::span<const HadoopProperty> HadoopProperties() { return kProperties; }

std::string EncodeLines(const std::vector<std::string>& lines) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) out.push_back('\n');
    for (char c : lines[i]) {
      if (c == '\\') out += "\\\\";
      else if (c == '\n') out += "\\n";
      else out.push_back(c);
    }
  }
  return out;
}

std::vector<std::string> DecodeLines(std::string_view text) {
  std::vector<std::string> out;
  if (text.empty()) return out;
  out.emplace_back();
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      out.emplace_back();
    } else if (c == '\\' && i + 1 < text.size()) {
      out.back().push_back(text[++i] == 'n' ? '\n' : text[i]);
    } else {
      out.back().push_back(c);
    }
  }
  return out;
}

Result<HadoopConf> HadoopConf::FromLines(const std::vector<std::string>& lines) {
  HadoopConf c;
  for (const std::string& l : lines) {
    const size_t eq = l.find('=');
    if (eq == std::string::npos || eq == 0) return Status::InvalidArgument("property '" + l + "' is not KEY=VALUE");
    c.Set(l.substr(0, eq), l.substr(eq + 1));
  }
  return c;
}

void HadoopConf::Set(std::string key, std::string value) { entries_.emplace_back(std::move(key), std::move(value)); }

std::optional<std::string> HadoopConf::Get(std::string_view name) const {
  std::string_view alias;
  for (const HadoopProperty& p : kProperties) {
    if (name == p.name && p.deprecated != nullptr) alias = p.deprecated;
  }
  for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
    if (it->first == name || (!alias.empty() && it->first == alias)) return it->second;
  }
  return std::nullopt;
}

std::vector<std::string> HadoopConf::ToLines() const {
  std::vector<std::string> out;
  for (const auto& [k, v] : entries_) out.push_back(k + "=" + v);
  return out;
}

Result<uint64_t> ParseHadoopBytes(std::string_view text) {
  if (text.empty()) return Status::InvalidArgument("empty size");
  uint64_t mult = 1;
  switch (text.back()) {
    case 'k': case 'K': mult = uint64_t{1} << 10; break;
    case 'm': case 'M': mult = uint64_t{1} << 20; break;
    case 'g': case 'G': mult = uint64_t{1} << 30; break;
    case 't': case 'T': mult = uint64_t{1} << 40; break;
    case 'p': case 'P': mult = uint64_t{1} << 50; break;
    case 'e': case 'E': mult = uint64_t{1} << 60; break;
    default: break;
  }
  if (mult != 1) text.remove_suffix(1);
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || text.empty()) {
    return Status::InvalidArgument("not a size: '" + std::string(text) + "'");
  }
  if (v > UINT64_MAX / mult) return Status::InvalidArgument("size too large: '" + std::string(text) + "'");
  return v * mult;
}

Result<StreamingConf> ParseStreamingConf(std::string_view job, const Params& params) {
  StreamingConf s;
  MR_ASSIGN_OR_RETURN(s.mapper, GetRequiredParam(job, params, kMapperParam));
  auto get = [&params](const char* name) -> std::optional<std::string> {
    auto it = params.find(name);
    if (it == params.end() || it->second.empty()) return std::nullopt;
    return it->second;
  };
  s.combiner = get(kCombinerParam);
  s.reducer = get(kReducerParam);
  if (auto d = get(kDialectParam)) {
    if (*d == "hadoop") {
      s.dialect = StreamingDialect::kHadoop;
    } else if (*d != "mrlab") {
      return Status::InvalidArgument("parameter dialect: mrlab or hadoop, not '" + *d + "'");
    }
  }
  MR_ASSIGN_OR_RETURN(s.conf, HadoopConf::FromLines(DecodeLines(get(kConfParam).value_or(""))));
  s.cmdenv = DecodeLines(get(kCmdenvParam).value_or(""));
  MR_RETURN_IF_ERROR(ReadFiles(DecodeLines(get(kFilesParam).value_or("")), &s));
  MR_RETURN_IF_ERROR(CheckRefused(s.conf, s.dialect));
  MR_RETURN_IF_ERROR(ReadRecords(s.conf, &s));
  MR_RETURN_IF_ERROR(ReadKeys(s.conf, &s));
  MR_RETURN_IF_ERROR(ReadProgramsAndSplits(s.conf, &s));
  return s;
}

}  // namespace mr::jobs

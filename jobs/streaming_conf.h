// The streaming job's configuration: its parameters (the job table's rows for `streaming`)
// read into one struct, and the table of the Hadoop properties it knows — each with its
// deprecated names and what mrlab does with it (docs/streaming.md lists every row; a test
// checks that it does). Both front ends fill the same parameters: `mr run streaming` with
// its flags, `mr hadoop jar` from Hadoop's command line (dialect "hadoop").
// Pure values and functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"
#include "jobs/job.h"
#include "jobs/key_fields.h"

namespace mr::jobs {

// The streaming job's parameters.
inline constexpr char kMapperParam[] = "mapper";
inline constexpr char kCombinerParam[] = "combiner";
inline constexpr char kReducerParam[] = "reducer";
// "mrlab" (default): commands run with /bin/sh -c, splits of --split-size, and the
// properties of a job request (reducers, name, ...) refused in `conf`, where nothing would
// apply them. "hadoop" (`mr hadoop jar`): commands split and looked up as Hadoop Streaming
// does, splits as Hadoop's old-API FileInputFormat cuts them, and those properties applied
// by the front end before submitting.
inline constexpr char kDialectParam[] = "dialect";
inline constexpr char kConfParam[] = "conf";      // -D properties: KEY=VALUE lines
inline constexpr char kCmdenvParam[] = "cmdenv";  // -cmdenv arguments: NAME=VALUE lines
inline constexpr char kFilesParam[] = "files";    // shipped files: ABSOLUTE_PATH#NAME lines

// Lines as one parameter value: joined with '\n', each with '\\' and '\n' escaped.
std::string EncodeLines(const std::vector<std::string>& lines);
std::vector<std::string> DecodeLines(std::string_view text);

// What mrlab does with a Hadoop property.
enum class PropertyUse {
  kRequest,   // applied by `mr hadoop jar` to the job request (reducers, name, pool, ...)
  kJob,       // applied by the streaming job (records, keys, splits, commands)
  kNoEffect,  // accepted, changes nothing mrlab does (resources, tuning); still in the tasks'
              // environment, as every property is
  kRefused,   // refused (exit 2) unless set to the value named in `accepted`
};
struct HadoopProperty {
  const char* name;
  const char* deprecated;  // the older name Hadoop still reads, or nullptr
  PropertyUse use;
  const char* accepted;    // kRefused: the one value accepted (Hadoop's default)
  const char* what;        // one line for docs/streaming.md
};
std::span<const HadoopProperty> HadoopProperties();

// Properties as given (-D), in order; a later one replaces an earlier of the same name or
// alias.
class HadoopConf {
 public:
  static Result<HadoopConf> FromLines(const std::vector<std::string>& lines);  // KEY=VALUE
  void Set(std::string key, std::string value);
  // The value of `name` as Hadoop would read it: the last set of the name or its deprecated
  // alias (from HadoopProperties()); nullopt when unset.
  std::optional<std::string> Get(std::string_view name) const;
  const std::vector<std::pair<std::string, std::string>>& entries() const { return entries_; }
  std::vector<std::string> ToLines() const;

 private:
  std::vector<std::pair<std::string, std::string>> entries_;
};

// Hadoop's Configuration.getLongBytes: a decimal with an optional binary suffix k, m, g, t,
// p or e (either case): "128m" = 134217728.
Result<uint64_t> ParseHadoopBytes(std::string_view text);

// A file shipped to every task's working directory (-file, -files PATH#NAME).
struct ShippedFileParam {
  std::string path;  // absolute, on this file system
  std::string name;  // its name in the task directory
};

enum class StreamingDialect { kMrlab, kHadoop };
enum class InputFormat { kText, kKeyValueText };

struct StreamingConf {
  StreamingDialect dialect = StreamingDialect::kMrlab;
  std::string mapper;                    // a command
  std::optional<std::string> combiner;   // a command
  std::optional<std::string> reducer;    // a command; nullopt: the identity reducer
  HadoopConf conf;
  std::vector<std::string> cmdenv;       // NAME=VALUE as given (split at spaces when used)
  std::vector<ShippedFileParam> files;

  // Records (docs/streaming.md, "Records in, records out").
  InputFormat input_format = InputFormat::kText;
  bool map_input_ignore_key = true;      // TextInputFormat: the program gets the line only
  std::string map_input_separator = "\t";
  std::string key_value_separator = "\t";  // KeyValueTextInputFormat's
  std::string map_output_separator = "\t";
  int map_output_key_fields = 1;
  std::string reduce_input_separator = "\t";
  std::string reduce_output_separator = "\t";
  int reduce_output_key_fields = 1;
  std::string output_separator = "\t";   // TextOutputFormat's

  // Keys: a comparator with key-field specs (nullopt: bytewise), the partitioner.
  std::optional<KeyFieldOptions> comparator;
  bool key_field_partitioner = false;
  std::optional<KeyFieldOptions> partition_options;  // nullopt: String.hashCode of the key

  // Programs.
  bool nonzero_exit_is_failure = true;
  std::string reporter_prefix = "reporter:";
  int64_t env_truncate_limit = -1;

  // Hadoop's splits (dialect kHadoop).
  uint32_t maps_hint = 2;
  uint64_t block_size = uint64_t{128} << 20;
  uint64_t min_split_size = 1;
};

// Reads and checks the streaming job's parameters: InvalidArgument naming what is wrong (a
// missing mapper, a refused property or class, a malformed -k, a shipped file name with a
// '/').
Result<StreamingConf> ParseStreamingConf(std::string_view job, const Params& params);

}  // namespace mr::jobs

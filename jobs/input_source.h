// Where a job's input bytes come from, on the model of leveldb's Env: the client resolves what
// --input names, the master lists the files, splits them and samples them, and the worker reads
// its split — all through one InputSource, so that nothing between the code and the input bytes
// assumes they sit on the local disk. LocalInputs() is the shared-file-system behaviour
// every process had before (docs/jobs.md, "Inputs"); tests use FakeInputSource
// (jobs/fake_input_source.h), whose files live in memory. A split names the host that holds
// its bytes (empty: any process can open the path): map placement prefers a worker on that host
// and each map attempt counts its read as local or remote (docs/multi-host.md, "Locality"). Implementations are thread-safe. The daemons take their
// source from their options (TrackerOptions, AttemptContext), never from a global.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace mr::jobs {

// How an input file's bytes are stored, decided by its name's suffix as Hadoop's
// CompressionCodecFactory decides it: ".gz" is gzip (read decompressed, one split per file:
// gzip cannot be split), anything else plain text. docs/streaming.md, "Compressed inputs".
enum class Codec { kNone, kGzip };
Codec CodecOf(std::string_view path);
// InvalidArgument naming the file if its suffix is that of a codec Hadoop would decompress
// but mrlab cannot (".bz2", ".deflate", ".lz4", ".snappy", ".zst"): read as text it would be
// garbage. OK otherwise.
Status CheckInputCodec(std::string_view path);

// One regular input file behind the submitted inputs.
struct InputFile {
  std::string path;
  uint64_t size = 0;
  std::string host;  // the host that holds its bytes; "" = reachable from every process
};

// Bytes of an input file, valid while the object lives (an mmap, a buffer, a fetched range).
class InputBytes {
 public:
  virtual ~InputBytes() = default;
  virtual std::string_view data() const = 0;
};

class InputSource {
 public:
  virtual ~InputSource() = default;

  // What the user names with --input, read as Hadoop's FileInputFormat reads input paths
  // (docs/jobs.md, "Inputs"): an existing path as it is, else a glob pattern's matches, a
  // directory kept as a directory unless `recursive`. NotFound for a missing input or a
  // pattern that matches nothing, PermissionDenied for an unreadable file.
  virtual Result<std::vector<std::string>> Resolve(const std::vector<std::string>& args,
                                                   bool recursive) const = 0;

  // The regular files behind resolved inputs, in order: a file stays itself, a directory
  // becomes its regular files sorted by name, one level, skipping hidden names ('_' and '.').
  virtual Result<std::vector<InputFile>> List(const std::vector<std::string>& inputs) const = 0;

  // Up to `length` bytes of `path` from `offset` (fewer at the end of the file); length 0
  // still opens the file. NotFound ("no such input: PATH") for a missing file, IoError if the
  // file is shorter than `offset` or cannot be read. The local source maps the range: no copy.
  virtual Result<std::unique_ptr<InputBytes>> Read(const std::string& path, uint64_t offset,
                                                   uint64_t length) const = 0;
};

// The process's local file system: every process sees the same paths (one machine, or NFS).
const InputSource& LocalInputs();

}  // namespace mr::jobs

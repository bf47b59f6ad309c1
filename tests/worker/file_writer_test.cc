// FileWriter (worker/task/file_writer.h): a file written in pieces of max_write bytes (map
// outputs, spills) holds the same bytes and gives the same segment CRCs as one written a
// whole buffer at a time, across buffer flushes and pieces that split records.
#include "worker/task/file_writer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/crc32c.h"
#include "common/file_util.h"
#include "shuffle/map_output.h"

namespace mr::worker {
namespace {

constexpr int kSegments = 3;

std::string Key(int segment, int i) { return "key-" + std::to_string(segment) + "-" + std::to_string(i); }
std::string RecordValue(int i) { return std::string(100 + i % 37, 'v'); }
int Records(int segment) { return 9000 * (segment + 1); }  // ~2.6 MiB in all: buffers flush mid-segment

struct Written {
  std::string bytes;
  std::vector<uint32_t> crcs;
};

Written Write(const std::string& path, size_t max_write) {
  Written w;
  FileWriter out;
  EXPECT_TRUE(out.Open(path, /*checksum=*/true, max_write).ok());
  for (int segment = 0; segment < kSegments; ++segment) {
    out.TakeCrc();  // a partition starts
    for (int i = 0; i < Records(segment); ++i) out.AppendRecord(Key(segment, i), RecordValue(i));
    w.crcs.push_back(out.TakeCrc());
  }
  EXPECT_TRUE(out.Close().ok());
  auto data = ReadFileToString(path);
  EXPECT_TRUE(data.ok());
  if (data.ok()) w.bytes = std::move(data).value();
  return w;
}

TEST(FileWriterTest, WritesInPiecesHoldTheSameBytesAndChecksums) {
  // What the file must hold: the segments' records, each segment's CRC32C.
  Written want;
  for (int segment = 0; segment < kSegments; ++segment) {
    std::string bytes;
    for (int i = 0; i < Records(segment); ++i) shuffle::AppendRecord(Key(segment, i), RecordValue(i), &bytes);
    want.crcs.push_back(crc32c::Value(bytes));
    want.bytes += bytes;
  }
  ASSERT_GT(want.bytes.size(), size_t{2} << 20);
  TempDir dir("mr-file-writer-test");
  for (size_t piece : {size_t{0}, FileWriter::kMappedWriteBytes, size_t{1000}}) {
    SCOPED_TRACE(piece);
    const Written got = Write(JoinPath(dir.path(), "file-" + std::to_string(piece)), piece);
    EXPECT_TRUE(got.bytes == want.bytes) << got.bytes.size() << " bytes against " << want.bytes.size();
    EXPECT_EQ(got.crcs, want.crcs);
  }
}

}  // namespace
}  // namespace mr::worker

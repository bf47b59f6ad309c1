#include "tests/shuffle/shuffle_server_fixture.h"

#include <random>

#include "common/crc32c.h"
#include "shuffle/map_output.h"

namespace mr::shuffle::shuffle_test {

// Writes a map output the way a map task does: records per partition, index last.
FakeMapOutput WriteMapOutput(const std::string& dir, uint64_t job, uint32_t map, uint32_t attempt,
                             uint32_t r, int records_per_partition, size_t value_bytes) {
  std::mt19937 rng(static_cast<uint32_t>(job * 1000 + map * 10 + attempt));
  FakeMapOutput out;
  MapOutputIndex index;
  std::string data;
  for (uint32_t p = 0; p < r; ++p) {
    std::string part;
    int n = (p == 1) ? 0 : records_per_partition;  // partition 1 is always empty
    for (int i = 0; i < n; ++i) {
      std::string key = "k" + std::to_string(p) + "-" + std::to_string(100000 + i);
      std::string value(value_bytes, 'a');
      for (auto& c : value) c = static_cast<char>('a' + rng() % 26);
      AppendRecord(key, value, &part);
    }
    index.partitions.push_back({data.size(), part.size(), static_cast<uint64_t>(n), crc32c::Value(part)});
    data += part;
    out.partitions.push_back(part);
    out.records.push_back(static_cast<uint64_t>(n));
  }
  EXPECT_TRUE(MakeDirs(MapOutputDir(dir, job)).ok());
  EXPECT_TRUE(WriteStringToFile(MapOutputDataPath(dir, job, map, attempt), data).ok());
  EXPECT_TRUE(index.WriteTo(MapOutputIndexPath(dir, job, map, attempt)).ok());
  return out;
}

}  // namespace mr::shuffle::shuffle_test

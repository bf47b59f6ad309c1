#include "shuffle/map_output.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/crc32c.h"
#include "common/file_util.h"

namespace mr::shuffle {

namespace {
constexpr char kMagic[4] = {'M', 'R', 'I', 'X'};
constexpr uint32_t kVersion = 2;
constexpr size_t kHeaderBytes = 12;
constexpr size_t kEntryBytes = 28;  // offset, length, records, crc32c
constexpr size_t kTrailerBytes = 4;
constexpr uint32_t kMaxPartitions = 1u << 20;

void Put32(uint32_t v, std::string* out) {
  char b[4];
  std::memcpy(b, &v, 4);  // little-endian hosts only (x86-64, arm64)
  out->append(b, 4);
}
void Put64(uint64_t v, std::string* out) {
  char b[8];
  std::memcpy(b, &v, 8);
  out->append(b, 8);
}
uint32_t Get32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
uint64_t Get64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
void PutVarint32(uint32_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}
bool GetVarint32(std::string_view buf, size_t* pos, uint32_t* v) {
  uint32_t result = 0;
  for (int shift = 0; shift <= 28 && *pos < buf.size(); shift += 7) {
    uint32_t byte = static_cast<unsigned char>(buf[(*pos)++]);
    result |= (byte & 0x7f) << shift;
    if (!(byte & 0x80)) {
      *v = result;
      return true;
    }
  }
  return false;
}
}  // namespace

std::string MapOutputIndex::Encode() const {
  std::string out(kMagic, 4);
  Put32(kVersion, &out);
  Put32(static_cast<uint32_t>(partitions.size()), &out);
  for (const auto& p : partitions) {
    Put64(p.offset, &out);
    Put64(p.length, &out);
    Put64(p.records, &out);
    Put32(p.crc32c, &out);
  }
  Put32(crc32c::Value(out), &out);
  return out;
}

Result<MapOutputIndex> MapOutputIndex::Decode(std::string_view b) {
  if (b.size() < kHeaderBytes || std::memcmp(b.data(), kMagic, 4) != 0) {
    return Status::InvalidArgument("map output index: bad magic");
  }
  const uint32_t version = Get32(b.data() + 4);
  if (version == 1) {
    return Status::InvalidArgument(
        "map output index: version 1 has no data checksums and is no longer read (the map runs again)");
  }
  if (version != kVersion) return Status::InvalidArgument("map output index: bad version " + std::to_string(version));
  uint32_t r = Get32(b.data() + 8);
  if (r == 0 || r > kMaxPartitions || b.size() != kHeaderBytes + size_t{r} * kEntryBytes + kTrailerBytes) {
    return Status::InvalidArgument("map output index: bad size");
  }
  const size_t body = b.size() - kTrailerBytes;
  if (Get32(b.data() + body) != crc32c::Value(b.data(), body)) {
    return Status::InvalidArgument("map output index: checksum mismatch");
  }
  MapOutputIndex idx;
  idx.partitions.resize(r);
  uint64_t expect_offset = 0;
  for (uint32_t i = 0; i < r; ++i) {
    const char* p = b.data() + kHeaderBytes + size_t{i} * kEntryBytes;
    auto& e = idx.partitions[i];
    e.offset = Get64(p);
    e.length = Get64(p + 8);
    e.records = Get64(p + 16);
    e.crc32c = Get32(p + 24);
    if (e.offset != expect_offset) return Status::InvalidArgument("map output index: extents not contiguous");
    expect_offset += e.length;
  }
  return idx;
}

Status MapOutputIndex::WriteTo(const std::string& path, bool sync) const {
  return sync ? WriteFileAtomically(path, Encode()) : WriteFileAtomicallyUnsynced(path, Encode());
}

Result<MapOutputIndex> MapOutputIndex::ReadFrom(const std::string& path) {
  MR_ASSIGN_OR_RETURN(std::string bytes, ReadFileToString(path));
  auto r = Decode(bytes);
  if (!r.ok()) return r.status().WithContext(path);
  return r;
}

std::string MapOutputDir(const std::string& work_dir, uint64_t job_id) {
  return JoinPath(work_dir, "j" + std::to_string(job_id));
}

std::string MapOutputDataPath(const std::string& work_dir, uint64_t job_id, uint32_t map_index,
                              uint32_t attempt) {
  return JoinPath(MapOutputDir(work_dir, job_id),
                  "m" + std::to_string(map_index) + "-a" + std::to_string(attempt) + ".data");
}

std::string MapOutputIndexPath(const std::string& work_dir, uint64_t job_id, uint32_t map_index,
                               uint32_t attempt) {
  return JoinPath(MapOutputDir(work_dir, job_id),
                  "m" + std::to_string(map_index) + "-a" + std::to_string(attempt) + ".index");
}

namespace {
// A decimal of 1..19 digits, no sign or leading '+'.
bool ParseDecimal(std::string_view text, uint64_t* out) {
  if (text.empty() || text.size() > 19) return false;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  *out = v;
  return true;
}
}  // namespace

Status RemoveMapOutput(const std::string& work_dir, uint64_t job_id, uint32_t map_index, uint32_t attempt) {
  const std::string index = MapOutputIndexPath(work_dir, job_id, map_index, attempt);
  Status first;
  for (const std::string& path : {index, index + ".tmp", MapOutputDataPath(work_dir, job_id, map_index, attempt)}) {
    if (::unlink(path.c_str()) != 0 && errno != ENOENT && first.ok()) {
      first = Status::IoError("cannot remove " + path + ": " + std::strerror(errno));
    }
  }
  return first;
}

bool ParseMapOutputDirName(std::string_view name, uint64_t* job_id) {
  return name.size() >= 2 && name[0] == 'j' && ParseDecimal(name.substr(1), job_id);
}

bool ParseMapOutputIndexName(std::string_view name, uint32_t* map_index, uint32_t* attempt) {
  constexpr std::string_view kSuffix = ".index";
  if (name.size() <= kSuffix.size() || name[0] != 'm' || name.substr(name.size() - kSuffix.size()) != kSuffix) {
    return false;
  }
  std::string_view core = name.substr(1, name.size() - 1 - kSuffix.size());
  const size_t dash = core.find("-a");
  uint64_t m = 0, a = 0;
  if (dash == std::string_view::npos || !ParseDecimal(core.substr(0, dash), &m) ||
      !ParseDecimal(core.substr(dash + 2), &a) || m > UINT32_MAX || a == 0 || a > UINT32_MAX) {
    return false;
  }
  *map_index = static_cast<uint32_t>(m);
  *attempt = static_cast<uint32_t>(a);
  return true;
}

void AppendRecord(std::string_view key, std::string_view value, std::string* out) {
  PutVarint32(static_cast<uint32_t>(key.size()), out);
  PutVarint32(static_cast<uint32_t>(value.size()), out);
  out->append(key);
  out->append(value);
}

bool ParseRecord(std::string_view buf, size_t* pos, std::string_view* key, std::string_view* value) {
  uint32_t klen = 0, vlen = 0;
  if (!GetVarint32(buf, pos, &klen) || !GetVarint32(buf, pos, &vlen)) return false;
  if (buf.size() - *pos < uint64_t{klen} + vlen) return false;
  *key = buf.substr(*pos, klen);
  *value = buf.substr(*pos + klen, vlen);
  *pos += uint64_t{klen} + vlen;
  return true;
}

}  // namespace mr::shuffle

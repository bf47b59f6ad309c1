// A read-only memory mapping of (a byte range of) a file, for zero-copy reading
// of input splits, spills and shuffled runs. Move-only RAII: unmapped on
// destruction; views into data() die with it. Thread-compatible.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "common/status.h"

namespace mr {

class MappedFile {
 public:
  static constexpr uint64_t kToEnd = std::numeric_limits<uint64_t>::max();

  // Maps [offset, offset + length) of path (kToEnd: to the end of the file).
  // NotFound for a missing file; IoError if the range goes past the end.
  static Result<MappedFile> Open(const std::string& path, uint64_t offset = 0,
                                 uint64_t length = kToEnd);

  MappedFile() = default;
  MappedFile(MappedFile&& other) noexcept { *this = std::move(other); }
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  std::string_view data() const { return view_; }

 private:
  void* base_ = nullptr;  // page-aligned start of the mapping
  size_t mapped_ = 0;
  std::string_view view_;
};

}  // namespace mr

#include "worker/task/sort_buffer.h"

#include <algorithm>
#include <cstring>
#include <mutex>

#include "worker/task/record_sink.h"

namespace mr::worker {

namespace {

uint64_t KeyPrefix(std::string_view key) {
  uint64_t p = 0;
  size_t n = std::min<size_t>(key.size(), 8);
  for (size_t i = 0; i < n; ++i) p |= uint64_t{static_cast<unsigned char>(key[i])} << (56 - 8 * i);
  return p;
}

// Values of one key group: consecutive sorted entries.
template <typename EntryT, typename ValueFn>
class EntryValues final : public jobs::ValueIterator {
 public:
  EntryValues(const EntryT* begin, const EntryT* end, ValueFn value_of, uint64_t* count)
      : cur_(begin), end_(end), value_of_(value_of), count_(count) {}
  bool Next(std::string_view* value) override {
    if (cur_ == end_) return false;
    *value = value_of_(*cur_++);
    ++*count_;
    return true;
  }

 private:
  const EntryT* cur_;
  const EntryT* end_;
  ValueFn value_of_;
  uint64_t* count_;
};

// Free kChunkBytes chunks kept for the next buffer, at most kPoolBytes of them.
class ChunkPool {
 public:
  char* Take() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!free_.empty()) {
        char* c = free_.back();
        free_.pop_back();
        return c;
      }
    }
    return new char[SortBuffer::kChunkBytes];
  }
  void Give(char* c) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (free_.size() * SortBuffer::kChunkBytes < SortBuffer::kPoolBytes) {
        free_.push_back(c);
        return;
      }
    }
    delete[] c;
  }

 private:
  std::mutex mu_;
  std::vector<char*> free_;
};

ChunkPool& Pool() {
  static ChunkPool* pool = new ChunkPool;  // never destroyed: buffers may outlive statics
  return *pool;
}

}  // namespace

SortBuffer::~SortBuffer() { ReleaseChunks(); }

void SortBuffer::ReleaseChunks() {
  for (const Chunk& c : chunks_) {
    if (c.size == kChunkBytes) {
      Pool().Give(c.bytes);
    } else {
      delete[] c.bytes;
    }
  }
  chunks_.clear();
  chunk_used_ = 0;
  arena_bytes_ = 0;
}

char* SortBuffer::Reserve(size_t n) {
  if (chunks_.empty() || chunks_.back().size - chunk_used_ < n) {
    if (n > kChunkBytes) {
      // An oversized record gets a chunk of its own, placed before the current one so that
      // the current chunk's free space stays in use.
      char* bytes = new char[n];
      Chunk big{bytes, n};
      if (chunks_.empty()) {
        chunks_.push_back(big);
        chunk_used_ = n;
      } else {
        chunks_.insert(chunks_.end() - 1, big);
      }
      return bytes;
    }
    chunks_.push_back(Chunk{Pool().Take(), kChunkBytes});
    chunk_used_ = 0;
  }
  char* p = chunks_.back().bytes + chunk_used_;
  chunk_used_ += n;
  return p;
}

void SortBuffer::Add(uint32_t partition, std::string_view key, std::string_view value) {
  const size_t n = key.size() + value.size();
  char* p = Reserve(n);
  if (!key.empty()) std::memcpy(p, key.data(), key.size());
  if (!value.empty()) std::memcpy(p + key.size(), value.data(), value.size());
  arena_bytes_ += n;
  if (entries_.capacity() == 0) {
    // Room for as many entries as the capacity could hold (at most 1 GiB of them): address
    // space only, touched as it fills, and never regrown (no copy, no page faulted twice).
    entries_.reserve(std::min<uint64_t>(capacity_, uint64_t{1} << 30) / sizeof(Entry) + 1);
  }
  entries_.push_back(Entry{KeyPrefix(key), p, partition, static_cast<uint32_t>(key.size()),
                           static_cast<uint32_t>(value.size()), static_cast<uint32_t>(entries_.size())});
}

void SortBuffer::Sort() {
  // The insertion number breaks ties stably.
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
    if (a.partition != b.partition) return a.partition < b.partition;
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    int c = KeyOf(a).compare(KeyOf(b));
    if (c != 0) return c < 0;
    return a.seq < b.seq;
  });
}

Result<uint64_t> SortBuffer::WritePartition(size_t begin, size_t end, jobs::Reducer* combiner,
                                            FileWriter* out, TaskCounters* counters) {
  if (combiner == nullptr) {
    for (size_t i = begin; i < end; ++i) out->AppendRecord(KeyOf(entries_[i]), ValueOf(entries_[i]));
    return end - begin;
  }
  RecordSink sink(out);
  auto value_of = [](const Entry& e) { return ValueOf(e); };
  const bool pass_single = combiner->PassesSingleValues();
  for (size_t i = begin; i < end;) {
    std::string_view key = KeyOf(entries_[i]);
    size_t j = i + 1;
    while (j < end && entries_[j].prefix == entries_[i].prefix && KeyOf(entries_[j]) == key) ++j;
    if (pass_single && j == i + 1) {
      ++counters->combine_in;
      sink.Emit(key, ValueOf(entries_[i]));
      i = j;
      continue;
    }
    EntryValues values(entries_.data() + i, entries_.data() + j, value_of, &counters->combine_in);
    combiner->Reduce(key, values, sink);
    i = j;
  }
  MR_RETURN_IF_ERROR(combiner->FinishRun(sink));
  counters->combine_out += sink.records();
  return sink.records();
}

Status SortBuffer::WriteSorted(uint32_t num_partitions, jobs::Reducer* combiner, FileWriter* out,
                               std::vector<shuffle::PartitionExtent>* extents,
                               TaskCounters* counters) {
  Sort();
  const uint64_t base = out->size();
  extents->assign(num_partitions, {});
  size_t i = 0;
  for (uint32_t p = 0; p < num_partitions; ++p) {
    size_t j = i;
    while (j < entries_.size() && entries_[j].partition == p) ++j;
    auto& e = (*extents)[p];
    e.offset = out->size() - base;
    (void)out->TakeCrc();  // the partition's segment starts here
    MR_ASSIGN_OR_RETURN(e.records, WritePartition(i, j, combiner, out, counters));
    e.length = out->size() - base - e.offset;
    e.crc32c = out->TakeCrc();
    i = j;
  }
  entries_.clear();
  ReleaseChunks();
  return out->status();
}

}  // namespace mr::worker

// mr_ref_wordcount: the hand-written reference the mr wordcount is measured against.
//
//   mr_ref_wordcount [--threads N] [--output FILE] FILE...
//
// Words are maximal runs of [A-Za-z] (the mr wordcount tokenisation). Each file is mmap'd
// and cut into N ranges at non-letter bytes; each thread counts its ranges into its own
// open-addressing table whose keys point into the mapping (no copies). The tables are
// merged into thread 0's, the keys sorted bytewise and printed as "word\tcount\n".
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "word_table.h"

namespace {

using mr::bench::CountTable;
using mr::bench::IsLetter;

struct Range {
  const char* begin;
  const char* end;
  const char* safe_end;  // end of the whole mapping
};

struct Mapping {
  const char* data = nullptr;
  size_t size = 0;
};

bool MapFile(const char* path, Mapping* m) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) {
    std::perror(path);
    return false;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    std::perror(path);
    close(fd);
    return false;
  }
  m->size = static_cast<size_t>(st.st_size);
  if (m->size > 0) {
    void* p = mmap(nullptr, m->size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      std::perror(path);
      close(fd);
      return false;
    }
    madvise(p, m->size, MADV_SEQUENTIAL | MADV_WILLNEED);
    m->data = static_cast<const char*>(p);
  }
  close(fd);
  return true;
}

// Cuts [data, data+size) into n ranges, moving each cut forward to a non-letter byte.
std::vector<Range> Cut(const Mapping& m, unsigned n) {
  std::vector<Range> out;
  const char* end = m.data + m.size;
  const char* prev = m.data;
  for (unsigned i = 1; i <= n; ++i) {
    const char* cut = i == n ? end : m.data + m.size / n * i;
    if (cut < prev) cut = prev;
    while (cut < end && IsLetter(*cut)) ++cut;
    out.push_back(Range{prev, cut, end});
    prev = cut;
  }
  return out;
}

int Usage() {
  std::fprintf(stderr, "usage: mr_ref_wordcount [--threads N] [--output FILE] FILE...\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  unsigned threads = 2;
  const char* output = nullptr;
  std::vector<const char*> files;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "--threads" && i + 1 < argc) {
      threads = static_cast<unsigned>(std::atoi(argv[++i]));
      if (threads == 0) return Usage();
    } else if (a == "--output" && i + 1 < argc) {
      output = argv[++i];
    } else if (a.starts_with("--")) {
      return Usage();
    } else {
      files.push_back(argv[i]);
    }
  }
  if (files.empty()) return Usage();

  std::vector<std::vector<Range>> work(threads);
  for (const char* f : files) {
    Mapping m;
    if (!MapFile(f, &m)) return 1;
    if (m.size == 0) continue;
    auto ranges = Cut(m, threads);
    for (unsigned t = 0; t < threads; ++t) work[t].push_back(ranges[t]);
  }

  std::vector<CountTable> tables(threads, CountTable(1 << 20));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (const Range& r : work[t]) mr::bench::CountWords(r.begin, r.end, r.safe_end, tables[t]);
    });
  }
  for (auto& th : pool) th.join();

  CountTable& all = tables[0];
  for (unsigned t = 1; t < threads; ++t) {
    for (const auto& s : tables[t].slots()) {
      if (s.key != nullptr) all.Add(s);
    }
  }
  std::vector<const CountTable::Slot*> sorted;
  sorted.reserve(all.size());
  for (const auto& s : all.slots()) {
    if (s.key != nullptr) sorted.push_back(&s);
  }
  std::sort(sorted.begin(), sorted.end(),
            [](const CountTable::Slot* a, const CountTable::Slot* b) { return CountTable::Less(*a, *b); });

  FILE* out = output != nullptr ? std::fopen(output, "wb") : stdout;
  if (out == nullptr) {
    std::perror(output);
    return 1;
  }
  std::string buf;
  buf.reserve(1 << 20);
  for (const auto* s : sorted) {
    buf.append(s->key, s->len);
    buf += '\t';
    char num[24];
    auto r = std::to_chars(num, num + sizeof num, s->count);
    buf.append(num, r.ptr);
    buf += '\n';
    if (buf.size() >= (1 << 20)) {
      std::fwrite(buf.data(), 1, buf.size(), out);
      buf.clear();
    }
  }
  std::fwrite(buf.data(), 1, buf.size(), out);
  if (std::ferror(out) || (out != stdout && std::fclose(out) != 0)) {
    std::perror("mr_ref_wordcount: write");
    return 1;
  }
  return 0;
}

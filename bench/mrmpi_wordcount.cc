// mr_mrmpi_wordcount: the same word count on MapReduce-MPI (Sandia's MR-MPI library), the
// MPI-based MapReduce peer in the throughput benchmark.
//
//   mpirun -np 2 mr_mrmpi_wordcount [--chunk BYTES] [--output FILE] FILE...
//
// Pipeline: map() over newline-aligned chunks of the files (each chunk is tokenised into
// [A-Za-z]+ words and counted in a local hash table, so a map task emits one (word, count)
// pair per distinct word, as mr's mapper does), compress() (per-process combine), collate()
// (all-to-all shuffle + group), reduce() (sum), gather() to rank 0, sort_keys() bytewise,
// and rank 0 writes "word\tcount\n". Keys carry no NUL; values are uint64_t.
// The C API is enough; skip the deprecated MPI C++ bindings and their warnings.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <sys/stat.h>

#include <mrmpi/keyvalue.h>
#include <mrmpi/mapreduce.h>

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "word_table.h"

using MAPREDUCE_NS::KeyValue;
using MAPREDUCE_NS::MapReduce;

namespace {

void MapChunk(int /*itask*/, char* str, int size, KeyValue* kv, void* /*ptr*/) {
  // str[size - 1] is the NUL MR-MPI appends, so reading up to str + size is safe.
  const char* end = str + (size > 0 ? size - 1 : 0);
  mr::bench::CountTable table(1 << 16);
  mr::bench::CountWords(str, end, str + size, table);
  for (const auto& s : table.slots()) {
    if (s.key == nullptr) continue;
    uint64_t count = s.count;
    kv->add(const_cast<char*>(s.key), static_cast<int>(s.len), reinterpret_cast<char*>(&count), sizeof count);
  }
}

void Sum(char* key, int keybytes, char* multivalue, int nvalues, int* valuebytes, KeyValue* kv, void* /*ptr*/) {
  uint64_t total = 0;
  if (multivalue != nullptr) {
    for (int i = 0; i < nvalues; ++i) {
      uint64_t v;
      std::memcpy(&v, multivalue + static_cast<size_t>(i) * sizeof v, sizeof v);
      total += v;
    }
  } else {  // a key whose values span several pages
    MapReduce* mr = reinterpret_cast<MapReduce*>(valuebytes);
    int nblocks = 0;
    mr->multivalue_blocks(nblocks);
    for (int b = 0; b < nblocks; ++b) {
      char* mv = nullptr;
      int* sizes = nullptr;
      int n = mr->multivalue_block(b, &mv, &sizes);
      for (int i = 0; i < n; ++i) {
        uint64_t v;
        std::memcpy(&v, mv + static_cast<size_t>(i) * sizeof v, sizeof v);
        total += v;
      }
    }
  }
  kv->add(key, keybytes, reinterpret_cast<char*>(&total), sizeof total);
}

int Bytewise(char* a, int alen, char* b, int blen) {
  int c = std::memcmp(a, b, static_cast<size_t>(alen < blen ? alen : blen));
  if (c != 0) return c;
  return alen < blen ? -1 : (alen > blen ? 1 : 0);
}

struct Writer {
  FILE* out;
  std::string buf;
};

void Print(char* key, int keybytes, char* value, int /*valuebytes*/, void* ptr) {
  auto* w = static_cast<Writer*>(ptr);
  uint64_t v;
  std::memcpy(&v, value, sizeof v);
  w->buf.append(key, static_cast<size_t>(keybytes));
  w->buf += '\t';
  char num[24];
  auto r = std::to_chars(num, num + sizeof num, v);
  w->buf.append(num, r.ptr);
  w->buf += '\n';
  if (w->buf.size() >= (1 << 20)) {
    std::fwrite(w->buf.data(), 1, w->buf.size(), w->out);
    w->buf.clear();
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me = 0, nprocs = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

  uint64_t chunk = 32ULL << 20;
  const char* output = nullptr;
  std::vector<char*> files;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "--chunk" && i + 1 < argc) {
      chunk = std::strtoull(argv[++i], nullptr, 10);
    } else if (a == "--output" && i + 1 < argc) {
      output = argv[++i];
    } else {
      files.push_back(argv[i]);
    }
  }
  if (files.empty() || chunk == 0) {
    if (me == 0) std::fprintf(stderr, "usage: mpirun -np P mr_mrmpi_wordcount [--chunk BYTES] [--output FILE] FILE...\n");
    MPI_Finalize();
    return 2;
  }
  uint64_t total_bytes = 0;
  for (char* f : files) {
    struct stat st;
    if (stat(f, &st) != 0) {
      if (me == 0) std::perror(f);
      MPI_Finalize();
      return 1;
    }
    total_bytes += static_cast<uint64_t>(st.st_size);
  }
  // At least one chunk per process; MR-MPI splits each file into nmap/nfiles pieces.
  int nmap = static_cast<int>((total_bytes + chunk - 1) / chunk);
  if (nmap < nprocs) nmap = nprocs;
  if (nmap < static_cast<int>(files.size())) nmap = static_cast<int>(files.size());

  auto* mr = new MapReduce(MPI_COMM_WORLD);
  mr->verbosity = 0;
  mr->timer = 0;
  mr->memsize = 256;  // MiB per page: keeps everything in core for these sizes

  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  mr->map(nmap, static_cast<int>(files.size()), files.data(), 0, 0, '\n', 1024, MapChunk, nullptr);
  mr->compress(Sum, nullptr);
  mr->collate(nullptr);
  uint64_t distinct = mr->reduce(Sum, nullptr);
  mr->gather(1);
  mr->sort_keys(Bytewise);

  int rc = 0;
  if (me == 0) {
    Writer w{output != nullptr ? std::fopen(output, "wb") : stdout, {}};
    if (w.out == nullptr) {
      std::perror(output);
      rc = 1;
    } else {
      mr->scan(Print, &w);
      std::fwrite(w.buf.data(), 1, w.buf.size(), w.out);
      if (std::ferror(w.out) || (w.out != stdout && std::fclose(w.out) != 0)) rc = 1;
    }
    std::fprintf(stderr, "mr_mrmpi_wordcount: %d procs, %d map tasks, %llu distinct words, %.3f s\n", nprocs, nmap,
                 static_cast<unsigned long long>(distinct), MPI_Wtime() - t0);
  } else {
    mr->scan(Print, nullptr);  // scan is collective-free, but rank>0 holds no pairs after gather
  }
  delete mr;
  MPI_Finalize();
  return rc;
}

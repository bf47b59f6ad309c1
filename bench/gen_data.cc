// mr_gen_data: deterministic benchmark inputs.
//
//   mr_gen_data words BYTES OUT    a word corpus of exactly BYTES bytes: ~80-char lines of
//                                  words drawn from a Zipf(1.0) vocabulary of 300k words,
//                                  mixed case, punctuation and digit tokens
//   mr_gen_data records N OUT      N lines of 99 random printable ASCII bytes + '\n'
//                                  (100-byte sort records)
//
// Same arguments give the same bytes on every machine (fixed-seed xoshiro256**, no libc
// RNG, no floating point in the per-byte path). BYTES accepts K/M/G/KiB/MiB/GiB suffixes.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

class Rng {  // xoshiro256**, seeded through splitmix64
 public:
  explicit Rng(uint64_t seed) {
    for (auto& w : s_) {
      seed += 0x9e3779b97f4a7c15ULL;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      w = z ^ (z >> 31);
    }
  }
  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, n) by multiply-shift (bias < n / 2^32, irrelevant here).
  uint32_t Below(uint32_t n) { return static_cast<uint32_t>(((Next() >> 32) * n) >> 32); }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

// Buffered writer that stops exactly at a byte limit.
class Out {
 public:
  explicit Out(FILE* f) : f_(f) { buf_.reserve(kCap + 256); }
  ~Out() { Flush(); }
  void Put(std::string_view s) {
    buf_.append(s);
    if (buf_.size() >= kCap) Flush();
  }
  void Flush() {
    if (!buf_.empty() && std::fwrite(buf_.data(), 1, buf_.size(), f_) != buf_.size()) {
      std::perror("mr_gen_data: write");
      std::exit(1);
    }
    buf_.clear();
  }
  std::string& buf() { return buf_; }

 private:
  static constexpr size_t kCap = 1 << 20;
  FILE* f_;
  std::string buf_;
};

// Walker's alias method: O(1) sampling from a fixed discrete distribution.
class AliasTable {
 public:
  explicit AliasTable(const std::vector<double>& weights) {
    const size_t n = weights.size();
    double total = 0;
    for (double w : weights) total += w;
    table_.resize(n);
    std::vector<double> scaled(n);
    std::vector<uint32_t> small, large;
    for (size_t i = 0; i < n; ++i) {
      scaled[i] = weights[i] * static_cast<double>(n) / total;
      (scaled[i] < 1.0 ? small : large).push_back(static_cast<uint32_t>(i));
    }
    while (!small.empty() && !large.empty()) {
      uint32_t s = small.back(), l = large.back();
      small.pop_back();
      table_[s] = {ToFixed(scaled[s]), l};
      scaled[l] -= 1.0 - scaled[s];
      if (scaled[l] < 1.0) {
        large.pop_back();
        small.push_back(l);
      }
    }
    for (uint32_t i : large) table_[i] = {UINT32_MAX, i};
    for (uint32_t i : small) table_[i] = {UINT32_MAX, i};
  }
  uint32_t Sample(Rng& rng) const {
    uint64_t r = rng.Next();
    uint32_t i = static_cast<uint32_t>(((r >> 32) * table_.size()) >> 32);
    return static_cast<uint32_t>(r) < table_[i].prob ? i : table_[i].alias;
  }

 private:
  static uint32_t ToFixed(double p) { return static_cast<uint32_t>(std::min(p, 1.0) * 4294967295.0); }
  struct Entry {
    uint32_t prob;   // P(keep i) in 2^-32 units
    uint32_t alias;  // taken otherwise
  };
  std::vector<Entry> table_;  // one cache line serves both fields
};

// Zipf sampler split in a head (the kHead most frequent words, ~2/3 of all draws, whose
// tables stay in L1/L2) and a tail, so most draws touch no cold memory.
class ZipfSampler {
 public:
  static constexpr size_t kHead = 4096;
  explicit ZipfSampler(const std::vector<double>& weights)
      : head_(std::vector<double>(weights.begin(), weights.begin() + kHead)),
        tail_(std::vector<double>(weights.begin() + kHead, weights.end())) {
    double head = 0, all = 0;
    for (size_t i = 0; i < weights.size(); ++i) (i < kHead ? head : all) += weights[i];
    all += head;
    head_threshold_ = static_cast<uint32_t>(head / all * 4294967295.0);
  }
  uint32_t Sample(Rng& rng) const {
    if (static_cast<uint32_t>(rng.Next()) < head_threshold_) return head_.Sample(rng);
    return static_cast<uint32_t>(kHead) + tail_.Sample(rng);
  }

 private:
  AliasTable head_;
  AliasTable tail_;
  uint32_t head_threshold_;
};

constexpr size_t kVocabulary = 300000;

// Words in fixed 16-byte slots (length byte + up to 15 letters): one cache line per draw.
class Vocabulary {
 public:
  explicit Vocabulary(Rng& rng) : slots_(kVocabulary * 16) {
    // Frequent words are short, as in natural text: length grows slowly with rank (2..15).
    for (size_t rank = 0; rank < kVocabulary; ++rank) {
      size_t base = 2 + static_cast<size_t>(std::log2(static_cast<double>(rank + 2)) / 2);
      size_t len = std::min<size_t>(base + rng.Below(5), 15);
      char* slot = &slots_[rank * 16];
      slot[0] = static_cast<char>(len);
      for (size_t i = 1; i <= len; ++i) slot[i] = static_cast<char>('a' + rng.Below(26));
    }
  }
  std::string_view operator[](size_t rank) const {
    const char* slot = &slots_[rank * 16];
    return {slot + 1, static_cast<size_t>(slot[0])};
  }

 private:
  std::vector<char> slots_;
};

void AppendNumber(std::string& s, uint64_t v) {
  char tmp[24];
  int n = std::snprintf(tmp, sizeof tmp, "%llu", static_cast<unsigned long long>(v));
  s.append(tmp, static_cast<size_t>(n));
}

// Appends one token (a decorated word or a digit run) to `line`.
void AppendToken(std::string& line, Rng& rng, const ZipfSampler& zipf, const Vocabulary& vocab) {
  uint32_t roll = rng.Below(1000);
  if (roll < 15) {  // 1.5%: a number, sometimes glued to letters ("x86", "3rd")
    if (roll < 4) line += static_cast<char>('a' + rng.Below(26));
    AppendNumber(line, rng.Below(roll < 10 ? 100 : 100000));
    if (roll >= 12) line.append("th");
    return;
  }
  std::string_view w = vocab[zipf.Sample(rng)];
  if (roll < 40) line += roll < 28 ? '"' : '(';
  size_t word_at = line.size();
  line += w;
  if (roll >= 40 && roll < 140) line[word_at] = static_cast<char>(line[word_at] - 32);  // Capitalised
  if (roll >= 140 && roll < 148) {                                                         // UPPER
    for (size_t i = word_at; i < line.size(); ++i) line[i] = static_cast<char>(line[i] - 32);
  }
  if (roll >= 148 && roll < 156) {  // hyphenated / apostrophe compounds
    line += roll < 152 ? '-' : '\'';
    line += vocab[zipf.Sample(rng)];
  }
  if (roll < 40) line += roll < 28 ? '"' : ')';
  uint32_t p = rng.Below(100);
  if (p < 6) line += ',';
  else if (p < 10) line += '.';
  else if (p < 11) line += ';';
  else if (p < 12) line += roll & 1 ? '!' : '?';
}

// One block of whole lines, at least kBlock bytes; depends only on the block index, so
// blocks can be made in parallel and the corpus does not depend on the thread count.
constexpr size_t kBlock = 4 << 20;

void GenBlock(uint64_t index, const ZipfSampler& zipf, const Vocabulary& vocab, std::string& out) {
  Rng rng(0x5eed0000ULL + index * 0x9e3779b97f4a7c15ULL);
  out.clear();
  while (out.size() < kBlock) {
    size_t line_start = out.size();
    size_t target = 64 + rng.Below(33);  // 64..96 chars, mean 80
    while (out.size() - line_start < target) {
      if (out.size() > line_start) out += ' ';
      AppendToken(out, rng, zipf, vocab);
    }
    out += '\n';
  }
}

int GenWords(uint64_t bytes, FILE* f) {
  Rng rng(20240601);  // changing a seed or the draws changes every cached corpus
  Vocabulary vocab(rng);
  std::vector<double> weights(kVocabulary);
  for (size_t k = 0; k < kVocabulary; ++k) weights[k] = 1.0 / static_cast<double>(k + 1);
  ZipfSampler zipf(weights);
  unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  std::vector<std::string> blocks(threads);
  for (auto& b : blocks) b.reserve(kBlock + 256);
  uint64_t written = 0, next_block = 0;
  while (written < bytes) {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
      pool.emplace_back([&, t, index = next_block + t] { GenBlock(index, zipf, vocab, blocks[t]); });
    }
    for (auto& th : pool) th.join();
    next_block += threads;
    for (auto& b : blocks) {
      uint64_t left = bytes - written;
      if (left == 0) break;
      if (b.size() > left) {  // the corpus ends inside this block: cut, end on a newline
        b.resize(static_cast<size_t>(left));
        b.back() = '\n';
      }
      if (std::fwrite(b.data(), 1, b.size(), f) != b.size()) {
        std::perror("mr_gen_data: write");
        return 1;
      }
      written += b.size();
    }
  }
  return 0;
}

int GenRecords(uint64_t n, FILE* f) {
  Rng rng(19700101);
  Out out(f);
  char rec[100];
  rec[99] = '\n';
  for (uint64_t i = 0; i < n; ++i) {
    for (int j = 0; j < 99; j += 2) {
      uint64_t r = rng.Next();
      rec[j] = static_cast<char>(' ' + (((r & 0xffffffffULL) * 95) >> 32));
      if (j + 1 < 99) rec[j + 1] = static_cast<char>(' ' + (((r >> 32) * 95) >> 32));
    }
    out.Put(std::string_view(rec, sizeof rec));
  }
  return 0;
}

bool ParseSize(const char* s, uint64_t* out) {
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(s, &end, 10);
  if (errno != 0 || end == s) return false;
  std::string unit(end);
  uint64_t mult = 1;
  if (unit.empty() || unit == "B") mult = 1;
  else if (unit == "K" || unit == "KiB") mult = 1ULL << 10;
  else if (unit == "M" || unit == "MiB") mult = 1ULL << 20;
  else if (unit == "G" || unit == "GiB") mult = 1ULL << 30;
  else return false;
  *out = v * mult;
  return true;
}

int Usage() {
  std::fprintf(stderr, "usage: mr_gen_data words BYTES OUT | mr_gen_data records N OUT\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) return Usage();
  std::string_view kind = argv[1];
  uint64_t size = 0;
  if (!ParseSize(argv[2], &size)) return Usage();
  FILE* f = std::strcmp(argv[3], "-") == 0 ? stdout : std::fopen(argv[3], "wb");
  if (f == nullptr) {
    std::perror(argv[3]);
    return 1;
  }
  int rc;
  if (kind == "words") rc = GenWords(size, f);
  else if (kind == "records") rc = GenRecords(size, f);
  else rc = Usage();
  if (f != stdout && std::fclose(f) != 0) {
    std::perror("mr_gen_data: close");
    return 1;
  }
  return rc;
}

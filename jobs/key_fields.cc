#include "jobs/key_fields.h"

#include <charconv>
#include <optional>

namespace mr::jobs {
namespace {

Status BadKey(std::string_view arg) {
  return Status::InvalidArgument("invalid -k argument '" + std::string(arg) +
                                 "': must be of the form -k pos1[,pos2], where pos is of the form f[.c][nr]");
}

// Words separated by whitespace, as java.util.StringTokenizer cuts them by default.
std::vector<std::string_view> Words(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; };
  while (i < s.size()) {
    while (i < s.size() && blank(s[i])) ++i;
    size_t j = i;
    while (j < s.size() && !blank(s[j])) ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

// The tokens of a key position: each of "nr.," alone, other runs whole (a StringTokenizer
// over "nr.," that returns its delimiters).
std::vector<std::string_view> PositionTokens(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  auto delim = [](char c) { return c == 'n' || c == 'r' || c == '.' || c == ','; };
  while (i < s.size()) {
    if (delim(s[i])) {
      out.push_back(s.substr(i, 1));
      ++i;
      continue;
    }
    size_t j = i;
    while (j < s.size() && !delim(s[j])) ++j;
    out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

std::optional<int> ParseNumber(std::string_view t) {
  int v = 0;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || p != t.data() + t.size() || v < 0) return std::nullopt;
  return v;
}

// One -k position list, "F[.C][nr][,F[.C][nr]]", read token by token as Hadoop reads it.
Result<KeyFieldSpec> ParseKey(std::string_view arg) {
  const std::vector<std::string_view> tok = PositionTokens(arg);
  size_t i = 0;
  auto more = [&] { return i < tok.size(); };
  auto number = [&](int* out) -> bool {
    if (!more()) return false;
    auto v = ParseNumber(tok[i++]);
    if (!v) return false;
    *out = *v;
    return true;
  };
  KeyFieldSpec k;
  if (!number(&k.begin_field)) return BadKey(arg);
  if (!more()) return k;
  std::string_view t = tok[i++];
  if (t == ".") {
    if (!number(&k.begin_char)) return BadKey(arg);
    if (!more()) return k;
    t = tok[i++];
  }
  for (;;) {
    if (t == "n") {
      k.numeric = true;
    } else if (t == "r") {
      k.reverse = true;
    } else {
      break;
    }
    if (!more()) return k;
    t = tok[i++];
  }
  if (t != ",") return BadKey(arg);
  if (!number(&k.end_field)) return BadKey(arg);
  if (!more()) return k;
  t = tok[i++];
  if (t == ".") {
    if (!number(&k.end_char)) return BadKey(arg);
    if (!more()) return k;
    t = tok[i++];
  }
  for (;;) {
    if (t == "n") {
      k.numeric = true;
    } else if (t == "r") {
      k.reverse = true;
    } else {
      return BadKey(arg);
    }
    if (!more()) return k;
    t = tok[i++];
  }
}

// Lengths of the key's fields as Hadoop's getWordLengths counts them: [0] is the number of
// fields; a search resumes one byte after each separator found.
std::vector<size_t> WordLengths(std::string_view key, const std::string& sep, bool spec_seen) {
  if (!spec_seen) return {1};
  std::vector<size_t> len(2, 0);
  size_t words = 1, start = 0;
  while (!sep.empty()) {
    size_t pos = key.find(sep, start);
    if (pos == std::string_view::npos) break;
    ++words;
    if (len.size() <= words) len.resize(words + 1, 0);
    len[words - 1] = pos - start;
    start = pos + 1;
  }
  if (len.size() <= words) len.resize(words + 1, 0);
  if (start < key.size()) len[words] = key.size() - start;
  len[0] = words;
  return len;
}

void AppendText(std::string_view bytes, std::string* out) {
  for (char c : bytes) {
    out->push_back(c);
    if (c == '\0') out->push_back('\xff');
  }
  out->append("\0\x01", 2);
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The number at the start of `s` ('-'? digits ('.' digits)?; nothing numeric reads as 0),
// encoded so that bytewise order is numeric order: 0x01 negative, 0x02 zero, 0x03
// positive; then the magnitude (digit count of the integer part as 4 bytes, its digits
// without leading zeros, the fraction's without trailing zeros, 0x00), complemented when
// negative.
void AppendNumber(std::string_view s, std::string* out) {
  size_t i = 0;
  const bool negative = !s.empty() && s[0] == '-';
  if (negative) ++i;
  size_t int_begin = i;
  while (i < s.size() && IsDigit(s[i])) ++i;
  std::string_view integer = s.substr(int_begin, i - int_begin);
  std::string_view fraction;
  if (i < s.size() && s[i] == '.') {
    size_t f = ++i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    fraction = s.substr(f, i - f);
  }
  while (!integer.empty() && integer.front() == '0') integer.remove_prefix(1);
  while (!fraction.empty() && fraction.back() == '0') fraction.remove_suffix(1);
  if (integer.empty() && fraction.empty()) {
    out->push_back('\x02');
    return;
  }
  std::string mag;
  const uint32_t n = static_cast<uint32_t>(integer.size());
  for (int shift = 24; shift >= 0; shift -= 8) mag.push_back(static_cast<char>((n >> shift) & 0xff));
  mag.append(integer);
  mag.append(fraction);
  mag.push_back('\0');
  if (negative) {
    for (char& c : mag) c = static_cast<char>(~static_cast<unsigned char>(c));
  }
  out->push_back(negative ? '\x01' : '\x03');
  out->append(mag);
}

uint32_t Bucket(int32_t hash, uint32_t n) {
  return static_cast<uint32_t>(static_cast<uint32_t>(hash) & 0x7fffffffu) % n;
}

}  // namespace

Result<KeyFieldOptions> KeyFieldOptions::Parse(std::string_view options, std::string separator) {
  KeyFieldOptions o;
  o.separator_ = std::move(separator);
  KeyFieldSpec global;
  const std::vector<std::string_view> words = Words(options);
  for (size_t w = 0; w < words.size(); ++w) {
    std::string_view arg = words[w];
    if (arg == "-n") global.numeric = true;
    if (arg == "-r") global.reverse = true;
    if (arg == "-nr") global.numeric = global.reverse = true;
    if (arg.substr(0, 2) != "-k") continue;
    std::string_view pos = arg.substr(2);
    if (pos.empty()) {
      if (w + 1 >= words.size()) continue;  // a bare -k at the end: Hadoop drops it
      pos = words[++w];
    }
    MR_ASSIGN_OR_RETURN(KeyFieldSpec k, ParseKey(pos));
    o.specs_.push_back(k);
    o.key_spec_seen_ = true;
  }
  for (KeyFieldSpec& k : o.specs_) {
    if (!k.reverse && !k.numeric) {
      k.reverse = global.reverse;
      k.numeric = global.numeric;
    }
  }
  if (o.specs_.empty() && !options.empty()) o.specs_.push_back(global);
  return o;
}

KeyFieldOptions KeyFieldOptions::FirstFields(int n, std::string separator) {
  KeyFieldOptions o;
  o.separator_ = std::move(separator);
  if (n >= 1) {
    KeyFieldSpec k;
    k.end_field = n;
    o.specs_.push_back(k);
    o.key_spec_seen_ = true;
  }
  return o;
}

bool KeyFieldOptions::Slice(std::string_view key, const KeyFieldSpec& k, size_t* begin, size_t* end) const {
  const std::vector<size_t> len = WordLengths(key, separator_, key_spec_seen_);
  const size_t words = len[0];
  auto field_start = [&](int field) {
    size_t pos = 0;
    for (int i = 1; i < field; ++i) pos += len[static_cast<size_t>(i)] + separator_.size();
    return pos;
  };
  if (words < static_cast<size_t>(k.begin_field)) return false;
  const size_t start_pos = field_start(k.begin_field);
  if (start_pos + static_cast<size_t>(k.begin_char) > key.size() || k.begin_char < 1) return false;
  *begin = start_pos + static_cast<size_t>(k.begin_char) - 1;
  // Hadoop's end offset is inclusive; `last` is one past it.
  size_t last = key.size();
  if (k.end_field != 0 && words >= static_cast<size_t>(k.end_field)) {
    size_t pos = field_start(k.end_field);
    if (k.end_char == 0) pos += len[static_cast<size_t>(k.end_field)];
    if (pos + static_cast<size_t>(k.end_char) <= key.size()) {
      // Inclusive end pos + end_char - 1 (the field's last byte when end_char is 0).
      last = pos + static_cast<size_t>(k.end_char);
    }
  }
  *end = last < *begin ? *begin : last;
  return true;
}

int32_t JavaStringHash(std::string_view s) {
  uint32_t h = 0;
  auto unit = [&h](uint32_t u) { h = 31u * h + u; };
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    uint32_t cp = 0xFFFD;
    size_t n = 1;
    if (c < 0x80) {
      cp = c;
    } else {
      size_t need = c >= 0xF0 && c < 0xF5 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
      if (need > 0 && i + need <= s.size()) {
        uint32_t v = c & (need == 2 ? 0x1F : need == 3 ? 0x0F : 0x07);
        bool ok = true;
        for (size_t j = 1; j < need && ok; ++j) {
          const unsigned char d = static_cast<unsigned char>(s[i + j]);
          ok = (d & 0xC0) == 0x80;
          v = (v << 6) | (d & 0x3F);
        }
        const bool overlong = (need == 3 && v < 0x800) || (need == 4 && v < 0x10000);
        if (ok && !overlong && v <= 0x10FFFF && !(v >= 0xD800 && v <= 0xDFFF)) {
          cp = v;
          n = need;
        }
      }
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      unit(0xD800 + (cp >> 10));
      unit(0xDC00 + (cp & 0x3FF));
    } else {
      unit(cp);
    }
    i += n;
  }
  return static_cast<int32_t>(h);
}

uint32_t TextHashPartition(std::string_view key, uint32_t n) {
  uint32_t h = 1;
  for (char c : key) h = 31u * h + static_cast<uint32_t>(static_cast<int32_t>(static_cast<signed char>(c)));
  return Bucket(static_cast<int32_t>(h), n);
}

uint32_t KeyFieldPartition(const KeyFieldOptions* options, std::string_view key, uint32_t n) {
  if (options == nullptr || options->specs().empty()) return Bucket(JavaStringHash(key), n);
  if (key.empty()) return 0;
  uint32_t h = 0;
  for (const KeyFieldSpec& k : options->specs()) {
    size_t b = 0, e = 0;
    if (!options->Slice(key, k, &b, &e)) continue;
    for (size_t i = b; i < e; ++i) {
      h = 31u * h + static_cast<uint32_t>(static_cast<int32_t>(static_cast<signed char>(key[i])));
    }
  }
  return Bucket(static_cast<int32_t>(h), n);
}

std::string SortableKey(const KeyFieldOptions& options, std::string_view key) {
  std::string out;
  out.reserve(2 * key.size() + 16);
  for (const KeyFieldSpec& k : options.specs()) {
    size_t b = 0, e = 0;
    const size_t at = out.size();
    if (!options.Slice(key, k, &b, &e)) {
      out.push_back('\0');
    } else {
      out.push_back('\x01');
      if (k.numeric) {
        AppendNumber(key.substr(b, e - b), &out);
      } else {
        AppendText(key.substr(b, e - b), &out);
      }
    }
    if (k.reverse) {
      for (size_t i = at; i < out.size(); ++i) out[i] = static_cast<char>(~static_cast<unsigned char>(out[i]));
    }
  }
  out.append(key);
  const uint32_t n = static_cast<uint32_t>(key.size());
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((n >> shift) & 0xff));
  return out;
}

std::string_view OriginalKey(std::string_view sortable) {
  if (sortable.size() < 4) return {};
  const auto* p = reinterpret_cast<const unsigned char*>(sortable.data() + sortable.size() - 4);
  const size_t n = (size_t{p[0]} << 24) | (size_t{p[1]} << 16) | (size_t{p[2]} << 8) | size_t{p[3]};
  if (n + 4 > sortable.size()) return {};
  return sortable.substr(sortable.size() - 4 - n, n);
}

}  // namespace mr::jobs

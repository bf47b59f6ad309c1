// Hadoop's key-field specifications (KeyFieldHelper): the `-k pos1[,pos2]` options that
// KeyFieldBasedComparator (mapreduce.partition.keycomparator.options) and
// KeyFieldBasedPartitioner (mapreduce.partition.keypartitioner.options) read, with the
// fields of a key cut at mapreduce.map.output.key.field.separator (a tab by default).
// docs/streaming.md, "Key fields", says what is followed and where mrlab departs.
//
// The comparator is not a comparison function here: the shuffle sorts keys bytewise, so a
// job with a key-field comparator sorts SortableKey(key) instead, a byte string whose
// bytewise order is the comparator's order, ties broken by the key's bytes; OriginalKey()
// gives the key back. The partitioner is HadoopKeyFieldHash(). Pure values; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace mr::jobs {

// One `-k` option: fields and characters count from 1; an end field of 0 is the key's end,
// an end character of 0 the end field's last character.
struct KeyFieldSpec {
  int begin_field = 1;
  int begin_char = 1;
  int end_field = 0;
  int end_char = 0;
  bool numeric = false;
  bool reverse = false;
};

class KeyFieldOptions {
 public:
  // Parses an options string as Hadoop's KeyFieldHelper.parseOption does: whitespace-separated
  // words; "-n", "-r" and "-nr" set the global ordering, which every -k without its own
  // takes; "-kPOS1[,POS2]" or "-k POS1[,POS2]" add a spec (POS = F[.C][n][r]); other words are
  // ignored, as Hadoop ignores them. With no -k the whole key is one spec with the global
  // ordering. InvalidArgument naming the option for a malformed -k (Hadoop fails the task).
  static Result<KeyFieldOptions> Parse(std::string_view options, std::string separator);
  // num.key.fields.for.partition=N (the deprecated partitioner setting): -k1,N.
  static KeyFieldOptions FirstFields(int n, std::string separator);

  const std::vector<KeyFieldSpec>& specs() const { return specs_; }
  // A -k was given (else the key counts as a single field whatever its separators).
  bool key_spec_seen() const { return key_spec_seen_; }
  const std::string& separator() const { return separator_; }

  // The bytes a spec selects in `key` as Hadoop's getStartOffset/getEndOffset find them:
  // false when its start lies beyond the key (the field is missing); else [*begin, *end),
  // possibly empty.
  bool Slice(std::string_view key, const KeyFieldSpec& spec, size_t* begin, size_t* end) const;

 private:
  std::vector<KeyFieldSpec> specs_;
  bool key_spec_seen_ = false;
  std::string separator_ = "\t";
};

// KeyFieldBasedPartitioner's partition of `key` among n (> 0) reducers: the Java 31-hash of
// the selected bytes (signed), spec after spec, masked non-negative, modulo n; an empty key
// goes to 0. Without options (none given), Java's String.hashCode of the key (UTF-16).
uint32_t KeyFieldPartition(const KeyFieldOptions* options, std::string_view key, uint32_t n);

// Hadoop's HashPartitioner on a Text key: WritableComparator.hashBytes (31-hash from 1 over
// signed bytes), masked non-negative, modulo n (> 0).
uint32_t TextHashPartition(std::string_view key, uint32_t n);
// Java's String.hashCode of `utf8` decoded to UTF-16 (malformed bytes read as U+FFFD).
int32_t JavaStringHash(std::string_view utf8);

// The sort key of `key` under the comparator `options` (docs/streaming.md): for each spec an
// order-preserving, prefix-free encoding of its slice (bytes escaped; numbers by sign, digit
// count, digits), complemented when reversed; then the key and its length (4 bytes).
std::string SortableKey(const KeyFieldOptions& options, std::string_view key);
// The key SortableKey() was made from. REQUIRES: `sortable` came from SortableKey.
std::string_view OriginalKey(std::string_view sortable);

}  // namespace mr::jobs

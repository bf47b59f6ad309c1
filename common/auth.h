// Cluster token authentication: the shared secret every master, worker and client of one
// cluster holds (`--token-file`), and the HMAC-SHA256 challenge-response built on it
// (handshake in docs/reliability.md, "Trust and hostile input"). A proof is
// HMAC-SHA256(token, nonce || role || protocol version), so a proof made for one nonce,
// role or version is worthless for another. Thread-compatible; the helpers are thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace mr::auth {

inline constexpr size_t kNonceBytes = 32;
inline constexpr size_t kProofBytes = 32;  // SHA-256 output
inline constexpr size_t kMaxTokenFileBytes = 4096;
// The one line a refused peer sees: it names the problem without revealing anything.
inline constexpr const char* kAuthFailedMessage =
    "authentication failed: wrong or missing cluster token";

// Roles that appear in proofs. Each side proves with its own role, so a proof cannot be
// reflected back to the side that asked for it.
inline constexpr const char* kRoleMaster = "master";
inline constexpr const char* kRoleShuffleServer = "shuffle-server";
inline constexpr const char* kRoleFetcher = "fetcher";

// HMAC-SHA256(key, data): 32 raw bytes (OpenSSL libcrypto).
std::string HmacSha256(std::string_view key, std::string_view data);
// Compares in time independent of where the inputs differ (CRYPTO_memcmp). Different
// lengths compare unequal.
bool ConstantTimeEqual(std::string_view a, std::string_view b);
// n bytes from getrandom(2). Internal error only if the kernel cannot supply them.
Result<std::string> RandomBytes(size_t n);
// A new token file's contents: 32 random bytes as 64 hex digits and a newline (`mr token new`).
Result<std::string> NewTokenText();

// The cluster secret. A default-constructed token is "none": authentication is off.
// Copyable; never logs or prints the secret.
class ClusterToken {
 public:
  ClusterToken() = default;
  // The contents of a token file: leading/trailing whitespace trimmed; InvalidArgument if
  // nothing is left or it is longer than kMaxTokenFileBytes.
  static Result<ClusterToken> FromString(std::string_view contents);
  // Reads a token file. Errors: NotFound (missing), InvalidArgument (not a regular file,
  // empty, larger than 4 KiB), IoError. *warning is set (else cleared) when the file is
  // readable by group or others. An empty path yields the "none" token.
  static Result<ClusterToken> FromFile(const std::string& path, std::string* warning);

  bool enabled() const { return !secret_.empty(); }
  // HMAC-SHA256(token, nonce || role || version as 4 big-endian bytes).
  // REQUIRES: enabled().
  std::string Prove(std::string_view nonce, std::string_view role, uint32_t protocol_version) const;
  // True if proof is Prove(nonce, role, version); false when disabled or nonce is not
  // kNonceBytes long (a peer must not choose a trivial challenge).
  bool Verify(std::string_view nonce, std::string_view role, uint32_t protocol_version,
              std::string_view proof) const;

 private:
  explicit ClusterToken(std::string secret) : secret_(std::move(secret)) {}
  std::string secret_;
};

}  // namespace mr::auth

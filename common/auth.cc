#include "common/auth.h"

#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mr::auth {

namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

// Closes the descriptor on every return path.
struct FdCloser {
  int fd;
  ~FdCloser() {
    if (fd >= 0) ::close(fd);
  }
};

Result<std::string> ReadSmallFile(int fd, const std::string& path, size_t limit) {
  std::string data;
  char buf[1024];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      return Status::IoError("cannot read token file " + path + ": " + std::strerror(errno));
    if (n == 0) return data;
    data.append(buf, static_cast<size_t>(n));
    // The size was checked with fstat; this guards a file that grows while read.
    if (data.size() > limit) {
      return Status::InvalidArgument("token file " + path + " is larger than " +
                                     std::to_string(limit) + " bytes");
    }
  }
}

}  // namespace

std::string HmacSha256(std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  // A NULL key pointer would make OpenSSL reuse a previous key: pass a valid one always.
  static const unsigned char kEmpty = 0;
  const void* k = key.empty() ? static_cast<const void*>(&kEmpty) : key.data();
  unsigned char* r =
      HMAC(EVP_sha256(), k, static_cast<int>(key.size()),
           reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &len);
  if (r == nullptr) return std::string();  // only on allocation failure inside OpenSSL
  return std::string(reinterpret_cast<const char*>(out), len);
}

bool ConstantTimeEqual(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  if (a.empty()) return true;
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

Result<std::string> RandomBytes(size_t n) {
  std::string out(n, '\0');
  size_t got = 0;
  while (got < n) {
    ssize_t r = ::getrandom(out.data() + got, n - got, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return Status::Internal(std::string("getrandom: ") + std::strerror(errno));
    got += static_cast<size_t>(r);
  }
  return out;
}

Result<std::string> NewTokenText() {
  MR_ASSIGN_OR_RETURN(std::string secret, RandomBytes(32));
  static const char kHex[] = "0123456789abcdef";
  std::string text;
  for (unsigned char c : secret) {
    text += kHex[c >> 4];
    text += kHex[c & 15];
  }
  return text + "\n";
}

Result<ClusterToken> ClusterToken::FromString(std::string_view contents) {
  if (contents.size() > kMaxTokenFileBytes) {
    return Status::InvalidArgument("cluster token is longer than " +
                                   std::to_string(kMaxTokenFileBytes) + " bytes");
  }
  while (!contents.empty() && IsSpace(contents.front())) contents.remove_prefix(1);
  while (!contents.empty() && IsSpace(contents.back())) contents.remove_suffix(1);
  if (contents.empty()) return Status::InvalidArgument("cluster token is empty");
  return ClusterToken(std::string(contents));
}

Result<ClusterToken> ClusterToken::FromFile(const std::string& path, std::string* warning) {
  warning->clear();
  if (path.empty()) return ClusterToken();
  FdCloser fd{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY)};
  if (fd.fd < 0) {
    if (errno == ENOENT) return Status::NotFound("token file " + path + " does not exist");
    return Status::IoError("cannot open token file " + path + ": " + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(fd.fd, &st) != 0)
    return Status::IoError("cannot stat token file " + path + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    return Status::InvalidArgument("token file " + path + " is not a regular file");
  if (static_cast<uint64_t>(st.st_size) > kMaxTokenFileBytes) {
    return Status::InvalidArgument("token file " + path + " is larger than " +
                                   std::to_string(kMaxTokenFileBytes) + " bytes");
  }
  MR_ASSIGN_OR_RETURN(std::string data, ReadSmallFile(fd.fd, path, kMaxTokenFileBytes));
  auto token = FromString(data);
  if (!token.ok())
    return Status::InvalidArgument("token file " + path + ": " + token.status().message());
  if ((st.st_mode & (S_IRGRP | S_IROTH)) != 0) {
    *warning = "token file " + path + " is readable by group or others (chmod 600 " + path + ")";
  }
  return token;
}

std::string ClusterToken::Prove(std::string_view nonce, std::string_view role,
                                uint32_t protocol_version) const {
  // nonce and version have fixed widths, so the concatenation is unambiguous.
  std::string msg;
  msg.reserve(nonce.size() + role.size() + 4);
  msg.append(nonce);
  msg.append(role);
  msg.push_back(static_cast<char>(protocol_version >> 24));
  msg.push_back(static_cast<char>(protocol_version >> 16));
  msg.push_back(static_cast<char>(protocol_version >> 8));
  msg.push_back(static_cast<char>(protocol_version));
  return HmacSha256(secret_, msg);
}

bool ClusterToken::Verify(std::string_view nonce, std::string_view role, uint32_t protocol_version,
                          std::string_view proof) const {
  if (!enabled() || nonce.size() != kNonceBytes || proof.size() != kProofBytes) return false;
  return ConstantTimeEqual(Prove(nonce, role, protocol_version), proof);
}

}  // namespace mr::auth

#include "tests/web/http_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>

namespace mr::webtest {

HttpReply ParseReply(const std::string& raw) {
  HttpReply r;
  if (raw.rfind("HTTP/1.1 ", 0) != 0) return r;
  r.status = std::atoi(raw.c_str() + 9);
  size_t end = raw.find("\r\n\r\n");
  r.headers = raw.substr(0, end);
  if (end != std::string::npos) r.body = raw.substr(end + 4);
  return r;
}

HttpReply SendRaw(const HostPort& addr, const std::string& raw, int timeout_ms) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return {};
  timeval tv{timeout_ms / 1000, (timeout_ms % 1000) * 1000};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(addr.port);
  ::inet_pton(AF_INET, addr.host.c_str(), &sa.sin_addr);
  std::string got;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0) {
    // The server may answer (413) and close before all of a large request is sent.
    size_t sent = 0;
    while (sent < raw.size()) {
      ssize_t n = ::send(fd, raw.data() + sent, raw.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) break;
      sent += static_cast<size_t>(n);
    }
    char buf[8192];
    for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) got.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  HttpReply r = ParseReply(got);
  if (r.status == 0) r.body = got;
  return r;
}

HttpReply Get(const HostPort& addr, const std::string& target) {
  return SendRaw(addr, "GET " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
}

}  // namespace mr::webtest

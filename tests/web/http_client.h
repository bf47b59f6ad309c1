// A tiny blocking HTTP/1.1 client over loopback for the status-page tests:
// sends raw bytes and reads the reply until the peer closes (or a timeout).
#pragma once

#include <string>

#include "common/units.h"

namespace mr::webtest {

struct HttpReply {
  int status = 0;  // 0 when no status line came back
  std::string headers;
  std::string body;
};

// Sends `raw` as is; reads until close or `timeout_ms` of silence.
HttpReply SendRaw(const HostPort& addr, const std::string& raw, int timeout_ms = 5000);
// GET `target` with Connection: close.
HttpReply Get(const HostPort& addr, const std::string& target);
// Splits a raw response stream into its status, headers and body (first reply only).
HttpReply ParseReply(const std::string& raw);

}  // namespace mr::webtest

// HttpServer: the status page. Serves `/` (cluster), `/jobs/<id>` (job page
// with its Gantt chart) and `/api/...` (JSON straight from the
// StatusProvider) over HTTP/1.1 with Boost.Beast, on its own io_context and
// thread, separate from the master's standalone-Asio loop. GET only (other
// methods 405); requests over 16 KiB are rejected; idle connections time out.
// Thread-safe: Stop() may be called from any thread; the provider must outlive
// the server and is called on the server's thread.
#pragma once

#include <memory>

#include "common/status.h"
#include "common/units.h"
#include "master/status_provider.h"

namespace mr::master {

class HttpServer {
 public:
  // Binds `addr` (port 0 = any free port) and starts serving. NetworkError when
  // the address cannot be bound.
  static Result<std::unique_ptr<HttpServer>> Start(const HostPort& addr, StatusProvider* provider);

  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;
  ~HttpServer();

  // The bound address (with the real port when 0 was asked for).
  HostPort address() const;
  // Stops accepting, closes connections and joins the thread. Idempotent.
  void Stop();

  class Impl;

 private:
  explicit HttpServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Builds the response to one GET of `target` (path plus optional query); the
// routing of HttpServer, exposed for tests. Sets *status and *content_type.
std::string RouteRequest(StatusProvider& provider, std::string_view target, int* status, std::string* content_type);

}  // namespace mr::master

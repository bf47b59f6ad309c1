// Private to the shuffle server (shuffle_server.cc, shuffle_admission.cc): the state of one
// accepted connection as it moves between the admission thread (waiting for a request
// frame) and a serving thread (answering it). Exactly one thread owns a Connection at a
// time; ownership moves through ShuffleServer's queues under its mutex.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "shuffle/net/net_io.h"
#include "shuffle/net/shuffle_server.h"

namespace mr::shuffle {

using SteadyTime = std::chrono::steady_clock::time_point;

// A partition whose link a connection's last answer granted (FetchRequest.link).
struct GrantedLink {
  uint64_t job = 0;
  uint32_t map = 0, attempt = 0, partition = 0;
  bool operator==(const GrantedLink&) const = default;
};

// Authentication state of one connection (protocol in docs/reliability.md).
struct AuthState {
  bool done = false;   // authenticated, or the server has no token
  std::string nonce;   // our challenge, once the fetcher has sent its own
};

struct ShuffleServer::Connection {
  netio::UniqueFd fd;
  AuthState auth;
  // Has been served a request (so authenticated, with a token). Until then the connection
  // counts against max_pending_connections and must finish by handshake_deadline.
  bool established = false;
  SteadyTime handshake_deadline;
  SteadyTime deadline;     // closed if still waiting for its frame at this time
  SteadyTime last_active;  // the pending connection silent longest is dropped first
  std::string in;          // the request frame being read: header, then payload
  std::string frame;       // a whole request payload, once read
  // Set when the last request served was a link grant: a request for that partition's bytes
  // next is the same fetch falling back (the fetcher could not make the link), not a new one.
  std::optional<GrantedLink> granted_link;
};

}  // namespace mr::shuffle

#include "loadgen/master_probe.h"

#include <unistd.h>

#include <fstream>
#include <sstream>

#include <asio/connect.hpp>
#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/read.hpp>
#include <asio/write.hpp>
#include <nlohmann/json.hpp>

#include "common/file_util.h"

namespace mr::loadgen {

namespace {

using nlohmann::json;

void ReadHistogram(const json& pairs, LogHistogram* h) {
  if (!pairs.is_array()) return;
  for (const json& p : pairs) {
    if (p.is_array() && p.size() == 2) h->SetBucket(p[0].get<int>(), p[1].get<uint64_t>());
  }
}

void ReadApi(const HostPort& http, MasterReading* m) {
  Result<std::string> body = HttpGet(http, "/api/cluster");
  if (!body.ok()) return;
  json c = json::parse(*body, nullptr, /*allow_exceptions=*/false);
  if (!c.is_object()) return;
  m->has_api = true;
  m->heartbeats = c.value("heartbeats", uint64_t{0});
  m->workers = c.value("workers", uint64_t{0});
  if (c.contains("timings")) {
    const json& t = c["timings"];
    if (t.contains("heartbeat_us")) ReadHistogram(t["heartbeat_us"], &m->heartbeat_us);
    if (t.contains("round_us")) ReadHistogram(t["round_us"], &m->round_us);
    if (t.contains("round_per_free_slot_us")) ReadHistogram(t["round_per_free_slot_us"], &m->round_per_free_slot_us);
  }
}

void ReadProc(int pid, MasterReading* m) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const size_t paren = text.rfind(')');
  if (paren == std::string::npos) return;
  std::istringstream fields(text.substr(paren + 2));
  std::string f;
  double utime = 0, stime = 0;
  for (int i = 3; fields >> f; ++i) {  // field 3 is the state
    if (i == 14) utime = std::stod(f);
    if (i == 15) {
      stime = std::stod(f);
      break;
    }
  }
  const double hz = static_cast<double>(sysconf(_SC_CLK_TCK));
  m->cpu_seconds = (utime + stime) / hz;
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    std::istringstream in(line);
    std::string key;
    double kib = 0;
    in >> key >> kib;
    if (key == "VmRSS:") m->rss_mib = kib / 1024;
    if (key == "VmHWM:") m->hwm_mib = kib / 1024;
  }
  m->pid = pid;
  m->has_proc = true;
}

}  // namespace

Result<std::string> HttpGet(const HostPort& where, const std::string& path, double timeout_seconds) {
  asio::io_context io;
  asio::ip::tcp::socket socket(io);
  asio::error_code ec;
  asio::ip::tcp::resolver resolver(io);
  auto endpoints = resolver.resolve(where.host, std::to_string(where.port), ec);
  if (!ec) asio::connect(socket, endpoints, ec);
  if (ec) return Status::NetworkError("status page " + where.ToString() + ": " + ec.message());
  struct timeval tv{static_cast<time_t>(timeout_seconds), 0};
  setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  const std::string request = "GET " + path + " HTTP/1.0\r\nHost: " + where.ToString() + "\r\n\r\n";
  asio::write(socket, asio::buffer(request), ec);
  if (ec) return Status::NetworkError("status page " + where.ToString() + ": " + ec.message());
  std::string response;
  char buf[65536];
  for (;;) {
    const size_t n = socket.read_some(asio::buffer(buf), ec);
    response.append(buf, n);
    if (ec) break;
  }
  if (ec != asio::error::eof) return Status::NetworkError("status page " + where.ToString() + ": " + ec.message());
  const size_t head_end = response.find("\r\n\r\n");
  if (head_end == std::string::npos || response.compare(0, 12, "HTTP/1.1 200") != 0) {
    if (head_end == std::string::npos || response.compare(0, 12, "HTTP/1.0 200") != 0) {
      return Status::NetworkError("status page " + where.ToString() + path + ": " + response.substr(0, 40));
    }
  }
  return response.substr(head_end + 4);
}

MasterReading ProbeMaster(const ProbeTarget& target) {
  MasterReading m;
  if (target.http) ReadApi(*target.http, &m);
  int pid = target.pid;
  if (!target.pid_file.empty()) {
    Result<std::string> text = ReadFileToString(target.pid_file);
    pid = text.ok() ? std::atoi(text->c_str()) : 0;
  }
  if (pid > 0) ReadProc(pid, &m);
  return m;
}

}  // namespace mr::loadgen

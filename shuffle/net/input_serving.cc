// The data server's half of the shuffle server: job inputs handed out over the same
// connections, authentication and framing as map output (docs/multi-host.md). Every answer
// is the local source's (jobs::LocalInputs()) for paths under an exported root; a READ's
// bytes carry their CRC32C, which the reader checks as a fetcher checks a partition's.
#include <sys/socket.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "common/crc32c.h"
#include "jobs/input_source.h"
#include "mr.pb.h"
#include "shuffle/net/input_client.h"
#include "shuffle/net/shuffle_server.h"

namespace mr::shuffle {

namespace {

bool Under(const std::string& path, const std::vector<std::string>& roots) {
  for (const std::string& root : roots) {
    if (path == root || (path.size() > root.size() && path.compare(0, root.size(), root) == 0 &&
                         (root.back() == '/' || path[root.size()] == '/'))) {
      return true;
    }
  }
  return false;
}

// A name the peer sent, before the file system is asked anything: absolute, no "..", and
// lexically under a root (a glob's pattern too: it can only match below its fixed prefix).
Status CheckName(const std::string& name, const std::vector<std::string>& roots) {
  const std::filesystem::path p(name);
  bool dotdot = false;
  for (const auto& part : p) dotdot |= part == "..";
  if (name.empty() || name[0] != '/' || dotdot || !Under(p.lexically_normal().string(), roots)) {
    return Status::PermissionDenied("input " + name + " is not under a directory this data server exports");
  }
  return Status::Ok();
}

// An existing file or directory the local source named: its real path (symbolic links
// followed) must be under a root.
Status CheckReal(const std::string& path, const std::vector<std::string>& roots) {
  std::error_code ec;
  const std::filesystem::path real = std::filesystem::canonical(path, ec);
  if (ec) return Status::NotFound("no such input: " + path);
  if (!Under(real.string(), roots)) {
    return Status::PermissionDenied("input " + path + " is not under a directory this data server exports");
  }
  return Status::Ok();
}

Status Check(const std::string& name, const std::vector<std::string>& roots) {
  MR_RETURN_IF_ERROR(CheckName(name, roots));
  return CheckReal(name, roots);
}

}  // namespace

Status ShuffleServer::ServeInput(int fd, const proto::InputRequest& req) {
  const double timeout = options_.io_timeout_seconds;
  const std::vector<std::string>& roots = options_.input_roots;
  const jobs::InputSource& local = jobs::LocalInputs();
  proto::FetchReply reply;
  auto fail = [&](const Status& why) {
    reply.Clear();
    reply.set_ok(false);
    reply.set_error(why.ToString());
    reply.set_error_code(static_cast<int32_t>(why.code()));
    return netio::WriteFrameFd(fd, reply.SerializeAsString(), timeout);
  };
  if (roots.empty()) return fail(Status::PermissionDenied("this server exports no inputs"));
  const std::vector<std::string> paths(req.paths().begin(), req.paths().end());
  switch (req.op()) {
    case proto::InputRequest::RESOLVE: {
      for (const std::string& p : paths) {
        if (Status s = CheckName(p, roots); !s.ok()) return fail(s);
      }
      auto resolved = local.Resolve(paths, req.recursive());
      if (!resolved.ok()) return fail(resolved.status());
      for (const std::string& p : *resolved) {
        if (Status s = CheckReal(p, roots); !s.ok()) return fail(s);
        reply.add_resolved(p);
      }
      break;
    }
    case proto::InputRequest::LIST: {
      for (const std::string& p : paths) {
        if (Status s = Check(p, roots); !s.ok()) return fail(s);
      }
      auto files = local.List(paths);
      if (!files.ok()) return fail(files.status());
      for (const jobs::InputFile& f : *files) {
        if (Status s = CheckReal(f.path, roots); !s.ok()) return fail(s);
        proto::InputFileEntry* e = reply.add_files();
        e->set_path(f.path);
        e->set_size(f.size);
      }
      break;
    }
    case proto::InputRequest::READ: {
      if (paths.size() != 1) return fail(Status::InvalidArgument("READ names one file"));
      if (Status s = Check(paths[0], roots); !s.ok()) return fail(s);
      auto bytes = local.Read(paths[0], req.offset(), std::min<uint64_t>(req.length(), kMaxInputReadBytes));
      if (!bytes.ok()) return fail(bytes.status());
      const std::string_view data = (*bytes)->data();
      reply.set_ok(true);
      reply.set_length(data.size());
      reply.set_crc32c(crc32c::Value(data));
      MR_RETURN_IF_ERROR(
          netio::WriteFrameFd(fd, reply.SerializeAsString(), timeout, data.empty() ? 0 : MSG_MORE));
      MR_RETURN_IF_ERROR(netio::WriteFull(fd, data.data(), data.size(), timeout));
      requests_.fetch_add(1);
      return Status::Ok();
    }
    default:
      return fail(Status::InvalidArgument("unknown input request"));
  }
  reply.set_ok(true);
  requests_.fetch_add(1);
  return netio::WriteFrameFd(fd, reply.SerializeAsString(), timeout);
}

}  // namespace mr::shuffle

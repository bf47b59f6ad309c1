// The data server's output half: jobs' output directories under exported output roots, made,
// written, committed and removed for the master and the tasks of a cluster on other hosts
// (docs/multi-host.md, "Outputs"). A pushed file is written as PATH.partial, range by range,
// each range checked against its CRC32C before it is written; FINISH checks the whole file's
// size and CRC32C, syncs it and renames it to PATH, so a file appears under its name only
// whole. Every path is checked lexically (absolute, no "..", under a root) and, once it
// exists, by its real path (symbolic links followed).
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "common/crc32c.h"
#include "common/file_util.h"
#include "jobs/output_store.h"
#include "mr.pb.h"
#include "shuffle/net/output_client.h"
#include "shuffle/net/shuffle_server.h"

namespace mr::shuffle {

namespace {

namespace fs = std::filesystem;

bool Under(const std::string& path, const std::vector<std::string>& roots, bool strictly) {
  for (const std::string& root : roots) {
    if (!strictly && path == root) return true;
    if (path.size() > root.size() && path.compare(0, root.size(), root) == 0 &&
        (root.back() == '/' || path[root.size()] == '/')) {
      return true;
    }
  }
  return false;
}

Status Refuse(const std::string& path) {
  return Status::PermissionDenied("output " + path + " is not under a directory this data server exports for output");
}

// The name as sent: absolute, no "..", lexically under a root (strictly: not a root itself).
Status CheckName(const std::string& name, const std::vector<std::string>& roots, bool strictly) {
  const fs::path p(name);
  bool dotdot = false;
  for (const auto& part : p) dotdot |= part == "..";
  if (name.empty() || name[0] != '/' || dotdot || !Under(p.lexically_normal().string(), roots, strictly)) {
    return Refuse(name);
  }
  return Status::Ok();
}

// The deepest existing ancestor of `path` (itself included) must really be under a root (or
// be one): a symbolic link out of the exported tree is refused before anything is made.
Status CheckReal(const std::string& path, const std::vector<std::string>& roots) {
  fs::path p = fs::path(path).lexically_normal();
  std::error_code ec;
  while (!fs::exists(fs::symlink_status(p, ec)) && p.has_parent_path() && p != p.parent_path()) p = p.parent_path();
  const fs::path real = fs::canonical(p, ec);
  if (ec || !Under(real.string(), roots, /*strictly=*/false)) return Refuse(path);
  return Status::Ok();
}

Status Check(const std::string& name, const std::vector<std::string>& roots, bool strictly = true) {
  MR_RETURN_IF_ERROR(CheckName(name, roots, strictly));
  return CheckReal(name, roots);
}

Status Errno(const std::string& what, const std::string& path) {
  return Status::IoError(what + " " + path + ": " + std::strerror(errno));
}

// The first range makes the file's directory, its last level only: a task's attempt
// directory under OUTPUT/_temporary, which must not come back once the master has removed
// the job's output (the job ended): then this is NotFound.
Status WriteRange(const std::string& path, uint64_t offset, const std::string& bytes) {
  const std::string partial = path + ".partial";
  const std::string dir = path.substr(0, path.rfind('/'));
  if (offset == 0 && !dir.empty() && ::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    return errno == ENOENT ? Status::NotFound("no directory for " + path) : Errno("cannot create", dir);
  }
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (offset == 0 ? O_TRUNC : 0);
  netio::UniqueFd fd(::open(partial.c_str(), flags, 0644));
  if (!fd.valid()) return errno == ENOENT ? Status::NotFound("no directory for " + path) : Errno("cannot open", partial);
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::pwrite(fd.get(), bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Errno("cannot write", partial);
    done += static_cast<size_t>(n);
  }
  return Status::Ok();
}

Status Finish(const std::string& path, uint64_t size, uint32_t crc) {
  const std::string partial = path + ".partial";
  netio::UniqueFd fd(::open(partial.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) return errno == ENOENT ? Status::NotFound("nothing written to " + path) : Errno("cannot open", partial);
  uint32_t got = 0;
  uint64_t total = 0;
  std::string buf(1u << 20, '\0');
  for (;;) {
    const ssize_t n = ::read(fd.get(), buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Errno("cannot read", partial);
    if (n == 0) break;
    got = crc32c::Extend(got, buf.data(), static_cast<size_t>(n));
    total += static_cast<uint64_t>(n);
  }
  if (total != size || got != crc) {
    (void)::unlink(partial.c_str());
    return Status::DataLoss(path + ": the pushed file is not the one sent (" + std::to_string(total) + " of " +
                            std::to_string(size) + " bytes, or its checksum differs)");
  }
  if (::fsync(fd.get()) != 0) return Errno("cannot sync", partial);
  return RenameFile(partial, path);
}

}  // namespace

Status ShuffleServer::ServeOutput(int fd, const proto::OutputRequest& req) {
  const double timeout = options_.io_timeout_seconds;
  const std::vector<std::string>& roots = options_.output_roots;
  const jobs::OutputStore& local = jobs::LocalOutputs();
  proto::FetchReply reply;
  auto answer = [&](const Status& s) {
    reply.set_ok(s.ok());
    if (!s.ok()) {
      reply.set_error(s.ToString());
      reply.set_error_code(static_cast<int32_t>(s.code()));
    } else {
      requests_.fetch_add(1);
    }
    return netio::WriteFrameFd(fd, reply.SerializeAsString(), timeout);
  };
  std::string bytes;
  if (req.op() == proto::OutputRequest::WRITE) {  // the bytes follow the frame: read them first
    if (req.length() > kMaxOutputWriteBytes) {
      return Status::ProtocolError("output range of " + std::to_string(req.length()) + " bytes is too long");
    }
    bytes.resize(req.length());
    MR_RETURN_IF_ERROR(netio::ReadFull(fd, bytes.data(), bytes.size(), timeout));
  }
  if (roots.empty()) return answer(Status::PermissionDenied("this server exports no output directory"));
  const std::string& path = req.path();
  switch (req.op()) {
    case proto::OutputRequest::STATE: {
      if (Status s = Check(path, roots); !s.ok()) return answer(s);
      auto state = local.State(path);
      if (!state.ok()) return answer(state.status());
      reply.set_output_state(static_cast<uint32_t>(*state));
      return answer(Status::Ok());
    }
    case proto::OutputRequest::MAKE_DIRS:
      if (Status s = Check(path, roots); !s.ok()) return answer(s);
      return answer(local.MakeDirs(path));
    case proto::OutputRequest::RENAME:
      if (Status s = Check(path, roots); !s.ok()) return answer(s);
      if (Status s = Check(req.to(), roots); !s.ok()) return answer(s);
      return answer(local.Rename(path, req.to()));
    case proto::OutputRequest::WRITE: {
      if (Status s = Check(path, roots); !s.ok()) return answer(s);
      if (crc32c::Value(bytes) != req.crc32c()) {
        return answer(Status::DataLoss("output bytes for " + path + " failed their checksum"));
      }
      return answer(WriteRange(path, req.offset(), bytes));
    }
    case proto::OutputRequest::FINISH:
      if (Status s = Check(path, roots); !s.ok()) return answer(s);
      return answer(Finish(path, req.size(), req.crc32c()));
    case proto::OutputRequest::REMOVE_ALL:
      if (Status s = Check(path, roots); !s.ok()) return answer(s);
      return answer(local.RemoveAll(path));
    default:
      return answer(Status::InvalidArgument("unknown output request"));
  }
}

}  // namespace mr::shuffle

#include "hadoop/fs_shell.h"

#include <glob.h>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <functional>
#include <map>

#include "common/file_util.h"
#include "hadoop/hdfs_paths.h"

namespace mr::hadoop {
namespace {

namespace fs = std::filesystem;

constexpr int kUsage = 2;

struct Cmd {
  std::string name;
  std::vector<std::string> flags;  // the flags given, without '-'
  std::vector<std::string> paths;
};

bool Has(const Cmd& c, const char* f) { return std::find(c.flags.begin(), c.flags.end(), f) != c.flags.end(); }

// A Hadoop name and the local paths it stands for (its glob expanded, as Hadoop expands one).
struct Target {
  std::string given;
  std::vector<std::pair<std::string, std::string>> matches;  // (name as shown, local path)
};

// A glob's match as Hadoop shows it, in the given name's scheme: hdfs:///a/* -> hdfs:///a/x.
std::string Shown(const std::string& given, const std::string& match) {
  const size_t scheme = given.find("://");
  if (scheme == std::string::npos) return match;
  const size_t path_start = given.find('/', scheme + 3);
  const std::string head = given.substr(0, path_start == std::string::npos ? given.size() : path_start);
  if (given.substr(0, scheme) == "file") return head + match;
  const std::string root = HdfsRoot();
  return head + (match.substr(0, root.size()) == root ? match.substr(root.size()) : match);
}

Target Resolve(const std::string& given, std::ostream& err, const std::string& cmd, bool* failed) {
  Target t{given, {}};
  auto local = LocalPath(given);
  if (!local.ok()) {
    err << cmd << ": " << local.status().message() << "\n";
    *failed = true;
    return t;
  }
  const std::string path = *local;
  if (path.find_first_of("*?[") == std::string::npos) {
    t.matches.emplace_back(given, path);
    return t;
  }
  glob_t g{};
  if (::glob(path.c_str(), 0, nullptr, &g) == 0) {
    for (size_t i = 0; i < g.gl_pathc; ++i) t.matches.emplace_back(Shown(given, g.gl_pathv[i]), g.gl_pathv[i]);
  }
  ::globfree(&g);
  return t;
}

std::string Perms(const struct stat& st) {
  std::string s = S_ISDIR(st.st_mode) ? "d" : "-";
  const char* rwx = "rwxrwxrwx";
  for (int i = 0; i < 9; ++i) s += (st.st_mode & (0400 >> i)) ? rwx[i] : '-';
  return s;
}

std::string OwnerOf(const struct stat& st) {
  const passwd* pw = ::getpwuid(st.st_uid);
  return pw != nullptr ? pw->pw_name : std::to_string(st.st_uid);
}
std::string GroupOf(const struct stat& st) {
  const group* gr = ::getgrgid(st.st_gid);
  return gr != nullptr ? gr->gr_name : std::to_string(st.st_gid);
}

// One -ls line as HDFS prints it (FsShell's Ls: widths of the longest in the listing; we use
// Hadoop's usual minimums).
void LsLine(const std::string& shown, const struct stat& st, std::ostream& out) {
  char date[32];
  std::tm tm{};
  ::localtime_r(&st.st_mtime, &tm);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M", &tm);
  char line[1024];
  std::snprintf(line, sizeof line, "%s   %s %s %s %10lld %s ", Perms(st).c_str(), S_ISDIR(st.st_mode) ? "-" : "1",
                OwnerOf(st).c_str(), GroupOf(st).c_str(), S_ISDIR(st.st_mode) ? 0LL : static_cast<long long>(st.st_size),
                date);
  out << line << shown << "\n";
}

std::string Child(const std::string& shown, const std::string& name) {
  return shown.back() == '/' ? shown + name : shown + "/" + name;
}

void LsTree(const std::string& shown, const std::string& path, bool recursive, std::ostream& out) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(path)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  for (const std::string& n : names) {
    struct stat st{};
    const std::string p = JoinPath(path, n);
    if (::stat(p.c_str(), &st) != 0) continue;
    LsLine(Child(shown, n), st, out);
    if (recursive && S_ISDIR(st.st_mode)) LsTree(Child(shown, n), p, true, out);
  }
}

uint64_t SizeOf(const std::string& path) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return fs::file_size(path, ec);
  uint64_t total = 0;
  for (const auto& e : fs::recursive_directory_iterator(path, ec)) {
    if (e.is_regular_file(ec)) total += e.file_size(ec);
  }
  return total;
}

std::string Missing(const std::string& cmd, const std::string& given) {
  return cmd + ": `" + given + "': No such file or directory\n";
}

int ForEach(const Cmd& c, std::ostream& err, const std::function<bool(const std::string&, const std::string&)>& fn,
            bool missing_ok = false) {
  bool failed = false;
  for (const std::string& given : c.paths) {
    Target t = Resolve(given, err, c.name, &failed);
    if (t.matches.empty() && !failed) {
      if (!missing_ok) {
        err << Missing(c.name, given);
        failed = true;
      }
      continue;
    }
    for (const auto& [shown, path] : t.matches) {
      std::error_code ec;
      if (!fs::exists(path, ec)) {
        if (!missing_ok) {
          err << Missing(c.name, shown);
          failed = true;
        }
        continue;
      }
      if (!fn(shown, path)) failed = true;
    }
  }
  return failed ? 1 : 0;
}

int Ls(const Cmd& c, std::ostream& out, std::ostream& err) {
  return ForEach(c, err, [&](const std::string& shown, const std::string& path) {
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) return false;
    if (!S_ISDIR(st.st_mode)) {
      LsLine(shown, st, out);
      return true;
    }
    if (!Has(c, "R")) {
      size_t n = 0;
      for (auto it = fs::directory_iterator(path); it != fs::directory_iterator(); ++it) ++n;
      out << "Found " << n << " items\n";
    }
    LsTree(shown, path, Has(c, "R"), out);
    return true;
  });
}

int Mkdir(const Cmd& c, std::ostream& err) {
  int rc = 0;
  for (const std::string& given : c.paths) {
    auto local = LocalPath(given);
    if (!local.ok()) {
      err << "mkdir: " << local.status().message() << "\n";
      rc = 1;
      continue;
    }
    std::error_code ec;
    if (fs::exists(*local, ec)) {
      if (!Has(c, "p")) {
        err << "mkdir: `" << given << "': File exists\n";
        rc = 1;
      }
      continue;
    }
    if (!Has(c, "p") && !fs::exists(fs::path(*local).parent_path(), ec)) {
      err << "mkdir: `" << given << "': No such file or directory\n";
      rc = 1;
      continue;
    }
    if (Status s = MakeDirs(*local); !s.ok()) {
      err << "mkdir: " << s.message() << "\n";
      rc = 1;
    }
  }
  return rc;
}

// -put / -get: the last path is the destination; sources copied into it if it is a directory.
int Copy(const Cmd& c, bool to_cluster, std::ostream& err) {
  if (c.paths.size() < 2) {
    err << c.name << ": needs SRC... DST\n";
    return kUsage;
  }
  auto dst = to_cluster ? LocalPath(c.paths.back()) : Result<std::string>(c.paths.back());
  if (!dst.ok()) {
    err << c.name << ": " << dst.status().message() << "\n";
    return 1;
  }
  int rc = 0;
  for (size_t i = 0; i + 1 < c.paths.size(); ++i) {
    auto src = to_cluster ? Result<std::string>(c.paths[i]) : LocalPath(c.paths[i]);
    std::error_code ec;
    if (!src.ok() || !fs::exists(*src, ec)) {
      err << Missing(c.name, c.paths[i]);
      rc = 1;
      continue;
    }
    fs::path to = *dst;
    if (fs::is_directory(to, ec)) to /= fs::path(*src).filename();
    if (fs::exists(to, ec)) {
      err << c.name << ": `" << c.paths.back() << "': File exists\n";
      rc = 1;
      continue;
    }
    fs::copy(*src, to, fs::copy_options::recursive, ec);
    if (ec) {
      err << c.name << ": " << ec.message() << "\n";
      rc = 1;
    }
  }
  return rc;
}

int Cat(const Cmd& c, std::ostream& out, std::ostream& err) {
  return ForEach(c, err, [&](const std::string& shown, const std::string& path) {
    if (fs::is_directory(path)) {
      err << "cat: `" << shown << "': Is a directory\n";
      return false;
    }
    auto text = ReadFileToString(path);
    if (!text.ok()) return false;
    out << *text;
    return true;
  });
}

int Du(const Cmd& c, std::ostream& out, std::ostream& err) {
  return ForEach(c, err, [&](const std::string& shown, const std::string& path) {
    std::vector<std::pair<std::string, std::string>> items;
    if (fs::is_directory(path) && !Has(c, "s")) {
      std::vector<std::string> names;
      for (const auto& e : fs::directory_iterator(path)) names.push_back(e.path().filename().string());
      std::sort(names.begin(), names.end());
      for (const auto& n : names) items.emplace_back(Child(shown, n), JoinPath(path, n));
    } else {
      items.emplace_back(shown, path);
    }
    for (const auto& [s, p] : items) {
      const uint64_t size = SizeOf(p);
      out << size << "  " << size << "  " << s << "\n";  // size, space with replicas (1), path
    }
    return true;
  });
}

int Rm(const Cmd& c, std::ostream& err) {
  const bool recursive = Has(c, "r") || Has(c, "R") || c.name == "rmr";
  return ForEach(
      c, err,
      [&](const std::string& shown, const std::string& path) {
        if (fs::is_directory(path) && !recursive) {
          err << "rm: `" << shown << "': Is a directory\n";
          return false;
        }
        return RemoveAll(path).ok();
      },
      Has(c, "f"));
}

int Touchz(const Cmd& c, std::ostream& err) {
  int rc = 0;
  for (const std::string& given : c.paths) {
    auto local = LocalPath(given);
    std::error_code ec;
    if (!local.ok() || (fs::exists(*local, ec) && fs::file_size(*local, ec) != 0)) {
      err << "touchz: `" << given << "': Not a zero-length file\n";
      rc = 1;
      continue;
    }
    if (!WriteStringToFile(*local, "").ok()) {
      err << Missing("touchz", given);
      rc = 1;
    }
  }
  return rc;
}

int Test(const Cmd& c) {
  if (c.paths.size() != 1 || c.flags.size() != 1) return kUsage;
  auto local = LocalPath(c.paths[0]);
  if (!local.ok()) return 1;
  std::error_code ec;
  const std::string& f = c.flags[0];
  bool ok = false;
  if (f == "e") ok = fs::exists(*local, ec);
  if (f == "d") ok = fs::is_directory(*local, ec);
  if (f == "f") ok = fs::is_regular_file(*local, ec);
  if (f == "z") ok = fs::is_regular_file(*local, ec) && fs::file_size(*local, ec) == 0;
  return ok ? 0 : 1;
}

// The subcommands and the flags each takes.
const std::map<std::string, std::vector<std::string>>& Known() {
  static const auto* k = new std::map<std::string, std::vector<std::string>>{
      {"ls", {"R"}},       {"lsr", {}},          {"mkdir", {"p"}}, {"put", {"f"}},    {"copyFromLocal", {"f"}},
      {"cat", {}},         {"du", {"s", "h"}},   {"dus", {}},      {"rm", {"r", "R", "f", "skipTrash"}},
      {"rmr", {"skipTrash"}}, {"touchz", {}},     {"get", {}},      {"copyToLocal", {}}, {"test", {"e", "d", "f", "z"}},
  };
  return *k;
}

}  // namespace

int RunFs(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty() || args[0].size() < 2 || args[0][0] != '-') {
    err << "fs: which subcommand? (-ls, -mkdir, -put, -cat, -du, -rm, -touchz, -get; docs/streaming.md)\n";
    return kUsage;
  }
  Cmd c;
  c.name = args[0].substr(1);
  auto known = Known().find(c.name);
  if (known == Known().end()) {
    err << "fs: -" << c.name << " is not supported by mrlab (docs/streaming.md lists what is)\n";
    return kUsage;
  }
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() > 1 && a[0] == '-' && c.paths.empty()) {
      const std::string f = a.substr(1);
      if (std::find(known->second.begin(), known->second.end(), f) == known->second.end()) {
        err << "fs -" << c.name << ": option " << a << " is not supported by mrlab\n";
        return kUsage;
      }
      c.flags.push_back(f);
    } else {
      c.paths.push_back(a);
    }
  }
  if (c.name == "lsr") {
    c.name = "ls";
    c.flags.push_back("R");
  }
  if (c.name == "dus") {
    c.name = "du";
    c.flags.push_back("s");
  }
  if (c.paths.empty() && c.name != "ls") {
    err << c.name << ": needs a path\n";
    return kUsage;
  }
  if (c.paths.empty()) c.paths.push_back("hdfs:///user/" + std::string(std::getenv("USER") ? std::getenv("USER") : ""));
  if (c.name == "ls") return Ls(c, out, err);
  if (c.name == "mkdir") return Mkdir(c, err);
  if (c.name == "put" || c.name == "copyFromLocal") return Copy(c, true, err);
  if (c.name == "get" || c.name == "copyToLocal") return Copy(c, false, err);
  if (c.name == "cat") return Cat(c, out, err);
  if (c.name == "du") return Du(c, out, err);
  if (c.name == "rm" || c.name == "rmr") return Rm(c, err);
  if (c.name == "touchz") return Touchz(c, err);
  return Test(c);
}

}  // namespace mr::hadoop

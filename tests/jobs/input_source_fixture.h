// One InputSource under test, with files put into it the same way whichever it is: the
// local file system under a scratch directory, or a FakeInputSource under /mrlab-fake (nothing on
// disk). Parameterised tests run the same expectations over both, so the fake keeps the
// local source's semantics (jobs/input_source.h).
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "common/file_util.h"
#include "jobs/fake_input_source.h"
#include "jobs/input_source.h"

namespace mr::jobs::testing {

class TestInputs {
 public:
  virtual ~TestInputs() = default;
  // "local" or "fake".
  static std::unique_ptr<TestInputs> Make(const std::string& kind);

  virtual const InputSource& source() const = 0;
  // Where the files are: every path below is root()/rel.
  virtual std::string root() const = 0;
  std::string P(const std::string& rel) const { return JoinPath(root(), rel); }
  // A file (its parent directories made first); `host` is kept by the fake only.
  virtual void Write(const std::string& rel, const std::string& contents, const std::string& host = "") = 0;
  virtual void MakeDir(const std::string& rel) = 0;
  // False when the source cannot make a file unreadable (root reads everything on disk).
  virtual bool MakeUnreadable(const std::string& rel) = 0;
};

class LocalTestInputs final : public TestInputs {
 public:
  const InputSource& source() const override { return LocalInputs(); }
  std::string root() const override { return dir_.path(); }
  void Write(const std::string& rel, const std::string& contents, const std::string&) override {
    const std::string path = P(rel);
    ASSERT_TRUE(MakeDirs(path.substr(0, path.rfind('/'))).ok());
    ASSERT_TRUE(WriteStringToFile(path, contents).ok()) << path;
  }
  void MakeDir(const std::string& rel) override { ASSERT_TRUE(MakeDirs(P(rel)).ok()); }
  bool MakeUnreadable(const std::string& rel) override {
    return ::geteuid() != 0 && ::chmod(P(rel).c_str(), 0) == 0;
  }

 private:
  TempDir dir_{"mr-input-source"};
};

class FakeTestInputs final : public TestInputs {
 public:
  const InputSource& source() const override { return fake_; }
  std::string root() const override { return "/mrlab-fake/inputs"; }
  void Write(const std::string& rel, const std::string& contents, const std::string& host) override {
    fake_.AddFile(P(rel), contents, host);
  }
  void MakeDir(const std::string& rel) override { fake_.AddDirectory(P(rel)); }
  bool MakeUnreadable(const std::string& rel) override {
    fake_.MakeUnreadable(P(rel));
    return true;
  }
  FakeInputSource& fake() { return fake_; }

 private:
  FakeInputSource fake_;
};

inline std::unique_ptr<TestInputs> TestInputs::Make(const std::string& kind) {
  if (kind == "fake") return std::make_unique<FakeTestInputs>();
  return std::make_unique<LocalTestInputs>();
}

// The name a parameterised test prints for its source.
inline std::string SourceName(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

}  // namespace mr::jobs::testing

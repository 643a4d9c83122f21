#include "nccl_library.hpp"

#include <cstdlib>
#include <mutex>
#include <optional>
#include <vector>

#include "core/dynamic_library.hpp"

namespace tl::lessons {
namespace {

constexpr const char* kFile = "libnccl.so.2";

std::string set_variable(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::string(value) : std::string();
}

}  // namespace

std::vector<std::string> nccl_library_candidates() {
  std::vector<std::string> paths;
  if (std::string chosen = set_variable("THREADLAB_NCCL_LIBRARY"); !chosen.empty()) {
    paths.push_back(chosen);
  }
  for (const char* variable : {"CUDA_PATH", "CUDA_HOME"}) {
    if (std::string root = set_variable(variable); !root.empty()) {
      paths.push_back(root + "/lib64/" + kFile);
    }
  }
  paths.push_back(std::string("/usr/local/cuda/lib64/") + kFile);
  paths.push_back(kFile);  // the system loader's search path
  return paths;
}

std::string NcclLibrary::version_text() const {
  // NCCL_VERSION(X, Y, Z) is X * 10000 + Y * 100 + Z since 2.9 (X * 1000 + Y * 100 + Z before).
  const int major = version >= 10000 ? version / 10000 : version / 1000;
  const int minor = version >= 10000 ? (version / 100) % 100 : (version / 100) % 10;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(version % 100);
}

std::string NcclLibrary::describe(const char* call, int result) const {
  const char* text = error_string != nullptr ? error_string(result) : nullptr;
  return std::string(call) + ": " + (text != nullptr ? text : "error") + " (NCCL result " +
         std::to_string(result) + "; NCCL_DEBUG=WARN says more)";
}

Result<const NcclLibrary*> NcclLibrary::load() {
  static std::mutex mutex;
  static std::optional<Result<const NcclLibrary*>> loaded;
  std::lock_guard lock(mutex);
  if (loaded) return *loaded;
  static NcclLibrary nccl;
  DynamicLibrary library = DynamicLibrary::open_first(nccl_library_candidates());
  nccl.path = library.path();
  const std::string& tried = library.tried();
  if (!library.loaded()) {
    loaded = Error{ErrorKind::kNoDevice,
                   "NCCL is not installed here (tried " + tried +
                       "): data parallel training sums the GPUs' gradients with it. Install "
                       "libnccl2, or set THREADLAB_NCCL_LIBRARY to a libnccl.so.2"};
    return *loaded;
  }
  const bool complete = library.bind(nccl.get_version, "ncclGetVersion") &&
                        library.bind(nccl.get_unique_id, "ncclGetUniqueId") &&
                        library.bind(nccl.comm_init_rank, "ncclCommInitRank") &&
                        library.bind(nccl.comm_destroy, "ncclCommDestroy") &&
                        library.bind(nccl.comm_abort, "ncclCommAbort") &&
                        library.bind(nccl.all_reduce, "ncclAllReduce") &&
                        library.bind(nccl.error_string, "ncclGetErrorString");
  if (!complete) {
    loaded = Error{ErrorKind::kNoDevice,
                   nccl.path + " lacks an NCCL 2 function data parallel training needs (" +
                       library.missing() + ")"};
    return *loaded;
  }
  if (nccl.get_version(&nccl.version) != kNcclSuccess || nccl.version < 2000) {
    loaded = Error{ErrorKind::kNoDevice, nccl.path + " is not NCCL 2 (version code " +
                                             std::to_string(nccl.version) + ")"};
    return *loaded;
  }
  loaded = static_cast<const NcclLibrary*>(&nccl);
  return *loaded;
}

}  // namespace tl::lessons

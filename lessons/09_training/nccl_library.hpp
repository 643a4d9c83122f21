#pragma once
// NCCL (NVIDIA's collective communication library), loaded at run time with dlopen rather than
// linked: ThreadLab builds and runs where NCCL is not installed, and only data parallel training
// on several GPUs needs it, so that option alone is refused, with the reason, when it is missing.
// Only the entry points data parallel training calls are declared, with the C signatures and
// constants of nccl.h (NCCL 2.x), so that no NCCL header is needed to build this.
//
// Where it looks, in order (the first that loads wins):
//   1. the file named by THREADLAB_NCCL_LIBRARY (e.g. the libnccl.so.2 PyTorch's wheel bundles);
//   2. the CUDA toolkit's lib64: $CUDA_PATH, $CUDA_HOME, then /usr/local/cuda;
//   3. libnccl.so.2 through the system loader's path (LD_LIBRARY_PATH, ldconfig's cache: the
//      Debian/NVIDIA package libnccl2 installs it in /usr/lib/x86_64-linux-gnu).

#include <cstddef>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace tl::lessons {

struct NcclCommOpaque;
using NcclComm = NcclCommOpaque*;
struct NcclUniqueId {
  char internal[128];  // NCCL_UNIQUE_ID_BYTES
};

// nccl.h's values.
inline constexpr int kNcclSuccess = 0;
inline constexpr int kNcclFloat32 = 7;  // ncclFloat32 (= ncclFloat)
inline constexpr int kNcclSum = 0;      // ncclSum

struct NcclLibrary {
  int (*get_version)(int* version) = nullptr;
  int (*get_unique_id)(NcclUniqueId* id) = nullptr;
  int (*comm_init_rank)(NcclComm* comm, int ranks, NcclUniqueId id, int rank) = nullptr;
  int (*comm_destroy)(NcclComm comm) = nullptr;
  int (*comm_abort)(NcclComm comm) = nullptr;
  // (sendbuff, recvbuff, count, datatype, op, comm, cudaStream_t)
  int (*all_reduce)(const void* send, void* receive, std::size_t count, int type, int op,
                    NcclComm comm, void* stream) = nullptr;
  const char* (*error_string)(int result) = nullptr;
  std::string path;                                // where it was found
  int version = 0;                                 // NCCL_VERSION_CODE: 22809 for 2.28.9
  [[nodiscard]] std::string version_text() const;  // "2.28.9"
  // "ncclAllReduce: unhandled cuda error (run with NCCL_DEBUG=INFO for details) (1)"
  [[nodiscard]] std::string describe(const char* call, int result) const;

  // Loaded once per process; the error (kNoDevice) says where it looked and how to point at one.
  static Result<const NcclLibrary*> load();
};

// The places load() tries, in order (for the docs' and the tests' sake).
std::vector<std::string> nccl_library_candidates();

}  // namespace tl::lessons

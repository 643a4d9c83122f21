// NCCL's all-reduce behind GradientAllReduce. Each replica's thread initialises its own
// communicator (ncclCommInitRank with one unique id: the ranks find each other in the call) and
// queues its all-reduce on its thread's default stream, cudaStreamPerThread: the capstone's
// kernels launch there (kernels/CMakeLists.txt compiles them with --default-stream=per-thread), so
// the all-reduce waits for the backward pass and the update waits for the all-reduce, with no host
// synchronisation in between.

#include <cuda_runtime.h>

#include <mutex>
#include <string>
#include <vector>

#include "lessons/09_training/nccl_all_reduce.hpp"
#include "lessons/09_training/nccl_library.hpp"

namespace tl::lessons {
namespace {

class NcclAllReduce final : public GradientAllReduce {
 public:
  NcclAllReduce(const NcclLibrary& nccl, int gpus, NcclUniqueId id)
      : nccl_(nccl), id_(id), comms_(static_cast<std::size_t>(gpus), nullptr) {}
  ~NcclAllReduce() override {
    for (NcclComm comm : comms_) {
      if (comm != nullptr) nccl_.comm_destroy(comm);
    }
  }

  [[nodiscard]] int replicas() const override { return static_cast<int>(comms_.size()); }
  [[nodiscard]] std::string name() const override { return "NCCL " + nccl_.version_text(); }

  Status join(int rank, compute::Device& device) override {
    (void)device;  // NCCL works on the thread's current device, which the replica has set
    NcclComm comm = nullptr;
    const int result = nccl_.comm_init_rank(&comm, replicas(), id_, rank);
    if (result != kNcclSuccess) {
      abort();
      return Error{ErrorKind::kCudaError, nccl_.describe("ncclCommInitRank", result)};
    }
    std::lock_guard lock(mutex_);
    comms_[static_cast<std::size_t>(rank)] = comm;
    return Status::ok();
  }

  Status sum(int rank, float* gradients, std::size_t count) override {
    NcclComm comm = nullptr;
    {
      std::lock_guard lock(mutex_);
      if (aborted_) {
        return Error{ErrorKind::kCancelled, "the all-reduce was abandoned: another GPU failed"};
      }
      comm = comms_[static_cast<std::size_t>(rank)];
    }
    const int result = nccl_.all_reduce(gradients, gradients, count, kNcclFloat32, kNcclSum, comm,
                                        static_cast<void*>(cudaStreamPerThread));
    if (result != kNcclSuccess) {
      return Error{ErrorKind::kCudaError, nccl_.describe("ncclAllReduce", result)};
    }
    return Status::ok();
  }

  void leave(int rank) override {
    std::lock_guard lock(mutex_);
    NcclComm& comm = comms_[static_cast<std::size_t>(rank)];
    if (comm != nullptr) {
      // Aborted communicators are gone already; a healthy one is destroyed on its own GPU.
      if (!aborted_) nccl_.comm_destroy(comm);
      comm = nullptr;
    }
  }

  // A replica that failed never makes its all-reduce, and the others' would wait on the GPU for
  // it forever: aborting the communicators ends them.
  void abort() override {
    std::lock_guard lock(mutex_);
    if (aborted_) return;
    aborted_ = true;
    for (NcclComm& comm : comms_) {
      if (comm != nullptr) nccl_.comm_abort(comm);
      comm = nullptr;
    }
  }

 private:
  const NcclLibrary& nccl_;
  NcclUniqueId id_;
  std::mutex mutex_;
  std::vector<NcclComm> comms_;
  bool aborted_ = false;
};

}  // namespace

int cuda_gpu_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // no driver or no device: not an error to keep
    return 0;
  }
  return count;
}

Status use_gpu_on_this_thread(int ordinal) {
  const cudaError_t error = cudaSetDevice(ordinal);
  if (error != cudaSuccess) {
    return Error{ErrorKind::kNoDevice, "selecting CUDA device " + std::to_string(ordinal) + ": " +
                                           cudaGetErrorString(error)};
  }
  return Status::ok();
}

Result<std::unique_ptr<GradientAllReduce>> make_nccl_all_reduce(int gpus) {
  auto nccl = NcclLibrary::load();
  if (!nccl) return nccl.error();
  NcclUniqueId id{};
  const int result = (*nccl)->get_unique_id(&id);
  if (result != kNcclSuccess) {
    return Error{ErrorKind::kCudaError, (*nccl)->describe("ncclGetUniqueId", result)};
  }
  return std::unique_ptr<GradientAllReduce>(new NcclAllReduce(**nccl, gpus, id));
}

}  // namespace tl::lessons

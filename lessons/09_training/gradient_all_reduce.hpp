#pragma once
// Data parallel training's one collective: every replica holds the gradients of its share of the
// batch, and after the all-reduce every replica holds their sum. Behind this interface so that the
// split and the sum can be tested without a GPU: HostAllReduce adds the replicas' buffers on the
// CPU (the emulator's replicas, the tests), the NCCL one (nccl_all_reduce.hpp) on the GPUs.
//
// It is a collective: each replica calls it from its own thread, the same calls in the same order,
// and a call returns only when every replica has made it. A replica that fails calls abort(),
// which releases the others with an error instead of leaving them waiting for it forever.

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

#include "compute/device.hpp"
#include "core/result.hpp"

namespace tl::lessons {

class GradientAllReduce {
 public:
  virtual ~GradientAllReduce() = default;
  [[nodiscard]] virtual int replicas() const = 0;
  // "NCCL 2.28.9", "the CPU (in-process)"
  [[nodiscard]] virtual std::string name() const = 0;

  // On replica `rank`'s thread, once, before its first sum: `device` is the replica's.
  virtual Status join(int rank, compute::Device& device) = 0;
  // Replaces `count` floats at `gradients` (device memory of the replica's device) with their sum
  // over all replicas. Queued on a GPU: the replica's next kernels wait for it.
  virtual Status sum(int rank, float* gradients, std::size_t count) = 0;
  // On replica `rank`'s thread, before its device goes.
  virtual void leave(int rank) = 0;
  // From any thread: every replica waiting in sum() (or later calling it) gets an error.
  virtual void abort() = 0;
};

// A barrier for a fixed number of threads that can be broken: arrive_and_wait() then fails for
// everyone (std::barrier cannot be broken, and a replica that failed never arrives).
class AbortableBarrier {
 public:
  explicit AbortableBarrier(int parties) : parties_(parties) {}
  // False if the barrier was aborted (before or while waiting).
  bool arrive_and_wait();
  void abort();

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int parties_;
  int arrived_ = 0;
  std::size_t generation_ = 0;
  bool aborted_ = false;
};

// The sum on the CPU: each replica copies its gradients to the host, replica 0 adds them in rank
// order (0 + 1 + ... + N−1, the same order every time, so runs repeat exactly), and each replica
// copies the sum back. Correct anywhere; its time is the host's and the copies', not a network's.
class HostAllReduce final : public GradientAllReduce {
 public:
  explicit HostAllReduce(int replicas);
  [[nodiscard]] int replicas() const override { return replicas_; }
  [[nodiscard]] std::string name() const override { return "the CPU (in-process)"; }
  Status join(int rank, compute::Device& device) override;
  Status sum(int rank, float* gradients, std::size_t count) override;
  void leave(int rank) override;
  void abort() override;

 private:
  int replicas_;
  std::vector<compute::Device*> devices_;
  std::vector<std::vector<float>> buffers_;
  AbortableBarrier barrier_;
};

}  // namespace tl::lessons

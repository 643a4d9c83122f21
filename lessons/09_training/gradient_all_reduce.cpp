#include "gradient_all_reduce.hpp"

namespace tl::lessons {

bool AbortableBarrier::arrive_and_wait() {
  std::unique_lock lock(mutex_);
  if (aborted_) return false;
  const std::size_t generation = generation_;
  if (++arrived_ == parties_) {
    arrived_ = 0;
    ++generation_;
    changed_.notify_all();
    return true;
  }
  changed_.wait(lock, [&] { return aborted_ || generation_ != generation; });
  return generation_ != generation;  // passed, even if aborted just after
}

void AbortableBarrier::abort() {
  std::lock_guard lock(mutex_);
  aborted_ = true;
  changed_.notify_all();
}

HostAllReduce::HostAllReduce(int replicas)
    : replicas_(replicas),
      devices_(static_cast<std::size_t>(replicas), nullptr),
      buffers_(static_cast<std::size_t>(replicas)),
      barrier_(replicas) {}

Status HostAllReduce::join(int rank, compute::Device& device) {
  if (rank < 0 || rank >= replicas_) {
    return invalid_argument("replica " + std::to_string(rank) + " of " + std::to_string(replicas_));
  }
  devices_[static_cast<std::size_t>(rank)] = &device;
  return Status::ok();
}

Status HostAllReduce::sum(int rank, float* gradients, std::size_t count) {
  const auto r = static_cast<std::size_t>(rank);
  const auto aborted = [] {
    return Error{ErrorKind::kCancelled, "the all-reduce was abandoned: another replica failed"};
  };
  std::vector<float>& mine = buffers_[r];
  mine.resize(count);
  const Status copied = devices_[r]->copy_to_host(mine.data(), gradients, count * sizeof(float));
  if (!copied.is_ok()) {
    abort();
    return copied;
  }
  if (!barrier_.arrive_and_wait()) return aborted();  // every replica's gradients are on the host
  if (rank == 0) {
    std::vector<float>& total = buffers_[0];
    for (std::size_t other = 1; other < buffers_.size(); ++other) {
      const std::vector<float>& add = buffers_[other];
      for (std::size_t i = 0; i < count; ++i) total[i] += add[i];
    }
  }
  if (!barrier_.arrive_and_wait()) return aborted();  // the sum is in buffers_[0]
  const Status back =
      devices_[r]->copy_to_device(gradients, buffers_[0].data(), count * sizeof(float));
  // Replica 0 overwrites its buffer at the next sum only after everyone has read this one.
  if (!barrier_.arrive_and_wait()) return aborted();
  if (!back.is_ok()) abort();
  return back;
}

void HostAllReduce::leave(int rank) {
  devices_[static_cast<std::size_t>(rank)] = nullptr;
}

void HostAllReduce::abort() {
  barrier_.abort();
}

}  // namespace tl::lessons

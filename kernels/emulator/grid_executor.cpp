#include "grid_executor.hpp"

#include <sys/mman.h>
#include <ucontext.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cuda_emulation.hpp"

namespace tl::emu {
namespace {

// Fiber stacks: kernels keep little on the stack, but the host compiler at -O0 and the sanitizers
// need headroom. mmap with MAP_NORESERVE only commits the pages a fiber touches.
constexpr std::size_t kFiberStackBytes = 128 * 1024;

enum class FiberState { kRunning, kAtBarrier, kFinished };

struct Fiber {
  ucontext_t context{};
  FiberState state = FiberState::kRunning;
  uint3 thread{};
};

// Per worker: the scheduler context and the fiber running now; null outside fiber mode.
struct WorkerFibers {
  ucontext_t scheduler{};
  Fiber* current = nullptr;
  const std::function<void()>* body = nullptr;
};
thread_local WorkerFibers* g_worker = nullptr;
thread_local bool g_barrier_misuse = false;

void fiber_entry() {
  WorkerFibers* worker = g_worker;
  (*worker->body)();
  worker->current->state = FiberState::kFinished;
  // Returning switches to uc_link, the scheduler.
}

class StackPool {
 public:
  explicit StackPool(std::size_t count) : count_(count) {
    bytes_ = count * kFiberStackBytes;
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    base_ = p == MAP_FAILED ? nullptr : static_cast<char*>(p);
  }
  ~StackPool() {
    if (base_ != nullptr) munmap(base_, bytes_);
  }
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;
  [[nodiscard]] bool ok() const { return base_ != nullptr; }
  [[nodiscard]] char* stack(std::size_t i) const { return base_ + i * kFiberStackBytes; }

 private:
  std::size_t count_;
  std::size_t bytes_ = 0;
  char* base_ = nullptr;
};

void set_thread_index(std::uint64_t linear, const dim3& block) {
  threadIdx.x = static_cast<unsigned>(linear % block.x);
  threadIdx.y = static_cast<unsigned>((linear / block.x) % block.y);
  threadIdx.z = static_cast<unsigned>(linear / (std::uint64_t{block.x} * block.y));
}

// Runs one block with every thread as a fiber. Returns an error message, empty on success.
std::string run_block_as_fibers(std::vector<Fiber>& fibers, const StackPool& stacks,
                                const std::function<void()>& body, std::uint64_t block,
                                const AfterThreadStep& after_step) {
  WorkerFibers worker;
  worker.body = &body;
  g_worker = &worker;
  const std::size_t count = fibers.size();
  for (std::size_t i = 0; i < count; ++i) {
    Fiber& f = fibers[i];
    f.state = FiberState::kRunning;
    set_thread_index(i, blockDim);
    f.thread = threadIdx;
    getcontext(&f.context);
    f.context.uc_stack.ss_sp = stacks.stack(i);
    f.context.uc_stack.ss_size = kFiberStackBytes;
    f.context.uc_link = &worker.scheduler;
    makecontext(&f.context, fiber_entry, 0);
  }
  std::string error;
  // Each round runs every thread up to its next barrier (or its end). A round ends with all threads
  // at the barrier, all finished, or a mix: the last is a divergent barrier, undefined in CUDA.
  while (true) {
    std::size_t at_barrier = 0;
    std::size_t finished = 0;
    for (std::size_t i = 0; i < count; ++i) {
      Fiber& f = fibers[i];
      if (f.state == FiberState::kFinished) {
        ++finished;
        continue;
      }
      f.state = FiberState::kRunning;
      threadIdx = f.thread;
      worker.current = &f;
      swapcontext(&worker.scheduler, &f.context);
      if (after_step) after_step(block, static_cast<std::uint32_t>(i));
      if (f.state == FiberState::kAtBarrier) ++at_barrier;
      if (f.state == FiberState::kFinished) ++finished;
    }
    if (finished == count) break;
    if (at_barrier != 0 && finished != 0 && at_barrier + finished == count) {
      error =
          "__syncthreads() was not reached by every thread of block (" +
          std::to_string(blockIdx.x) + ", " + std::to_string(blockIdx.y) + ", " +
          std::to_string(blockIdx.z) +
          "): a barrier inside a branch that some threads skip deadlocks or corrupts a real GPU.";
      // Let the waiting threads run to completion so no fiber is left suspended mid-kernel.
      for (Fiber& f : fibers) {
        while (f.state == FiberState::kAtBarrier) {
          f.state = FiberState::kRunning;
          threadIdx = f.thread;
          worker.current = &f;
          swapcontext(&worker.scheduler, &f.context);
        }
      }
      break;
    }
  }
  g_worker = nullptr;
  return error;
}

}  // namespace

void syncthreads() {
  WorkerFibers* worker = g_worker;
  if (worker == nullptr) {
    // The kernel was launched as barrier-free: running on would silently break its shared memory.
    g_barrier_misuse = true;
    return;
  }
  Fiber* self = worker->current;
  self->state = FiberState::kAtBarrier;
  swapcontext(&self->context, &worker->scheduler);
  // Resumed by the scheduler in the next round: the index variables were restored for us.
}

unsigned worker_count(const GridOptions& options) {
  if (options.workers != 0) return options.workers;
  return std::max(1u, std::thread::hardware_concurrency());
}

Status run_grid(const LaunchConfig& config, const GridOptions& options,
                const std::function<void()>& thread_body) {
  TL_RETURN_IF_ERROR(check_launch(config, standard_cuda_limits()));
  const std::uint64_t blocks = config.grid.volume();
  const std::uint64_t threads_per_block = config.block.volume();
  // A watched grid runs on one worker, the calling thread: only then is a change of memory between
  // two steps the stepping thread's doing.
  const unsigned workers =
      options.after_step
          ? 1u
          : static_cast<unsigned>(std::min<std::uint64_t>(worker_count(options), blocks));

  std::atomic<std::uint64_t> next_block{0};
  std::mutex error_mutex;
  std::string first_error;
  auto record_error = [&](std::string message) {
    std::lock_guard lock(error_mutex);
    if (first_error.empty()) first_error = std::move(message);
  };

  auto work = [&] {
    gridDim = dim3(config.grid.x, config.grid.y, config.grid.z);
    blockDim = dim3(config.block.x, config.block.y, config.block.z);
    g_barrier_misuse = false;
    std::vector<Fiber> fibers;
    std::optional<StackPool> stacks;
    if (options.barriers == Barriers::kUsed) {
      fibers.resize(threads_per_block);
      stacks.emplace(threads_per_block);
      if (!stacks->ok()) {
        record_error("the emulator could not allocate fiber stacks for a block of " +
                     std::to_string(threads_per_block) + " threads");
        return;
      }
    }
    // Blocks are handed out one at a time, so a slow block does not hold up the others: the same
    // dynamic scheduling a GPU's block scheduler does.
    for (std::uint64_t b = next_block.fetch_add(1); b < blocks; b = next_block.fetch_add(1)) {
      blockIdx.x = static_cast<unsigned>(b % config.grid.x);
      blockIdx.y = static_cast<unsigned>((b / config.grid.x) % config.grid.y);
      blockIdx.z = static_cast<unsigned>(b / (std::uint64_t{config.grid.x} * config.grid.y));
      if (options.barriers == Barriers::kUsed) {
        std::string error =
            run_block_as_fibers(fibers, *stacks, thread_body, b, options.after_step);
        if (!error.empty()) {
          record_error(std::move(error));
          return;
        }
      } else {
        for (std::uint32_t z = 0; z < config.block.z; ++z) {
          for (std::uint32_t y = 0; y < config.block.y; ++y) {
            for (std::uint32_t x = 0; x < config.block.x; ++x) {
              threadIdx = {x, y, z};
              thread_body();
              if (options.after_step) {
                options.after_step(b, x + config.block.x * (y + config.block.y * z));
              }
            }
          }
        }
        if (g_barrier_misuse) {
          record_error(
              "the kernel called __syncthreads() but was launched on the emulator as barrier-free");
          return;
        }
      }
    }
  };

  if (workers <= 1) {
    work();
  } else {
    std::vector<std::jthread> pool;
    pool.reserve(workers);
    for (unsigned w = 0; w < workers; ++w) pool.emplace_back(work);
  }
  if (!first_error.empty()) return Error{ErrorKind::kInvalidArgument, first_error};
  return Status::ok();
}

}  // namespace tl::emu

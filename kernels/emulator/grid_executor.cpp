#include "grid_executor.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <boost/context/detail/fcontext.hpp>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cuda_emulation.hpp"

// AddressSanitizer must be told when the stack changes under it, or it reports the fibers' frames
// as stack overflows and loses track of fake stacks.
#if defined(__SANITIZE_ADDRESS__)
#define TL_EMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TL_EMU_ASAN 1
#endif
#endif
#ifdef TL_EMU_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

namespace tl::emu {
namespace {

namespace fctx = boost::context::detail;

// Fiber stacks: kernels keep little on the stack, but the host compiler at -O0 and the sanitizers
// need headroom. mmap with MAP_NORESERVE only commits the pages a fiber touches.
constexpr std::size_t kFiberStackBytes = 128 * 1024;
// Consecutive stacks start 17 cache lines apart modulo the 128 KiB: with a power-of-two stride
// every fiber's hot top-of-stack lines would fall into the same cache sets and evict each other at
// every switch of a 1024-thread block.
constexpr std::size_t kFiberStackStride = kFiberStackBytes + 17 * 64;

enum class FiberState {
  kRunnable,   // not started, or released from its last barrier: runs in the next round
  kAtBarrier,  // waiting at __syncthreads()
  kFinished,
};

struct Fiber {
  fctx::fcontext_t context = nullptr;  // where to resume it
  FiberState state = FiberState::kRunnable;
  uint3 thread{};
  char* stack_bottom = nullptr;  // lowest address of its stack (for AddressSanitizer)
};

// One block running as fibers on this worker. A round resumes every runnable fiber in thread
// order; each one, when it blocks or ends, jumps straight to the next runnable one, and only the
// last jumps back to the scheduler: one context switch per thread and barrier instead of two.
// With a step callback (the mapping probe) every fiber returns to the scheduler instead, which
// calls it in between.
struct BlockFibers {
  std::vector<Fiber>* fibers = nullptr;
  std::size_t current = 0;  // index of the fiber running now
  fctx::fcontext_t scheduler = nullptr;
  bool chain = true;         // false: every fiber returns to the scheduler after each step
  std::size_t finished = 0;  // fibers that have run to their end
  const std::function<void()>* body = nullptr;
  const void* scheduler_stack_bottom = nullptr;  // for AddressSanitizer
  std::size_t scheduler_stack_bytes = 0;
};
thread_local BlockFibers* g_block = nullptr;
thread_local bool g_barrier_misuse = false;

// AddressSanitizer's fiber protocol: announce the stack about to run, confirm on arrival. `save` is
// null for a fiber that will never be resumed (it has finished).
void before_switch([[maybe_unused]] void** save, [[maybe_unused]] const void* bottom,
                   [[maybe_unused]] std::size_t bytes) {
#ifdef TL_EMU_ASAN
  __sanitizer_start_switch_fiber(save, bottom, bytes);
#endif
}
void after_switch([[maybe_unused]] void* save, [[maybe_unused]] const void** old_bottom,
                  [[maybe_unused]] std::size_t* old_bytes) {
#ifdef TL_EMU_ASAN
  __sanitizer_finish_switch_fiber(save, old_bottom, old_bytes);
#endif
}

// Every jump passes, as its data, where the jumping side's context is to be stored (null for a
// finished fiber, which is never resumed); the side that wakes up stores it there.
void store_context(const fctx::transfer_t& from) {
  if (from.data != nullptr) *static_cast<fctx::fcontext_t*>(from.data) = from.fctx;
}

// Leaves the fiber `self` (now blocked or finished) for the next runnable fiber of the round, or
// for the scheduler at the end of the round. Returns when `self` is resumed (never if finished).
[[gnu::always_inline]] inline void leave_fiber(BlockFibers& block, Fiber& self) {
  const bool finished = self.state == FiberState::kFinished;
  fctx::fcontext_t* own_slot = finished ? nullptr : &self.context;
  std::vector<Fiber>& fibers = *block.fibers;
  std::size_t next = block.current + 1;
  if (block.chain) {
    while (next < fibers.size() && fibers[next].state != FiberState::kRunnable) ++next;
  } else {
    next = fibers.size();
  }
  void* save = nullptr;
  fctx::transfer_t from;
  if (next < fibers.size()) {
    Fiber& target = fibers[next];
    block.current = next;
    threadIdx = target.thread;
    before_switch(finished ? nullptr : &save, target.stack_bottom, kFiberStackBytes);
    from = fctx::jump_fcontext(target.context, own_slot);
  } else {
    before_switch(finished ? nullptr : &save, block.scheduler_stack_bottom,
                  block.scheduler_stack_bytes);
    from = fctx::jump_fcontext(block.scheduler, own_slot);
  }
  // Resumed: by the scheduler or by the fiber before this one, which set current and threadIdx.
  after_switch(save, nullptr, nullptr);
  store_context(from);
}

// A fiber's first and only frame: runs the thread body, then leaves for good. It must never return
// (there is nothing below it to return to).
void fiber_entry(fctx::transfer_t from) {
  BlockFibers& block = *g_block;
  store_context(from);
  after_switch(nullptr, &block.scheduler_stack_bottom, &block.scheduler_stack_bytes);
  (*block.body)();
  Fiber& self = (*block.fibers)[block.current];
  self.state = FiberState::kFinished;
  ++block.finished;
  leave_fiber(block, self);
}

class StackPool {
 public:
  explicit StackPool(std::size_t count) {
    bytes_ = count * kFiberStackStride;
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
  // The lowest address of stack i; it grows down from bottom + kFiberStackBytes.
  [[nodiscard]] char* bottom(std::size_t i) const { return base_ + i * kFiberStackStride; }

 private:
  std::size_t bytes_ = 0;
  char* base_ = nullptr;
};

void set_thread_index(std::uint64_t linear, const dim3& block) {
  threadIdx.x = static_cast<unsigned>(linear % block.x);
  threadIdx.y = static_cast<unsigned>((linear / block.x) % block.y);
  threadIdx.z = static_cast<unsigned>(linear / (std::uint64_t{block.x} * block.y));
}

// Runs one round from fiber `first` (runnable): until every runnable fiber has run to its next
// barrier or its end, or, without chaining, until that one fiber has.
void run_round_from(BlockFibers& block, std::size_t first) {
  Fiber& fiber = (*block.fibers)[first];
  block.current = first;
  threadIdx = fiber.thread;
  void* save = nullptr;
  before_switch(&save, fiber.stack_bottom, kFiberStackBytes);
  const fctx::transfer_t from = fctx::jump_fcontext(fiber.context, &block.scheduler);
  after_switch(save, nullptr, nullptr);
  store_context(from);
}

// Runs one block with every thread as a fiber. Returns an error message, empty on success.
std::string run_block_as_fibers(std::vector<Fiber>& fibers, const StackPool& stacks,
                                const std::function<void()>& body, std::uint64_t block_index,
                                const AfterThreadStep& after_step) {
  BlockFibers block;
  block.fibers = &fibers;
  block.body = &body;
  block.chain = !after_step;
  g_block = &block;
  const std::size_t count = fibers.size();
  for (std::size_t i = 0; i < count; ++i) {
    Fiber& f = fibers[i];
    f.state = FiberState::kRunnable;
    set_thread_index(i, blockDim);
    f.thread = threadIdx;
    f.stack_bottom = stacks.bottom(i);
    f.context =
        fctx::make_fcontext(f.stack_bottom + kFiberStackBytes, kFiberStackBytes, fiber_entry);
  }
  auto run_round = [&] {
    if (block.chain) {
      for (std::size_t i = 0; i < count; ++i) {
        if (fibers[i].state == FiberState::kRunnable) {
          run_round_from(block, i);
          break;
        }
      }
      return;
    }
    for (std::size_t i = 0; i < count; ++i) {
      if (fibers[i].state != FiberState::kRunnable) continue;
      run_round_from(block, i);
      after_step(block_index, static_cast<std::uint32_t>(i));
    }
  };
  std::string error;
  // Each round runs every thread up to its next barrier (or its end). A round ends with all threads
  // at the barrier, all finished, or a mix: the last is a divergent barrier, undefined in CUDA.
  while (true) {
    run_round();
    // No fiber is runnable now: each is at the barrier or finished.
    if (block.finished == count) break;
    if (block.finished != 0) {
      error =
          "__syncthreads() was not reached by every thread of block (" +
          std::to_string(blockIdx.x) + ", " + std::to_string(blockIdx.y) + ", " +
          std::to_string(blockIdx.z) +
          "): a barrier inside a branch that some threads skip deadlocks or corrupts a real GPU.";
      // Let the waiting threads run to completion so no fiber is left suspended mid-kernel.
      while (block.finished != count) {
        for (Fiber& f : fibers) {
          if (f.state == FiberState::kAtBarrier) f.state = FiberState::kRunnable;
        }
        run_round();
      }
      break;
    }
    // Every thread is at the barrier: release them all.
    for (Fiber& f : fibers) f.state = FiberState::kRunnable;
  }
  g_block = nullptr;
  return error;
}

}  // namespace

void syncthreads() {
  BlockFibers* block = g_block;
  if (block == nullptr) {
    // The kernel was launched as barrier-free: running on would silently break its shared memory.
    g_barrier_misuse = true;
    return;
  }
  Fiber& self = (*block->fibers)[block->current];
  self.state = FiberState::kAtBarrier;
  leave_fiber(*block, self);
  // Resumed in a later round, with threadIdx already restored.
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

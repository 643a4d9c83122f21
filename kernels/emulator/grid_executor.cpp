#include "grid_executor.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <boost/context/detail/fcontext.hpp>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "core/work_watch.hpp"
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
#include <sanitizer/asan_interface.h>
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

// The switch itself. On x86-64 it is Boost.Context's jump_fcontext (the same frame, so contexts
// from make_fcontext start the same way) without saving and restoring the x87 and SSE control
// words: every fiber of a worker runs on that worker's OS thread with its one floating-point
// environment, which kernels do not change, and loading the two words (ldmxcsr, fldcw) was the
// costliest part of the switch. Only this file switches the emulator's fibers, so no context it
// saves is resumed by Boost's own jump. Elsewhere, Boost's jump.
//
// The switch stores the leaving side's context itself, in `save`, before it loads the other side's:
// the side that wakes up has nothing to store, and a wait keeps nothing of its own live across the
// switch but the fiber it is (so the functions that wait save no registers of their own besides
// those the switch saves). It returns nothing: a wait has no use for it. A fiber that starts
// (make_fcontext's trampoline jumps to fiber_entry with the argument registers as they are) finds
// the switch's own two arguments as its transfer_t: `save` as fctx, `to` as data (starter_slot).
#if defined(__x86_64__) && defined(__ELF__)
#define TL_EMU_OWN_SWITCH 1
extern "C" void tl_emu_switch_fcontext(fctx::fcontext_t* save, fctx::fcontext_t to);
asm(R"(
  .pushsection .text
  .globl tl_emu_switch_fcontext
  .hidden tl_emu_switch_fcontext
  .type tl_emu_switch_fcontext, @function
  .p2align 4
tl_emu_switch_fcontext:
  leaq -0x38(%rsp), %rsp
  movq %r12, 0x8(%rsp)
  movq %r13, 0x10(%rsp)
  movq %r14, 0x18(%rsp)
  movq %r15, 0x20(%rsp)
  movq %rbx, 0x28(%rsp)
  movq %rbp, 0x30(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  movq 0x8(%rsp), %r12
  movq 0x10(%rsp), %r13
  movq 0x18(%rsp), %r14
  movq 0x20(%rsp), %r15
  movq 0x28(%rsp), %rbx
  movq 0x30(%rsp), %rbp
  leaq 0x38(%rsp), %rsp
  ret
  .size tl_emu_switch_fcontext, .-tl_emu_switch_fcontext
  .popsection
)");
// Saves the running side's context in `*save` and resumes `to`; returns when something resumes
// `*save`.
inline void switch_context(fctx::fcontext_t* save, fctx::fcontext_t to) {
  tl_emu_switch_fcontext(save, to);
}
#else
inline void switch_context(fctx::fcontext_t* save, fctx::fcontext_t to) {
  // Boost's jump leaves the storing to the side that wakes up: its data says where.
  const fctx::transfer_t from = fctx::jump_fcontext(to, save);
  *static_cast<fctx::fcontext_t*>(from.data) = from.fctx;
}
#endif

// Where the side that started a fiber saved its own context (its `save`), from what the fiber's
// entry received: the switch above leaves it in the register that becomes transfer_t::fctx; Boost's
// jump passes it as data, and leaves storing the context it left to the side that starts.
void* starter_slot(fctx::transfer_t from) {
#ifdef TL_EMU_OWN_SWITCH
  return from.fctx;
#else
  *static_cast<fctx::fcontext_t*>(from.data) = from.fctx;
  return from.data;
#endif
}

enum class FiberState {
  kRunnable,   // not started, or released from its last wait: runs in the next round
  kAtBarrier,  // waiting at __syncthreads()
  kAtWarpOp,   // waiting for the lanes of its warp at a shuffle, vote or __syncwarp
  kFinished,
};

// What a lane waiting at a warp operation asked for, and, once its group met, what it gets. What
// it asked for is the first 16 bytes, with no padding, so that two lanes' requests compare as two
// words (request_words).
struct WarpRequest {
  unsigned mask = 0;
  int lane_arg = 0;
  int width = 32;
  WarpOp op = WarpOp::kSyncWarp;
  std::uint8_t unused[3] = {};  // always zero: part of the second word
  std::uint64_t value = 0;
  std::uint64_t result = 0;
};
static_assert(offsetof(WarpRequest, value) == 16, "the request's words are its first 16 bytes");

// The request's operation, mask, argument and width as two words: equal words, equal requests.
struct RequestWords {
  std::uint64_t first = 0, second = 0;
};
[[gnu::always_inline]] inline RequestWords request_words(const WarpRequest& request) {
  std::uint64_t words[2];
  std::memcpy(words, &request, sizeof words);
  return {words[0], words[1]};
}

struct Fiber {
  fctx::fcontext_t context = nullptr;  // where to resume it
  FiberState state = FiberState::kRunnable;
  uint3 thread{};
  char* stack_bottom = nullptr;  // lowest address of its stack (for AddressSanitizer)
  WarpRequest warp;
};

// One block running as fibers on this worker. A round resumes every runnable fiber of one warp in
// thread order (run_block_as_fibers); each one, when it blocks or ends, jumps straight to the next
// runnable one, and only the last jumps back to the scheduler: one context switch per thread and
// wait instead of two.
// With a step callback (the mapping probe) every fiber returns to the scheduler instead, which
// calls it in between.
struct BlockFibers {
  Fiber* fibers = nullptr;   // the block's, in thread order
  Fiber* running = nullptr;  // the fiber running now
  fctx::fcontext_t scheduler = nullptr;
  bool chain = true;            // false: every fiber returns to the scheduler after each step
  std::size_t chain_base = 0;   // the first fiber of the warp a chained round runs
  std::size_t chain_end = 0;    // a chained round goes on up to this fiber (the end of a warp)
  Fiber* chain_stop = nullptr;  // fibers + chain_end (set_chain_end keeps the two together)
  std::size_t count = 0;        // the block's threads
  std::size_t finished = 0;     // fibers that have run to their end
  std::size_t at_warp_op = 0;   // fibers waiting at a warp operation
  const std::function<void()>* body = nullptr;
  const void* scheduler_stack_bottom = nullptr;  // for AddressSanitizer
  std::size_t scheduler_stack_bytes = 0;
  bool retiring = false;  // the launch is over: a resumed finished fiber leaves for good
  // Whether the round's stacks may have left L1 (the first round of a warp after the scheduler or
  // a barrier): then each switch asks for the next fiber's stack a step ahead (leave_fiber).
  bool prefetch = true;
};
thread_local BlockFibers* g_block TL_EMU_TLS_MODEL = nullptr;
// Set when a barrier-free launch reaches __syncthreads() or a warp operation.
thread_local const char* g_fiber_misuse TL_EMU_TLS_MODEL = nullptr;
// This worker's dynamic shared memory for the block it runs (null: the launch asked for none).
thread_local unsigned char* g_dynamic_shared TL_EMU_TLS_MODEL = nullptr;
thread_local std::size_t g_dynamic_shared_bytes TL_EMU_TLS_MODEL = 0;

// AddressSanitizer's fiber protocol: announce the stack about to run, confirm on arrival. `save` is
// null for a fiber that will never be resumed (retired at the end of its launch).
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

std::size_t release_whole_warp(Fiber* lanes);

void set_chain_end(BlockFibers& block, std::size_t end) {
  block.chain_end = end;
  block.chain_stop = block.fibers + end;
}

// At the end of a chained warp's round (no runnable lane left in it), what the scheduler would do
// next when that is one of its two common cases, done here on the last lane's stack instead of
// switching to the scheduler and from it to the next lane: every lane of a full warp waits at the
// same warp operation and is released (release_whole_warp, the scheduler's own first try), and
// the round starts again at the warp's first lane; or no lane of the block waits at a warp
// operation, and the round goes on with the next warp that has a runnable lane. Returns the fiber
// to run next, with chain_base and chain_end set for its warp, or chain_end: back to the
// scheduler, which decides everything else (partial groups, __activemask, errors, the barrier)
// exactly as before. Each warp of lesson 6's sum ends 9 rounds per block here.
[[gnu::noinline]] std::size_t continue_chain(BlockFibers& block) {
  Fiber* const fibers = block.fibers;
  const std::size_t base = block.chain_base;
  if (block.at_warp_op != 0) {
    if (block.chain_end - base == 32 && release_whole_warp(fibers + base) == 32) {
      block.at_warp_op -= 32;
      block.prefetch = false;  // the warp's 32 stacks were all touched in the round just ended
      return base;
    }
    return block.chain_end;
  }
  for (std::size_t warp = base + 32; warp < block.count; warp += 32) {
    const std::size_t end = std::min(block.count, warp + 32);
    for (std::size_t i = warp; i < end; ++i) {
      if (fibers[i].state == FiberState::kRunnable) {
        block.chain_base = warp;
        set_chain_end(block, end);
        block.prefetch = true;
        return i;
      }
    }
  }
  return block.chain_end;
}

// The fiber to run after fiber `next - 1` leaves when it is not simply `next`: the next runnable
// one of the warp, or whatever continue_chain finds, or chain_end (the scheduler).
[[gnu::noinline]] std::size_t next_in_round(BlockFibers& block, std::size_t next) {
  if (!block.chain) return block.chain_end;
  while (next < block.chain_end && block.fibers[next].state != FiberState::kRunnable) ++next;
  if (next == block.chain_end) next = continue_chain(block);
  return next;
}

// Leaves the fiber `self` (now blocked or finished) for the next runnable fiber of the round, or
// for the scheduler at the end of the round. Returns when `self` is resumed: a finished fiber, to
// run the worker's next block, or to retire.
[[gnu::always_inline]] inline void leave_fiber(BlockFibers& block, Fiber& self) {
  Fiber* next = &self + 1;
  // Most often the next lane of the warp runs next; anything else is decided out of line.
  // (Without chaining, each round's chain_end is the one fiber it runs.)
  if (next >= block.chain_stop || next->state != FiberState::kRunnable) [[unlikely]] {
    next = block.fibers + next_in_round(block, static_cast<std::size_t>(next - block.fibers));
  }
  [[maybe_unused]] void* save = nullptr;
  if (next < block.chain_stop) {
    block.running = next;
    threadIdx = next->thread;
    // The fiber after the target most likely runs next: ask for the top of its stack (the saved
    // registers and the frames it returns into) a whole step ahead.
    if (block.prefetch && next + 1 < block.chain_stop) {
      const char* top = static_cast<const char*>(next[1].context);
      __builtin_prefetch(top);
      __builtin_prefetch(top + 64);
      __builtin_prefetch(top + 128);
    }
    before_switch(&save, next->stack_bottom, kFiberStackBytes);
    switch_context(&self.context, next->context);
  } else {
    before_switch(&save, block.scheduler_stack_bottom, block.scheduler_stack_bytes);
    switch_context(&self.context, block.scheduler);
  }
  // Resumed: by the scheduler or by the fiber before this one, which set running and threadIdx.
  after_switch(save, nullptr, nullptr);
}

// A fiber's first and only frame: runs the thread body for each block of its worker that runs as
// fibers (the same thread of each), and leaves for good when the launch retires it. It must never
// return (there is nothing below it to return to). Starting each fiber afresh for every block
// (make_fcontext, the trampoline, this frame) was about a tenth of the waits' cost in lesson 6's
// vectorized sum, whose threads wait nine times each.
void fiber_entry(fctx::transfer_t from) {
  BlockFibers& block = *g_block;
  // Only the scheduler's jump tells where the scheduler's stack is. A fiber started by the fiber
  // before it (a chained round) learns that fiber's stack instead: taking that as the scheduler's
  // made the last fiber of the round announce a fiber stack as the caller's, and AddressSanitizer
  // then judged the caller's own frames against the wrong bounds in every later test.
  const bool entered_from_scheduler = starter_slot(from) == &block.scheduler;
  if (entered_from_scheduler) {
    after_switch(nullptr, &block.scheduler_stack_bottom, &block.scheduler_stack_bytes);
  } else {
    after_switch(nullptr, nullptr, nullptr);
  }
  while (true) {
    (*block.body)();
    Fiber& self = *block.running;
    self.state = FiberState::kFinished;
    ++block.finished;
    leave_fiber(block, self);
    if (block.retiring) {
      // Announced with no place to save this stack's state: AddressSanitizer frees it.
      before_switch(nullptr, block.scheduler_stack_bottom, block.scheduler_stack_bytes);
      switch_context(&self.context, block.scheduler);
    }
    // Resumed for the worker's next block, with running and threadIdx set.
  }
}

class StackPool {
 public:
  explicit StackPool(std::size_t count) {
    bytes_ = count * kFiberStackStride;
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    base_ = p == MAP_FAILED ? nullptr : static_cast<char*>(p);
    forget_frames();
  }
  ~StackPool() {
    forget_frames();
    if (base_ != nullptr) munmap(base_, bytes_);
  }
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;
  [[nodiscard]] bool ok() const { return base_ != nullptr; }
  // The lowest address of stack i; it grows down from bottom + kFiberStackBytes.
  [[nodiscard]] char* bottom(std::size_t i) const { return base_ + i * kFiberStackStride; }

 private:
  // AddressSanitizer keeps the poisoned redzones of frames that never returned (fibers abandoned
  // after an error) in its shadow even after munmap; whatever is mapped there next must start
  // clean.
  void forget_frames() {
#ifdef TL_EMU_ASAN
    if (base_ != nullptr) __asan_unpoison_memory_region(base_, bytes_);
#endif
  }

 public:
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
  block.prefetch = true;
  Fiber& fiber = block.fibers[first];
  block.running = &fiber;
  threadIdx = fiber.thread;
  [[maybe_unused]] void* save = nullptr;
  before_switch(&save, fiber.stack_bottom, kFiberStackBytes);
  switch_context(&block.scheduler, fiber.context);
  after_switch(save, nullptr, nullptr);
}

const char* warp_op_name(WarpOp op) {
  switch (op) {
    case WarpOp::kShuffleIndex:
      return "__shfl_sync";
    case WarpOp::kShuffleUp:
      return "__shfl_up_sync";
    case WarpOp::kShuffleDown:
      return "__shfl_down_sync";
    case WarpOp::kShuffleXor:
      return "__shfl_xor_sync";
    case WarpOp::kAll:
      return "__all_sync";
    case WarpOp::kAny:
      return "__any_sync";
    case WarpOp::kBallot:
      return "__ballot_sync";
    case WarpOp::kActiveMask:
      return "__activemask";
    case WarpOp::kSyncWarp:
      return "__syncwarp";
  }
  return "a warp operation";
}

std::string hex(unsigned mask) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", mask);
  return text;
}

std::string block_name() {
  return "block (" + std::to_string(blockIdx.x) + ", " + std::to_string(blockIdx.y) + ", " +
         std::to_string(blockIdx.z) + ")";
}

std::string thread_name(const Fiber& fiber) {
  return "thread (" + std::to_string(fiber.thread.x) + ", " + std::to_string(fiber.thread.y) +
         ", " + std::to_string(fiber.thread.z) + ")";
}

// The lane a shuffle reads for `lane` (CUDA's rules, including reading one's own value at the
// edges of a width segment); -1 for its own value.
[[gnu::always_inline]] inline int shuffle_source(WarpOp op, int lane_arg, int width, int lane) {
  const int segment = lane & ~(width - 1);
  int source = lane;
  switch (op) {
    case WarpOp::kShuffleIndex:
      source = segment + (((lane_arg % width) + width) % width);
      break;
    case WarpOp::kShuffleUp:
      source = lane - lane_arg;
      if (source < segment) return -1;
      break;
    case WarpOp::kShuffleDown:
      source = lane + lane_arg;
      if (source >= segment + width) return -1;
      break;
    case WarpOp::kShuffleXor:
      source = lane ^ lane_arg;
      if (source < 0 || source >= segment + width) return -1;
      break;
    default:
      return -1;
  }
  return source == lane ? -1 : source;
}
int shuffle_source(const WarpRequest& request, int lane) {
  return shuffle_source(request.op, request.lane_arg, request.width, lane);
}

// "lane 5 (thread (5, 0, 0))", "lanes 16–31 (threads 48 to 63 of the block)", "lanes 3, 7 and
// 9–12 (...)": the lanes set in `lanes` of the warp whose first thread is `warp_base`.
std::string lane_list(unsigned lanes, std::size_t warp_base, const std::vector<Fiber>& fibers) {
  std::vector<std::pair<int, int>> runs;  // [first, last] of each run of consecutive lanes
  for (int l = 0; l < 32; ++l) {
    if ((lanes & (1u << l)) == 0) continue;
    if (!runs.empty() && runs.back().second == l - 1) {
      runs.back().second = l;
    } else {
      runs.emplace_back(l, l);
    }
  }
  if (runs.size() == 1 && runs[0].first == runs[0].second) {
    const int lane = runs[0].first;
    return "lane " + std::to_string(lane) + " (" + thread_name(fibers[warp_base + lane]) + ")";
  }
  std::string text = "lanes ";
  for (std::size_t r = 0; r < runs.size(); ++r) {
    if (r != 0) text += r + 1 == runs.size() ? " and " : ", ";
    text += std::to_string(runs[r].first);
    if (runs[r].second != runs[r].first) text += "–" + std::to_string(runs[r].second);
  }
  if (runs.size() == 1) {
    text += " (threads " + std::to_string(warp_base + runs[0].first) + " to " +
            std::to_string(warp_base + runs[0].second) + " of the block)";
  }
  return text;
}

// The lanes of a warp that wait at the same warp operation with the same mask as `request`.
unsigned lanes_waiting_like(const WarpRequest& request, std::size_t warp_base, int lanes,
                            const std::vector<Fiber>& fibers) {
  unsigned waiting = 0;
  for (int l = 0; l < lanes; ++l) {
    const Fiber& f = fibers[warp_base + l];
    if (f.state == FiberState::kAtWarpOp && f.warp.op == request.op &&
        f.warp.mask == request.mask) {
      waiting |= 1u << l;
    }
  }
  return waiting;
}

// Why the group of `request` can never meet: the lanes its mask names that are not waiting at the
// same operation with the same mask, each kind named with its lanes. Called only once nothing in
// the block can move any more.
std::string stuck_group_message(const WarpRequest& request, unsigned group, std::size_t warp_base,
                                int lanes, const std::vector<Fiber>& fibers,
                                const std::string& warp_name) {
  const char* name = warp_op_name(request.op);
  const unsigned here = lanes_waiting_like(request, warp_base, lanes, fibers) & group;
  unsigned exited = 0, at_barrier = 0;
  std::vector<std::pair<unsigned, std::string>> elsewhere;  // lanes, where they wait
  for (int l = 0; l < lanes; ++l) {
    if ((group & (1u << l)) == 0 || (here & (1u << l)) != 0) continue;
    const Fiber& other = fibers[warp_base + l];
    if (other.state == FiberState::kFinished) {
      exited |= 1u << l;
    } else if (other.state == FiberState::kAtBarrier) {
      at_barrier |= 1u << l;
    } else {
      const std::string where =
          std::string(warp_op_name(other.warp.op)) + (other.warp.op == WarpOp::kActiveMask
                                                          ? std::string()
                                                          : " with mask " + hex(other.warp.mask));
      auto it = std::find_if(elsewhere.begin(), elsewhere.end(),
                             [&](const auto& e) { return e.second == where; });
      if (it == elsewhere.end()) {
        elsewhere.emplace_back(1u << l, where);
      } else {
        it->first |= 1u << l;
      }
    }
  }
  std::string text = warp_name + ": " + lane_list(here, warp_base, fibers) + " called " + name +
                     " with mask " + hex(request.mask) + ", but the mask also names ";
  // "which wait" for several lanes, "which waits" for one.
  auto wait_verb = [](unsigned named) { return std::popcount(named) == 1 ? "waits" : "wait"; };
  std::vector<std::string> parts;
  if (exited != 0) parts.push_back(lane_list(exited, warp_base, fibers) + ", which exited");
  if (at_barrier != 0) {
    parts.push_back(lane_list(at_barrier, warp_base, fibers) + ", which " + wait_verb(at_barrier) +
                    " at __syncthreads()");
  }
  for (const auto& [waiting, where] : elsewhere) {
    parts.push_back(lane_list(waiting, warp_base, fibers) + ", which " + wait_verb(waiting) +
                    " at " + where);
  }
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i != 0) text += i + 1 == parts.size() ? "; and " : "; ";
    text += parts[i];
  }
  text += ". A mask must name exactly the lanes that make the call, each with the same mask";
  const bool shuffle = request.op == WarpOp::kShuffleIndex || request.op == WarpOp::kShuffleUp ||
                       request.op == WarpOp::kShuffleDown || request.op == WarpOp::kShuffleXor;
  if (exited != 0 && at_barrier == 0 && elsewhere.empty()) {
    text += shuffle ? " (a shuffle from an exited lane reads an undefined value on a GPU)"
                    : " (a mask naming lanes that take no part is undefined on a GPU)";
  } else {
    text += " (on a GPU the lanes never meet: undefined, often a hang)";
  }
  text +=
      "; compute it from the lanes that take part, e.g. __ballot_sync(0xffffffff, condition) "
      "before the branch.";
  return text;
}

// The commonest case of all, tried first: every lane of a full warp asks for exactly what lane 0
// asks for (a warp-wide reduction's every step), a shuffle, vote or __syncwarp with the full mask
// and a valid width. Checked with two word compares per lane, then each lane's result is written
// and the lane released in one pass whose source lanes are known per operation (for the whole
// warp's width, the common one; the general formula otherwise). The same results as the general
// pass below, which it leaves every other case to (returning 0); 32 once it released the warp.
// Lesson 6's sum spent about a quarter of its instructions in the general pass's two loops.
std::size_t release_uniform_warp(Fiber* lanes) {
  const WarpRequest& lead = lanes[0].warp;
  const WarpOp op = lead.op;
  const int width = lead.width;
  if (op == WarpOp::kActiveMask || lead.mask != 0xffffffffu || width < 1 || width > 32 ||
      (width & (width - 1)) != 0) {
    return 0;
  }
  const RequestWords key = request_words(lead);
  std::uint64_t differs = 0;
#pragma GCC unroll 8
  for (int l = 0; l < 32; ++l) {
    const RequestWords words = request_words(lanes[l].warp);
    differs |= (words.first ^ key.first) | (words.second ^ key.second) |
               static_cast<std::uint64_t>(lanes[l].state != FiberState::kAtWarpOp);
  }
  if (differs != 0) return 0;
  const int lane_arg = lead.lane_arg;
  auto give = [&](int l, std::uint64_t result) {
    lanes[l].warp.result = result;
    lanes[l].state = FiberState::kRunnable;
  };
  auto own = [&](int l) { give(l, lanes[l].warp.value); };
  auto from = [&](int l, int source) { give(l, lanes[source].warp.value); };
  if (width == 32 && op == WarpOp::kShuffleDown && lane_arg >= 1 && lane_arg < 32) {
    for (int l = 0; l < 32 - lane_arg; ++l) from(l, l + lane_arg);
    for (int l = 32 - lane_arg; l < 32; ++l) own(l);
  } else if (width == 32 && op == WarpOp::kShuffleUp && lane_arg >= 1 && lane_arg < 32) {
    for (int l = 0; l < lane_arg; ++l) own(l);
    for (int l = lane_arg; l < 32; ++l) from(l, l - lane_arg);
  } else if (width == 32 && op == WarpOp::kShuffleXor && lane_arg >= 0 && lane_arg < 32) {
    for (int l = 0; l < 32; ++l) from(l, l ^ lane_arg);
  } else if (width == 32 && op == WarpOp::kShuffleIndex) {
    const std::uint64_t value = lanes[((lane_arg % 32) + 32) % 32].warp.value;
    for (int l = 0; l < 32; ++l) give(l, value);
  } else if (op == WarpOp::kShuffleIndex || op == WarpOp::kShuffleUp ||
             op == WarpOp::kShuffleDown || op == WarpOp::kShuffleXor) {
    for (int l = 0; l < 32; ++l) {
      const int source = shuffle_source(op, lane_arg, width, l);
      if (source < 0) {
        own(l);
      } else {
        from(l, source);
      }
    }
  } else {
    std::uint64_t vote_all = 1, vote_any = 0, ballot = 0;
    for (int l = 0; l < 32; ++l) {
      const std::uint64_t predicate = lanes[l].warp.value;
      vote_all &= predicate;
      vote_any |= predicate;
      if (predicate != 0) ballot |= 1u << l;
    }
    const std::uint64_t result = op == WarpOp::kAll      ? vote_all
                                 : op == WarpOp::kAny    ? vote_any
                                 : op == WarpOp::kBallot ? ballot
                                                         : 0;  // __syncwarp
    for (int l = 0; l < 32; ++l) give(l, result);
  }
  return 32;
}

// The common case of a warp's wait, taken before the general one: all 32 lanes at the same shuffle,
// vote or __syncwarp with the full mask and valid widths (a warp-wide reduction's every step).
// One pass checks that and takes the votes, one sets the results and releases the lanes, with the
// general path's formulas; anything else returns 0 and the general path decides. It released every
// lane otherwise: 32.
std::size_t release_whole_warp(Fiber* lanes) {
  if (const std::size_t released = release_uniform_warp(lanes); released != 0) return released;
  const WarpOp op = lanes[0].warp.op;
  if (op == WarpOp::kActiveMask) return 0;
  // Whether every lane shuffles with lane 0's argument and width (a reduction's every step): then
  // the sources come from one formula whose operation the compiler knows in each case below.
  const int lane_arg = lanes[0].warp.lane_arg;
  const int width = lanes[0].warp.width;
  bool uniform = true;
  std::uint64_t vote_all = 1, vote_any = 0, ballot = 0;
  for (int l = 0; l < 32; ++l) {
    const WarpRequest& r = lanes[l].warp;
    if (lanes[l].state != FiberState::kAtWarpOp || r.op != op || r.mask != 0xffffffffu ||
        r.width < 1 || r.width > 32 || (r.width & (r.width - 1)) != 0) {
      return 0;
    }
    uniform &= r.lane_arg == lane_arg && r.width == width;
    vote_all &= r.value;
    vote_any |= r.value;
    if (r.value != 0) ballot |= 1u << l;
  }
  // Every lane takes part, and a valid width keeps every source inside the warp. Results are
  // written while values are only read, so one pass sets each lane's result and releases it.
  auto shuffle = [&](auto source_of) {
    for (int l = 0; l < 32; ++l) {
      WarpRequest& mine = lanes[l].warp;
      const int source = source_of(l);
      mine.result = source < 0 ? mine.value : lanes[source].warp.value;
      lanes[l].state = FiberState::kRunnable;
    }
  };
  auto vote = [&](std::uint64_t result) {
    for (int l = 0; l < 32; ++l) {
      lanes[l].warp.result = result;
      lanes[l].state = FiberState::kRunnable;
    }
  };
  switch (op) {
    case WarpOp::kShuffleIndex:
    case WarpOp::kShuffleUp:
    case WarpOp::kShuffleDown:
    case WarpOp::kShuffleXor:
      if (!uniform) {
        shuffle([&](int l) { return shuffle_source(lanes[l].warp, l); });
      } else if (op == WarpOp::kShuffleDown) {
        shuffle([&](int l) { return shuffle_source(WarpOp::kShuffleDown, lane_arg, width, l); });
      } else if (op == WarpOp::kShuffleXor) {
        shuffle([&](int l) { return shuffle_source(WarpOp::kShuffleXor, lane_arg, width, l); });
      } else if (op == WarpOp::kShuffleUp) {
        shuffle([&](int l) { return shuffle_source(WarpOp::kShuffleUp, lane_arg, width, l); });
      } else {
        shuffle([&](int l) { return shuffle_source(WarpOp::kShuffleIndex, lane_arg, width, l); });
      }
      break;
    case WarpOp::kAll:
      vote(vote_all);
      break;
    case WarpOp::kAny:
      vote(vote_any);
      break;
    case WarpOp::kBallot:
      vote(ballot);
      break;
    case WarpOp::kActiveMask:
    case WarpOp::kSyncWarp:
      vote(0);
      break;
  }
  return 32;
}

// After a round, completes every warp group whose lanes have all arrived: computes each lane's
// result and makes it runnable. A group some of whose lanes are elsewhere waits: they may still
// arrive (lanes that diverged meet again at the next operation of the same kind and mask, as they
// do on a GPU since Volta). Only when no group can complete are the lanes at __activemask()
// released, with the lanes waiting there as the mask (the lanes converged at that call); and only
// when nothing at all can move is a group that never met an error. Returns how many lanes it
// released, or an error message for a group that can never complete or an operation that is
// undefined on a GPU.
//
// With `only_warp` it looks at that one warp (its first thread's index) and only completes groups:
// a group that cannot complete and the lanes at __activemask() wait for the call over the whole
// block once nothing else can move, so that the answers and the errors are those of a block-wide
// round.
std::variant<std::size_t, std::string> release_warp_groups(
    std::vector<Fiber>& fibers, std::optional<std::size_t> only_warp = std::nullopt) {
  const std::size_t count = fibers.size();
  std::size_t released = 0;
  std::optional<std::string> first_stuck;
  bool active_mask_waiting = false;
  const std::size_t first_warp = only_warp.value_or(0);
  const std::size_t end_warp = only_warp ? std::min(count, *only_warp + 32) : count;
  for (std::size_t warp_base = first_warp; warp_base < end_warp; warp_base += 32) {
    const int lanes = static_cast<int>(std::min<std::size_t>(32, count - warp_base));
    const unsigned existing = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
    // Named only in an error message, never on the way of a kernel that runs well.
    auto warp_name = [&] {
      return block_name() + ", warp " + std::to_string(warp_base / 32) + " (threads " +
             std::to_string(warp_base) + " to " + std::to_string(warp_base + lanes - 1) + ")";
    };
    auto lane_fiber = [&](int lane) -> Fiber& { return fibers[warp_base + lane]; };
    if (only_warp && lanes == 32) {
      if (const std::size_t done = release_whole_warp(&fibers[warp_base]); done != 0) return done;
    }
    for (int lane = 0; lane < lanes; ++lane) {
      Fiber& first = lane_fiber(lane);
      if (first.state != FiberState::kAtWarpOp) continue;
      const WarpRequest request = first.warp;
      const char* name = warp_op_name(request.op);
      if (request.op == WarpOp::kActiveMask) {
        active_mask_waiting = true;
        continue;
      }
      if ((request.mask & (1u << lane)) == 0) {
        return warp_name() + ": lane " + std::to_string(lane) + " (" + thread_name(first) +
               ") called " + name + " with mask " + hex(request.mask) +
               ", which leaves itself out; the calling lane must be in the mask.";
      }
      if (request.width < 1 || request.width > 32 || (request.width & (request.width - 1)) != 0) {
        return warp_name() + ": lane " + std::to_string(lane) + " called " + name + " with width " +
               std::to_string(request.width) + "; the width must be a power of two up to 32.";
      }
      // Lanes of a partial last warp that do not exist are not waited for, as exited lanes are
      // not on a GPU; a shuffle that reads one is an error below.
      const unsigned group = request.mask & existing;
      if ((lanes_waiting_like(request, warp_base, lanes, fibers) & group) != group) {
        if (!first_stuck && !only_warp) {
          first_stuck = stuck_group_message(request, group, warp_base, lanes, fibers, warp_name());
        }
        continue;
      }
      // Every lane of the group is here: compute all the results, then release them.
      std::uint64_t vote_all = 1, vote_any = 0, ballot = 0;
      for (int l = 0; l < lanes; ++l) {
        if ((group & (1u << l)) == 0) continue;
        const std::uint64_t predicate = lane_fiber(l).warp.value;
        vote_all &= predicate;
        vote_any |= predicate;
        if (predicate != 0) ballot |= 1u << l;
      }
      for (int l = 0; l < lanes; ++l) {
        if ((group & (1u << l)) == 0) continue;
        Fiber& member = lane_fiber(l);
        WarpRequest& mine = member.warp;
        switch (request.op) {
          case WarpOp::kShuffleIndex:
          case WarpOp::kShuffleUp:
          case WarpOp::kShuffleDown:
          case WarpOp::kShuffleXor: {
            const int source = shuffle_source(mine, l);
            if (source < 0) {
              mine.result = mine.value;
            } else if (source >= 32 || (group & (1u << source)) == 0) {
              return warp_name() + ": lane " + std::to_string(l) + " (" + thread_name(member) +
                     ") reads lane " + std::to_string(source) + " with " + name +
                     (source >= lanes ? ", which does not exist in this block"
                                      : ", which is not in the mask " + hex(request.mask)) +
                     "; reading a lane that takes no part is undefined on a GPU.";
            } else {
              mine.result = lane_fiber(source).warp.value;
            }
            break;
          }
          case WarpOp::kAll:
            mine.result = vote_all;
            break;
          case WarpOp::kAny:
            mine.result = vote_any;
            break;
          case WarpOp::kBallot:
            mine.result = ballot;
            break;
          case WarpOp::kActiveMask:
          case WarpOp::kSyncWarp:
            mine.result = 0;
            break;
        }
      }
      for (int l = 0; l < lanes; ++l) {
        if ((group & (1u << l)) == 0) continue;
        lane_fiber(l).state = FiberState::kRunnable;
        ++released;
      }
    }
  }
  if (released != 0 || only_warp) return released;
  if (active_mask_waiting) {
    // Nothing else can move: the lanes at __activemask() are the ones converged there.
    for (std::size_t warp_base = 0; warp_base < count; warp_base += 32) {
      const int lanes = static_cast<int>(std::min<std::size_t>(32, count - warp_base));
      unsigned here = 0;
      for (int l = 0; l < lanes; ++l) {
        const Fiber& f = fibers[warp_base + l];
        if (f.state == FiberState::kAtWarpOp && f.warp.op == WarpOp::kActiveMask) here |= 1u << l;
      }
      for (int l = 0; l < lanes; ++l) {
        if ((here & (1u << l)) == 0) continue;
        Fiber& f = fibers[warp_base + l];
        f.warp.result = here;
        f.state = FiberState::kRunnable;
        ++released;
      }
    }
    return released;
  }
  if (first_stuck) return *std::move(first_stuck);
  return released;
}

// Gives each fiber of a worker its thread index in the block, its stack and its start, once per
// launch: the three divisions per thread were a tenth of a short block's time when done for every
// block. A fiber that finishes a block waits in fiber_entry to run the same thread of the next.
void prepare_fibers(std::vector<Fiber>& fibers, const StackPool& stacks) {
  for (std::size_t i = 0; i < fibers.size(); ++i) {
    set_thread_index(i, blockDim);
    fibers[i].thread = threadIdx;
    fibers[i].stack_bottom = stacks.bottom(i);
    fibers[i].state = FiberState::kRunnable;
    fibers[i].context = fctx::make_fcontext(fibers[i].stack_bottom + kFiberStackBytes,
                                            kFiberStackBytes, fiber_entry);
  }
}

// Resumes every fiber of a worker that finished its last block once more, to leave for good (so
// that AddressSanitizer frees what it keeps for each stack). Fibers an error abandoned mid-kernel
// stay where they are, as before.
void retire_fibers(BlockFibers& block, std::vector<Fiber>& fibers) {
  g_block = &block;
  block.retiring = true;
  for (std::size_t i = 0; i < fibers.size(); ++i) {
    if (fibers[i].state == FiberState::kFinished) run_round_from(block, i);
  }
  g_block = nullptr;
}

// Runs one block with every thread as a fiber: `block` is the worker's, its fibers those
// prepare_fibers made for the launch, runnable or finished (then they run the next block).
// Returns an error message, empty on success.
std::string run_block_as_fibers(BlockFibers& block, std::vector<Fiber>& fibers,
                                std::uint64_t block_index, const AfterThreadStep& after_step) {
  g_block = &block;
  const std::size_t count = fibers.size();
  for (Fiber& f : fibers) f.state = FiberState::kRunnable;
  block.finished = 0;
  block.at_warp_op = 0;
  block.count = count;
  block.chain_base = 0;
  set_chain_end(block, count);
  // With a step callback: every runnable thread in thread order, each back to the scheduler.
  auto run_round_stepping = [&] {
    for (std::size_t i = 0; i < count; ++i) {
      if (fibers[i].state != FiberState::kRunnable) continue;
      set_chain_end(block, i + 1);
      run_round_from(block, i);
      after_step(block_index, static_cast<std::uint32_t>(i));
    }
  };
  // Chained: one warp after another, each run until none of its lanes can move, its lanes chained
  // in thread order and its complete warp groups released in between. A warp's waits involve its
  // own lanes only, so no warp can free another before the block's barrier; running them one at a
  // time keeps 32 fibers' stacks in the cache at each switch instead of the whole block's (1024
  // stacks' top lines do not fit in L1) and releases each warp's groups right after its round;
  // lesson 6's vectorized sum took about 9 % less CPU time so in one A/B, within the noise in
  // others (docs/PERFORMANCE.md, "Emulator fast path"). CUDA orders nothing between the warps of a
  // block between two barriers, so a kernel's results do not depend on it unless it races (the
  // Lab's race check says so); tests/emulator/test_fast_path.cpp compares both orders.
  // Returns an error message, empty if none.
  // A round may go on past its warp's end (continue_chain): the scheduler goes on from the warp
  // where it stopped.
  auto run_warps = [&]() -> std::string {
    for (block.chain_base = 0; block.chain_base < count; block.chain_base += 32) {
      while (true) {
        std::size_t base = block.chain_base;
        const std::size_t end = std::min(count, base + 32);
        set_chain_end(block, end);
        std::size_t first = base;
        while (first < end && fibers[first].state != FiberState::kRunnable) ++first;
        if (first == end) break;
        run_round_from(block, first);
        base = block.chain_base;
        if (block.at_warp_op == 0) break;
        auto released = release_warp_groups(fibers, base);
        if (std::holds_alternative<std::string>(released)) {
          set_chain_end(block, count);
          return std::get<std::string>(std::move(released));
        }
        const std::size_t lanes = std::get<std::size_t>(released);
        if (lanes == 0) break;
        block.at_warp_op -= lanes;
      }
    }
    set_chain_end(block, count);
    return {};
  };
  std::string error;
  // Each round runs every runnable thread up to its next wait (a barrier or a warp operation) or
  // its end. Then the warp groups that are complete go on; when none is left waiting, the block
  // barrier is either reached by all (everyone goes on), or by some while the others have finished:
  // a divergent barrier, undefined in CUDA.
  while (true) {
    if (block.chain) {
      error = run_warps();
      if (!error.empty()) break;
    } else {
      run_round_stepping();
    }
    if (block.finished == count) break;
    // Chained, every group that could complete has: what is left are the lanes at __activemask()
    // and the errors, as after a round of the whole block.
    auto released = block.at_warp_op == 0 ? std::variant<std::size_t, std::string>(std::size_t{0})
                                          : release_warp_groups(fibers);
    if (std::holds_alternative<std::string>(released)) {
      // The waiting fibers are abandoned mid-kernel: resuming them would run the kernel on with
      // made-up warp results. Kernels hold nothing on their stacks that needs destroying.
      error = std::get<std::string>(std::move(released));
      break;
    }
    if (const std::size_t lanes = std::get<std::size_t>(released); lanes != 0) {
      block.at_warp_op -= lanes;
      continue;
    }
    if (block.finished != 0) {
      error = "__syncthreads() was not reached by every thread of " + block_name() +
              ": a barrier inside a branch that some threads skip deadlocks or corrupts a real "
              "GPU.";
      break;
    }
    // Every thread is at the barrier: release them all.
    for (Fiber& f : fibers) f.state = FiberState::kRunnable;
  }
  g_block = nullptr;
  return error;
}

// Keeps the dynamic shared memory of one worker: `bytes` ending right at an inaccessible page.
class DynamicSharedMemory {
 public:
  explicit DynamicSharedMemory(std::size_t bytes) {
    if (bytes == 0) return;
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t rounded = (bytes + 127) / 128 * 128;
    const std::size_t usable = (rounded + page - 1) / page * page;
    mapped_ = usable + page;
    void* p = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
      mapped_ = 0;
      return;
    }
    base_ = static_cast<unsigned char*>(p);
    mprotect(base_ + usable, page, PROT_NONE);
    start_ = base_ + usable - rounded;
  }
  ~DynamicSharedMemory() {
    if (base_ != nullptr) munmap(base_, mapped_);
  }
  DynamicSharedMemory(const DynamicSharedMemory&) = delete;
  DynamicSharedMemory& operator=(const DynamicSharedMemory&) = delete;
  [[nodiscard]] unsigned char* start() const { return start_; }

 private:
  unsigned char* base_ = nullptr;
  unsigned char* start_ = nullptr;
  std::size_t mapped_ = 0;
};

}  // namespace

namespace {
// Out of the way of the waits below, so that they keep nothing live across the switch but the
// fiber: what a kernel launched as barrier-free gets from a wait.
[[gnu::noinline, gnu::cold]] void syncthreads_outside_fibers() {
  // The kernel was launched as barrier-free: running on would silently break its shared memory.
  g_fiber_misuse = "__syncthreads()";
}
[[gnu::noinline]] std::uint64_t warp_operation_outside_fibers(WarpOp op, std::uint64_t value) {
  g_fiber_misuse = warp_op_name(op);
  return value;
}
}  // namespace

void syncthreads() {
  BlockFibers* block = g_block;
  if (block == nullptr) [[unlikely]] {
    syncthreads_outside_fibers();
    return;
  }
  Fiber& self = *block->running;
  self.state = FiberState::kAtBarrier;
  leave_fiber(*block, self);
  // Resumed in a later round, with threadIdx already restored.
}

// The wait itself is here, not in a function of its own: with the thread-locals in the
// initial-exec model (cuda_emulation.hpp), reading g_block is no call, and GCC keeps nothing of the
// request across the switch but the fiber.
std::uint64_t warp_operation(WarpOp op, unsigned mask, std::uint64_t value, int lane_arg,
                             int width) {
  BlockFibers* block = g_block;
  if (block == nullptr) [[unlikely]]
    return warp_operation_outside_fibers(op, value);
  Fiber& self = *block->running;
  // Field by field: the request's unused bytes stay zero from the fiber's making, and its result
  // is written when its group is released.
  self.warp.mask = mask;
  self.warp.lane_arg = lane_arg;
  self.warp.width = width;
  self.warp.op = op;
  self.warp.value = value;
  self.state = FiberState::kAtWarpOp;
  ++block->at_warp_op;
  leave_fiber(*block, self);
  return self.warp.result;
}

unsigned char* dynamic_shared_memory() {
  return g_dynamic_shared;
}

std::size_t dynamic_shared_memory_bytes() {
  return g_dynamic_shared == nullptr ? 0 : g_dynamic_shared_bytes;
}

namespace {
// The most consecutive blocks one claim takes.
constexpr std::uint64_t kMaxBlockRun = 64;

// Claims the next run of consecutive blocks of a grid of `blocks` for one of `workers` workers:
// [first, end). The runs shrink as the grid runs out (a share of what is left, as OpenMP's guided
// schedule, at most kMaxBlockRun), so the workers still finish together. False once every block
// is taken. Lesson 1's vector add over 2^24 floats ran at 0.75 of one plain loop's speed on two
// workers taking one block of 256 at a time, against 1.6 taking 16 or 64 (the same loop outside
// the emulator, this 2-core machine): interleaved 1 KiB pieces of each array defeat both cores'
// prefetchers, and each claim moved the counter's cache line between the cores.
bool claim_blocks(std::atomic<std::uint64_t>& next, std::uint64_t blocks, unsigned workers,
                  std::uint64_t& first, std::uint64_t& end) {
  std::uint64_t current = next.load(std::memory_order_relaxed);
  while (current < blocks) {
    const std::uint64_t share = (blocks - current) / (4 * std::uint64_t{workers});
    const std::uint64_t run = std::clamp<std::uint64_t>(share, 1, kMaxBlockRun);
    if (next.compare_exchange_weak(current, current + run, std::memory_order_relaxed)) {
      first = current;
      end = current + run;
      return true;
    }
  }
  return false;
}
}  // namespace

unsigned worker_count(const GridOptions& options) {
  if (options.workers != 0) return options.workers;
  return std::max(1u, std::thread::hardware_concurrency());
}

Status run_grid(const LaunchConfig& config, const GridOptions& options,
                const std::function<void()>& thread_body) {
  return run_grid(config, options, thread_body, {});
}

Status run_grid(const LaunchConfig& config, const GridOptions& options,
                const std::function<void()>& thread_body, const std::function<void()>& block_body) {
  TL_RETURN_IF_ERROR(check_launch(config, standard_cuda_limits()));
  if (options.dynamic_shared_bytes > kMaxDynamicSharedBytes) {
    return Error{ErrorKind::kInvalidArgument,
                 "the launch asks for " + std::to_string(options.dynamic_shared_bytes) +
                     " bytes of dynamic shared memory; without an opt-in CUDA allows " +
                     std::to_string(kMaxDynamicSharedBytes) +
                     " per block (too many resources "
                     "requested for launch)"};
  }
  const std::uint64_t blocks = config.grid.volume();
  const std::uint64_t threads_per_block = config.block.volume();
  // A watched grid runs on one worker, the calling thread: only then is a change of memory between
  // two steps the stepping thread's doing.
  const unsigned workers =
      options.after_step
          ? 1u
          : static_cast<unsigned>(std::min<std::uint64_t>(worker_count(options), blocks));

  // A caller far above (the window's background trace) may watch this thread's grids: Cancel is
  // answered at the next block, and the blocks done are its progress bar.
  WorkWatch* const watch = current_work_watch();
  if (watch != nullptr) {
    if (watch->cancelled()) return Error{ErrorKind::kCancelled, "cancelled"};
    watch->grid_blocks.store(blocks, std::memory_order_relaxed);
    watch->total.fetch_add(blocks, std::memory_order_relaxed);
    watch->grids.fetch_add(1, std::memory_order_relaxed);
  }
  std::atomic<bool> cancelled{false};

  std::atomic<std::uint64_t> next_block{0};
  std::atomic<bool> failed{false};
  std::mutex error_mutex;
  std::string first_error;
  auto record_error = [&](std::string message) {
    std::lock_guard lock(error_mutex);
    if (first_error.empty()) first_error = std::move(message);
    failed.store(true, std::memory_order_relaxed);
  };

  auto work = [&] {
    gridDim = dim3(config.grid.x, config.grid.y, config.grid.z);
    blockDim = dim3(config.block.x, config.block.y, config.block.z);
    g_fiber_misuse = nullptr;
    DynamicSharedMemory dynamic_shared(options.dynamic_shared_bytes);
    if (options.dynamic_shared_bytes != 0 && dynamic_shared.start() == nullptr) {
      record_error("the emulator could not allocate " +
                   std::to_string(options.dynamic_shared_bytes) +
                   " bytes of dynamic shared memory");
      return;
    }
    g_dynamic_shared = dynamic_shared.start();
    g_dynamic_shared_bytes = options.dynamic_shared_bytes;
    std::vector<Fiber> fibers;
    std::optional<StackPool> stacks;
    BlockFibers block_fibers;
    block_fibers.body = &thread_body;
    block_fibers.chain = !options.after_step;
    if (options.barriers == Barriers::kUsed) {
      fibers.resize(threads_per_block);
      stacks.emplace(threads_per_block);
      if (!stacks->ok()) {
        record_error("the emulator could not allocate fiber stacks for a block of " +
                     std::to_string(threads_per_block) + " threads");
        return;
      }
      prepare_fibers(fibers, *stacks);
      block_fibers.fibers = fibers.data();
    }
    // Blocks are handed out dynamically, as a GPU's block scheduler does, so a slow block or a
    // worker the machine takes away holds up no one, but in runs of consecutive blocks
    // (claim_blocks): one block at a time, the two workers' blocks interleaved in memory, and each
    // core's prefetchers fetched its neighbour's part of every page.
    std::uint64_t b = 0, run_end = 0;
    while (true) {
      if (b == run_end && !claim_blocks(next_block, blocks, workers, b, run_end)) break;
      if (failed.load(std::memory_order_relaxed)) break;
      if (watch != nullptr && watch->cancelled()) {
        cancelled.store(true, std::memory_order_relaxed);
        failed.store(true, std::memory_order_relaxed);
        break;
      }
      blockIdx.x = static_cast<unsigned>(b % config.grid.x);
      blockIdx.y = static_cast<unsigned>((b / config.grid.x) % config.grid.y);
      blockIdx.z = static_cast<unsigned>(b / (std::uint64_t{config.grid.x} * config.grid.y));
      if (options.barriers == Barriers::kUsed) {
        std::string error = run_block_as_fibers(block_fibers, fibers, b, options.after_step);
        if (!error.empty()) {
          record_error(std::move(error));
          break;
        }
      } else {
        if (options.after_step) {
          std::uint32_t thread = 0;
          for_each_thread_of_block([&] {
            thread_body();
            options.after_step(b, thread++);
          });
        } else if (block_body) {
          block_body();
        } else {
          for_each_thread_of_block(thread_body);
        }
        if (g_fiber_misuse != nullptr) {
          record_error(std::string("the kernel called ") + g_fiber_misuse +
                       " but was launched on the emulator as barrier-free: threads that wait "
                       "for each other need Barriers::kUsed (fibers)");
          break;
        }
      }
      if (watch != nullptr) watch->done.fetch_add(1, std::memory_order_relaxed);
      ++b;
    }
    if (!fibers.empty()) retire_fibers(block_fibers, fibers);
    g_dynamic_shared = nullptr;
  };

  if (workers <= 1) {
    work();
  } else {
    std::vector<std::jthread> pool;
    pool.reserve(workers);
    for (unsigned w = 0; w < workers; ++w) pool.emplace_back(work);
  }
  if (!first_error.empty()) return Error{ErrorKind::kInvalidArgument, first_error};
  if (cancelled.load()) return Error{ErrorKind::kCancelled, "cancelled"};
  return Status::ok();
}

}  // namespace tl::emu

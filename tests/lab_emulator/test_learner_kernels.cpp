// Learners' kernels through the Lab's emulator path: compiled by the system C++ compiler into a
// shared object, loaded and run on the grid executor, with barriers, warp shuffles, atomics and
// dynamic shared memory working; compile errors point at the learner's lines; builds are cached.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "lab/emulator/learner_compiler.hpp"
#include "lab/emulator/learner_module.hpp"

namespace tl::lab {
namespace {

namespace fs = std::filesystem;

class LearnerKernels : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* base = std::getenv("TMPDIR");
    cache_ = fs::path(base != nullptr ? base : "/tmp") /
             ("threadlab-lab-emulator-test-" + std::to_string(::getpid()));
    fs::remove_all(cache_);
  }
  void TearDown() override { fs::remove_all(cache_); }

  // Compiles and loads, failing the test with the compiler's messages if either fails.
  EmulatedLearnerModule build(const std::string& source, const std::string& kernel) {
    const LearnerCompileResult compiled = compile_learner_kernel(source, kernel, cache_);
    if (!compiled) {
      ADD_FAILURE() << compiled.failure().message << "\n" << compiled.failure().diagnostics;
      std::abort();
    }
    Result<EmulatedLearnerModule> module =
        EmulatedLearnerModule::load(compiled.build().shared_object);
    if (!module) {
      ADD_FAILURE() << module.message();
      std::abort();
    }
    return std::move(*module);
  }

  fs::path cache_;
};

TEST_F(LearnerKernels, VectorAddWithAGuardRunsOnEveryElement) {
  const std::string source = R"(#include <cuda_runtime.h>
__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
)";
  EmulatedLearnerModule module = build(source, "vector_add");
  EXPECT_EQ(module.parameter_count(), 4u);
  EXPECT_FALSE(module.uses_fibers());
  const int n = 1000;
  std::vector<float> a(n), b(n), c(n + 24, -1.0f);
  std::iota(a.begin(), a.end(), 0.0f);
  std::iota(b.begin(), b.end(), 1000.0f);
  const float* pa = a.data();
  const float* pb = b.data();
  float* pc = c.data();
  int count = n;
  void* args[] = {&pa, &pb, &pc, &count};
  ASSERT_TRUE(module.launch({4, 1, 1}, {256, 1, 1}, 0, args).is_ok());
  for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << i;
  EXPECT_EQ(c[n], -1.0f) << "the guard let a thread past the end write";
}

TEST_F(LearnerKernels, SharedMemoryTreeReductionWithSyncthreads) {
  const std::string source = R"(
#define BLOCK 256
__global__ void block_sums(const int* in, int* sums, int n) {
  __shared__ int partial[BLOCK];
  extern __shared__ int scratch[];  // the launch's dynamic shared memory: a second copy
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  partial[t] = i < n ? in[i] : 0;
  scratch[t] = partial[t];
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) sums[blockIdx.x] = partial[0] - scratch[0] + scratch[0];
}
)";
  EmulatedLearnerModule module = build(source, "block_sums");
  EXPECT_TRUE(module.uses_fibers());
  const int n = 5000;
  const unsigned blocks = (n + 255) / 256;
  std::vector<int> in(n), sums(blocks, -1);
  std::iota(in.begin(), in.end(), 1);
  const int* pin = in.data();
  int* psums = sums.data();
  int count = n;
  void* args[] = {&pin, &psums, &count};
  ASSERT_TRUE(module.launch({blocks, 1, 1}, {256, 1, 1}, 256 * sizeof(int), args, 2).is_ok());
  long long total = 0;
  for (unsigned b = 0; b < blocks; ++b) {
    long long expected = 0;
    for (int i = static_cast<int>(b) * 256; i < std::min(n, static_cast<int>(b + 1) * 256); ++i) {
      expected += in[i];
    }
    EXPECT_EQ(sums[b], expected) << "block " << b;
    total += sums[b];
  }
  EXPECT_EQ(total, static_cast<long long>(n) * (n + 1) / 2);
}

TEST_F(LearnerKernels, WarpShuffleSumWithAtomicsAcrossBlocks) {
  const std::string source = R"(
__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}
__global__ void sum(const float* __restrict__ x, float* total, int n) {
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    v += __ldg(&x[i]);
  }
  v = warp_sum(v);
  if ((threadIdx.x & 31) == 0) atomicAdd(total, v);
}
)";
  EmulatedLearnerModule module = build(source, "sum");
  EXPECT_TRUE(module.uses_fibers());
  const int n = (1 << 16) + 7;
  std::vector<float> x(n, 1.0f);
  float total = 0.0f;
  const float* px = x.data();
  float* ptotal = &total;
  int count = n;
  void* args[] = {&px, &ptotal, &count};
  ASSERT_TRUE(module.launch({16, 1, 1}, {128, 1, 1}, 0, args, 2).is_ok());
  EXPECT_EQ(total, static_cast<float>(n));
}

TEST_F(LearnerKernels, AnUndefinedWarpOperationIsAnErrorValueNotACrash) {
  const std::string source = R"(
__global__ void early_exit(int* out) {
  if (threadIdx.x == 3) return;
  out[threadIdx.x] = __shfl_xor_sync(0xffffffff, (int)threadIdx.x, 1);
}
)";
  EmulatedLearnerModule module = build(source, "early_exit");
  std::vector<int> out(32);
  int* pout = out.data();
  void* args[] = {&pout};
  const Status status = module.launch({1, 1, 1}, {32, 1, 1}, 0, args);
  ASSERT_FALSE(status.is_ok());
  EXPECT_NE(status.message().find("lane 3"), std::string::npos) << status.message();
}

TEST_F(LearnerKernels, CompileErrorsNameTheLearnersLines) {
  const std::string source =
      "__global__ void broken(float* c, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) c[i] = undeclared_value;\n"
      "}\n";
  const LearnerCompileResult compiled = compile_learner_kernel(source, "broken", cache_);
  ASSERT_FALSE(compiled);
  EXPECT_EQ(compiled.failure().kind, LearnerCompileFailure::Kind::kDoesNotCompile);
  const std::string& log = compiled.failure().diagnostics;
  EXPECT_TRUE(std::regex_search(log, std::regex(R"(kernel\.cu(:3:|\(3\)))"))) << log;
  EXPECT_NE(log.find("undeclared_value"), std::string::npos) << log;
}

TEST_F(LearnerKernels, UnsupportedCudaHeadersAreRefusedByName) {
  const std::string source =
      "#include <cooperative_groups.h>\n"
      "__global__ void k(int* x) { x[0] = 1; }\n";
  const LearnerCompileResult compiled = compile_learner_kernel(source, "k", cache_);
  ASSERT_FALSE(compiled);
  EXPECT_NE(compiled.failure().diagnostics.find("does not support cooperative groups"),
            std::string::npos)
      << compiled.failure().diagnostics;
}

TEST_F(LearnerKernels, TheSecondCompileOfTheSameSourceIsACacheHit) {
  const std::string source = "__global__ void fill(int* x) { x[threadIdx.x] = 7; }\n";
  const LearnerCompileResult first = compile_learner_kernel(source, "fill", cache_);
  ASSERT_TRUE(first) << first.failure().diagnostics;
  EXPECT_FALSE(first.build().from_cache);
  const LearnerCompileResult second = compile_learner_kernel(source, "fill", cache_);
  ASSERT_TRUE(second);
  EXPECT_TRUE(second.build().from_cache);
  EXPECT_EQ(second.build().shared_object, first.build().shared_object);
  // Another define is another build.
  LearnerCompileOptions traced;
  traced.defines = {"TL_LAB_TRACED"};
  const LearnerCompileResult third = compile_learner_kernel(source, "fill", cache_, traced);
  ASSERT_TRUE(third);
  EXPECT_FALSE(third.build().from_cache);
  EXPECT_NE(third.build().shared_object, first.build().shared_object);
}

TEST_F(LearnerKernels, PreludesAndDefinesReachTheKernel) {
  LearnerCompileOptions options;
  options.preludes = {{"my_prelude.cuh", "template <class T> struct View { T* data; };\n"}};
  options.defines = {"SCALE=3"};
  const std::string source =
      "__global__ void scale(View<int> v) { v.data[threadIdx.x] = SCALE * threadIdx.x; }\n";
  const LearnerCompileResult compiled = compile_learner_kernel(source, "scale", cache_, options);
  ASSERT_TRUE(compiled) << compiled.failure().diagnostics;
  Result<EmulatedLearnerModule> module =
      EmulatedLearnerModule::load(compiled.build().shared_object);
  ASSERT_TRUE(module) << module.message();
  std::vector<int> out(8, -1);
  struct View {
    int* data;
  } view{out.data()};
  void* args[] = {&view};
  ASSERT_TRUE(module->launch({1, 1, 1}, {8, 1, 1}, 0, args).is_ok());
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], 3 * i);
}

// The Lab's prelude as the worker passes it: Array<T> views, traced (who wrote each element, a
// write past the end caught and named) and untraced.
TEST_F(LearnerKernels, ExerciseKernelsWithTheLabPreludeRunTracedAndUntraced) {
  std::ifstream prelude_file(THREADLAB_LAB_PRELUDE_PATH);
  std::stringstream prelude;
  prelude << prelude_file.rdbuf();
  ASSERT_FALSE(prelude.str().empty());
  const std::string source = R"(
__global__ void add(Array<const float> a, Array<const float> b, Array<float> c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) c[i] = a[i] + b[i];  // off by one: thread n writes past the end
}
)";
  struct TraceRecord {
    std::uint32_t block, thread_and_sm, iteration, writes;
  };
  // The prelude's LabFault (lab_protocol.hpp's WireFault), then one flag byte per launched thread.
  struct Fault {
    std::uint32_t hit, parameter, is_write, block[3], thread[3], thread_flags, line, reserved;
    std::int64_t row, col, rows, cols;
    unsigned char went_outside[128];
  };
  struct ArrayView {  // the prelude's Array<T>
    float* data;
    int size;
    unsigned parameter;
    TraceRecord* trace;
    Fault* fault;
  };
  for (const bool traced : {false, true}) {
    LearnerCompileOptions options;
    options.preludes = {{"threadlab_lab.cuh", prelude.str()}};
    if (traced) options.defines = {"TL_LAB_TRACED"};
    const LearnerCompileResult compiled = compile_learner_kernel(source, "add", cache_, options);
    ASSERT_TRUE(compiled) << compiled.failure().diagnostics;
    Result<EmulatedLearnerModule> module =
        EmulatedLearnerModule::load(compiled.build().shared_object);
    ASSERT_TRUE(module) << module.message();
    const int n = 100;
    // One spare element past each array's end, as the worker allocates them.
    std::vector<float> a(n + 1, 1.0f), b(n + 1, 2.0f), c(n + 1, 0.0f);
    std::vector<TraceRecord> records(n, TraceRecord{0, 0, 0, 0});
    Fault fault{};
    fault.thread_flags = 1;
    ArrayView va{a.data(), n, 0, nullptr, &fault};
    ArrayView vb{b.data(), n, 1, nullptr, &fault};
    ArrayView vc{c.data(), n, 2, traced ? records.data() : nullptr, &fault};
    int count = n;
    void* args[] = {&va, &vb, &vc, &count};
    ASSERT_TRUE(module->launch({4, 1, 1}, {32, 1, 1}, 0, args).is_ok());
    for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], 3.0f) << i;
    if (traced) {
      // C++17 evaluates the right of `=` first: the first access past the end is the read a[n].
      EXPECT_EQ(fault.hit, 1u);
      EXPECT_EQ(fault.parameter, 0u);
      EXPECT_EQ(fault.is_write, 0u);
      EXPECT_EQ(fault.row, n);
      EXPECT_EQ(fault.block[0], 3u);
      EXPECT_EQ(fault.thread[0], 4u);  // thread 100 = block 3, thread 4
      EXPECT_EQ(fault.line, 4u) << "the access's line in kernel.cu (the raw string's 4th)";
      for (int t = 0; t < 128; ++t) {
        EXPECT_EQ(fault.went_outside[t], t == n ? 1 : 0) << "thread " << t;
      }
      for (int i = 0; i < n; ++i) {
        ASSERT_EQ(records[i].writes, 1u) << i;
        ASSERT_EQ(records[i].block, static_cast<std::uint32_t>(i / 32)) << i;
        ASSERT_EQ(records[i].thread_and_sm & 0xffffu, static_cast<std::uint32_t>(i % 32)) << i;
      }
    } else {
      EXPECT_EQ(fault.hit, 0u);
      EXPECT_EQ(c[n], 3.0f) << "untraced, the write past the end lands in the spare element";
    }
  }
}

// The race check: a build instrumented for shared-memory accesses names both threads of a race.
class SharedMemoryRaces : public LearnerKernels {
 protected:
  // Builds `source` with the race check, runs it on one block of `threads` over an int array, and
  // returns the first race found (empty if none).
  std::string race_in(const std::string& source, unsigned threads, std::size_t dynamic_bytes = 0) {
    LearnerCompileOptions options;
    options.check_shared_races = true;
    const LearnerCompileResult compiled = compile_learner_kernel(source, "k", cache_, options);
    if (!compiled) {
      ADD_FAILURE() << compiled.failure().message << "\n" << compiled.failure().diagnostics;
      return "(did not compile)";
    }
    Result<EmulatedLearnerModule> module =
        EmulatedLearnerModule::load(compiled.build().shared_object);
    if (!module) {
      ADD_FAILURE() << module.message();
      return "(did not load)";
    }
    std::vector<int> data(2 * threads, 1);
    int* pdata = data.data();
    void* args[] = {&pdata};
    const Status status = module->launch({2, 1, 1}, {threads, 1, 1}, dynamic_bytes, args, 2);
    EXPECT_TRUE(status.is_ok()) << status.message();
    return module->last_shared_memory_race();
  }
};

TEST_F(SharedMemoryRaces, AMissingSyncthreadsIsReportedWithBothThreads) {
  const std::string race = race_in(R"(
__global__ void k(int* data) {
  __shared__ int tile[64];
  int t = threadIdx.x;
  tile[t] = data[blockIdx.x * blockDim.x + t];
  // missing __syncthreads()
  data[blockIdx.x * blockDim.x + t] = tile[blockDim.x - 1 - t];
}
)",
                                   64);
  EXPECT_NE(race.find("shared-memory race in block"), std::string::npos) << race;
  // Thread 31 reads tile[32] before thread 32 (which runs after it) writes it. Both blocks race;
  // either may report first, as their workers run at once.
  EXPECT_TRUE(race.starts_with("shared-memory race in block (0, 0, 0): ") ||
              race.starts_with("shared-memory race in block (1, 0, 0): "))
      << race;
  EXPECT_NE(race.find(": thread (32, 0, 0) writes __shared__ tile (in k), byte 128 (word 32), "
                      "which thread (31, 0, 0) read since the last __syncthreads()"),
            std::string::npos)
      << race;
}

// A race after a barrier: each thread reads its neighbour's word after the first __syncthreads()
// and then writes its own again with no second barrier, as a tiled loop missing its second
// __syncthreads() does. After a barrier the emulator may resume another thread on the same OS
// thread; the check went on counting every access as the last thread started and saw nothing.
TEST_F(SharedMemoryRaces, ARaceAfterABarrierNamesTheThreadsThatRan) {
  const std::string race = race_in(R"(
__global__ void k(int* data) {
  __shared__ int tile[64];
  int t = threadIdx.x;
  int sum = 0;
  for (int step = 0; step < 2; ++step) {
    tile[t] = data[blockIdx.x * blockDim.x + t] + step;
    __syncthreads();
    sum += tile[(t + 1) % blockDim.x];
    // missing __syncthreads(): the next step overwrites tile[t] while t - 1 may still read it
  }
  data[blockIdx.x * blockDim.x + t] = sum;
}
)",
                                   64);
  EXPECT_NE(race.find("shared-memory race in block"), std::string::npos) << race;
  // Thread 0 runs first after the barrier: it reads tile[1] and writes tile[0] again; thread 1
  // then reads tile[2] and writes tile[1], which thread 0 read since the last barrier.
  EXPECT_NE(race.find(": thread (1, 0, 0) writes __shared__ tile (in k), byte 4 (word 1), "
                      "which thread (0, 0, 0) read since the last __syncthreads()"),
            std::string::npos)
      << race;
}

TEST_F(SharedMemoryRaces, BarriersAtomicsAndWarpSyncsOrderTheAccesses) {
  const std::string race = race_in(R"(
__global__ void k(int* data) {
  __shared__ int tile[64];
  __shared__ unsigned count;
  int t = threadIdx.x;
  if (t == 0) count = 0;
  tile[t] = data[blockIdx.x * blockDim.x + t];
  __syncthreads();
  atomicAdd(&count, 1u);
  for (int stride = 32; stride > 0; stride /= 2) {  // a tree, then warp-synchronous steps
    if (t < stride) tile[t] += tile[t + stride];
    if (stride > 16) __syncthreads(); else __syncwarp();
  }
  __syncthreads();
  if (t == 0) data[blockIdx.x * blockDim.x] = tile[0] + (int)count;
}
)",
                                   64);
  EXPECT_EQ(race, "");
}

TEST_F(SharedMemoryRaces, RacesInDynamicSharedMemoryAreNamedToo) {
  const std::string race = race_in(R"(
__global__ void k(int* data) {
  extern __shared__ int buffer[];
  buffer[threadIdx.x / 2] = (int)threadIdx.x;  // two threads per word
  __syncthreads();
  data[threadIdx.x] = buffer[threadIdx.x / 2];
}
)",
                                   32, 32 * sizeof(int));
  EXPECT_NE(race.find("thread (1, 0, 0) writes the dynamic shared memory (extern __shared__), "
                      "byte 0 (word 0)"),
            std::string::npos)
      << race;
  EXPECT_NE(race.find("which thread (0, 0, 0) wrote"), std::string::npos) << race;
}

TEST_F(LearnerKernels, AMissingCompilerIsAClearErrorValue) {
  LearnerCompileOptions options;
  options.compiler = "/nonexistent/c++";
  const LearnerCompileResult compiled =
      compile_learner_kernel("__global__ void k() {}\n", "k", cache_, options);
  ASSERT_FALSE(compiled);
  EXPECT_EQ(compiled.failure().kind, LearnerCompileFailure::Kind::kNoCompiler);
  EXPECT_NE(compiled.failure().message.find("no C++ compiler"), std::string::npos);
}

TEST_F(LearnerKernels, AKernelNameThatIsNotAnIdentifierIsRefused) {
  const LearnerCompileResult compiled =
      compile_learner_kernel("__global__ void k() {}\n", "k); evil(", cache_);
  ASSERT_FALSE(compiled);
  EXPECT_EQ(compiled.failure().kind, LearnerCompileFailure::Kind::kBadRequest);
}

}  // namespace
}  // namespace tl::lab

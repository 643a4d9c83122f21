#include <gtest/gtest.h>

#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "lab/worker/kernel_parameters.hpp"
#include "lab/worker/lab_protocol.hpp"
#include "lab/worker/worker_process.hpp"

namespace tl::lab {
namespace {

using namespace std::chrono_literals;

std::unique_ptr<WorkerProcess> shell(const std::string& script, WorkerLimits limits = {}) {
  auto worker = WorkerProcess::start({"/bin/sh", "-c", script}, limits);
  EXPECT_TRUE(worker) << worker.error().message;
  return worker ? std::move(*worker) : nullptr;
}

TEST(WorkerProcess, ExchangesLinesOnItsOwnDescriptorsAndCapturesWhatItPrints) {
  auto worker =
      shell("echo printed by the kernel; read line <&3; echo \"reply to $line\" >&4; sleep 5");
  ASSERT_TRUE(worker);
  const auto reply = worker->exchange("hello", 5s);
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(*reply, "reply to hello");
  EXPECT_NE(worker->take_output().find("printed by the kernel"), std::string::npos);
}

TEST(WorkerProcess, AnEndlessWorkerIsKilledAtTheTimeout) {
  auto worker = shell("while :; do :; done");
  ASSERT_TRUE(worker);
  const auto started = std::chrono::steady_clock::now();
  const auto reply = worker->exchange("run", 300ms);
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().kind, ErrorKind::kTooSlow);
  EXPECT_NE(reply.error().message.find("300 ms"), std::string::npos);
  EXPECT_FALSE(worker->alive());
  // Killed at once, not after the loop "finished" (it never does).
  EXPECT_LT(std::chrono::steady_clock::now() - started, 10s);
}

TEST(WorkerProcess, ACrashIsReportedWithItsSignal) {
  auto worker = shell("read line <&3; kill -SEGV $$");
  ASSERT_TRUE(worker);
  const auto reply = worker->exchange("run", 5s);
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("SIGSEGV"), std::string::npos) << reply.error().message;
  EXPECT_FALSE(worker->alive());
  // Asking a dead worker again is an error, not a hang or a SIGPIPE.
  EXPECT_FALSE(worker->exchange("again", 1s));
}

TEST(WorkerProcess, TheKillReachesWhatTheWorkerStarted) {
  // The worker starts a grandchild that would outlive it; the process group kill takes both.
  auto worker = shell("sleep 30 & echo $! >&4; wait");
  ASSERT_TRUE(worker);
  const auto pid_line = worker->exchange("", 5s);
  ASSERT_TRUE(pid_line) << pid_line.error().message;
  const int grandchild = std::stoi(*pid_line);
  worker->kill_now();
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {
    std::this_thread::sleep_for(20ms);
    gone = ::kill(grandchild, 0) != 0;
  }
  EXPECT_TRUE(gone) << "the worker's child " << grandchild << " survived";
}

// The process limit is the user's tasks now plus headroom: threads count, as RLIMIT_NPROC counts
// them. 64 more threads of this process must show (other processes of the user may come and go
// meanwhile, hence the margin).
TEST(WorkerProcess, TheUsersTasksCountThreads) {
  const std::uint64_t before = user_task_count();
  if (before == 0) GTEST_SKIP() << "no /proc here";
  std::atomic<bool> stop{false};
  std::vector<std::thread> extra;
  for (int i = 0; i < 64; ++i) {
    extra.emplace_back([&] {
      while (!stop) std::this_thread::sleep_for(1ms);
    });
  }
  const std::uint64_t with_threads = user_task_count();
  stop = true;
  for (std::thread& t : extra) t.join();
  EXPECT_GE(with_threads, before + 48) << "before " << before;
}

TEST(WorkerProcess, LimitsApplyToTheWorker) {
  WorkerLimits limits;
  limits.file_size_bytes = 4096;
  auto worker = shell("ulimit -f; read line <&3; echo done >&4", limits);
  ASSERT_TRUE(worker);
  ASSERT_TRUE(worker->exchange("go", 5s));
  // ulimit -f counts 512-byte blocks: 4096 bytes are 8.
  EXPECT_NE(worker->take_output().find("8"), std::string::npos);
}

TEST(SharedRegion, BothSidesSeeTheSameBytes) {
  auto region = SharedRegion::create(1 << 16);
  ASSERT_TRUE(region) << region.error().message;
  std::strcpy(reinterpret_cast<char*>(region->data()), "from the app");
  {
    auto other = SharedRegion::adopt(::dup(region->fd()), 1 << 16);
    ASSERT_TRUE(other) << other.error().message;
    EXPECT_STREQ(reinterpret_cast<const char*>(other->data()), "from the app");
    std::strcpy(reinterpret_cast<char*>(other->data()) + 100, "from the worker");
  }
  EXPECT_STREQ(reinterpret_cast<const char*>(region->data()) + 100, "from the worker");
}

// A worker that could shrink the memory under the app's mapping would make the app's next read
// fault: the size is sealed.
TEST(SharedRegion, TheWorkerCannotShrinkOrGrowIt) {
  auto region = SharedRegion::create(1 << 16);
  ASSERT_TRUE(region) << region.error().message;
  EXPECT_NE(::ftruncate(region->fd(), 0), 0);
  EXPECT_NE(::ftruncate(region->fd(), 1 << 20), 0);
  EXPECT_FALSE(SharedRegion::adopt(::dup(region->fd()), 1 << 20))
      << "a request that claims more bytes than were shared must be refused";
  EXPECT_FALSE(SharedRegion::adopt(-1, 16));
}

// The region reaches the worker only as a descriptor sent with its request: no name in /dev/shm
// that a worker could replace, and nothing left there when either side is killed.
TEST(SharedRegion, ItTravelsWithTheRequestAndHasNoName) {
  auto region = SharedRegion::create(1 << 12);
  ASSERT_TRUE(region) << region.error().message;
  std::strcpy(reinterpret_cast<char*>(region->data()), "sent");
  int pair[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, pair), 0);
  ASSERT_TRUE(write_line(pair[0], "run", region->fd()));
  std::string buffer;
  std::vector<int> received;
  auto line = read_line(pair[1], buffer, &received);
  ASSERT_TRUE(line) << line.error().message;
  EXPECT_EQ(*line, "run");
  ASSERT_EQ(received.size(), 1u);
  auto mapped = SharedRegion::adopt(received[0], 1 << 12);
  ASSERT_TRUE(mapped) << mapped.error().message;
  EXPECT_STREQ(reinterpret_cast<const char*>(mapped->data()), "sent");
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/dev/shm", error)) {
    EXPECT_FALSE(entry.path().filename().string().starts_with("threadlab-lab"))
        << entry.path() << " is a named segment";
  }
  ::close(pair[0]);
  ::close(pair[1]);
}

// Whether `pid` still runs: gone, or a zombie nobody has reaped yet (a container's init may not).
bool still_runs(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const std::size_t paren = text.rfind(')');
  if (text.empty() || paren == std::string::npos || paren + 2 >= text.size()) return false;
  return text[paren + 2] != 'Z' && text[paren + 2] != 'X';
}

// The app killed with SIGKILL (no destructor runs): its worker must not go on spinning.
TEST(WorkerProcess, TheWorkerDiesWithTheProcessThatStartedIt) {
  const std::string pid_file =
      ::testing::TempDir() + "threadlab-worker-pid-" + std::to_string(::getpid());
  std::filesystem::remove(pid_file);
  const pid_t harness = ::fork();
  ASSERT_GE(harness, 0);
  if (harness == 0) {
    // The harness, standing in for the app: starts a worker and waits to be killed.
    auto worker = WorkerProcess::start({"/bin/sh", "-c",
                                        "echo $$ > " + pid_file + ".tmp && mv " + pid_file +
                                            ".tmp " + pid_file + " && exec sleep 600"},
                                       {});
    if (!worker) ::_exit(1);
    for (;;) ::pause();
  }
  pid_t worker = 0;
  for (int i = 0; i < 600 && worker == 0; ++i) {
    std::ifstream in(pid_file);
    if (!(in >> worker)) worker = 0;
    if (worker == 0) std::this_thread::sleep_for(50ms);
  }
  ::kill(harness, SIGKILL);
  ::waitpid(harness, nullptr, 0);
  ASSERT_GT(worker, 0) << "the harness's worker never started";
  bool gone = false;
  for (int i = 0; i < 400 && !gone; ++i) {
    gone = !still_runs(worker);
    if (!gone) std::this_thread::sleep_for(50ms);
  }
  EXPECT_TRUE(gone) << "worker " << worker << " outlived the process that started it";
  if (!gone) ::kill(-worker, SIGKILL);
  std::filesystem::remove(pid_file);
}

// On CPU time, a worker that waits (uses no CPU) is not stopped at the timeout: a busy machine
// slows a kernel down in wall time, not in the CPU time its work needs.
TEST(WorkerProcess, OnCpuTimeAWaitingWorkerIsNotTimedOut) {
  auto worker = shell("read line <&3; sleep 1; echo done >&4; sleep 5");
  ASSERT_TRUE(worker);
  const auto reply = worker->exchange("run", 300ms, WorkerProcess::TimeBasis::kCpu);
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(*reply, "done");
}

TEST(WorkerProcess, OnCpuTimeASpinningWorkerIsStopped) {
  auto worker = shell("while :; do :; done");
  ASSERT_TRUE(worker);
  const auto reply = worker->exchange("run", 300ms, WorkerProcess::TimeBasis::kCpu);
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().kind, ErrorKind::kTooSlow);
  EXPECT_FALSE(worker->alive());
}

TEST(LabProtocol, RequestsAndRepliesSurviveTheWire) {
  RunRequest request;
  request.traced = false;
  request.region_bytes = 4096;
  request.fault_offset = 1024;
  request.grid = {3, 2, 1};
  request.block = {16, 16, 1};
  request.dynamic_shared_bytes = 256;
  request.timed_repeats = 5;
  WireArgument array;
  array.form = ArgumentForm::kMatrixView;
  array.offset = 512;
  array.rows = 3;
  array.cols = 7;
  array.trace_offset = 768;
  array.copy_back = true;
  WireArgument scalar;
  scalar.is_float = true;
  scalar.float_value = 2.5f;
  request.arguments = {array, scalar};
  const auto decoded = decode_run_request(encode(request));
  ASSERT_TRUE(decoded) << decoded.error().message;
  EXPECT_EQ(decoded->grid, request.grid);
  EXPECT_EQ(decoded->block, request.block);
  EXPECT_EQ(decoded->timed_repeats, 5);
  ASSERT_EQ(decoded->arguments.size(), 2u);
  EXPECT_EQ(decoded->arguments[0].form, ArgumentForm::kMatrixView);
  EXPECT_EQ(decoded->arguments[0].cols, 7);
  EXPECT_EQ(decoded->arguments[0].trace_offset, 768);
  EXPECT_TRUE(decoded->arguments[0].copy_back);
  EXPECT_FLOAT_EQ(decoded->arguments[1].float_value, 2.5f);
  EXPECT_EQ(*request_op(encode(request)), "run");

  const RunReply reply{
      false, "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access", true, {1.5}, "a race"};
  const auto back = decode_run_reply(encode(reply));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->error, reply.error);
  EXPECT_TRUE(back->fatal);
  EXPECT_EQ(back->milliseconds, reply.milliseconds);
  EXPECT_EQ(back->finding, "a race");
  EXPECT_FALSE(decode_run_reply("not json"));
}

// What a memory recording needs crosses the wire: the build asked for, the arrays' element size,
// the blocks to record; and the table comes back row for row, with the array each row touches.
TEST(LabProtocol, AMemoryRecordingRequestAndItsTableSurviveTheWire) {
  CompileRequest compile;
  compile.backend = LabBackend::kEmulator;
  compile.record_memory = true;
  const auto compile_back = decode_compile_request(encode(compile));
  ASSERT_TRUE(compile_back) << compile_back.error().message;
  EXPECT_TRUE(compile_back->record_memory);
  EXPECT_FALSE(decode_compile_request(encode(CompileRequest{}))->record_memory);

  RunRequest request;
  request.traced = false;
  request.record_memory = true;
  request.record_blocks = 6;
  WireArgument array;
  array.form = ArgumentForm::kPointer;
  array.cols = 4096;
  array.element_bytes = 4;
  request.arguments = {array};
  const auto run_back = decode_run_request(encode(request));
  ASSERT_TRUE(run_back) << run_back.error().message;
  EXPECT_TRUE(run_back->record_memory);
  EXPECT_EQ(run_back->record_blocks, 6u);
  EXPECT_EQ(run_back->arguments.at(0).element_bytes, 4u);

  RunReply reply;
  reply.ok = true;
  MemoryReply memory;
  memory::LineTotals load;
  load.line = 5;
  load.requests = 32;
  load.lanes = 1024;
  load.sectors = 1024;
  load.ideal_sectors = 128;
  load.lines_touched = 1024;
  load.bytes_requested = 4096;
  memory::LineTotals shared;
  shared.line = 9;
  shared.space = memory::MemorySpace::kShared;
  shared.kind = memory::AccessKind::kStore;
  shared.requests = 32;
  shared.wavefronts = 1024;
  shared.ideal_wavefronts = 32;
  shared.worst_conflict_degree = 32;
  memory.table.rows = {load, shared};
  memory.table.recorded_blocks = 4;
  memory.table.grid_blocks = 16;
  memory.row_argument = {0, MemoryReply::kNoArray};
  memory.lines_note = "";
  memory.dropped_accesses = 77;
  reply.memory = memory;
  const auto back = decode_run_reply(encode(reply));
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_TRUE(back->memory.has_value());
  ASSERT_EQ(back->memory->table.rows.size(), 2u);
  const memory::LineTotals& l = back->memory->table.rows[0];
  EXPECT_EQ(l.line, 5);
  EXPECT_EQ(l.space, memory::MemorySpace::kGlobal);
  EXPECT_EQ(l.kind, memory::AccessKind::kLoad);
  EXPECT_EQ(l.sectors, 1024u);
  EXPECT_EQ(l.ideal_sectors, 128u);
  EXPECT_DOUBLE_EQ(l.sectors_per_request(), 32.0);
  const memory::LineTotals& s = back->memory->table.rows[1];
  EXPECT_EQ(s.space, memory::MemorySpace::kShared);
  EXPECT_EQ(s.kind, memory::AccessKind::kStore);
  EXPECT_EQ(s.bank_conflicts(), 992u);
  EXPECT_EQ(s.worst_conflict_degree, 32u);
  EXPECT_EQ(back->memory->row_argument, (std::vector<int>{0, MemoryReply::kNoArray}));
  EXPECT_TRUE(back->memory->table.extrapolated());
  EXPECT_EQ(back->memory->dropped_accesses, 77u);
  // A reply without a recording has none.
  EXPECT_FALSE(decode_run_reply(encode(RunReply{}))->memory.has_value());
}

// The requests each row keeps for the picture and the arrays' places and loads come back as they
// went, with full 64-bit addresses; the rows' space and kind become their requests'.
TEST(LabProtocol, AMemoryReplysRequestsAndArraysSurviveTheWire) {
  MemoryReply memory;
  memory::LineTotals load;
  load.line = 7;
  load.requests = 3;  // one more than kept: the row was cut
  memory::LineTotals shared;
  shared.line = 8;
  shared.space = memory::MemorySpace::kShared;
  shared.kind = memory::AccessKind::kStore;
  shared.requests = 1;
  memory.table.rows = {load, shared};
  memory.row_argument = {1, MemoryReply::kNoArray};
  constexpr std::uint64_t kBase = 0x7f12'3456'7000;
  memory::WarpRequest first;
  first.block = 5;
  first.warp = 2;
  first.occurrence = 9;
  for (std::uint32_t l = 0; l < 32; l += 2) first.lanes.push_back({l, kBase + 4 * l, 4});
  memory::WarpRequest second = first;
  second.block = 6;
  second.lanes = {{31, kBase + 4096, 16}};
  memory::WarpRequest banked;
  banked.lanes = {{0, 132, 4}, {1, 4, 4}};
  memory.row_requests = {{first, second}, {banked}};
  MemoryReply::RecordedArray array;
  array.argument = 1;
  array.address = kBase;
  array.bytes = 1200;
  array.element_bytes = 4;
  array.rows = 10;
  array.cols = 30;
  array.loads = {4800, 300, 2};
  memory.arrays = {array};
  RunReply reply;
  reply.ok = true;
  reply.memory = memory;
  EXPECT_TRUE(memory.requests_cut());

  const auto back = decode_run_reply(encode(reply));
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_TRUE(back->memory.has_value());
  const MemoryReply& m = *back->memory;
  ASSERT_EQ(m.row_requests.size(), 2u);
  ASSERT_EQ(m.row_requests[0].size(), 2u);
  const memory::WarpRequest& r = m.row_requests[0][0];
  EXPECT_EQ(r.block, 5u);
  EXPECT_EQ(r.warp, 2u);
  EXPECT_EQ(r.occurrence, 9u);
  EXPECT_EQ(r.space, memory::MemorySpace::kGlobal);
  EXPECT_EQ(r.kind, memory::AccessKind::kLoad);
  ASSERT_EQ(r.lanes.size(), 16u);
  EXPECT_EQ(r.lanes[3].lane, 6u);
  EXPECT_EQ(r.lanes[3].address, kBase + 24);
  EXPECT_EQ(r.lanes[3].bytes, 4u);
  EXPECT_EQ(m.row_requests[0][1].lanes.at(0).bytes, 16u);
  EXPECT_EQ(m.row_requests[0][1].lanes.at(0).address, kBase + 4096);
  ASSERT_EQ(m.row_requests[1].size(), 1u);
  EXPECT_EQ(m.row_requests[1][0].space, memory::MemorySpace::kShared);
  EXPECT_EQ(m.row_requests[1][0].kind, memory::AccessKind::kStore);
  EXPECT_EQ(m.row_requests[1][0].lanes.at(0).address, 132u);
  EXPECT_TRUE(m.requests_cut()) << "3 requests counted, 2 kept";
  ASSERT_EQ(m.arrays.size(), 1u);
  EXPECT_EQ(m.arrays[0].argument, 1);
  EXPECT_EQ(m.arrays[0].address, kBase);
  EXPECT_EQ(m.arrays[0].bytes, 1200u);
  EXPECT_EQ(m.arrays[0].element_bytes, 4u);
  EXPECT_EQ(m.arrays[0].rows, 10);
  EXPECT_EQ(m.arrays[0].cols, 30);
  EXPECT_EQ(m.arrays[0].loads.element_loads, 4800u);
  EXPECT_EQ(m.arrays[0].loads.block_elements, 300u);
  EXPECT_EQ(m.arrays[0].loads.blocks, 2u);
  EXPECT_DOUBLE_EQ(m.arrays[0].loads.loads_per_element(), 16.0);

  memory.table.rows[0].requests = 2;
  EXPECT_FALSE(memory.requests_cut()) << "every request kept";
}

TEST(LabProtocol, ACopyRequestSurvivesTheWireAndNamesItsOp) {
  const CopyRequest request{12582912, 4};
  const std::string line = encode(request);
  EXPECT_EQ(*request_op(line), "copy");
  const auto decoded = decode_copy_request(line);
  ASSERT_TRUE(decoded) << decoded.error().message;
  EXPECT_EQ(decoded->bytes, request.bytes);
  EXPECT_EQ(decoded->repeats, 4);
  EXPECT_FALSE(decode_copy_request("{\"op\":\"copy\"}"));
}

}  // namespace
}  // namespace tl::lab

namespace tl::lab {
namespace {

// Both backends hand the kernel its views through write_parameter: the bytes must be the
// prelude's Array<T> and Matrix<T>, field by field.
TEST(KernelParameters, ViewsAreLaidOutAsThePreludeDeclaresThem) {
  WireArgument matrix;
  matrix.form = ArgumentForm::kMatrixView;
  matrix.rows = 3;
  matrix.cols = 7;
  ParameterSlot slot{};
  write_parameter(matrix, 2, 0x1000, 0x2000, 0x3000, slot);
  std::uint64_t address = 0;
  std::int32_t extent = 0;
  std::uint32_t parameter = 0;
  std::memcpy(&address, slot.data(), 8);
  EXPECT_EQ(address, 0x1000u);
  std::memcpy(&extent, slot.data() + 8, 4);
  EXPECT_EQ(extent, 3);
  std::memcpy(&extent, slot.data() + 12, 4);
  EXPECT_EQ(extent, 7);
  std::memcpy(&address, slot.data() + 16, 8);
  EXPECT_EQ(address, 0x2000u);
  std::memcpy(&address, slot.data() + 24, 8);
  EXPECT_EQ(address, 0x3000u);
  std::memcpy(&parameter, slot.data() + 32, 4);
  EXPECT_EQ(parameter, 2u);

  WireArgument array = matrix;
  array.form = ArgumentForm::kArrayView;
  write_parameter(array, 1, 0x1000, 0, 0x3000, slot);
  std::memcpy(&extent, slot.data() + 8, 4);
  EXPECT_EQ(extent, 21) << "an Array's size is every element";
  std::memcpy(&parameter, slot.data() + 12, 4);
  EXPECT_EQ(parameter, 1u);

  WireArgument scalar;
  scalar.is_float = true;
  scalar.float_value = 2.5f;
  write_parameter(scalar, 0, 0, 0, 0, slot);
  float value = 0;
  std::memcpy(&value, slot.data(), 4);
  EXPECT_EQ(value, 2.5f);
}

}  // namespace
}  // namespace tl::lab

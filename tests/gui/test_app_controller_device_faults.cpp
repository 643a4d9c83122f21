// The controller when the device fails under it, on the CPU emulator: a sticky CUDA error whose
// reset works (the GPU path no machine here ever takes: the H100's driver refuses the device to
// the same process after an illegal address), the same error where the reset fails (the emulator
// takes over), and a size that does not fit the device's memory.
//
// The device is the emulator wrapped in a FaultyDevice, handed to the app through its emulator
// backend (compute::set_next_emulator_device_for_tests). It fails on cue the way a CUDA context
// does: the next synchronize() reports a sticky error, then every call fails until reset().

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "app_controller.hpp"
#include "compute/device.hpp"
#include "controller_test_support.hpp"
#include "lessons/01_vector_add/vector_add.hpp"
#include "platform/egl_context.hpp"

namespace tl::ui {
namespace {

constexpr const char* kStickyText =
    "an illegal memory access was encountered (cudaErrorIllegalAddress), from the test device";

// What the test arms and reads; it outlives the device (the app may drop the device).
struct Probe {
  std::atomic<bool> fail_next_sync{false};
  std::atomic<bool> broken{false};  // a sticky error happened and no reset has cleared it
  std::atomic<bool> reset_succeeds{true};
  std::atomic<int> resets{0};
  std::atomic<int> in_flight{0};                   // device calls running now (reset excluded)
  std::atomic<int> in_flight_at_reset{-1};         // the most seen at any reset()
  std::atomic<int> live_allocations_at_reset{-1};  // the most seen at any reset()
  std::atomic<int> stale_uses{0};                  // memory allocated before a reset, used after it
  std::atomic<std::uint64_t> memory_limit{0};      // 0: the emulator's own; else free + used
  std::atomic<bool> destroyed{false};
};

class FaultyDevice final : public compute::Device {
 public:
  FaultyDevice(std::unique_ptr<compute::Device> inner, std::shared_ptr<Probe> probe)
      : inner_(std::move(inner)), probe_(std::move(probe)), info_(inner_->info()) {
    info_.name = "Test device over " + info_.name;
  }
  ~FaultyDevice() override {
    for (const auto& [pointer, allocation] : allocations_) inner_->release(pointer);
    probe_->destroyed = true;
  }

  [[nodiscard]] bool is_gpu() const override { return false; }
  [[nodiscard]] const DeviceInfo& info() const override { return info_; }
  [[nodiscard]] const kernels::KernelRegistry& kernels() const override {
    return inner_->kernels();
  }

  Result<void*> allocate(std::size_t bytes) override {
    const Call call(*probe_);
    if (probe_->broken) return sticky();
    std::lock_guard lock(mutex_);
    const std::uint64_t limit = probe_->memory_limit;
    if (limit > 0 && used_bytes_ + bytes > limit) {
      return Error{ErrorKind::kOutOfMemory, "out of memory (the test device's limit)"};
    }
    auto pointer = inner_->allocate(bytes);
    if (!pointer) return pointer;
    allocations_[*pointer] = {bytes, generation_};
    used_bytes_ += bytes;
    return pointer;
  }
  void release(void* pointer) override {
    const Call call(*probe_);
    std::lock_guard lock(mutex_);
    const auto found = allocations_.find(pointer);
    if (found == allocations_.end()) return;
    if (found->second.generation != generation_) ++probe_->stale_uses;
    used_bytes_ -= found->second.bytes;
    allocations_.erase(found);
    inner_->release(pointer);
  }
  Status copy_to_device(void* dst, const void* src, std::size_t bytes) override {
    const Call call(*probe_);
    TL_RETURN_IF_ERROR(usable(dst));
    return inner_->copy_to_device(dst, src, bytes);
  }
  Status copy_to_host(void* dst, const void* src, std::size_t bytes) override {
    const Call call(*probe_);
    TL_RETURN_IF_ERROR(usable(src));
    return inner_->copy_to_host(dst, src, bytes);
  }
  Status fill_zero(void* dst, std::size_t bytes) override {
    const Call call(*probe_);
    TL_RETURN_IF_ERROR(usable(dst));
    return inner_->fill_zero(dst, bytes);
  }
  Status copy_on_device(void* dst, const void* src, std::size_t bytes) override {
    const Call call(*probe_);
    TL_RETURN_IF_ERROR(usable(dst));
    TL_RETURN_IF_ERROR(usable(src));
    return inner_->copy_on_device(dst, src, bytes);
  }
  // Kernel errors surface here, as on a GPU.
  Status synchronize() override {
    const Call call(*probe_);
    if (probe_->fail_next_sync.exchange(false)) probe_->broken = true;
    if (probe_->broken) return sticky();
    return inner_->synchronize();
  }
  Status reset() override {
    probe_->in_flight_at_reset =
        std::max(probe_->in_flight_at_reset.load(), probe_->in_flight.load());
    {
      std::lock_guard lock(mutex_);
      probe_->live_allocations_at_reset =
          std::max(probe_->live_allocations_at_reset.load(), static_cast<int>(allocations_.size()));
    }
    ++probe_->resets;
    if (!probe_->reset_succeeds) {
      return Error{ErrorKind::kCudaStickyError,
                   "cudaDeviceReset: the test device refuses to come back"};
    }
    std::lock_guard lock(mutex_);
    ++generation_;  // every allocation made before is gone, as after cudaDeviceReset
    probe_->broken = false;
    return Status::ok();
  }
  Result<std::vector<double>> time_repeated(const std::function<Status()>& work, int warmup,
                                            int repeats) override {
    const Call call(*probe_);
    if (probe_->broken) return sticky();
    return inner_->time_repeated(work, warmup, repeats);
  }
  Result<compute::MemoryInfo> memory_info() override {
    const Call call(*probe_);
    if (probe_->broken) return sticky();
    const std::uint64_t limit = probe_->memory_limit;
    if (limit == 0) return inner_->memory_info();
    std::lock_guard lock(mutex_);
    return compute::MemoryInfo{limit - std::min<std::uint64_t>(limit, used_bytes_), limit};
  }

 private:
  struct Allocation {
    std::size_t bytes = 0;
    int generation = 0;
  };
  struct Call {
    explicit Call(Probe& p) : probe(p) { ++probe.in_flight; }
    ~Call() { --probe.in_flight; }
    Call(const Call&) = delete;
    Call& operator=(const Call&) = delete;
    Probe& probe;
  };

  static Error sticky() { return Error{ErrorKind::kCudaStickyError, kStickyText}; }

  // A sticky error fails every call; memory from before a reset is gone.
  Status usable(const void* pointer) {
    if (probe_->broken) return sticky();
    std::lock_guard lock(mutex_);
    auto found = allocations_.upper_bound(const_cast<void*>(pointer));
    if (found == allocations_.begin()) return Status::ok();
    --found;
    const auto* start = static_cast<const char*>(found->first);
    if (static_cast<const char*>(pointer) < start + std::max<std::size_t>(found->second.bytes, 1) &&
        found->second.generation != generation_) {
      ++probe_->stale_uses;
      return Error{ErrorKind::kCudaError, "memory from before the reset (test device)"};
    }
    return Status::ok();
  }

  std::unique_ptr<compute::Device> inner_;
  std::shared_ptr<Probe> probe_;
  DeviceInfo info_;
  std::mutex mutex_;
  std::map<void*, Allocation, std::less<>> allocations_;
  std::uint64_t used_bytes_ = 0;
  int generation_ = 0;
};

bool has_message(const AppState& s, Severity severity, const std::string& part) {
  return std::any_of(s.messages.begin(), s.messages.end(), [&](const Message& m) {
    return m.severity == severity && m.text.find(part) != std::string::npos;
  });
}

std::string all_messages(const AppState& s) {
  std::string text;
  for (const Message& m : s.messages) text += "  " + m.text + "\n";
  return text;
}

class DeviceFaultTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto gl = platform::EglContext::create({});
    ASSERT_TRUE(gl.is_ok()) << gl.message();
    gl_ = std::move(*gl);
    probe_ = std::make_shared<Probe>();
    compute::set_next_emulator_device_for_tests(
        std::make_unique<FaultyDevice>(compute::make_emulator_device(), probe_));
    auto controller = AppController::create(
        test_support::emulator_options(gl_->renderer(), "threadlab_device_fault_test"));
    compute::set_next_emulator_device_for_tests(nullptr);  // never another test's
    ASSERT_TRUE(controller.is_ok()) << controller.message();
    controller_ = std::move(*controller);
    wait_until_idle();
    const AppState& s = controller_->state();
    ASSERT_EQ(s.backend, BackendKind::kEmulator);
    ASSERT_NE(s.device.name.find("Test device"), std::string::npos) << s.device.name;
    ASSERT_TRUE(s.trace.valid) << s.trace.error;
    ASSERT_EQ(probe_->resets, 0);
  }
  void TearDown() override {
    controller_.reset();
    compute::set_next_emulator_device_for_tests(nullptr);
  }

  void wait_until_idle() { test_support::wait_until_idle(*controller_); }

  // A launch (traced, then timed) whose picture and timing both pass their checks and draw.
  void expect_a_good_launch(const std::string& context) {
    SCOPED_TRACE(context);
    const std::uint64_t before = controller_->state().trace.launch_number;
    controller_->launch();
    wait_until_idle();
    const AppState& s = controller_->state();
    EXPECT_EQ(s.trace.launch_number, before + 1);
    ASSERT_TRUE(s.trace.valid) << s.trace.error;
    EXPECT_TRUE(s.trace.error.empty()) << s.trace.error;
    ASSERT_TRUE(s.trace.check.has_value());
    EXPECT_TRUE(s.trace.check->passed) << s.trace.check->description;
    EXPECT_EQ(s.trace.unwritten, 0u);
    EXPECT_EQ(s.trace.n, s.controls.elements());
    const auto texture = controller_->render_mapping({640, 480});
    ASSERT_TRUE(texture.is_ok()) << texture.message();
    EXPECT_NE(*texture, 0u);
    ASSERT_TRUE(s.timed.report.has_value()) << s.timed.error;
    ASSERT_TRUE(s.timed.report->check.has_value());
    EXPECT_TRUE(s.timed.report->check->passed) << s.timed.report->check->description;
  }

  std::unique_ptr<platform::EglContext> gl_;
  std::shared_ptr<Probe> probe_;
  std::unique_ptr<AppController> controller_;
};

TEST_F(DeviceFaultTest, AStickyErrorWhoseResetWorksKeepsTheBackendAndTheNextLaunchDraws) {
  const std::string device_name = controller_->state().device.name;
  const std::string backend_reason = controller_->state().backend_reason;
  const std::uint64_t n = controller_->state().controls.elements();

  probe_->fail_next_sync = true;
  controller_->launch();
  {
    // Straight after the failed traced launch, before any background work is collected.
    const AppState& s = controller_->state();
    EXPECT_EQ(probe_->resets, 1);
    EXPECT_FALSE(probe_->broken);
    // Nothing else was using the device when it was reset, and the lesson had let go of its
    // memory (the reset takes every allocation with it).
    EXPECT_EQ(probe_->in_flight_at_reset, 0);
    EXPECT_EQ(probe_->live_allocations_at_reset, 0);
    EXPECT_FALSE(s.timing.sweeping);
    EXPECT_NE(s.trace.error.find("cudaErrorIllegalAddress"), std::string::npos) << s.trace.error;
    EXPECT_TRUE(has_message(s, Severity::kError, "cudaErrorIllegalAddress")) << all_messages(s);
    EXPECT_TRUE(has_message(s, Severity::kWarning, "The GPU was reset")) << all_messages(s);
    EXPECT_TRUE(has_message(s, Severity::kWarning, "you can launch again")) << all_messages(s);
    // The same backend and the same device: reset, not replaced.
    EXPECT_EQ(s.backend, BackendKind::kEmulator);
    EXPECT_EQ(s.backend_reason, backend_reason);
    EXPECT_EQ(s.device.name, device_name);
    EXPECT_FALSE(has_message(s, Severity::kError, "cannot be used again")) << all_messages(s);
    // The failed launch wrote nothing, and its picture says so.
    EXPECT_TRUE(s.trace.valid);
    EXPECT_EQ(s.trace.unwritten, n);
  }
  // The timed run that launch started came after the reset, on the recovered device.
  wait_until_idle();
  {
    const AppState& s = controller_->state();
    ASSERT_TRUE(s.timed.report.has_value()) << s.timed.error;
    EXPECT_TRUE(s.timed.report->check->passed);
  }

  // The next launch goes through the re-created trace sink and draws a checked picture.
  expect_a_good_launch("the launch after the reset");
  EXPECT_EQ(probe_->resets, 1);
  EXPECT_EQ(probe_->stale_uses, 0);
  EXPECT_FALSE(probe_->destroyed);
  EXPECT_EQ(controller_->state().device.name, device_name);
  EXPECT_EQ(controller_->state().backend, BackendKind::kEmulator);
}

// A size sweep runs with OnJobError::kContinue, so after the sticky error every later job fails on
// the broken device too. One fault must still mean one reset and one message (it once meant a
// reset per failed job: 15 resets, and where the reset failed, the emulator that took over reset
// too and said the GPU was reset).
TEST_F(DeviceFaultTest, AStickyErrorInABackgroundSweepStopsTheSweepBeforeTheReset) {
  const std::string device_name = controller_->state().device.name;
  controller_->start_sweep(SweepKind::kSize);
  ASSERT_TRUE(controller_->busy());
  probe_->fail_next_sync = true;  // the job running now, or the next one, hits it
  wait_until_idle();
  const AppState& s = controller_->state();
  EXPECT_FALSE(controller_->busy());
  EXPECT_FALSE(s.timing.sweeping);
  EXPECT_EQ(probe_->resets, 1) << all_messages(s);
  EXPECT_EQ(probe_->in_flight_at_reset, 0);  // the runner had stopped: nobody used the device
  EXPECT_EQ(probe_->live_allocations_at_reset, 0);
  EXPECT_FALSE(probe_->broken);
  EXPECT_TRUE(has_message(s, Severity::kError, "cudaErrorIllegalAddress")) << all_messages(s);
  EXPECT_TRUE(has_message(s, Severity::kWarning, "The GPU was reset")) << all_messages(s);
  EXPECT_EQ(s.device.name, device_name);

  expect_a_good_launch("the launch after the sweep's reset");
  EXPECT_EQ(probe_->stale_uses, 0);
}

TEST_F(DeviceFaultTest, AStickyErrorInASweepWhoseResetFailsMovesToTheEmulatorOnce) {
  controller_->start_sweep(SweepKind::kSize);
  ASSERT_TRUE(controller_->busy());
  probe_->reset_succeeds = false;
  probe_->fail_next_sync = true;
  wait_until_idle();
  const AppState& s = controller_->state();
  EXPECT_FALSE(s.timing.sweeping);
  EXPECT_EQ(probe_->resets, 1) << all_messages(s);
  EXPECT_EQ(s.backend, BackendKind::kEmulator);
  EXPECT_TRUE(has_message(s, Severity::kError, "the lesson goes on on the CPU emulator"))
      << all_messages(s);
  // The emulator that took over is not "reset" by the sweep's later failures.
  EXPECT_FALSE(has_message(s, Severity::kWarning, "The GPU was reset")) << all_messages(s);
  expect_a_good_launch("the launch on the emulator after the sweep's fault");
}

TEST_F(DeviceFaultTest, AStickyErrorWhoseResetFailsMovesToTheEmulatorAndSaysWhy) {
  const std::string device_name = controller_->state().device.name;
  probe_->reset_succeeds = false;
  probe_->fail_next_sync = true;
  controller_->launch();
  {
    const AppState& s = controller_->state();
    EXPECT_EQ(probe_->resets, 1);
    EXPECT_EQ(probe_->in_flight_at_reset, 0);
    // The broken device is gone, a fresh emulator took its place, and the user is told why.
    EXPECT_TRUE(probe_->destroyed);
    EXPECT_EQ(s.backend, BackendKind::kEmulator);
    EXPECT_NE(s.device.name, device_name);
    EXPECT_NE(s.device.name.find("CPU emulator"), std::string::npos) << s.device.name;
    EXPECT_NE(s.backend_reason.find("cannot be used again until ThreadLab restarts"),
              std::string::npos)
        << s.backend_reason;
    EXPECT_NE(s.backend_reason.find("cudaErrorIllegalAddress"), std::string::npos)
        << s.backend_reason;
    EXPECT_TRUE(has_message(s, Severity::kError, "the lesson goes on on the CPU emulator"))
        << all_messages(s);
    EXPECT_FALSE(has_message(s, Severity::kWarning, "The GPU was reset")) << all_messages(s);
    EXPECT_FALSE(s.ceilings.has_value());  // they were the old device's
  }
  wait_until_idle();
  expect_a_good_launch("the launch on the emulator");
  EXPECT_EQ(probe_->resets, 1);
}

TEST_F(DeviceFaultTest, ASizeBeyondTheDevicesFreeMemoryIsRefusedWithAClearMessage) {
  const AppState& s = controller_->state();
  const lessons::ParamValues before = s.controls.values;
  const std::string device_name = s.device.name;
  const std::uint64_t launches = s.trace.launch_number;
  const std::string small_n = before.at("n");

  probe_->memory_limit = std::uint64_t{4} << 20;  // 4 MiB free: N = 2^20 needs 24 MiB here
  controller_->set_param("n", std::to_string(1u << 20));
  ASSERT_EQ(s.controls.values.at("n"), std::to_string(1u << 20)) << all_messages(s);
  controller_->launch();
  wait_until_idle();

  // A request refused before launching has no picture, only its message: no stale picture of the
  // previous size, and the renderer says why instead of drawing.
  EXPECT_EQ(s.trace.launch_number, launches + 1);
  EXPECT_FALSE(s.trace.valid);
  // On the emulator the arrays live twice in this computer's memory (the host's and the emulated
  // device's), and the check counts both: 24 MiB.
  EXPECT_NE(s.trace.error.find("needs 24.00 MiB for A, B and C on the host and again as the "
                               "emulator's device arrays"),
            std::string::npos)
      << s.trace.error;
  EXPECT_NE(s.trace.error.find("but only 4.00 MiB is available"), std::string::npos)
      << s.trace.error;
  EXPECT_NE(s.trace.error.find("the largest N that fits is"), std::string::npos) << s.trace.error;
  EXPECT_TRUE(has_message(s, Severity::kError, "the largest N that fits is")) << all_messages(s);
  const auto texture = controller_->render_mapping({640, 480});
  ASSERT_FALSE(texture.is_ok());
  EXPECT_EQ(texture.message(), s.trace.error);
  // The timed run is refused the same way.
  EXPECT_FALSE(s.timed.report.has_value());
  EXPECT_NE(s.timed.error.find("is available"), std::string::npos) << s.timed.error;
  // Out of memory is not a broken device: no reset, no move to another device, the lesson and its
  // other controls as they were, the requested N kept to be corrected.
  EXPECT_EQ(probe_->resets, 0);
  EXPECT_FALSE(probe_->destroyed);
  EXPECT_EQ(s.device.name, device_name);
  EXPECT_EQ(s.backend, BackendKind::kEmulator);
  EXPECT_FALSE(has_message(s, Severity::kWarning, "The GPU was reset")) << all_messages(s);
  EXPECT_FALSE(has_message(s, Severity::kError, "cannot be used again")) << all_messages(s);
  EXPECT_EQ(s.controls.lesson_id, lessons::kVectorAddId);
  for (const auto& [name, value] : before) {
    if (name != "n") EXPECT_EQ(s.controls.values.at(name), value) << name;
  }

  // A size that fits launches, draws and checks, on the same device.
  controller_->set_param("n", small_n);
  expect_a_good_launch("the launch of a size that fits");
  EXPECT_EQ(s.device.name, device_name);
  EXPECT_EQ(probe_->resets, 0);
}

}  // namespace
}  // namespace tl::ui

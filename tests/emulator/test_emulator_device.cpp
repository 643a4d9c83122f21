// The emulator device's answers to what only a GPU has.

#include <gtest/gtest.h>

#include <vector>

#include <filesystem>
#include <fstream>

#include "compute/ceilings.hpp"
#include "compute/device.hpp"

namespace tl::compute {
namespace {

TEST(EmulatorDevice, HasNoKernelResourcesAndSaysWhy) {
  auto device = make_emulator_device();
  auto resources = device->kernel_resources("vector_add");
  ASSERT_FALSE(resources.is_ok());
  EXPECT_EQ(resources.error().kind, ErrorKind::kNoDevice);
  EXPECT_NE(resources.message().find("NVIDIA GPU"), std::string::npos) << resources.message();
  EXPECT_FALSE(device->active_blocks_per_sm("vector_add", 256, 0).is_ok());
  EXPECT_FALSE(can_compute_occupancy(device->info()));
}

TEST(EmulatorDevice, CopiesWithinItsMemory) {
  auto device = make_emulator_device();
  auto a = allocate_array<float>(*device, 1000);
  auto b = allocate_array<float>(*device, 1000);
  ASSERT_TRUE(a.is_ok() && b.is_ok());
  std::vector<float> values(1000);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) * 0.5f;
  ASSERT_TRUE(device->copy_to_device(a->data(), values.data(), a->bytes()).is_ok());
  ASSERT_TRUE(device->copy_on_device(b->data(), a->data(), a->bytes()).is_ok());
  std::vector<float> back(1000);
  ASSERT_TRUE(device->copy_to_host(back.data(), b->data(), b->bytes()).is_ok());
  EXPECT_EQ(back, values);
}

// The first timed figure after start came from a cold thread pool (4 ms for a 13 µs kernel): a
// warm-up of tiny runs goes on for some milliseconds, bounded in runs; a caller that asks for no
// warm-up gets none (its work may accumulate).
TEST(EmulatorDevice, WarmsUpLongerThanOneTinyRunButBoundedAndOnlyWhenAsked) {
  auto device = make_emulator_device();
  int runs = 0;
  auto tiny = [&runs] {
    ++runs;
    return Status::ok();
  };
  auto times = device->time_repeated(tiny, 1, 3);
  ASSERT_TRUE(times.is_ok()) << times.message();
  EXPECT_EQ(times->size(), 3u);
  EXPECT_GT(runs, 1 + 3) << "more than one warm-up run for work this small";
  EXPECT_LE(runs, 1 + 50 + 3) << "bounded";
  runs = 0;
  ASSERT_TRUE(device->time_repeated(tiny, 0, 3).is_ok());
  EXPECT_EQ(runs, 3);
}

TEST(EmulatorDevice, HasACopyCeilingButNoSgemmOne) {
  auto device = make_emulator_device();
  auto ceilings = measure_ceilings(*device);
  ASSERT_TRUE(ceilings.is_ok()) << ceilings.message();
  EXPECT_GT(ceilings->copy_bytes_per_second, 0);
  EXPECT_GT(ceilings->copy_buffer_bytes, 0u);
  EXPECT_EQ(ceilings->sgemm_flops_per_second, 0);
  EXPECT_NE(ceilings->sgemm_absent.find("cuBLAS"), std::string::npos);
  EXPECT_FALSE(ceilings->measured_at.empty());
}

TEST(EmulatorDevice, CeilingsAreMeasuredOnceThenReadFromTheCache) {
  auto device = make_emulator_device();
  const auto path =
      std::filesystem::path(::testing::TempDir()) / "threadlab_cache_test" / "ceilings.json";
  std::filesystem::remove(path);
  std::string warning;
  auto first = cached_ceilings(*device, path, warning);
  ASSERT_TRUE(first.is_ok()) << first.message();
  EXPECT_TRUE(warning.empty()) << warning;
  ASSERT_TRUE(std::filesystem::exists(path));
  // The second answer is the stored one, exactly (a new measurement would differ in its time).
  auto second = cached_ceilings(*device, path, warning);
  ASSERT_TRUE(second.is_ok());
  EXPECT_EQ(*second, *first);

  // A corrupt cache is a warning; the ceilings are measured anyway and the file repaired.
  std::ofstream(path) << "{ corrupt";
  auto repaired = cached_ceilings(*device, path, warning);
  ASSERT_TRUE(repaired.is_ok());
  EXPECT_NE(warning.find("ignoring the ceilings cache"), std::string::npos) << warning;
  EXPECT_TRUE(CeilingsCache::load(path).is_ok());
}

}  // namespace
}  // namespace tl::compute

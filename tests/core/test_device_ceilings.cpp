#include "core/device_ceilings.hpp"
#include "core/own_ceiling.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace tl {
namespace {

std::filesystem::path temp_file(const std::string& name) {
  const auto path = std::filesystem::path(::testing::TempDir()) / "threadlab_ceilings" / name;
  std::filesystem::remove_all(path.parent_path() / name);
  return path;
}

DeviceCeilings h100() {
  DeviceCeilings c;
  c.copy_bytes_per_second = 3.02e12;
  c.copy_buffer_bytes = 512u << 20;
  c.sgemm_flops_per_second = 51.2e12;
  c.sgemm_size = 4096;
  c.measured_at = "2026-11-23T14:00:00Z";
  return c;
}

TEST(DeviceCeilings, ShareOfCeilingNeedsAKnownCeiling) {
  EXPECT_DOUBLE_EQ(*share_of_ceiling(2.764e12, 3.352e12), 2.764 / 3.352);
  EXPECT_FALSE(share_of_ceiling(1e9, 0).has_value());
  EXPECT_FALSE(share_of_ceiling(-1, 1e9).has_value());
}

TEST(DeviceCeilings, ResultsAreComparedWithTheCeilingThatBoundsThem) {
  const DeviceCeilings c = h100();
  // Vector add, 2^28 floats: 12 bytes and 1 flop per element, in 1.166 ms: against the copy.
  const double n = 268435456.0;
  const auto add = share_of_ceilings(12 * n, n, 1.166, c);
  ASSERT_TRUE(add.has_value());
  EXPECT_EQ(add->ceiling, "device copy");
  EXPECT_NEAR(add->share, 12 * n / 1.166e-3 / 3.02e12, 1e-12);
  // The tiled 4096³ product in 16.8 ms: against cuBLAS.
  const double flops = 2.0 * 4096 * 4096 * 4096;
  const auto tiled = share_of_ceilings(3 * 4.0 * 4096 * 4096, flops, 16.8, c);
  ASSERT_TRUE(tiled.has_value());
  EXPECT_EQ(tiled->ceiling, "cuBLAS SGEMM");
  EXPECT_NEAR(tiled->share, flops / 16.8e-3 / 51.2e12, 1e-12);
  // Unknown ceilings or times give nothing rather than a made-up share.
  DeviceCeilings no_cublas = c;
  no_cublas.sgemm_flops_per_second = 0;
  EXPECT_FALSE(share_of_ceilings(1, flops, 16.8, no_cublas).has_value());
  EXPECT_FALSE(share_of_ceilings(12 * n, n, 0, c).has_value());
  EXPECT_FALSE(share_of_ceilings(0, 0, 1, c).has_value());
}

TEST(DeviceCeilings, BothRatesComeWithTheirShares) {
  const DeviceCeilings c = h100();
  // Vector add, 2^28 floats in 1.166 ms: near the copy, nowhere near cuBLAS's arithmetic.
  const double n = 268435456.0;
  const RatesAgainstCeilings add = rates_against_ceilings(12 * n, n, 1.166, &c);
  ASSERT_TRUE(add.bytes.has_value());
  ASSERT_TRUE(add.flops.has_value());
  EXPECT_NEAR(add.bytes->per_second, 12 * n / 1.166e-3, 1.0);
  EXPECT_NEAR(*add.bytes->share, 12 * n / 1.166e-3 / 3.02e12, 1e-12);
  EXPECT_NEAR(add.flops->per_second, n / 1.166e-3, 1e-3);
  EXPECT_NEAR(*add.flops->share, n / 1.166e-3 / 51.2e12, 1e-12);
  EXPECT_LT(*add.flops->share, 0.01);
  // Without measured ceilings the rates stand alone; a row with no flops has no flop rate.
  const RatesAgainstCeilings copy = rates_against_ceilings(8 * n, 0, 2.0, nullptr);
  ASSERT_TRUE(copy.bytes.has_value());
  EXPECT_FALSE(copy.bytes->share.has_value());
  EXPECT_FALSE(copy.flops.has_value());
  EXPECT_EQ(describe_rates(add),
            "2.76 TB/s = 91.5 % of the device copy; 230 GFLOP/s = 0.45 % of cuBLAS SGEMM");
  EXPECT_EQ(describe_rates(copy), "1.07 TB/s");
  // No time, no rate.
  const RatesAgainstCeilings none = rates_against_ceilings(8 * n, n, 0, &c);
  EXPECT_FALSE(none.bytes.has_value());
  EXPECT_FALSE(none.flops.has_value());
  EXPECT_EQ(describe_rates(none), "");
}

TEST(DeviceCeilings, TheKeyNamesTheGpuAndDriver) {
  DeviceInfo d;
  d.name = "NVIDIA H100 80GB HBM3";
  d.compute_major = 9;
  d.driver_version = 13000;
  EXPECT_EQ(ceilings_key(d), "NVIDIA H100 80GB HBM3 / sm_90 / driver 13000");
}

TEST(DeviceCeilings, CacheRoundTripsThroughItsFile) {
  const auto path = temp_file("round_trip.json");
  CeilingsCache cache;
  cache.store("H100 / sm_90 / driver 13000", h100());
  DeviceCeilings emulator;
  emulator.copy_bytes_per_second = 9.5e9;
  emulator.copy_buffer_bytes = 64u << 20;
  emulator.sgemm_absent = "cuBLAS runs only on an NVIDIA GPU";
  cache.store("CPU emulator / sm_00 / driver 0", emulator);
  ASSERT_TRUE(cache.save(path).is_ok());

  auto loaded = CeilingsCache::load(path);
  ASSERT_TRUE(loaded.is_ok()) << loaded.message();
  EXPECT_EQ(loaded->find("H100 / sm_90 / driver 13000"), h100());
  EXPECT_EQ(loaded->find("CPU emulator / sm_00 / driver 0"), emulator);
  EXPECT_FALSE(loaded->find("another GPU").has_value());
}

TEST(DeviceCeilings, AMissingFileIsAnEmptyCache) {
  auto loaded = CeilingsCache::load(temp_file("never_written.json"));
  ASSERT_TRUE(loaded.is_ok());
  EXPECT_FALSE(loaded->find("anything").has_value());
}

TEST(DeviceCeilings, ACorruptFileIsAParseErrorNotACrash) {
  const auto path = temp_file("corrupt.json");
  std::filesystem::create_directories(path.parent_path());
  for (const char* text :
       {"{not json", "[1, 2]", R"({"devices": {"x": {"copy_bytes_per_second": "fast"}}})",
        R"({"devices": {"x": {"copy_bytes_per_second": 0, "copy_buffer_bytes": 1,
                               "sgemm_flops_per_second": 0, "sgemm_size": 0}}})"}) {
    std::ofstream(path) << text;
    auto loaded = CeilingsCache::load(path);
    ASSERT_FALSE(loaded.is_ok()) << text;
    EXPECT_EQ(loaded.error().kind, ErrorKind::kParseError) << text;
    EXPECT_NE(loaded.message().find(path.string()), std::string::npos) << loaded.message();
  }
}

// Found by the fuzzer: a count written as a huge or negative float was cast to an integer (UB).
TEST(DeviceCeilings, CountsOutOfRangeOrNotWholeAreParseErrorsNamingTheField) {
  const auto path = temp_file("counts.json");
  std::filesystem::create_directories(path.parent_path());
  for (const char* count : {"1e300", "-3", "2.5", "4294967296", "true", "\"8\""}) {
    std::ofstream(path) << R"({"devices": {"x": {"copy_bytes_per_second": 1, "copy_buffer_bytes": 1,
                               "sgemm_flops_per_second": 1, "sgemm_size": )"
                        << count << "}}}";
    auto loaded = CeilingsCache::load(path);
    ASSERT_FALSE(loaded.is_ok()) << count;
    EXPECT_NE(loaded.message().find("sgemm_size"), std::string::npos) << loaded.message();
  }
}

TEST(DeviceCeilings, TheDefaultPathFollowsXdg) {
  const char* saved = std::getenv("XDG_CACHE_HOME");
  const std::string restore = saved != nullptr ? saved : "";
  setenv("XDG_CACHE_HOME", "/tmp/xdg-cache", 1);
  EXPECT_EQ(default_ceilings_cache_path(),
            std::filesystem::path("/tmp/xdg-cache/threadlab/ceilings.json"));
  if (saved != nullptr) {
    setenv("XDG_CACHE_HOME", restore.c_str(), 1);
  } else {
    unsetenv("XDG_CACHE_HOME");
  }
}

TEST(DeviceCeilings, ATensorRungIsComparedWithTheLibraryAtItsOwnPrecision) {
  // An FP16 rung at 4096³ in 1.2 ms against cuBLAS GemmEx FP16 in 0.8 ms: 67 % of its own
  // ceiling, where against FP32 SGEMM (51.2 TFLOP/s) it would read 224 %.
  const double flops = 2.0 * 4096 * 4096 * 4096;
  const std::string gemmex = "cuBLAS GemmEx FP16 (FP32 accumulation)";
  const auto share = share_of_row(flops, 1.2, gemmex, flops, 0.8);
  ASSERT_TRUE(share.has_value());
  EXPECT_NEAR(share->share, 0.8 / 1.2, 1e-12);
  EXPECT_EQ(share->ceiling, gemmex);
  EXPECT_TRUE(share->same_run);
  // The library not timed, or the rung not timed: no share at all.
  EXPECT_FALSE(share_of_row(flops, 1.2, gemmex, flops, 0).has_value());
  EXPECT_FALSE(share_of_row(flops, 0, gemmex, flops, 0.8).has_value());
  EXPECT_FALSE(share_of_row(0, 1.2, gemmex, flops, 0.8).has_value());
}

}  // namespace
}  // namespace tl

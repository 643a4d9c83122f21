#include "core/plot/tick_format.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace tl::plot {
namespace {

TEST(TickFormat, MillisecondsPickTheReadableUnit) {
  EXPECT_EQ(format_tick(0.001, TickFormat::kMilliseconds), "1 µs");
  EXPECT_EQ(format_tick(0.0005, TickFormat::kMilliseconds), "500 ns");
  EXPECT_EQ(format_tick(10.0, TickFormat::kMilliseconds), "10 ms");
  EXPECT_EQ(format_tick(2.5, TickFormat::kMilliseconds), "2.5 ms");
  EXPECT_EQ(format_tick(1000.0, TickFormat::kMilliseconds), "1 s");
  EXPECT_EQ(format_tick(0.0, TickFormat::kMilliseconds), "0");
}

TEST(TickFormat, UnitIsChosenAfterRounding) {
  // 999.96 µs rounds to 1.00 ms at three digits; "1000 µs" would be a worse label.
  EXPECT_EQ(format_tick(0.99996, TickFormat::kMilliseconds), "1 ms");
}

TEST(TickFormat, BytesUseBinaryUnits) {
  EXPECT_EQ(format_tick(512, TickFormat::kBytes), "512 B");
  EXPECT_EQ(format_tick(4096, TickFormat::kBytes), "4 KiB");
  EXPECT_EQ(format_tick(1048576, TickFormat::kBytes), "1 MiB");
  EXPECT_EQ(format_tick(1536, TickFormat::kBytes), "1.5 KiB");
}

TEST(TickFormat, CountsUseSiSuffixes) {
  EXPECT_EQ(format_tick(500, TickFormat::kCount), "500");
  EXPECT_EQ(format_tick(1000, TickFormat::kCount), "1K");
  EXPECT_EQ(format_tick(10000, TickFormat::kCount), "10K");
  EXPECT_EQ(format_tick(1e6, TickFormat::kCount), "1M");
  EXPECT_EQ(format_tick(2.5e9, TickFormat::kCount), "2.5G");
}

TEST(TickFormat, RatesUseDecimalUnitsAsHardwareSheetsDo) {
  EXPECT_EQ(format_tick(2.764e12, TickFormat::kByteRate), "2.76 TB/s");
  EXPECT_EQ(format_tick(419e9, TickFormat::kByteRate), "419 GB/s");
  EXPECT_EQ(format_tick(999.96e9, TickFormat::kByteRate), "1 TB/s");
  EXPECT_EQ(format_tick(51.2e12, TickFormat::kFlopRate), "51.2 TFLOP/s");
  EXPECT_EQ(format_tick(820e6, TickFormat::kFlopRate), "820 MFLOP/s");
  EXPECT_EQ(format_readout(5.3456e12, TickFormat::kFlopRate), "5.346 TFLOP/s");
}

TEST(TickFormat, PlainNumbersAvoidScientificNotationForEverydayMagnitudes) {
  EXPECT_EQ(format_tick(1200, TickFormat::kNumber), "1200");
  EXPECT_EQ(format_tick(0.25, TickFormat::kNumber), "0.25");
  EXPECT_EQ(format_tick(-3, TickFormat::kNumber), "-3");
  EXPECT_EQ(format_value(10050, TickFormat::kNumber, 4), "10050");
  EXPECT_EQ(format_tick(1e12, TickFormat::kNumber), "1e+12");
}

TEST(TickFormat, ReadoutIsMorePrecise) {
  EXPECT_EQ(format_readout(12.3456, TickFormat::kMilliseconds), "12.35 ms");
  EXPECT_EQ(format_readout(1048576, TickFormat::kCount), "1,048,576 (2^20)");
  EXPECT_EQ(format_readout(1000, TickFormat::kCount), "1,000");
  EXPECT_EQ(format_readout(std::numeric_limits<double>::quiet_NaN(), TickFormat::kNumber), "n/a");
}

}  // namespace
}  // namespace tl::plot

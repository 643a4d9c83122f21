#include "core/plot/plot_export.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

namespace tl::plot {
namespace {

std::vector<PlotSeries> sample_series() {
  PlotSeries cpu{.name = "CPU",
                 .key = {TimingRole::kCpuOneThread, ""},
                 .points = {{1024, 0.5, 0.4, 0.7}, {2048, 1.25, 1, 1.5}},
                 .color = rgba(0x12, 0x34, 0x56, 0x78)};
  PlotSeries gpu{.name = "GPU, \"end-to-end\"",
                 .key = {TimingRole::kEndToEndPinned, "fused"},
                 .points = {{1024, 0.1, 0.1, 0.1}}};
  gpu.dash = LineDash::kDashed;
  gpu.marker = MarkerShape::kSquare;
  cpu.points[0].bytes = 12288;
  cpu.points[0].flops = 1024;
  return {cpu, gpu};
}

TEST(PlotExport, CsvHasHeaderAndOneRowPerPoint) {
  const std::string csv = series_to_csv(sample_series());
  EXPECT_EQ(csv,
            "series,role,variant,x,y,y_min,y_max,bytes,flops\n"
            "CPU,cpu-one-thread,,1024,0.5,0.4,0.7,12288,1024\n"
            "CPU,cpu-one-thread,,2048,1.25,1,1.5,0,0\n"
            "\"GPU, \"\"end-to-end\"\"\",end-to-end-pinned,fused,1024,0.1,0.1,0.1,0,0\n");
}

TEST(PlotExport, CsvNumbersRoundTrip) {
  PlotSeries s{.name = "s", .points = {{0.1 + 0.2, 1.0 / 3.0, 0, 0}}};
  const std::string csv = series_to_csv(std::span<const PlotSeries>(&s, 1));
  std::istringstream rows(csv);
  std::string header, row;
  std::getline(rows, header);
  std::getline(rows, row);
  std::istringstream fields(row);
  std::string name, role, variant, x, y;
  std::getline(fields, name, ',');
  std::getline(fields, role, ',');
  std::getline(fields, variant, ',');
  std::getline(fields, x, ',');
  std::getline(fields, y, ',');
  EXPECT_EQ(std::stod(x), 0.1 + 0.2);
  EXPECT_EQ(std::stod(y), 1.0 / 3.0);
}

TEST(PlotExport, JsonHasSeriesPointsAndMarkers) {
  const std::vector<PlotMarker> markers{{4096, "crossover"}};
  const nlohmann::json json = nlohmann::json::parse(series_to_json(sample_series(), markers));
  ASSERT_EQ(json["series"].size(), 2u);
  EXPECT_EQ(json["series"][0]["name"], "CPU");
  EXPECT_EQ(json["series"][0]["color"], "#12345678");
  EXPECT_EQ(json["series"][0]["role"], "cpu-one-thread");
  EXPECT_EQ(json["series"][1]["role"], "end-to-end-pinned");
  EXPECT_EQ(json["series"][1]["variant"], "fused");
  EXPECT_EQ(json["series"][0]["points"][1]["y_max"], 1.5);
  EXPECT_EQ(json["series"][0]["points"][0]["bytes"], 12288);
  EXPECT_EQ(json["series"][0]["points"][0]["flops"], 1024);
  EXPECT_EQ(json["series"][1]["dashed"], true);
  EXPECT_EQ(json["series"][1]["dash"], "dashed");
  EXPECT_EQ(json["series"][1]["marker"], "square");
  EXPECT_EQ(json["markers"][0]["x"], 4096);
  EXPECT_EQ(json["markers"][0]["label"], "crossover");
}

TEST(PlotExport, JsonWritesNonFiniteAsNull) {
  PlotSeries s{.name = "s", .points = {{1, std::numeric_limits<double>::quiet_NaN(), 0, 0}}};
  const nlohmann::json json =
      nlohmann::json::parse(series_to_json(std::span<const PlotSeries>(&s, 1), {}));
  EXPECT_TRUE(json["series"][0]["points"][0]["y"].is_null());
}

TEST(PlotExport, WritesFilesAndReportsIoErrors) {
  const std::filesystem::path dir = testing::TempDir();
  const std::filesystem::path csv_path = dir / "threadlab_plot_export_test.csv";
  const std::vector<PlotSeries> series = sample_series();
  ASSERT_TRUE(export_csv(csv_path, series).is_ok());
  std::ifstream in(csv_path);
  std::stringstream content;
  content << in.rdbuf();
  EXPECT_EQ(content.str(), series_to_csv(series));
  std::filesystem::remove(csv_path);

  const Status failed = export_json(dir / "no_such_dir" / "x.json", series, {});
  ASSERT_FALSE(failed.is_ok());
  EXPECT_EQ(failed.error().kind, ErrorKind::kIoError);
  EXPECT_NE(failed.message().find("no_such_dir"), std::string::npos);
}

}  // namespace
}  // namespace tl::plot

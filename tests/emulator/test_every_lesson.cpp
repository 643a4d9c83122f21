// The suite every registered lesson passes: registering a lesson (one line in
// lessons/CMakeLists.txt) is enough for it to be tested here, on the emulator. Each test runs once
// per lesson, named after it.

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "compute/hardware_counters.hpp"
#include "compute/lessons/lesson.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "compute/lessons/own_ceilings.hpp"
#include "compute/lessons/roofline_inputs.hpp"
#include "compute/trace_sink.hpp"
#include "core/trace.hpp"

namespace tl::compute {
namespace {

std::vector<std::string> registered_ids() {
  std::vector<std::string> ids;
  for (const LessonModule* module : registered_lessons()) ids.emplace_back(module->info.id);
  return ids;
}

class EveryLesson : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    auto lesson = make_lesson(GetParam());
    ASSERT_TRUE(lesson.is_ok()) << lesson.message();
    lesson_ = std::move(*lesson);
    lesson_->set_repeats(1);
    // The window and every command open a lesson on the emulator with these.
    const lessons::ParamValues smaller = lesson_->emulator_defaults();
    if (!smaller.empty()) ASSERT_TRUE(lesson_->configure(smaller).is_ok());
  }
  std::unique_ptr<Device> device_ = make_emulator_device();
  std::unique_ptr<Lesson> lesson_;
};

TEST(LessonRegistry, IdsFoldersAndNumbersAreUniqueAndInOrder) {
  std::set<std::string_view> ids;
  std::set<std::string_view> folders;
  int number = 0;
  ASSERT_FALSE(registered_lessons().empty());
  for (const LessonModule* module : registered_lessons()) {
    ASSERT_NE(module->make, nullptr) << module->info.id;
    EXPECT_TRUE(ids.insert(module->info.id).second) << "duplicate id " << module->info.id;
    EXPECT_TRUE(folders.insert(module->info.folder).second) << module->info.folder;
    EXPECT_GT(module->info.number, number) << module->info.id << ": numbers follow the list";
    number = module->info.number;
    // The folder starts with the lesson's number, as lessons/NN_name does.
    char prefix[8];
    std::snprintf(prefix, sizeof(prefix), "%02d_", module->info.number);
    EXPECT_EQ(module->info.folder.substr(0, 3), prefix) << module->info.folder;
    EXPECT_FALSE(module->info.title.empty());
    EXPECT_FALSE(module->info.summary.empty());
  }
  EXPECT_EQ(first_lesson_id(), registered_lessons().front()->info.id);
  EXPECT_FALSE(make_lesson("no-such-lesson").is_ok());
}

TEST_P(EveryLesson, KnowsItselfAsTheRegistryDoes) {
  const LessonModule* module = find_lesson_module(GetParam());
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(lesson_->info().id, module->info.id);
  EXPECT_EQ(lesson_->info().folder, module->info.folder);
}

TEST_P(EveryLesson, ParametersRoundTripThroughText) {
  const lessons::ParamValues values = lesson_->values();
  // Every declared parameter has a value, and nothing else does.
  for (const lessons::ParamSpec& spec : lesson_->params()) {
    EXPECT_EQ(values.count(spec.name), 1u) << spec.name;
  }
  EXPECT_EQ(values.size(), lesson_->params().size());
  // Its own values, given back as text, change nothing.
  ASSERT_TRUE(lesson_->configure(values).is_ok());
  EXPECT_EQ(lesson_->values(), values);
  // A fresh lesson configured with them says the same.
  auto again = make_lesson(GetParam());
  ASSERT_TRUE(again.is_ok());
  ASSERT_TRUE((*again)->configure(values).is_ok());
  EXPECT_EQ((*again)->values(), values);
  EXPECT_EQ((*again)->launch_config(), lesson_->launch_config());
  EXPECT_EQ((*again)->data_shape(), lesson_->data_shape());
}

TEST_P(EveryLesson, AnUnknownParameterIsRefusedByName) {
  const Status refused = lesson_->configure({{"no-such-parameter", "1"}});
  ASSERT_FALSE(refused.is_ok());
  EXPECT_NE(refused.message().find("no-such-parameter"), std::string::npos) << refused.message();
}

TEST_P(EveryLesson, DefaultsRunTimedAndPassTheCheck) {
  lesson_->set_time_cpu(false);
  auto report = lesson_->run_timed(*device_, nullptr);
  ASSERT_TRUE(report.is_ok()) << report.message();
  EXPECT_FALSE(report->on_gpu);
  EXPECT_FALSE(report->rows.empty());
  ASSERT_TRUE(report->check.has_value()) << "the defaults' run is checked";
  EXPECT_TRUE(report->check->passed) << report->check->description;
  for (const TimingRow& row : report->rows) {
    EXPECT_FALSE(row.name.empty());
    EXPECT_GE(row.stats.median_ms, 0.0) << row.name;
  }
}

// The emulator has no DRAM, L2 or SMs: every lesson that counts its kernels (at least 2d-blocks,
// matmul and reductions) says so rather than inventing counters.
TEST(LessonRegistry, HardwareCountersOnTheEmulatorSayWhyNot) {
  auto device = make_emulator_device();
  std::set<std::string> counting;
  for (const LessonModule* module : registered_lessons()) {
    auto lesson = make_lesson(module->info.id);
    ASSERT_TRUE(lesson.is_ok()) << lesson.message();
    CountingLesson* counts = counting_lesson(**lesson);
    if (counts == nullptr) continue;
    counting.insert(std::string(module->info.id));
    const lessons::ParamValues smaller = (*lesson)->emulator_defaults();
    if (!smaller.empty()) ASSERT_TRUE((*lesson)->configure(smaller).is_ok());
    auto counted = counts->run_counted(*device);
    ASSERT_FALSE(counted.is_ok()) << module->info.id;
    EXPECT_EQ(counted.message(), std::string(kEmulatorHasNoCounters)) << module->info.id;
  }
  EXPECT_TRUE(counting.contains("2d-blocks"));
  EXPECT_TRUE(counting.contains("matmul"));
  EXPECT_TRUE(counting.contains("reductions"));
}

// A row whose ceiling is another row names a row of the lesson's own report, never one that is
// not there (the share would silently vanish); the matmul lesson's tensor rungs name cuBLAS at
// their own precision.
TEST(LessonRegistry, OwnCeilingsNameRowsOfTheReport) {
  auto device = make_emulator_device();
  auto lesson = make_lesson("matmul");
  ASSERT_TRUE(lesson.is_ok()) << lesson.message();
  const auto* own = dynamic_cast<const OwnCeilings*>(lesson->get());
  ASSERT_NE(own, nullptr);
  (*lesson)->set_repeats(1);
  (*lesson)->set_time_cpu(false);
  ASSERT_TRUE((*lesson)->configure((*lesson)->emulator_defaults()).is_ok());
  auto report = (*lesson)->run_timed(*device, nullptr);
  ASSERT_TRUE(report.is_ok()) << report.message();
  for (const TimingRow& row : report->rows) {
    const auto key = own->ceiling_row(row.key);
    if (key && !row.stats.empty()) EXPECT_NE(report->find(*key), nullptr) << row.name;
  }
  const auto fp16 = own->ceiling_row({TimingRole::kKernel, "mma-fp16"});
  ASSERT_TRUE(fp16.has_value());
  EXPECT_EQ(to_string(*fp16), "library/cublas-gemmex-fp16");
  EXPECT_EQ(to_string(*own->ceiling_row({TimingRole::kKernel, "wmma-tf32"})),
            "library/cublas-gemmex-tf32");
  EXPECT_FALSE(own->ceiling_row({TimingRole::kKernel, "naive"}).has_value());
  EXPECT_FALSE(own->ceiling_row({TimingRole::kLibrary, "cublas-sgemm"}).has_value());
}

// Every timed row of every lesson reaches the roofline as a point or as a line saying why not: the
// emulated kernels are read against the emulator's memcpy (named so), each point labelled with the
// share column's figure, and the rest (the CPU's, copies, end to end) counted as not plotted.
TEST_P(EveryLesson, EveryTimedRowIsARooflinePointOrSaysWhyNot) {
  lesson_->set_time_cpu(true);
  auto report = lesson_->run_timed(*device_, nullptr);
  ASSERT_TRUE(report.is_ok()) << report.message();
  DeviceCeilings ceilings;
  ceilings.copy_bytes_per_second = 10e9;
  ceilings.sgemm_absent = "no cuBLAS on the emulator";
  const plot::RooflineInputs inputs = roofline_inputs(*lesson_, *report, &ceilings);
  EXPECT_EQ(inputs.bandwidth_bytes_per_second, 10e9);
  EXPECT_NE(inputs.bandwidth_name.find(kEmulatorCopyCeiling), std::string::npos);
  std::size_t timed = 0;
  std::size_t emulated = 0;
  for (const TimingRow& row : report->rows) {
    if (row.stats.empty()) continue;
    ++timed;
    if (against_device_ceilings(*report, row)) ++emulated;
  }
  EXPECT_EQ(inputs.kernels.size(), emulated);
  const plot::Roofline roofline = plot::build_roofline(inputs);
  std::size_t said_why = 0;
  for (const std::string& line : roofline.left_out) {
    if (line.find("not plotted") != std::string::npos) said_why += std::stoul(line);
  }
  EXPECT_EQ(said_why, timed - emulated);
  for (const plot::RooflineKernel& kernel : inputs.kernels) {
    const bool point = std::any_of(
        roofline.points.begin(), roofline.points.end(),
        [&](const plot::RooflinePoint& p) { return inputs.kernels[p.kernel].name == kernel.name; });
    // A kernel not drawn is in the list, by its name, with why.
    const bool listed = std::any_of(
        roofline.left_out.begin(), roofline.left_out.end(),
        [&](const std::string& line) { return line.rfind(kernel.name + ": ", 0) == 0; });
    EXPECT_NE(point, listed) << kernel.name;
    if (kernel.share) EXPECT_EQ(kernel.ceiling, kEmulatorCopyCeiling);
  }
  for (const plot::RooflinePoint& point : roofline.points) {
    const plot::RooflineKernel& kernel = inputs.kernels[point.kernel];
    if (kernel.share) {
      EXPECT_EQ(point.label, kernel.name + ": " + format_share(*kernel.share));
    } else {
      EXPECT_EQ(point.label, kernel.name);
    }
  }
  EXPECT_EQ(roofline.points.empty(), !roofline.empty_reason.empty());
}

// The training lesson's forward and backward passes are GEMMs: they count the bytes they move
// at least, so the roofline plots them instead of leaving them out as "no bytes counted" (issue
// 36 item 12).
TEST(LessonRegistry, TheTrainingStepsGemmsArePointsOnTheRoofline) {
  auto lesson = make_lesson("training");
  ASSERT_TRUE(lesson.is_ok()) << lesson.message();
  // The sizes the lesson opens with on the emulator: its GPU defaults are too large for it.
  ASSERT_TRUE((*lesson)->configure((*lesson)->emulator_defaults()).is_ok());
  auto device = make_emulator_device();
  auto report = (*lesson)->run_timed(*device, nullptr);
  ASSERT_TRUE(report.is_ok()) << report.message();
  DeviceCeilings ceilings;
  ceilings.copy_bytes_per_second = 10e9;
  ceilings.sgemm_absent = "no cuBLAS on the emulator";
  const plot::RooflineInputs inputs = roofline_inputs(**lesson, *report, &ceilings);
  const plot::Roofline roofline = plot::build_roofline(inputs);
  for (const char* pass : {"forward", "backward"}) {
    const bool point = std::any_of(roofline.points.begin(), roofline.points.end(),
                                   [&](const plot::RooflinePoint& p) {
                                     return inputs.kernels[p.kernel].name.rfind(pass, 0) == 0;
                                   });
    EXPECT_TRUE(point) << pass << " is a point";
  }
  for (const std::string& line : roofline.left_out) {
    EXPECT_EQ(line.find("counts no bytes"), std::string::npos) << line;
  }
}

// A GPU report of the matrix product, as the lesson makes it (no GPU needed to build one): the FP32
// rungs are read against cuBLAS SGEMM, a tensor rung against cuBLAS at its own precision in the
// same run, which is also drawn as a roof of its own; the CPU's row is not a point.
TEST(LessonRegistry, OnAGpuATensorRungsRoofIsCublasAtItsPrecisionInTheSameRun) {
  auto lesson = make_lesson("matmul");
  ASSERT_TRUE(lesson.is_ok()) << lesson.message();
  const double n = 4096;
  const double flops = 2 * n * n * n;
  auto timed = [](double ms) { return TimingStats{ms, ms, ms, 5}; };
  LessonReport report;
  report.on_gpu = true;
  report.rows.push_back({{TimingRole::kKernel, "naive"},
                         "GPU kernel, naive",
                         timed(40.0),
                         12 * n * n,
                         flops,
                         true,
                         true});
  report.rows.push_back({{TimingRole::kKernel, "mma-fp16"},
                         "GPU kernel, mma-fp16",
                         timed(0.5),
                         8 * n * n,
                         flops,
                         true,
                         true});
  report.rows.push_back({{TimingRole::kLibrary, "cublas-gemmex-fp16"},
                         "cuBLAS FP16",
                         timed(0.25),
                         8 * n * n,
                         flops,
                         true,
                         true});
  report.rows.push_back(
      {{TimingRole::kCpuAllThreads, ""}, "CPU, all threads", timed(9000.0), 12 * n * n, flops});
  DeviceCeilings ceilings;
  ceilings.copy_bytes_per_second = 3e12;
  ceilings.sgemm_flops_per_second = 50e12;
  ceilings.sgemm_size = 4096;
  const plot::RooflineInputs in = roofline_inputs(**lesson, report, &ceilings);
  ASSERT_EQ(in.roofs.size(), 2u);
  EXPECT_EQ(in.roofs[0].name, "FP32: cuBLAS SGEMM 4096³, measured");
  EXPECT_DOUBLE_EQ(in.roofs[0].flops_per_second, 50e12);
  EXPECT_NE(in.roofs[1].name.find("cuBLAS FP16, this run"), std::string::npos) << in.roofs[1].name;
  EXPECT_DOUBLE_EQ(in.roofs[1].flops_per_second, flops / 0.25e-3);
  // The two kernels; cuBLAS FP16 is a roof, not also a point; not the CPU.
  ASSERT_EQ(in.kernels.size(), 2u);
  ASSERT_EQ(in.left_out.size(), 2u);
  EXPECT_EQ(in.left_out[0].rfind("1 library row is drawn as a roof", 0), 0u) << in.left_out[0];
  const plot::RooflineKernel& naive = in.kernels[0];
  ASSERT_TRUE(naive.share.has_value());
  EXPECT_EQ(naive.ceiling, "cuBLAS SGEMM");
  EXPECT_DOUBLE_EQ(*naive.share, flops / 40e-3 / 50e12);
  const plot::RooflineKernel& mma = in.kernels[1];
  ASSERT_TRUE(mma.share.has_value());
  EXPECT_EQ(mma.ceiling, "cuBLAS FP16");
  EXPECT_DOUBLE_EQ(*mma.share, 0.5);
  // The point's height under its own roof is that share.
  const plot::Roofline roofline = plot::build_roofline(in);
  ASSERT_EQ(roofline.points.size(), 2u);
  EXPECT_NEAR(roofline.points[1].flops_per_second / in.roofs[1].flops_per_second, *mma.share,
              1e-12);
  EXPECT_EQ(roofline.points[1].label, "kernel, mma-fp16: 50%");  // the backend left out
}

// Rows are picked by what they measure: each key names one row, and the rows the plot's crossover
// compares are plotted rows of the report (the end-to-end row and a CPU reference).
TEST_P(EveryLesson, EveryTimingRowHasItsOwnKeyAndTheCrossoverNamesPlottedRows) {
  lesson_->set_time_cpu(true);
  auto report = lesson_->run_timed(*device_, nullptr);
  ASSERT_TRUE(report.is_ok()) << report.message();
  for (std::size_t i = 0; i < report->rows.size(); ++i) {
    for (std::size_t j = i + 1; j < report->rows.size(); ++j) {
      EXPECT_FALSE(report->rows[i].key == report->rows[j].key)
          << report->rows[i].name << " and " << report->rows[j].name << " share "
          << to_string(report->rows[i].key);
    }
    const TimingRole role = report->rows[i].key.role;
    EXPECT_EQ(report->rows[i].plotted, role != TimingRole::kCopy && role != TimingRole::kChainStep)
        << report->rows[i].name << ": copies and chain steps are listed, the rest plotted";
  }
  if (const auto pair = lesson_->crossover()) {
    for (const TimingKey& key : {pair->first, pair->second}) {
      const TimingRow* row = report->find(key);
      ASSERT_NE(row, nullptr) << to_string(key);
      EXPECT_TRUE(row->plotted) << to_string(key);
    }
  }
}

TEST_P(EveryLesson, DefaultsTraceEveryElementOnce) {
  HostTraceSink sink;
  auto traced = lesson_->run_traced(*device_, sink);
  ASSERT_TRUE(traced.is_ok()) << traced.message();
  EXPECT_EQ(traced->shape, lesson_->data_shape());
  const TraceSummary summary = summarize(sink.records(), traced->config);
  EXPECT_EQ(summary.elements, lesson_->data_shape().elements());
  EXPECT_EQ(summary.unwritten, 0u) << "the defaults cover the data";
  EXPECT_EQ(summary.written_more, 0u) << "no element is written twice";
  if (traced->check) EXPECT_TRUE(traced->check->passed) << traced->check->description;
}

TEST_P(EveryLesson, SweepsHaveSizesAndBlockSteps) {
  const auto sizes = lesson_->sweep_sizes(*device_);
  ASSERT_FALSE(sizes.empty());
  EXPECT_TRUE(std::is_sorted(sizes.begin(), sizes.end()));
  EXPECT_FALSE(lesson_->size_label().empty());
  for (std::uint64_t size : sizes) {
    auto sized = make_lesson(GetParam());
    ASSERT_TRUE(sized.is_ok());
    EXPECT_TRUE((*sized)->configure(lesson_->values_for_size(size)).is_ok()) << size;
  }
  const auto steps = lesson_->block_sweep();
  ASSERT_FALSE(steps.empty());
  for (const BlockStep& step : steps) {
    auto stepped = make_lesson(GetParam());
    ASSERT_TRUE(stepped.is_ok());
    ASSERT_TRUE((*stepped)->configure(lesson_->values()).is_ok());
    ASSERT_TRUE((*stepped)->configure(step.values).is_ok()) << to_string(step.block);
    // The step launches the block it is plotted at. Not so for precision, whose launch
    // configuration is its matrix product's (the picture, a fixed 16 x 16 block) while its block
    // sweep varies the dot product's "block".
    if (GetParam() != "precision") {
      EXPECT_EQ((*stepped)->launch_config().block, step.block) << to_string(step.block);
    }
  }
}

TEST_P(EveryLesson, PresetsAreValid) {
  for (const LessonPreset& preset : lesson_->presets()) {
    auto fresh = make_lesson(GetParam());
    ASSERT_TRUE(fresh.is_ok());
    EXPECT_TRUE((*fresh)->configure(preset.values).is_ok()) << preset.label;
    EXPECT_FALSE(preset.label.empty());
  }
}

INSTANTIATE_TEST_SUITE_P(Registered, EveryLesson, ::testing::ValuesIn(registered_ids()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace tl::compute

#include "core/lessons/device_placeholders.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "compute/lessons/lesson_registry.hpp"
#include "core/lessons/lesson_action.hpp"
#include "core/markdown/lesson_document.hpp"

namespace tl::lessons {
namespace {

// An RTX 4090 as CUDA reports it: an SM holds 1536 threads and 24 blocks.
DeviceInfo ada_device() {
  DeviceInfo info = example_gpu_device_info();
  info.name = "NVIDIA GeForce RTX 4090";
  info.compute_major = 8;
  info.compute_minor = 9;
  info.multiprocessors = 128;
  info.max_threads_per_multiprocessor = 1536;
  info.max_blocks_per_multiprocessor = 24;
  info.l2_cache_bytes = 72ull << 20;
  return info;
}

std::int64_t eval(std::string_view expression, const DeviceInfo& device) {
  auto value = evaluate_device_expression(expression, device);
  EXPECT_TRUE(value.is_ok()) << expression << ": " << value.message();
  return value ? *value : -1;
}

TEST(DevicePlaceholders, FiguresComeFromTheDevice) {
  const DeviceInfo h100 = example_gpu_device_info();
  EXPECT_EQ(eval("device.sm_count", h100), 132);
  EXPECT_EQ(eval("device.max_threads_per_sm", h100), 2048);
  EXPECT_EQ(eval("device.max_blocks_per_sm", h100), 32);
  EXPECT_EQ(eval("device.max_threads_per_block", h100), 1024);
  EXPECT_EQ(eval("device.warp_size", h100), 32);
  EXPECT_EQ(eval("device.l2_cache_mb", h100), 50);
  const DeviceInfo ada = ada_device();
  EXPECT_EQ(eval("device.sm_count", ada), 128);
  EXPECT_EQ(eval("device.max_threads_per_sm", ada), 1536);
  EXPECT_EQ(eval("device.max_blocks_per_sm", ada), 24);
}

TEST(DevicePlaceholders, ArithmeticFollowsPrecedenceAndDividesIntegersDown) {
  const DeviceInfo h100 = example_gpu_device_info();
  EXPECT_EQ(eval("1+2*3", h100), 7);
  EXPECT_EQ(eval("(1+2)*3", h100), 9);
  EXPECT_EQ(eval("7/2", h100), 3);
  EXPECT_EQ(eval("10-4-3", h100), 3);  // left to right
  EXPECT_EQ(eval(" device.sm_count * 2 ", h100), 264);
  EXPECT_EQ(eval("device.max_threads_per_sm/device.warp_size", h100), 64);
}

// The lesson's "one wave" grid: blocks of 1024 threads, as many per SM as its threads allow.
constexpr std::string_view kOneWave = "device.sm_count*(device.max_threads_per_sm/1024)";

TEST(DevicePlaceholders, OneWaveGridOnAGpuLikeDeviceAndOnTheEmulator) {
  EXPECT_EQ(eval(kOneWave, example_gpu_device_info()), 264);      // 132 SMs × 2 blocks
  EXPECT_EQ(eval(kOneWave, ada_device()), 128);                   // 1536 threads: one block each
  EXPECT_EQ(eval(kOneWave, example_emulator_device_info(2)), 2);  // one block per worker
  EXPECT_EQ(eval(std::string(kOneWave) + "+1", example_emulator_device_info(8)), 9);
}

TEST(DevicePlaceholders, TextGetsFiguresWithTheEmulatorsLabels) {
  const std::string text =
      "{{device.name}}: {{ device.sm_count }} SMs of "
      "{{device.max_threads_per_sm}} threads, L2 {{device.l2_cache_mb}}";
  auto gpu = fill_device_placeholders(text, example_gpu_device_info(), PlaceholderUse::kText);
  ASSERT_TRUE(gpu.is_ok()) << gpu.message();
  EXPECT_EQ(*gpu, "NVIDIA H100 80GB HBM3: 132 SMs of 2048 threads, L2 50 MiB");
  auto emu = fill_device_placeholders(text, example_emulator_device_info(2), PlaceholderUse::kText);
  ASSERT_TRUE(emu.is_ok()) << emu.message();
  EXPECT_EQ(*emu,
            "CPU emulator (2 worker threads): 2 (the emulator's worker threads) SMs of 1024 (a "
            "worker runs one block at a time) threads, L2 none: the emulator runs on the CPU's "
            "caches");
  // A computed figure is a plain number, and text without braces is left alone.
  auto plain = fill_device_placeholders("{{device.sm_count*2}} and { braces }",
                                        example_emulator_device_info(4), PlaceholderUse::kText);
  ASSERT_TRUE(plain.is_ok());
  EXPECT_EQ(*plain, "8 and { braces }");
}

TEST(DevicePlaceholders, BadPlaceholdersAreErrorsThatQuoteThem) {
  const DeviceInfo h100 = example_gpu_device_info();
  for (std::string_view bad :
       {"{{device.sm_cuont}}", "{{device.sm_count", "{{}}", "{{2*}}", "{{(1+2}}", "{{1/0}}",
        "{{3-5}}", "{{device.sm_count 2}}", "{{99999999999999999999}}", "{{x}}", "{{ {{1}} }}"}) {
    auto filled = fill_device_placeholders(bad, h100, PlaceholderUse::kText);
    EXPECT_FALSE(filled.is_ok()) << bad << " gave " << (filled ? *filled : "");
    if (!filled) EXPECT_FALSE(filled.message().empty());
    EXPECT_FALSE(check_device_placeholders(bad, PlaceholderUse::kText).is_ok()) << bad;
  }
  auto unknown = fill_device_placeholders("{{device.l3}}", h100, PlaceholderUse::kText);
  ASSERT_FALSE(unknown.is_ok());
  EXPECT_NE(unknown.message().find("device.sm_count"), std::string::npos) << unknown.message();
  // The name is text: not in a link, not in arithmetic.
  EXPECT_FALSE(fill_device_placeholders("{{device.name}}", h100, PlaceholderUse::kLink).is_ok());
  EXPECT_FALSE(evaluate_device_expression("device.name*2", h100).is_ok());
  // A division by a figure that is 0 on this device is an error here, not a crash.
  DeviceInfo unknown_sm = h100;
  unknown_sm.max_threads_per_multiprocessor = 0;
  EXPECT_FALSE(evaluate_device_expression("1024/device.max_threads_per_sm", unknown_sm).is_ok());
}

TEST(DevicePlaceholders, ActionValuesAreFilledAndTheParserIsUnchanged) {
  const std::string link = "threadlab:set?lesson=thread-hierarchy&n=2^22&grid={{" +
                           std::string(kOneWave) + "+1}}&block=1024&launch";
  auto action = parse_lesson_action(link);
  ASSERT_TRUE(action.is_ok()) << action.message();
  EXPECT_EQ(action->values.at("grid"), "{{" + std::string(kOneWave) + "+1}}");
  auto gpu = fill_action_placeholders(*action, example_gpu_device_info());
  ASSERT_TRUE(gpu.is_ok()) << gpu.message();
  EXPECT_EQ(gpu->values.at("grid"), "265");
  EXPECT_EQ(gpu->values.at("n"), "2^22");
  EXPECT_EQ(gpu->values.at("block"), "1024");
  EXPECT_TRUE(gpu->launch);
  auto emu = fill_action_placeholders(*action, example_emulator_device_info(2));
  ASSERT_TRUE(emu.is_ok());
  EXPECT_EQ(emu->values.at("grid"), "3");
  auto bad = parse_lesson_action("threadlab:set?grid={{device.smcount}}&launch");
  ASSERT_TRUE(bad.is_ok());
  auto refused = fill_action_placeholders(*bad, example_gpu_device_info());
  ASSERT_FALSE(refused.is_ok());
  EXPECT_NE(refused.message().find("grid="), std::string::npos) << refused.message();
}

TEST(DevicePlaceholders, DocumentSpansAreFilledAndBadOnesReportedByLine) {
  auto doc = markdown::parse(
      "# T\n\nAn SM holds **{{device.max_threads_per_sm}}** threads.\n\n"
      "Bad: {{device.nope}}.\n");
  ASSERT_TRUE(doc.is_ok());
  const auto problems = fill_document_placeholders(*doc, example_gpu_device_info());
  EXPECT_EQ(doc->blocks.at(1).spans.at(1).text, "2048");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].rfind("line 5: ", 0), 0u) << problems[0];
  EXPECT_EQ(doc->blocks.at(2).spans.at(0).text, "Bad: {{device.nope}}.");  // kept as written
}

// Every placeholder in every shipped lesson parses: in the text (after markdown, so that emphasis
// cannot have split one) and in the links, and fills on a GPU and on the emulator.
TEST(DevicePlaceholders, EveryPlaceholderInEveryLessonTextAndLinkParses) {
  const auto root = std::filesystem::path(THREADLAB_SOURCE_DIR) / "lessons";
  int files = 0;
  int placeholders = 0;
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    const auto path = entry.path() / "lesson.md";
    if (!std::filesystem::exists(path)) continue;
    ++files;
    std::ifstream file(path, std::ios::binary);
    std::stringstream buffer;
    buffer << file.rdbuf();
    const std::string raw = buffer.str();
    int in_raw = 0;
    for (std::size_t at = raw.find("{{"); at != std::string::npos; at = raw.find("{{", at + 2))
      ++in_raw;
    auto doc = markdown::parse(raw);
    ASSERT_TRUE(doc.is_ok()) << path;
    int found = 0;
    for (const markdown::Block& block : doc->blocks) {
      const std::string where = path.string() + ":" + std::to_string(block.line);
      for (const markdown::Span& span : block.spans) {
        for (std::size_t at = span.text.find("{{"); at != std::string::npos;
             at = span.text.find("{{", at + 2))
          ++found;
        EXPECT_TRUE(check_device_placeholders(span.text, PlaceholderUse::kText).is_ok())
            << where << ": "
            << check_device_placeholders(span.text, PlaceholderUse::kText).message();
        for (const DeviceInfo& device :
             {example_gpu_device_info(), ada_device(), example_emulator_device_info(2)}) {
          auto text = fill_device_placeholders(span.text, device, PlaceholderUse::kText);
          EXPECT_TRUE(text.is_ok()) << where << ": " << text.message();
        }
        if (!is_lesson_action(span.link)) continue;
        auto action = parse_lesson_action(span.link);
        ASSERT_TRUE(action.is_ok()) << where << ": " << action.message();
        for (const auto& [key, value] : action->values) {
          for (std::size_t at = value.find("{{"); at != std::string::npos;
               at = value.find("{{", at + 2))
            ++found;
          EXPECT_TRUE(check_device_placeholders(value, PlaceholderUse::kLink).is_ok()) << where;
        }
        for (const DeviceInfo& device :
             {example_gpu_device_info(), ada_device(), example_emulator_device_info(2)}) {
          auto filled = fill_action_placeholders(*action, device);
          ASSERT_TRUE(filled.is_ok()) << where << ": " << filled.message();
          for (const auto& [key, value] : filled->values)
            EXPECT_EQ(value.find("{{"), std::string::npos) << where << ": " << key;
        }
      }
    }
    // None hides in a code block or a link's text, where nothing would fill it.
    EXPECT_EQ(found, in_raw) << path;
    placeholders += found;
  }
  // One lesson.md per registered lesson: counted from the registry, so a new lesson needs no edit
  // here.
  EXPECT_EQ(static_cast<std::size_t>(files), compute::registered_lessons().size());
  EXPECT_GE(placeholders, 4) << "lesson 02 takes its SM figures and its wave grids from the device";
}

}  // namespace
}  // namespace tl::lessons

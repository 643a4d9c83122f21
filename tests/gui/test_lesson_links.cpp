// Every "try this" link in every lesson text does what it says: it parses, names a lesson that
// exists, sets only parameters that lesson has (a misspelt "inptus=" would otherwise be refused
// only when a student clicks it), and asks for colours, views and plots the app knows.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "app_state.hpp"
#include "compute/device.hpp"
#include "compute/lessons/lesson.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "core/classroom/guided_steps.hpp"
#include "core/color_scheme.hpp"
#include "core/launch_config.hpp"
#include "core/lessons/device_placeholders.hpp"
#include "core/lessons/emulator_note.hpp"
#include "core/lessons/lesson_action.hpp"
#include "core/markdown/lesson_document.hpp"
#include "core/plot/plot_quantity.hpp"
#include "lesson_texts.hpp"
#include "lesson_views.hpp"

namespace tl::ui {
namespace {

bool lesson_has_param(const compute::Lesson& lesson, const std::string& name) {
  const auto specs = lesson.params();
  return std::any_of(specs.begin(), specs.end(), [&](const lessons::ParamSpec& spec) {
    return spec.name == name ||
           std::find(spec.aliases.begin(), spec.aliases.end(), name) != spec.aliases.end();
  });
}

// Every lesson says where the emulator differs from a GPU (the timing panel's note), and a note for
// a section names a heading its lesson has steps under: a renamed heading would otherwise silently
// drop the note from the step bar.
TEST(EmulatorNotes, EveryLessonHasOneAndEachSectionNoteNamesAStepSection) {
  for (const compute::LessonModule* module : compute::registered_lessons()) {
    const std::string id(module->info.id);
    const lessons::EmulatorNote* note = lessons::lesson_emulator_note(module->emulator_notes);
    ASSERT_NE(note, nullptr) << id;
    EXPECT_FALSE(note->headline.empty()) << id;
    EXPECT_FALSE(note->why.empty()) << id;
    const std::string path = "lessons/" + std::string(module->info.folder) + "/lesson.md";
    const auto text = lesson_texts::find_text(path);
    ASSERT_TRUE(text.has_value()) << path;
    auto document = markdown::parse(*text);
    ASSERT_TRUE(document.is_ok()) << path;
    auto steps = classroom::collect_steps(*document);
    ASSERT_TRUE(steps.is_ok()) << path << ": " << steps.message();
    for (const lessons::EmulatorNote& n : module->emulator_notes) {
      EXPECT_FALSE(n.headline.empty()) << id;
      EXPECT_FALSE(n.why.empty()) << id;
      if (n.section.empty()) continue;
      const bool found = std::any_of(steps->begin(), steps->end(),
                                     [&](const auto& step) { return step.section == n.section; });
      EXPECT_TRUE(found) << id << ": no step under a heading '" << n.section << "'";
      EXPECT_EQ(lessons::emulator_note_for(module->emulator_notes, n.section), &n) << id;
    }
    EXPECT_EQ(lessons::emulator_note_for(module->emulator_notes, "no such heading"), note) << id;
  }
}

TEST(LessonLinks, EveryLinkInEveryLessonIsValid) {
  int links = 0;
  int device_links = 0;
  const DeviceInfo emulator_info = compute::make_emulator_device()->info();
  for (const lessons::LessonInfo& info : lessons::catalog()) {
    const std::string path = "lessons/" + std::string(info.folder) + "/lesson.md";
    const auto text = lesson_texts::find_text(path);
    ASSERT_TRUE(text.has_value()) << path;
    auto document = markdown::parse(*text);
    ASSERT_TRUE(document.is_ok()) << path << ": " << document.message();
    for (const markdown::Block& block : document->blocks) {
      for (const markdown::Span& span : block.spans) {
        if (!lessons::is_lesson_action(span.link)) continue;
        ++links;
        const std::string where = path + ": [" + span.text + "](" + span.link + ")";
        auto action = lessons::parse_lesson_action(span.link);
        ASSERT_TRUE(action.is_ok()) << where << ": " << action.message();
        const std::string id = action->lesson.value_or(std::string(info.id));
        auto lesson = compute::make_lesson(id);
        ASSERT_TRUE(lesson.is_ok()) << where << ": " << lesson.message();
        for (const auto& [name, value] : action->values) {
          EXPECT_TRUE(lesson_has_param(**lesson, name))
              << where << ": lesson " << id << " has no parameter '" << name << "'";
        }
        // Device figures ({{device.sm_count}}) fill on the real emulator and on a GPU, and the
        // lesson accepts what they become.
        for (const DeviceInfo& device : {emulator_info, lessons::example_gpu_device_info()}) {
          auto filled = lessons::fill_action_placeholders(*action, device);
          ASSERT_TRUE(filled.is_ok()) << where << ": " << filled.message();
          if (filled->values == action->values) break;  // nothing device-dependent
          ++device_links;
          EXPECT_TRUE((*lesson)->configure(filled->values).is_ok())
              << where << " on " << device.name;
        }
        if (action->color_by) {
          EXPECT_TRUE(parse_color_by(*action->color_by).is_ok()) << where;
        }
        if (action->view) {
          // The window's tabs, or the linked lesson's own (lesson_views.hpp).
          const auto& tabs = ui::lesson_views((*lesson)->info()).tabs;
          const bool lesson_tab = std::any_of(
              tabs.begin(), tabs.end(), [&](const auto& tab) { return tab.id == *action->view; });
          EXPECT_TRUE(lesson_tab || parse_results_tab(*action->view).is_ok()) << where;
        }
        if (action->plot) EXPECT_TRUE(plot::parse_plot_quantity(*action->plot).is_ok()) << where;
        if (action->pick) EXPECT_TRUE(parse_dim3(*action->pick).is_ok()) << where;
      }
    }
  }
  EXPECT_GE(links, 30) << "the lesson texts' links were not found";
  EXPECT_GE(device_links, 4) << "lesson 02's wave links compute their grid on both devices";
}

}  // namespace
// Every ```kernel block of every lesson names a kernel file compiled into the app, as the lesson
// panel looks it up (lesson_texts::find_text, behind AppController::embedded_source): a renamed or
// moved kernel file would otherwise show "(... is missing from this build)" to the student.
TEST(LessonLinks, EveryKernelBlockNamesAKernelFileEmbeddedInTheApp) {
  int kernel_blocks = 0;
  for (const lessons::LessonInfo& info : lessons::catalog()) {
    const std::string path = "lessons/" + std::string(info.folder) + "/lesson.md";
    const auto text = lesson_texts::find_text(path);
    ASSERT_TRUE(text.has_value()) << path;
    auto document = markdown::parse(*text);
    ASSERT_TRUE(document.is_ok()) << path << ": " << document.message();
    int in_lesson = 0;
    for (const markdown::Block& block : document->blocks) {
      if (block.kind != markdown::BlockKind::kCode || block.code_info != "kernel") continue;
      ++in_lesson;
      // The path as the lesson panel reads it: the block's text without trailing newlines/spaces.
      std::string kernel = block.code;
      while (!kernel.empty() && (kernel.back() == '\n' || kernel.back() == ' ')) kernel.pop_back();
      const std::string where = path + ": ```kernel " + kernel + "```";
      // A lesson shows its own kernels (lessons/<its folder>/kernels/) or shared ones (kernels/).
      const std::string own = "lessons/" + std::string(info.folder) + "/kernels/";
      EXPECT_TRUE((kernel.starts_with("kernels/") || kernel.starts_with(own)) &&
                  kernel.ends_with(".cuh"))
          << where;
      const auto source = lesson_texts::find_text(kernel);
      ASSERT_TRUE(source.has_value()) << where << " names a file that is not embedded in the app";
      EXPECT_FALSE(source->empty()) << where;
#ifdef THREADLAB_SOURCE_DIR
      // The exact file that runs, not a stale copy.
      std::ifstream file(std::filesystem::path(THREADLAB_SOURCE_DIR) / kernel, std::ios::binary);
      ASSERT_TRUE(file) << where << ": no such file in the source tree";
      std::stringstream on_disk;
      on_disk << file.rdbuf();
      EXPECT_EQ(*source, on_disk.str()) << where;
#endif
    }
    EXPECT_GT(in_lesson, 0) << path << " shows no kernel";
    kernel_blocks += in_lesson;
  }
  EXPECT_GE(kernel_blocks, 11);  // 5 lessons; matmul shows 6 kernels, the dense layer one twice
}

}  // namespace tl::ui

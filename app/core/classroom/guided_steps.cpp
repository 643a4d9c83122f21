#include "core/classroom/guided_steps.hpp"

#include "core/lessons/lesson_action.hpp"

namespace tl::classroom {
namespace {

std::string plain_text(const markdown::Block& block) {
  std::string text;
  for (const auto& span : block.spans) text += span.text;
  return text;
}

bool can_hold_a_step(const markdown::Block& block) {
  return block.kind == markdown::BlockKind::kListItem ||
         block.kind == markdown::BlockKind::kParagraph;
}

// The first span's link when it is an action; md4c gives a link's text as one or more spans with
// the same target, so the title is their text together.
std::optional<std::string> leading_action(const markdown::Block& block, std::string& title) {
  if (block.spans.empty() || !lessons::is_lesson_action(block.spans.front().link)) return {};
  const std::string& link = block.spans.front().link;
  for (const auto& span : block.spans) {
    if (span.link != link) break;
    title += span.text;
  }
  return link;
}

}  // namespace

Result<std::vector<GuidedStep>> collect_steps(const markdown::Document& document) {
  std::vector<GuidedStep> steps;
  std::string section;
  for (std::size_t i = 0; i < document.blocks.size(); ++i) {
    const markdown::Block& block = document.blocks[i];
    if (block.kind == markdown::BlockKind::kHeading && block.level > 1) section = plain_text(block);
    if (!can_hold_a_step(block)) continue;
    GuidedStep step;
    auto link = leading_action(block, step.title);
    if (!link) continue;
    auto action = lessons::parse_lesson_action(*link);
    if (!action) {
      return Error{ErrorKind::kParseError, "line " + std::to_string(block.line) + ", step '" +
                                               step.title + "': " + action.message()};
    }
    step.block = i;
    step.text = plain_text(block);
    step.section = section;
    step.action = *link;
    step.launches = action->launch || action->sweep;
    steps.push_back(std::move(step));
  }
  return steps;
}

bool StepCursor::next() {
  if (count_ == 0) return false;
  if (!current_) {
    current_ = 0;
    return true;
  }
  if (*current_ + 1 >= count_) return false;
  ++*current_;
  return true;
}

bool StepCursor::previous() {
  if (!current_) return false;
  if (*current_ == 0) {
    current_.reset();
  } else {
    --*current_;
  }
  return true;
}

void StepCursor::go_to(std::optional<std::size_t> index) {
  if (!index || count_ == 0) {
    current_.reset();
    return;
  }
  current_ = std::min(*index, count_ - 1);
}

std::string step_heading(const GuidedStep& step) {
  return step.section.empty() ? step.title : step.section + ": " + step.title;
}

std::string StepCursor::progress_text() const {
  if (!current_) return count_ == 0 ? "No guided steps" : "Introduction";
  return "Step " + std::to_string(*current_ + 1) + " of " + std::to_string(count_);
}

}  // namespace tl::classroom

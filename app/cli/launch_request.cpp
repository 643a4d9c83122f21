#include "launch_request.hpp"

#include <algorithm>

#include "compute/lessons/lesson_registry.hpp"
#include "core/launch_config.hpp"
#include "core/launch_field_limits.hpp"
#include "interop/backend_selection.hpp"

namespace tl::cli {

Status check_repeats(int repeats) {
  if (repeats < 1 || repeats > kMaxRepeats) {
    return invalid_argument("--repeats must be between 1 and " + std::to_string(kMaxRepeats) +
                            " timed runs, not " + std::to_string(repeats));
  }
  return Status::ok();
}

Status check_backend_name(const std::string& backend) {
  auto preference = interop::parse_backend_preference(backend);
  if (!preference) return Error{ErrorKind::kParseError, "--backend: " + preference.message()};
  return Status::ok();
}

std::string_view chosen_lesson(const LaunchOptions& options) {
  return options.lesson.empty() ? compute::first_lesson_id() : std::string_view(options.lesson);
}

namespace {

// --single-block: one block of a thread per element, for the data's current length (which the
// backend's defaults may have changed since the command line's values were applied).
Status apply_single_block(compute::Lesson& lesson) {
  const DataShape shape = lesson.data_shape();
  if (shape.rows > 1) return invalid_argument("--single-block is for 1D data");
  const Status single = lesson.configure({{"grid", "1"}, {"block", std::to_string(shape.cols)}});
  if (!single) return invalid_argument("--single-block: " + single.message());
  return Status::ok();
}

}  // namespace

Status apply_launch_options(compute::Lesson& lesson, const LaunchOptions& options) {
  lessons::ParamValues values(options.params.begin(), options.params.end());
  if (options.single_block) {
    if (values.count("grid") != 0 || values.count("block") != 0) {
      return invalid_argument(
          "--single-block sets the grid and the block itself: drop --grid and --block");
    }
  }
  TL_RETURN_IF_ERROR(lesson.configure(values));
  if (options.single_block) TL_RETURN_IF_ERROR(apply_single_block(lesson));
  return Status::ok();
}

Result<std::unique_ptr<compute::Lesson>> configure_lesson(const LaunchOptions& options) {
  auto lesson = compute::make_lesson(chosen_lesson(options));
  if (!lesson) return lesson.error();
  TL_RETURN_IF_ERROR(apply_launch_options(**lesson, options));
  return lesson;
}

Result<std::unique_ptr<interop::LaunchSession>> open_launch(const LaunchOptions& options,
                                                            std::unique_ptr<compute::Lesson> lesson,
                                                            render::TraceBuffer* buffer,
                                                            std::ostream& note) {
  auto preference = interop::parse_backend_preference(options.backend);
  if (!preference) return Error{ErrorKind::kParseError, "--backend: " + preference.message()};
  auto session = interop::LaunchSession::open(*preference, buffer);
  if (!session) return Error{ErrorKind::kNoDevice, session.message()};
  // The command line's values stay; the backend's defaults fill in the rest (and --single-block's
  // grid and block, which follow the data's length, are set again after them).
  lessons::ParamValues chosen(options.params.begin(), options.params.end());
  if (options.single_block) chosen.insert({{"grid", "1"}, {"block", "1"}});
  auto adopted = (*session)->adopt_lesson(std::move(lesson), chosen);
  if (!adopted) return Error{ErrorKind::kNoDevice, adopted.message()};
  compute::Lesson& opened = *(*session)->lesson();
  if (options.single_block && !adopted->empty()) {
    const Status single = apply_single_block(opened);
    if (!single) return Error{ErrorKind::kNoDevice, single.message()};
  }
  // A kernel that sizes its own blocks (the tiled matrix multiply launches TILE × TILE) does not
  // use --block: say so rather than ignore it silently.
  if (const auto asked = options.params.find("block"); asked != options.params.end()) {
    if (const auto launched = block_not_used(asked->second, opened.launch_config().block)) {
      note << "note: --block " << asked->second << " is not used: this kernel launches blocks of "
           << to_string(*launched) << " threads (its own parameters set the block)\n";
    }
  }
  std::string backend_chose;
  for (const auto& [name, value] : *adopted) {
    backend_chose += (backend_chose.empty() ? "" : ", ") + name + "=" + value;
  }
  if (!backend_chose.empty()) {
    note << "note: on the " << to_string((*session)->backend())
         << " this lesson's defaults are smaller: " << backend_chose
         << " (the GPU's would take minutes here; set them to choose)\n";
  }
  return session;
}

Result<std::unique_ptr<interop::LaunchSession>> open_launch(const LaunchOptions& options,
                                                            render::TraceBuffer* buffer,
                                                            std::ostream& note) {
  // The command line's own mistakes first, before any device is opened: this lesson is the one
  // the session then holds.
  auto lesson = configure_lesson(options);
  if (!lesson) return lesson.error();
  return open_launch(options, std::move(*lesson), buffer, note);
}

int open_launch_exit_status(const Error& error) {
  return error.kind == ErrorKind::kInvalidArgument || error.kind == ErrorKind::kParseError
             ? kExitUsage
             : kExitFailure;
}

std::vector<lessons::ParamSpec> all_lesson_params() {
  std::vector<lessons::ParamSpec> all;
  for (const auto& info : lessons::catalog()) {
    auto lesson = compute::make_lesson(info.id);
    if (!lesson) continue;
    for (const auto& spec : (*lesson)->params()) {
      // Each lesson means its own thing by a shared name (--n is a vector's length in one lesson,
      // the elements to cover in another), with its own default: the help says whose is whose.
      const std::string described =
          std::string(info.id) + ": " + spec.help + " (default " + spec.default_value + ")";
      auto known =
          std::find_if(all.begin(), all.end(), [&](const auto& s) { return s.name == spec.name; });
      if (known == all.end()) {
        all.push_back(spec);
        all.back().help = described;
      } else {
        known->help += "; " + described;
      }
    }
  }
  return all;
}

std::vector<lessons::ParamSpec> lesson_params_described(const std::string& id) {
  auto lesson = compute::make_lesson(id);
  if (!lesson) return all_lesson_params();
  std::vector<lessons::ParamSpec> specs((*lesson)->params().begin(), (*lesson)->params().end());
  for (lessons::ParamSpec& spec : specs) {
    std::string detail = "default " + spec.default_value;
    if (spec.kind == lessons::ParamKind::kChoice) {
      std::string values;
      for (const std::string& choice : spec.choices)
        values += (values.empty() ? "" : ", ") + choice;
      detail += "; one of " + values;
    }
    if (spec.kind == lessons::ParamKind::kFlag) detail += "; 1 or 0";
    spec.help += " (" + detail + ")";
  }
  return specs;
}

}  // namespace tl::cli

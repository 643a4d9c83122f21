#pragma once
// Turns the launch options shared by run, bench and render into a configured lesson.

#include <memory>
#include <ostream>

#include "commands.hpp"
#include "compute/lessons/lesson.hpp"
#include "core/result.hpp"
#include "interop/launch_session.hpp"

namespace tl::cli {

// The most timed runs `run` and `bench` take: a few zeros too many would keep the machine busy for
// days, which is a typo, not a request.
inline constexpr int kMaxRepeats = 10000;
// --repeats from 1 to kMaxRepeats, or the reason.
Status check_repeats(int repeats);
// --backend names a backend (auto, cuda, copy or emulator), or the reason; nothing is opened.
Status check_backend_name(const std::string& backend);

// The lesson `options` names, or the first registered one where it names none.
[[nodiscard]] std::string_view chosen_lesson(const LaunchOptions& options);

// The lesson with the command line's parameters applied (and --single-block, for 1D lessons).
Result<std::unique_ptr<compute::Lesson>> configure_lesson(const LaunchOptions& options);
// The same, on a lesson already at its defaults (a session's).
Status apply_launch_options(compute::Lesson& lesson, const LaunchOptions& options);

// A launch session on the chosen backend with the command line's lesson, at the session's
// backend-adapted defaults with the given parameters on top. Where the backend changed a default
// that the command line did not set, `note` says which values it chose. Errors of the command
// line itself come first (ErrorKind::kInvalidArgument or kParseError: exit 2), before any device
// is opened.
Result<std::unique_ptr<interop::LaunchSession>> open_launch(const LaunchOptions& options,
                                                            render::TraceBuffer* buffer,
                                                            std::ostream& note);
// The same with the lesson configure_lesson returned for `options` (a command that checks more
// of its own options between the two steps): the session holds that lesson; none is made again.
Result<std::unique_ptr<interop::LaunchSession>> open_launch(const LaunchOptions& options,
                                                            std::unique_ptr<compute::Lesson> lesson,
                                                            render::TraceBuffer* buffer,
                                                            std::ostream& note);
// The exit status for a failure of open_launch: 2 for the command line's mistakes, else 1.
int open_launch_exit_status(const Error& error);

// Every parameter name of every available lesson, for registering command-line options. The help
// of each names the lessons that take it, each with its own meaning and default.
std::vector<lessons::ParamSpec> all_lesson_params();
// The parameters of lesson `id` alone, each help with its default and, for a choice, its values;
// every lesson's (all_lesson_params) when `id` is not a lesson, so that the command reports it.
std::vector<lessons::ParamSpec> lesson_params_described(const std::string& id);

}  // namespace tl::cli

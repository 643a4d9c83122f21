#include "cli.hpp"

#include "core/build_info.hpp"

#include <unistd.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "command_bench_perf.hpp"
#include "commands.hpp"
#include "compute/lessons/lesson_registry.hpp"
#include "core/backend_name.hpp"
#include "launch_request.hpp"
#include "net/class_messages.hpp"
#include "render/png_writer.hpp"

namespace tl::cli {
namespace {

// "grid_stride" → "grid-stride": command-line flags are hyphenated.
std::string hyphenate(std::string name) {
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

// The names a parameter answers to on the command line: its own, its aliases, and the hyphenated
// spelling of each (the underscore spellings stay accepted for existing scripts and links).
std::vector<std::string> with_underscore_spellings(const lessons::ParamSpec& spec) {
  std::vector<std::string> names{spec.name};
  names.insert(names.end(), spec.aliases.begin(), spec.aliases.end());
  const std::size_t given = names.size();
  for (std::size_t i = 0; i < given; ++i) {
    const std::string hyphenated = hyphenate(names[i]);
    if (std::find(names.begin(), names.end(), hyphenated) == names.end()) {
      names.push_back(hyphenated);
    }
  }
  return names;
}

// The options every launching subcommand shares that are its own: the lesson, --single-block and
// --backend.
void add_launch_options(CLI::App& command, LaunchOptions& launch) {
  // Without --lesson, the lesson the app opens on: the first registered.
  if (launch.lesson.empty()) launch.lesson = std::string(compute::first_lesson_id());
  command.add_option("--lesson", launch.lesson, "Lesson id (see `threadlab lessons`)")
      ->capture_default_str();
  command.add_flag("--single-block", launch.single_block, "The article's first launch: <<<1, N>>>");
  command.add_option("--backend", launch.backend, std::string(kBackendNames))
      ->capture_default_str();
}

// The long flags `command` has of its own (--help too), for check_param_flags: added before any
// lesson parameter, so these are the command's alone.
void add_own_flags(const CLI::App& command, std::vector<compute::ReservedFlag>& reserved) {
  for (const CLI::Option* option : command.get_options()) {
    for (const std::string& name : option->get_lnames()) {
      reserved.push_back({name, command.get_name()});
    }
  }
}

// Each lesson parameter as --<name> (the union over all lessons; a lesson refuses the ones it does
// not take), added after the command's own options. Parameters are kept as text for the lesson to
// parse. A parameter's own name never clashes with the command's flags (check_param_flags refused
// that before); an alias that the command already uses for an option of its own (render's --out,
// the PNG, against the dense layer's alias --out for --neurons) is left out there: the command's
// own option wins.
void add_lesson_params(CLI::App& command, LaunchOptions& launch,
                       const std::vector<lessons::ParamSpec>& params) {
  for (const lessons::ParamSpec& spec : params) {
    if (command.get_option_no_throw("--" + spec.name) != nullptr) continue;
    const auto set = [&launch, name = spec.name](const std::string& value) {
      launch.params[name] = value;
    };
    // A yes/no parameter is a flag, as command lines spell them: --grid-stride / --no-grid-stride.
    // Its value form (--grid_stride 1) stays for the scripts and links written before.
    const std::string hyphenated = hyphenate(spec.name);
    const bool flag = spec.kind == lessons::ParamKind::kFlag;
    if (flag && command.get_option_no_throw("--" + hyphenated) == nullptr) {
      command.add_flag_function(
          "--" + hyphenated + ",!--no-" + hyphenated,
          [&launch, name = spec.name](std::int64_t count) {
            launch.params[name] = count > 0 ? "1" : "0";
          },
          spec.help);
    }
    std::string names;
    for (const std::string& name : with_underscore_spellings(spec)) {
      if (flag && name == hyphenated) continue;
      if (command.get_option_no_throw("--" + name) != nullptr) continue;
      names += (names.empty() ? "--" : ",--") + name;
    }
    if (names.empty()) continue;
    command
        .add_option_function<std::string>(names, set,
                                          flag ? spec.help + " (as a value)" : spec.help)
        ->type_name(flag ? "0|1" : "TEXT");
  }
}

// The lesson a command line names (--lesson X or --lesson=X), if any: its parameters alone are
// offered (and listed by --help) then.
std::optional<std::string> lesson_on_command_line(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--lesson" && i + 1 < argc) return std::string(argv[i + 1]);
    if (arg.rfind("--lesson=", 0) == 0) return arg.substr(9);
  }
  return std::nullopt;
}

// Every lesson's parameters, made once: listing them makes every lesson, and a fuzzer asks for
// them thousands of times a second.
const std::vector<lessons::ParamSpec>& every_lesson_param() {
  static const std::vector<lessons::ParamSpec> params = all_lesson_params();
  return params;
}

// CLI11 2.1 converts numbers with strtoll and strtoull in base 0: "" becomes 0, "-1" a huge
// unsigned seed, 2^64 and more saturate, "010" is octal 8 and "0x10" hex. A number on this command
// line is decimal: the text is checked before CLI11 converts it, and rewritten in the one spelling
// CLI11 then reads as meant ("010" as 10).
template <class T>
CLI::Validator decimal_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        T value{};
        const char* end = text.data() + text.size();
        const auto [stop, error] = [&] {
          if constexpr (std::is_floating_point_v<T>) {
            return std::from_chars(text.data(), end, value, std::chars_format::general);
          } else {
            return std::from_chars(text.data(), end, value, 10);
          }
        }();
        const bool whole = error == std::errc() && stop == end;
        if constexpr (std::is_floating_point_v<T>) {
          if (!whole || !std::isfinite(value)) return "'" + text + "' is not a decimal number";
        } else {
          if (error == std::errc::result_out_of_range) return "'" + text + "' is out of range";
          if (!whole) {
            return "'" + text + "' is not a whole decimal number" +
                   (std::is_unsigned_v<T> ? " of 0 or more" : "");
          }
          text = std::to_string(value);
        }
        return {};
      },
      "");
}

// What a command's checks say when it is only checked: the status it would exit with.
int usage_status(const Status& checked, std::ostream& err) {
  return checked ? kExitOk : fail(err, checked.message(), kExitUsage);
}

Status check_gui_options(const GuiOptions& options, bool gui_command, bool demo_command) {
  if (demo_command && options.headless && options.out_dir.empty()) {
    return invalid_argument("demo --headless needs --out DIR for the PNGs");
  }
  if (demo_command && !options.headless && !options.out_dir.empty()) {
    return invalid_argument("demo --out is for --headless runs");
  }
  if (gui_command && options.headless && options.screenshot.empty()) {
    // Offscreen frames nobody sees: say what would make the run useful instead of exiting 0.
    return invalid_argument(
        "gui --headless draws offscreen and keeps nothing without --screenshot FILE.png (e.g. "
        "threadlab gui --headless --screenshot out.png); for a PNG per step of a script, "
        "threadlab demo SCRIPT --headless --out DIR");
  }
  if (options.frames < 0) return invalid_argument("--frames must not be negative");
  if (!options.join.empty()) {
    if (options.host_class)
      return invalid_argument("--join and --host-class: a window is a student or the presenter");
    if (auto address = net::parse_join_address(options.join); !address) return address.error();
    if (options.name.size() > net::kMaxNameBytes)
      return invalid_argument("--name is at most 40 bytes");
  }
  if (!options.name.empty() && options.join.empty())
    return invalid_argument("--name goes with --join");
  if (options.host_class && options.headless)
    return invalid_argument("--host-class needs the window (a class follows what it shows)");
  if (!options.class_bind.empty() && !options.host_class)
    return invalid_argument("--class-bind goes with --host-class");
  if (options.class_port < 0 || options.class_port > 65535)
    return invalid_argument("--class-port must be 0 to 65535");
  if (!options.class_code.empty() && !net::is_join_code(options.class_code)) {
    return invalid_argument("--class-code must be 4 to 16 of A-Z and 2-9 (no 0, O, 1 or I)");
  }
  const auto bad_side = [](int side) { return side != 0 && (side < 64 || side > 16384); };
  if (bad_side(options.width) || bad_side(options.height)) {
    return invalid_argument("--width and --height must be between 64 and 16384 pixels");
  }
  // Written so that NaN, which fails every comparison, is refused too.
  if (options.scale != 0 && !(options.scale >= 0.5f && options.scale <= 4)) {
    return invalid_argument("--scale must be between 0.5 and 4 (0: follow the monitor)");
  }
  return check_backend_name(options.backend);
}

Status check_soak_options(const SoakOptions& soak) {
  if (!(soak.seconds > 0) || soak.seconds > 24 * 3600) {
    return invalid_argument("--seconds must be more than 0 and at most 86400 (a day)");
  }
  if (!(soak.sample_every_seconds > 0) || soak.sample_every_seconds > soak.seconds) {
    return invalid_argument("--sample-every must be more than 0 and at most --seconds");
  }
  return check_backend_name(soak.backend);
}

enum class Mode { kRun, kCheck };

int run_commands(int argc, char** argv, const GuiLauncher& gui,
                 const MemoryRequestRenderer& draw_memory, Mode mode, std::ostream& out,
                 std::ostream& err);

}  // namespace

int run_cli(int argc, char** argv, const GuiLauncher& gui,
            const MemoryRequestRenderer& draw_memory) {
  const int status = run_commands(argc, argv, gui, draw_memory, Mode::kRun, std::cout, std::cerr);
  // What a command printed may still sit in a buffer: flushed and checked here, as coreutils do,
  // so that `threadlab lab grade g > /dev/full` is an exit 1 and not a table silently lost.
  errno = 0;
  std::cout.flush();
  const bool flushed = std::fflush(stdout) == 0;
  if (!flushed || std::cout.fail() || std::ferror(stdout) != 0) {
    const int error = errno;
    std::cerr << "threadlab: write error on standard output"
              << (error != 0 ? std::string(": ") + std::strerror(error) : std::string()) << '\n';
    return status == kExitOk ? kExitFailure : status;
  }
  return status;
}

int check_command_line(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  // CLI11 parses argv; the strings stay alive, and unmodified, for the call.
  std::vector<std::string> copies{"threadlab"};
  copies.insert(copies.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : copies) argv.push_back(arg.data());
  argv.push_back(nullptr);
  return run_commands(static_cast<int>(copies.size()), argv.data(), GuiLauncher{}, {}, Mode::kCheck,
                      out, err);
}

namespace {

// Option names in --help without CLI11's default flag values: a flag with a negated form
// ("--counters,!--no-counters") was listed as "--counters,--no-counters{false}", which reads as
// syntax to type.
class PlainNamesFormatter : public CLI::Formatter {
 public:
  std::string make_option_name(const CLI::Option* option, bool is_positional) const override {
    if (is_positional) return CLI::Formatter::make_option_name(option, is_positional);
    std::string names;
    for (const std::string& name : option->get_snames()) {
      names += (names.empty() ? "-" : ", -") + name;
    }
    for (const std::string& name : option->get_lnames()) {
      names += (names.empty() ? "--" : ", --") + name;
    }
    return names.empty() ? CLI::Formatter::make_option_name(option, is_positional) : names;
  }
};

int run_commands(int argc, char** argv, const GuiLauncher& gui,
                 const MemoryRequestRenderer& draw_memory, Mode mode, std::ostream& out,
                 std::ostream& err) {
  const bool check_only = mode == Mode::kCheck;
  CLI::App app{
      "ThreadLab: learn CUDA by running real kernels and seeing which thread computed what.\n"
      "Without a subcommand, the window opens.",
      "threadlab"};
  // Set before any subcommand is added: each takes its parent's formatter when it is made.
  app.formatter(std::make_shared<PlainNamesFormatter>());
  app.set_version_flag("--version", build_info::describe());
  app.require_subcommand(0, 1);
  const CLI::Validator whole = decimal_number<int>();
  const CLI::Validator seed = decimal_number<std::uint64_t>();
  const CLI::Validator decimal = decimal_number<double>();

  GuiOptions gui_options;
  auto* gui_command =
      app.add_subcommand("gui", "Open the window (the default), or run its UI headless");
  gui_command->add_flag("--headless", gui_options.headless,
                        "Render offscreen with EGL: no display needed");
  gui_command
      ->add_option("--frames", gui_options.frames, "Quit after this many frames (0: until closed)")
      ->transform(whole);
  gui_command->add_option("--screenshot", gui_options.screenshot,
                          "Save the last frame to this PNG");
  gui_command
      ->add_option("--width", gui_options.width,
                   "Window or image width (default: the remembered window, 1600 headless)")
      ->transform(whole);
  gui_command
      ->add_option("--height", gui_options.height,
                   "Window or image height (default: the remembered window, 1000 headless)")
      ->transform(whole);
  gui_command
      ->add_option("--scale", gui_options.scale,
                   "UI scale, e.g. 1.5 for a projector (default: monitor's)")
      ->transform(decimal);
  gui_command->add_option("--backend", gui_options.backend, std::string(kBackendNames))
      ->capture_default_str();
  gui_command->add_flag("--fullscreen", gui_options.fullscreen,
                        "Full screen on the primary monitor");
  gui_command->add_option(
      "--action", gui_options.actions,
      "Start with a lesson action, e.g. 'threadlab:set?n=2^20&grid=1&launch' (repeatable)");

  gui_command->add_option("--join", gui_options.join,
                          "Follow a class: HOST:PORT/CODE, as the teacher's screen shows it");
  gui_command->add_option("--name", gui_options.name,
                          "Your name on the teacher's board (with --join)");
  gui_command->add_flag(
      "--host-class", gui_options.host_class,
      "Host a class from this window: students follow your lesson, step and view");
  gui_command
      ->add_option("--class-port", gui_options.class_port, "The class's port (with --host-class)")
      ->transform(whole)
      ->capture_default_str();
  gui_command->add_option("--class-code", gui_options.class_code,
                          "The class's join code (with --host-class; default: a random one)");
  gui_command->add_option(
      "--class-bind", gui_options.class_bind,
      "The address the class listens on (with --host-class; default: every address)");

  // `demo` shares the window's options; its own are the script and, headless, the output folder.
  GuiOptions demo_options;
  auto* demo_command = app.add_subcommand(
      "demo",
      "Play a demo script (TOML) in the window, or render one PNG per step with --headless");
  demo_command->add_option("script", demo_options.demo_script, "The demo script (.toml)")
      ->required();
  demo_command->add_flag("--headless", demo_options.headless,
                         "Render offscreen with EGL, one PNG per step into --out");
  demo_command->add_option("--out", demo_options.out_dir, "Folder for the PNGs (with --headless)");
  demo_command->add_option("--width", demo_options.width, "Window or image width")
      ->transform(whole);
  demo_command->add_option("--height", demo_options.height, "Window or image height")
      ->transform(whole);
  demo_command
      ->add_option("--scale", demo_options.scale, "UI scale (default: monitor's; 1 headless)")
      ->transform(decimal);
  demo_command->add_option("--backend", demo_options.backend, std::string(kBackendNames))
      ->capture_default_str();
  demo_command->add_flag("--fullscreen", demo_options.fullscreen,
                         "Full screen on the monitor the window opens on");
  demo_command
      ->add_option("--frames", demo_options.frames,
                   "Quit after this many frames (0: until closed; for tests)")
      ->transform(whole);
  demo_command->add_option("--screenshot", demo_options.screenshot,
                           "Save the last frame to this PNG (with --frames)");
  // A teacher plays the script to a class: the students' windows follow it step by step.
  demo_command->add_flag("--host-class", demo_options.host_class,
                         "Host a class: students who join follow the script's steps");
  demo_command
      ->add_option("--class-port", demo_options.class_port, "The class's port (with --host-class)")
      ->transform(whole)
      ->capture_default_str();
  demo_command->add_option("--class-code", demo_options.class_code,
                           "The class's join code (with --host-class; default: a random one)");
  demo_command->add_option(
      "--class-bind", demo_options.class_bind,
      "The address the class listens on (with --host-class; default: every address)");

  SoakOptions soak;
  auto* soak_command = app.add_subcommand(
      "soak", "Random valid and invalid actions against the whole app, headless, memory watched");
  soak_command->add_option("--seconds", soak.seconds, "How long (10 minutes for the real run)")
      ->capture_default_str()
      ->transform(decimal);
  soak_command->add_option("--seed", soak.seed, "The action stream's seed (same seed, same run)")
      ->capture_default_str()
      ->transform(seed);
  soak_command
      ->add_option("--sample-every", soak.sample_every_seconds, "Seconds between memory samples")
      ->capture_default_str()
      ->transform(decimal);
  soak_command->add_option("--backend", soak.backend, std::string(kBackendNames))
      ->capture_default_str();

  InfoOptions info;
  auto* info_command =
      app.add_subcommand("info", "The device table and the backend that would be chosen");
  info_command->add_option("--backend", info.backend, std::string(kBackendNames))
      ->capture_default_str();

  auto* lessons_command = app.add_subcommand("lessons", "List the lessons");

  InspectOptions inspect;
  auto* inspect_command = app.add_subcommand(
      "inspect",
      "What nvcc made of a lesson's kernels, without a GPU: registers, shared and local memory, "
      "spills and instructions by kind per kernel; or one kernel's SASS or PTX with each source "
      "line above its instructions (listings made at build time by the CUDA toolkit)");
  inspect_command->add_option("--lesson", inspect.lesson, "Lesson id (see `threadlab lessons`)")
      ->required();
  inspect_command->add_option(
      "--kernel", inspect.kernel,
      "Which kernel: its whole name as the table prints it, or text in it (a kernel and its "
      "traced twin: the timed one)");
  inspect_command->add_option("--arch", inspect.arch,
                              "Architecture, e.g. sm_90 (default: the newest built)");
  inspect_command->add_flag("--sass", inspect.sass,
                            "The kernel's SASS (nvdisasm), each source line above its "
                            "instructions, memory instructions marked by space");
  inspect_command->add_flag("--ptx", inspect.ptx, "The kernel's PTX, with its source lines");
  inspect_command->add_flag("--resources", inspect.resources,
                            "The table of kernels and their resources (the default)");
  inspect_command
      ->add_option("--format", inspect.format,
                   "table, csv or json (the table and --sass; --ptx prints text)")
      ->capture_default_str();

  RunOptions run;
  auto* run_command = app.add_subcommand("run", "One launch: timings, --check, --trace");
  // With --lesson, the commands take (and --help lists) that lesson's parameters with their
  // defaults and ranges; without it, every lesson's, each described under the lessons that take it.
  const auto named_lesson = lesson_on_command_line(argc, argv);
  const std::vector<lessons::ParamSpec> params =
      named_lesson ? lesson_params_described(*named_lesson) : every_lesson_param();
  add_launch_options(*run_command, run.launch);
  run_command->add_flag("--check", run.check,
                        "Compare with the CPU reference; exit 1 if any element is wrong");
  run_command->add_option("--trace", run.trace_path,
                          "Write who computed each element to this CSV file");
  run_command->add_option("--export", run.export_prefix,
                          "Write the lesson's own results (e.g. the moving-data timeline) to "
                          "PREFIX.<what>.csv/.json");
  run_command->add_option("--repeats", run.repeats, "Timed runs after one warm-up (1 to 10000)")
      ->capture_default_str()
      ->transform(whole);
  run_command->add_flag("--counters,!--no-counters", run.counters,
                        "Also read each compared kernel's hardware counters (DRAM bytes, L2 hit "
                        "rate, achieved occupancy) through CUPTI, on launches apart from the "
                        "timed ones; with --export also PREFIX.counters.csv/.json");
  // Not --memory: that is the moving-data lesson's parameter (pageable, pinned or managed).
  run_command->add_flag("--memory-table", run.memory,
                        "Instead of timing: record the lesson's kernels' memory accesses on the "
                        "emulator and print, per source line, requests, sectors per request and "
                        "bank conflicts (lessons vector-add, 2d-blocks, matmul, reductions); "
                        "with --counters on a GPU, each kernel's counted sectors and bank "
                        "conflicts beside the model's. Not --memory: that is the moving-data "
                        "lesson's parameter (pageable, pinned or managed host memory)");
  run_command->add_option("--format", run.memory_format, "With --memory-table: table, csv or json")
      ->capture_default_str();

  BenchOptions bench;
  auto* bench_command = app.add_subcommand("bench", "CPU against GPU over a sweep of sizes");
  add_launch_options(*bench_command, bench.launch);
  bench_command
      ->add_option("--sizes", bench.sizes,
                   "Sizes: 1000,2^20 or a range of powers of two 2^10..2^28")
      ->capture_default_str();
  bench_command->add_option("--format", bench.format, "table, csv or json")->capture_default_str();
  bench_command->add_option("--repeats", bench.repeats, "Timed runs per point (1 to 10000)")
      ->capture_default_str()
      ->transform(whole);
  bench_command->add_flag("!--no-cpu", bench.cpu, "Skip the CPU references");
  bench_command->add_option(
      "--suite", bench.suite,
      "ratios: each kernel against this device's copy bandwidth or cuBLAS, "
      "measured in one run (instead of a sweep); perf: issue #6's targets, "
      "each ratio with its target and whether it is met; ui: perf's interactive "
      "rows alone (interop against copy, the whole UI frame)");

  RenderOptions render;
  auto* render_command = app.add_subcommand(
      "render",
      "Draw the mapping view to a PNG, headless; with --memory-line, one warp's memory request as "
      "the Memory tab draws it");
  // --out is the PNG here (the lesson parameters come after the command's own options: see
  // add_lesson_params).
  render_command->add_option("--out", render.out_path, "PNG file to write")->required();
  // Not called --kernel: that is the matmul and reductions lessons' parameter (which rung runs),
  // which render keeps.
  render_command
      ->add_option("--memory-line", render.memory_line,
                   "Draw one warp's request of this line of the recorded kernel's .cuh (the line "
                   "numbers of `threadlab run --lesson L --memory-table`) instead of the mapping "
                   "view: its 32 lanes onto the 32-byte sectors and 128-byte lines of global "
                   "memory, or onto the 32 banks of shared memory (lessons vector-add, 2d-blocks, "
                   "matmul, reductions)")
      ->transform(whole);
  render_command
      ->add_option("--warp", render.warp,
                   "With --memory-line: which of the line's warp requests, 0 for the first, in "
                   "the order they were recorded (a line that loads and stores: its loads first)")
      ->capture_default_str()
      ->transform(whole);
  render_command->add_option(
      "--memory-kernel", render.memory_kernel,
      "With --memory-line: which of the lesson's recorded kernels, by its label in the memory "
      "table (e.g. 'float4 per thread', 'tiled') or its index from 0 (default: the first)");
  add_launch_options(*render_command, render.launch);
  render_command
      ->add_option("--color-by", render.color_by,
                   "block, thread, warp, sm, writes or pass (the grid-stride iteration)")
      ->capture_default_str();
  render_command->add_option("--width", render.width, "Image width in pixels")
      ->capture_default_str()
      ->transform(whole);
  render_command
      ->add_option("--height", render.height,
                   "Image height in pixels (with --memory-line, default: as tall as the picture)")
      ->capture_default_str()
      ->transform(whole);

  // The lesson parameters, last: first each launching command's own flags are known, and a lesson
  // whose parameter would become one of them is refused here, with its name, the parameter's and
  // the flag's, instead of CLI11 throwing from add_option (a crash before anything was parsed: a
  // `width` parameter met render's --width). Every lesson and command is fixed in a process, so
  // the check is made once (a fuzzer calls this thousands of times a second).
  static const Status param_flags = [&] {
    std::vector<compute::ReservedFlag> reserved;
    for (const CLI::App* command : {run_command, bench_command, render_command}) {
      add_own_flags(*command, reserved);
    }
    return compute::check_param_flags(compute::registered_lessons(), reserved);
  }();
  if (!param_flags) return fail(err, param_flags.message(), kExitUsage);
  add_lesson_params(*run_command, run.launch, params);
  add_lesson_params(*bench_command, bench.launch, params);
  add_lesson_params(*render_command, render.launch, params);

  auto* lab_command = app.add_subcommand(
      "lab", "The Kernel Lab: exercises, checks and grading of your own kernels");
  lab_command->require_subcommand(1);
  std::string lab_list_format = "text";
  auto* lab_list = lab_command->add_subcommand("list", "The exercises, in lesson order");
  lab_list->add_option("--format", lab_list_format, "text or json")->capture_default_str();
  std::string lab_exercise_id;
  std::string lab_print_what;
  for (const char* what : {"starter", "solution", "statement"}) {
    auto* print = lab_command->add_subcommand(
        what, std::string("Print an exercise's ") + what +
                  (std::string(what) == "statement" ? " (markdown)" : " source"));
    print->add_option("exercise", lab_exercise_id, "The exercise id (lab list)")->required();
    print->callback([&lab_print_what, what] { lab_print_what = what; });
  }
  LabCheckOptions lab_check;
  const auto add_lab_options = [&lab_check, &whole, &seed](CLI::App& command, const char* file_help,
                                                           const char* formats,
                                                           const char* positional = "file") {
    command.add_option(positional, lab_check.file, file_help)->required();
    command.add_option("--exercise", lab_check.exercise, "The exercise id (lab list)")->required();
    command
        .add_option("--backend", lab_check.backend,
                    "auto, gpu or emulator (the Lab draws no traces: no gpu-copy)")
        ->capture_default_str();
    command.add_option("--block", lab_check.block,
                       "Your block size, e.g. 128 or 16,16, where the exercise lets you choose");
    command.add_option("--grid", lab_check.grid,
                       "Your grid, e.g. 4 or 8,8, for every case (default: enough blocks for each "
                       "case's size)");
    command
        .add_option("--seed", lab_check.seed,
                    "The hidden data's seed (a teacher may grade on one students never saw)")
        ->capture_default_str()
        ->transform(seed);
    command
        .add_option("--timeout-ms", lab_check.timeout_ms,
                    "Longest a kernel may run before its worker is stopped")
        ->capture_default_str()
        ->transform(whole)
        ->check(CLI::Range(1, 600000));
    command.add_option("--format", lab_check.format, formats);
    command.add_flag("!--unsafe-no-sandbox", lab_check.sandbox,
                     "Run the kernel without the Lab's sandbox (SECURITY.md): only for code you "
                     "trust, on a machine where the sandbox cannot be made");
  };
  auto* lab_run_command = lab_command->add_subcommand(
      "run",
      "Run your kernel once on the exercise's example case, no hidden checks (exit 0 its outputs "
      "are right, 1 they are not, 2 it does not compile)");
  add_lab_options(*lab_run_command, "Your kernel's .cu file",
                  "text or json (default text); with --memory table, csv or json");
  const char* memory_help =
      "Once it passes, record your kernel's memory accesses on the emulator and print, per "
      "source line, its requests, sectors per request against the ideal, and bank conflicts";
  lab_run_command->add_flag("--memory", lab_check.memory, memory_help);
  auto* lab_check_command =
      lab_command->add_subcommand("check",
                                  "Run the hidden checks on your kernel (exit 0 pass, "
                                  "1 a check failed, 2 it does not compile)");
  add_lab_options(*lab_check_command, "Your kernel's .cu file",
                  "text or json (default text); with --memory table, csv or json");
  lab_check_command->add_flag("--memory", lab_check.memory, memory_help);
  const char* compiler_feedback_help =
      "After a pass, compile once more (NVRTC, no GPU needed) and warn where registers spill or "
      "registers or shared memory hold occupancy low (--no-compiler-feedback: skip it)";
  lab_check_command->add_flag("--compiler-feedback,!--no-compiler-feedback",
                              lab_check.compiler_feedback, compiler_feedback_help);
  lab_check_command->add_flag("--compare,!--no-compare", lab_check.compare,
                              "Time the reference solution in the same run");
  auto* lab_watch_command = lab_command->add_subcommand(
      "watch",
      "Check your kernel again every time you save the file (a file that does not exist is an "
      "error, exit 2, unless --wait)");
  add_lab_options(*lab_watch_command, "Your kernel's .cu file", "text");
  lab_watch_command->add_flag("--compiler-feedback,!--no-compiler-feedback",
                              lab_check.compiler_feedback, compiler_feedback_help);
  lab_watch_command->add_flag("--compare,!--no-compare", lab_check.compare,
                              "Time the reference solution in the same run");
  lab_watch_command
      ->add_option("--max-checks", lab_check.max_checks,
                   "Stop after this many checks (0: until Ctrl+C)")
      ->transform(whole);
  lab_watch_command->add_flag("--wait", lab_check.wait,
                              "If the file does not exist yet, wait for it to be created and "
                              "check it then (without --wait: exit 2 at once)");
  auto* lab_grade_command = lab_command->add_subcommand(
      "grade", "Check every .cu file of a folder, one worker each; one row per file");
  add_lab_options(*lab_grade_command, "The folder of submissions",
                  "csv, json, gradescope (results.json) or junit (default csv)", "folder");
  lab_grade_command->add_option(
      "--output", lab_check.output,
      "Write the report to FILE, whole after every row (files not graded yet: pending)");
  lab_grade_command->add_flag("--compiler-feedback,!--no-compiler-feedback",
                              lab_check.compiler_feedback, compiler_feedback_help);
  lab_grade_command->add_flag("--resume", lab_check.resume,
                              "With --output: keep the rows it holds, grade only the rest");
  LabInspectOptions lab_inspect;
  auto* lab_inspect_command = lab_command->add_subcommand(
      "inspect",
      "What the compiler made of your kernel, without a GPU (NVRTC): registers, spills, shared "
      "memory and occupancy; or its SASS (where the toolkit's nvdisasm is installed) or PTX with "
      "each line of your file above its instructions");
  lab_inspect_command->add_option("file", lab_inspect.file, "Your kernel's .cu file")->required();
  lab_inspect_command->add_option("--exercise", lab_inspect.exercise, "The exercise id (lab list)")
      ->required();
  lab_inspect_command->add_option("--arch", lab_inspect.arch,
                                  "Architecture to compile for, e.g. sm_80 (default: sm_90)");
  lab_inspect_command->add_flag("--sass", lab_inspect.sass,
                                "The SASS (nvdisasm), each line of your file above its "
                                "instructions, memory instructions marked by space");
  lab_inspect_command->add_flag("--ptx", lab_inspect.ptx, "The PTX, with your file's lines");
  lab_inspect_command->add_flag("--resources", lab_inspect.resources,
                                "Registers, spills, shared memory, occupancy (the default)");
  lab_inspect_command
      ->add_option("--format", lab_inspect.format, "table or json (--sass: text or json)")
      ->capture_default_str();
  lab_inspect_command->add_flag("!--unsafe-no-sandbox", lab_inspect.sandbox,
                                "Compile without the Lab's sandbox (SECURITY.md): only for code "
                                "you trust");

  // The lessons' own commands (`threadlab train`): everything after the name, --help included,
  // goes to the lesson, which parses it and says what it takes.
  std::vector<std::pair<const compute::LessonCommand*, CLI::App*>> lesson_commands;
  for (const compute::LessonModule* module : compute::registered_lessons()) {
    if (module->command == nullptr) continue;
    auto* command =
        app.add_subcommand(std::string(module->command->name),
                           std::string(module->command->summary) + " (--help: its options)");
    command->prefix_command();
    command->set_help_flag();
    lesson_commands.emplace_back(module->command, command);
  }

  // The classroom on the network (issue 37).
  auto* class_command =
      app.add_subcommand("class", "The class on the network: a server, a load test");
  class_command->require_subcommand(1);
  ClassServeOptions class_serve;
  auto* class_serve_command = class_command->add_subcommand(
      "serve", "Serve a class: students follow the presenter, the board collects Lab results");
  class_serve_command->add_option("--bind", class_serve.bind, "The address to listen on")
      ->capture_default_str();
  class_serve_command->add_option("--port", class_serve.port, "The port (0: any free one)")
      ->transform(whole)
      ->capture_default_str();
  class_serve_command->add_option("--code", class_serve.code,
                                  "The join code, 4 to 16 of A-Z and 2-9 (default: a random one)");
  class_serve_command->add_option(
      "--board-file", class_serve.board_file,
      "Where the board is saved (default: " + default_class_board_file() + ")");
  class_serve_command->add_flag("--no-save", class_serve.no_save, "Keep the board in memory only");
  class_serve_command
      ->add_option("--seconds", class_serve.seconds, "Stop after this long (0: at Ctrl+C)")
      ->transform(whole);
  ClassBenchCliOptions class_bench;
  auto* class_bench_command = class_command->add_subcommand(
      "bench", "Simulated students on loopback: step delivery latency, lost steps and results");
  class_bench_command->add_option("--students", class_bench.students, "How many students")
      ->transform(whole)
      ->capture_default_str();
  class_bench_command
      ->add_option("--steps", class_bench.steps, "How many steps the presenter takes")
      ->transform(whole)
      ->capture_default_str();
  class_bench_command->add_option("--interval-ms", class_bench.interval_ms, "Between two steps")
      ->transform(whole)
      ->capture_default_str();

  auto* worker_command = app.add_subcommand("worker", "");  // started by the Lab, not by people
  worker_command->group("");
  worker_command->prefix_command();  // its sandbox arguments (sandbox.hpp) are read by the worker

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e, out, err);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e, out, err);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e, out, err);
  } catch (const CLI::ParseError& e) {
    // `threadlab --headless`, as someone who read "use the headless mode" might type it: the flag
    // belongs to a command, so name the one that does what they want.
    std::string hint = " (see threadlab --help)";
    if (std::string(e.what()).find("--headless") != std::string::npos && !*gui_command &&
        !*demo_command) {
      hint = " (--headless belongs to a command: threadlab gui --headless --screenshot out.png)";
    }
    return fail(err, std::string(e.what()) + hint, kExitUsage);
  }

  // Checked only: each command's own checks, the ones it makes first when it runs, and no more.
  if (*worker_command) return check_only ? kExitOk : command_worker(worker_command->remaining());
  for (const auto& [lesson_command, parsed] : lesson_commands) {
    if (!*parsed) continue;
    const std::vector<std::string> args = parsed->remaining();
    if (check_only) {
      return lesson_command->check != nullptr ? lesson_command->check(args, err) : kExitOk;
    }
    const compute::LessonCommandContext context{
        out, err,
        [](const std::string& path, int width, int height, std::span<const std::uint8_t> rgba) {
          return render::write_png(path, width, height, rgba);
        },
        isatty(STDOUT_FILENO) != 0};
    return lesson_command->run(args, context);
  }
  if (*class_serve_command) {
    if (check_only) return usage_status(check_class_serve_options(class_serve), err);
    return command_class_serve(class_serve, out, err);
  }
  if (*class_bench_command) {
    if (check_only) return usage_status(check_class_bench_options(class_bench), err);
    return command_class_bench(class_bench, out, err);
  }
  if (*lab_command) {
    if (*lab_list) {
      if (check_only) return usage_status(check_lab_list_options(lab_list_format), err);
      return command_lab_list(lab_list_format, out, err);
    }
    if (!lab_print_what.empty()) {
      if (check_only) return usage_status(check_lab_print_options(lab_exercise_id), err);
      return command_lab_print(lab_exercise_id, lab_print_what, out, err);
    }
    if (*lab_inspect_command) {
      if (check_only) return usage_status(check_lab_inspect_options(lab_inspect), err);
      return command_lab_inspect(lab_inspect, out, err);
    }
    if (*lab_run_command || *lab_check_command) {
      if (lab_check.format.empty()) lab_check.format = "text";
      if (*lab_run_command) {
        lab_check.run_only = true;
        lab_check.compare = false;
      }
      const LabCommand which = *lab_run_command ? LabCommand::kRun : LabCommand::kCheck;
      if (check_only) return usage_status(check_lab_options(lab_check, which), err);
      return command_lab_check(lab_check, out, err);
    }
    if (*lab_watch_command) {
      if (lab_check.format.empty()) lab_check.format = "text";
      if (check_only) return usage_status(check_lab_options(lab_check, LabCommand::kWatch), err);
      return command_lab_watch(lab_check, out, err);
    }
    if (lab_check.format.empty()) lab_check.format = "csv";
    if (check_only) return usage_status(check_lab_options(lab_check, LabCommand::kGrade), err);
    return command_lab_grade(lab_check, out, err);
  }
  if (*info_command) {
    if (check_only) return usage_status(check_info_options(info), err);
    return command_info(info, out, err);
  }
  if (*lessons_command) return check_only ? kExitOk : command_lessons(out);
  if (*inspect_command) {
    if (check_only) return usage_status(check_inspect_options(inspect), err);
    return command_inspect(inspect, out, err);
  }
  if (*run_command) {
    if (check_only) return usage_status(check_run_options(run), err);
    return command_run(run, out, err);
  }
  if (*bench_command) {
    // A suite measures fixed sizes of every lesson: the sweep's options are refused with it.
    for (const char* name : {"--sizes", "--lesson", "--single-block", "--no-cpu"}) {
      const CLI::Option* given = bench_command->get_option_no_throw(name);
      if (given != nullptr && given->count() > 0) bench.sweep_options_given.emplace_back(name);
    }
    for (const auto& [name, value] : bench.launch.params) {
      bench.sweep_options_given.push_back("--" + hyphenate(name));
    }
    if (check_only) return usage_status(check_bench_options(bench), err);
    if (bench.suite.empty()) return command_bench(bench, out, err);
    if (bench.suite == "ratios") return command_bench_ratios(bench, out, err);
    if (bench.suite == "perf") return command_bench_perf(bench, gui.measure_frames, out, err);
    if (bench.suite == "ui") return command_bench_ui(bench, gui.measure_frames, out, err);
    return fail(err, "--suite must be ratios, perf or ui", kExitUsage);
  }
  if (*render_command) {
    render.height_given = render_command->get_option("--height")->count() > 0;
    render.warp_given = render_command->get_option("--warp")->count() > 0;
    if (check_only) return usage_status(check_render_options(render), err);
    return command_render(render, draw_memory, out, err);
  }
  if (*soak_command) {
    if (const Status checked = check_soak_options(soak); !checked || check_only) {
      return usage_status(checked, err);
    }
    if (!gui.soak) return fail(err, "this build has no UI to soak", kExitFailure);
    return gui.soak(soak);
  }
  if (*demo_command) gui_options = demo_options;
  if (const Status checked =
          check_gui_options(gui_options, gui_command->parsed(), demo_command->parsed());
      !checked || check_only) {
    return usage_status(checked, err);
  }
  return gui.run(gui_options);
}

}  // namespace

}  // namespace tl::cli

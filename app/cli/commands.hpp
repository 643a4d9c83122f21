#pragma once
// One function per subcommand; each returns the process exit status. Each command's options are
// checked by its check_*_options first, which opens, reads and runs nothing: the first bad value's
// one-line reason, a usage error (exit 2). check_command_line calls the checks alone.

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "core/result.hpp"

namespace tl::cli {

struct InfoOptions {
  std::string backend = "auto";
};
Status check_info_options(const InfoOptions& options);
int command_info(const InfoOptions& options, std::ostream& out, std::ostream& err);

int command_lessons(std::ostream& out);

// `threadlab inspect`: what nvcc made of a lesson's kernels (lessons/compiled_kernels.hpp).
struct InspectOptions {
  std::string lesson;
  std::string kernel;  // a whole short name, or text its name contains
  std::string arch;    // sm_90, ...; empty: the newest the build compiled for
  bool sass = false;
  bool ptx = false;
  bool resources = false;  // the default without --sass or --ptx
  std::string format = "table";
};
Status check_inspect_options(const InspectOptions& options);
int command_inspect(const InspectOptions& options, std::ostream& out, std::ostream& err);

struct LaunchOptions {
  std::string lesson;  // empty: the first registered lesson (the one the app opens on)
  std::map<std::string, std::string> params;  // --n 1000, --block 16,16, ... as given
  bool single_block = false;                  // the article's <<<1, N>>>
  std::string backend = "auto";
};

struct RunOptions {
  LaunchOptions launch;
  bool check = false;
  std::string trace_path;     // empty: no trace
  std::string export_prefix;  // empty: no export of the lesson's own results
  int repeats = 5;
  // Also read each compared kernel's hardware counters (CUPTI), on launches of their own.
  bool counters = false;
  // Instead of timing: record the lesson's own kernels' memory accesses on the emulator and print
  // the per-line table (lab/lesson_memory.hpp) as `memory_format`: table, csv or json.
  bool memory = false;
  std::string memory_format = "table";
};
Status check_run_options(const RunOptions& options);
int command_run(const RunOptions& options, std::ostream& out, std::ostream& err);

struct BenchOptions {
  LaunchOptions launch;  // the lesson, its parameters (the size is swept) and the backend
  std::string sizes = "2^10..2^24";
  std::string format = "table";
  int repeats = 5;
  bool cpu = true;
  std::string suite;  // "ratios": the fixed comparisons instead of a sweep
  // The sweep's options given on the command line ("--sizes", "--lesson", "--n", ...): a suite
  // measures fixed sizes and refuses them rather than ignore them.
  std::vector<std::string> sweep_options_given;
};
// The sweep's sizes each configured on the lesson too; for a suite, the options it takes.
Status check_bench_options(const BenchOptions& options);
int command_bench(const BenchOptions& options, std::ostream& out, std::ostream& err);
int command_bench_ratios(const BenchOptions& options, std::ostream& out, std::ostream& err);

struct RenderOptions {
  LaunchOptions launch;
  std::string color_by = "block";
  std::string out_path;
  int width = 1280;
  int height = 720;
  bool height_given = false;  // --memory-line: without --height the PNG is as tall as the picture
  // --memory-line N: instead of the mapping view, one warp's request of line N of the recorded
  // kernel's .cuh, as the Memory tab draws it (0: not asked). --warp: which of the line's
  // requests; --memory-kernel: which of the lesson's recorded kernels (label or index).
  int memory_line = 0;
  int warp = 0;
  bool warp_given = false;
  std::string memory_kernel;
};
Status check_render_options(const RenderOptions& options);
int command_render(const RenderOptions& options, const MemoryRequestRenderer& draw_memory,
                   std::ostream& out, std::ostream& err);

// The Kernel Lab: `lab list|starter|solution|statement|run|check|watch|grade` and the worker.
struct LabCheckOptions {
  std::string exercise;
  std::string file;  // check, watch: the submission; grade: the folder of submissions
  std::string backend = "auto";
  std::string block;      // empty: the exercise's
  std::string grid;       // empty: each case's own
  bool run_only = false;  // `lab run`: the example case only (lab::LabOptions::run_only)
  std::uint64_t seed = 1;
  int timeout_ms = 2000;
  std::string format;   // text|json (check), csv|json (grade)
  bool compare = true;  // time the reference solution in the same run
  bool time = true;
  int max_checks = 0;  // watch: stop after this many checks (0: never; for tests)
  bool wait = false;   // watch: a file that does not exist yet is waited for, not refused
  // check, run: record the passing kernel's memory accesses and print the per-line table;
  // --format is then table (the verdict, its notes and the table), csv (the table alone) or json.
  bool memory = false;
  // The Lab's sandbox around the worker (--unsafe-no-sandbox turns it off; SECURITY.md).
  bool sandbox = true;
  // check, watch, grade: after a pass, what the compiler made says a word on spills and low
  // occupancy (lab::LabOptions::inspect_compiled); --no-compiler-feedback skips that compile.
  bool compiler_feedback = true;
  // grade: the report file, rewritten whole after every row; --resume grades only the rows it
  // does not hold yet.
  std::string output;
  bool resume = false;
};
enum class LabCommand { kRun, kCheck, kWatch, kGrade };
// The exercise, the --format that `command` prints, the backend's name, --block, --grid,
// --timeout-ms and --max-checks; the file is not looked at.
Status check_lab_options(const LabCheckOptions& options, LabCommand command);
Status check_lab_list_options(const std::string& format);
Status check_lab_print_options(const std::string& exercise_id);
int command_lab_list(const std::string& format, std::ostream& out, std::ostream& err);
int command_lab_print(const std::string& id, const std::string& what, std::ostream& out,
                      std::ostream& err);
int command_lab_check(const LabCheckOptions& options, std::ostream& out, std::ostream& err);
int command_lab_watch(const LabCheckOptions& options, std::ostream& out, std::ostream& err);
int command_lab_grade(const LabCheckOptions& options, std::ostream& out, std::ostream& err);
int command_worker(const std::vector<std::string>& args);

// A learner's .cu file: a regular file of at most 1 MiB, with an error naming the path otherwise.
Result<std::string> read_submission(const std::string& path);

struct LabInspectOptions {
  std::string file;
  std::string exercise;
  std::string arch;  // sm_90, ...; empty: sm_90
  bool sass = false;
  bool ptx = false;
  bool resources = false;  // the default without --sass or --ptx
  std::string format = "table";
  bool sandbox = true;
};
Status check_lab_inspect_options(const LabInspectOptions& options);
int command_lab_inspect(const LabInspectOptions& options, std::ostream& out, std::ostream& err);

// Prints "threadlab: <message>" on one line and returns `status`.
int fail(std::ostream& err, const std::string& message, int status);

// `threadlab class serve`: the class server headless (app/net), until Ctrl+C or --seconds.
struct ClassServeOptions {
  std::string bind = "0.0.0.0";
  int port = 8737;
  std::string code;        // empty: a random one
  std::string board_file;  // empty: default_class_board_file()
  bool no_save = false;
  int seconds = 0;  // 0: until interrupted
};
// $XDG_STATE_HOME/threadlab/class-board.json (else ~/.local/state/...), or empty.
std::string default_class_board_file();
Status check_class_serve_options(const ClassServeOptions& options);
int command_class_serve(const ClassServeOptions& options, std::ostream& out, std::ostream& err);

// `threadlab class bench`: a class of simulated students on loopback (net/class_bench.hpp).
struct ClassBenchCliOptions {
  int students = 60;
  int steps = 40;
  int interval_ms = 250;
};
Status check_class_bench_options(const ClassBenchCliOptions& options);
int command_class_bench(const ClassBenchCliOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tl::cli

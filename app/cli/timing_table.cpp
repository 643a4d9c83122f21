#include "timing_table.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/format.hpp"
#include "core/lessons/vector_add.hpp"

namespace tl::cli {
namespace {

std::string ms(const TimingStats& t) {
  if (t.empty()) return "-";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.4f", t.median_ms);
  return buffer;
}

std::string range(const TimingStats& t) {
  if (t.empty()) return "";
  return "(" + format_milliseconds(t.min_ms) + " – " + format_milliseconds(t.max_ms) + ")";
}

std::string gbps(double bytes, const TimingStats& t) {
  if (t.empty() || t.median_ms <= 0) return "-";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", gigabytes_per_second(bytes, t.median_ms));
  return buffer;
}

nlohmann::json stats_json(const TimingStats& t) {
  if (t.empty()) return nullptr;
  return {{"median_ms", t.median_ms},
          {"min_ms", t.min_ms},
          {"max_ms", t.max_ms},
          {"repeats", t.repeats}};
}

}  // namespace

void print_run_report(std::ostream& out, const BenchRow& row, const std::string& backend) {
  const auto& r = row.report;
  const double bytes = lessons::vector_add_bytes(row.n);
  out << "vector_add" << row.config.to_string() << "  N = " << format_count(row.n) << "  on "
      << backend << '\n';
  auto line = [&](const char* what, const TimingStats& t, const std::string& extra = "") {
    if (t.empty()) return;
    char buffer[160];
    std::snprintf(buffer, sizeof buffer, "  %-28s %12s  %-26s %s\n", what,
                  format_milliseconds(t.median_ms).c_str(), range(t).c_str(), extra.c_str());
    out << buffer;
  };
  line(r.on_gpu ? "GPU kernel" : "emulated kernel (CPU)", r.kernel,
       gbps(bytes, r.kernel) + " GB/s");
  line("copy A, B host → device", r.host_to_device,
       gbps(8.0 * static_cast<double>(row.n), r.host_to_device) + " GB/s");
  line("copy C device → host", r.device_to_host,
       gbps(4.0 * static_cast<double>(row.n), r.device_to_host) + " GB/s");
  char e2e[160];
  std::snprintf(e2e, sizeof e2e, "  %-28s %12s\n", "end to end (copies + kernel)",
                format_milliseconds(r.end_to_end_ms()).c_str());
  out << e2e;
  line("CPU, 1 thread", r.cpu_single, gbps(bytes, r.cpu_single) + " GB/s");
  line(("CPU, " + std::to_string(r.cpu_threads) + " threads").c_str(), r.cpu_multi,
       gbps(bytes, r.cpu_multi) + " GB/s");
  out << "  median of " << r.kernel.repeats << " runs after warm-up, (min – max)\n";
}

void print_bench_table(std::ostream& out, const std::vector<BenchRow>& rows,
                       const std::string& backend) {
  out << "vector add, " << backend << "; median ms of each measurement\n";
  char header[256];
  std::snprintf(header, sizeof header, "%12s %14s %10s %10s %10s %12s %12s %12s %10s\n", "N",
                "launch", "kernel", "h2d", "d2h", "end_to_end", "cpu_1", "cpu_all", "GB/s");
  out << header;
  for (const BenchRow& row : rows) {
    const auto& r = row.report;
    char line[256];
    std::snprintf(line, sizeof line, "%12s %14s %10s %10s %10s %12.4f %12s %12s %10s\n",
                  format_power_of_two(row.n).c_str(), row.config.to_string().c_str(),
                  ms(r.kernel).c_str(), ms(r.host_to_device).c_str(), ms(r.device_to_host).c_str(),
                  r.end_to_end_ms(), ms(r.cpu_single).c_str(), ms(r.cpu_multi).c_str(),
                  gbps(lessons::vector_add_bytes(row.n), r.kernel).c_str());
    out << line;
  }
}

void print_bench_csv(std::ostream& out, const std::vector<BenchRow>& rows,
                     const std::string& backend) {
  out << "lesson,backend,n,grid,block,kernel_ms,kernel_min_ms,kernel_max_ms,h2d_ms,d2h_ms,end_to_"
         "end_ms,"
         "cpu_single_ms,cpu_multi_ms,cpu_threads,kernel_gbps\n";
  for (const BenchRow& row : rows) {
    const auto& r = row.report;
    out << "vector-add," << backend << ',' << row.n << ',' << row.config.grid.x << ','
        << row.config.block.x << ',' << ms(r.kernel) << ',' << r.kernel.min_ms << ','
        << r.kernel.max_ms << ',' << ms(r.host_to_device) << ',' << ms(r.device_to_host) << ','
        << r.end_to_end_ms() << ',' << ms(r.cpu_single) << ',' << ms(r.cpu_multi) << ','
        << r.cpu_threads << ',' << gbps(lessons::vector_add_bytes(row.n), r.kernel) << '\n';
  }
}

void print_bench_json(std::ostream& out, const std::vector<BenchRow>& rows,
                      const std::string& backend, const std::string& device_name) {
  nlohmann::json points = nlohmann::json::array();
  for (const BenchRow& row : rows) {
    const auto& r = row.report;
    points.push_back(
        {{"n", row.n},
         {"launch", row.config.to_string()},
         {"kernel", stats_json(r.kernel)},
         {"host_to_device", stats_json(r.host_to_device)},
         {"device_to_host", stats_json(r.device_to_host)},
         {"end_to_end_ms", r.end_to_end_ms()},
         {"cpu_single", stats_json(r.cpu_single)},
         {"cpu_multi", stats_json(r.cpu_multi)},
         {"cpu_threads", r.cpu_threads},
         {"kernel_gbps", r.kernel.empty() ? 0.0
                                          : gigabytes_per_second(lessons::vector_add_bytes(row.n),
                                                                 r.kernel.median_ms)}});
  }
  const nlohmann::json doc = {
      {"lesson", "vector-add"}, {"backend", backend}, {"device", device_name}, {"points", points}};
  out << doc.dump(2) << '\n';
}

}  // namespace tl::cli

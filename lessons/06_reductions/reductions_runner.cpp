#include "reductions_runner.hpp"

#include <algorithm>
#include <thread>

#include "compute/lessons/run_support.hpp"
#include "lessons/06_reductions/kernels/reduction_kernels.hpp"

namespace tl::compute {
namespace {

using lessons::SumRung;

template <typename T>
Result<DeviceArray<T>> allocate_filled(Device& device, std::span<const T> host) {
  auto array = allocate_array<T>(device, std::max<std::size_t>(1, host.size()));
  if (!array) return array.error();
  if (!host.empty()) {
    TL_RETURN_IF_ERROR(device.copy_to_device(array->data(), host.data(), host.size_bytes()));
  }
  return std::move(*array);
}

// The result, the vectorized rung's block sums and its finished-block count (zeroed once: every
// launch leaves it at 0).
struct SumBuffers {
  DeviceArray<float> out;
  DeviceArray<float> block_sums;
  DeviceArray<unsigned int> blocks_done;
  [[nodiscard]] kernels::SumOutputs outputs() const {
    return {out.data(), block_sums.data(), blocks_done.data()};
  }
};

Result<SumBuffers> allocate_sum_buffers(Device& device, std::uint32_t blocks) {
  SumBuffers buffers;
  auto out = allocate_array<float>(device, 1);
  if (!out) return out.error();
  auto sums = allocate_array<float>(device, std::max<std::uint32_t>(1, blocks));
  if (!sums) return sums.error();
  auto done = allocate_array<unsigned int>(device, 1);
  if (!done) return done.error();
  TL_RETURN_IF_ERROR(device.fill_zero(done->data(), sizeof(unsigned int)));
  buffers.out = std::move(*out);
  buffers.block_sums = std::move(*sums);
  buffers.blocks_done = std::move(*done);
  return buffers;
}

// One launch of `rung`, with *out zeroed first where the rung adds into it.
Status launch_sum(Device& device, SumRung rung, const LaunchConfig& config, const float* in,
                  std::uint64_t n, const SumBuffers& buffers) {
  if (rung != SumRung::kVectorized) {
    TL_RETURN_IF_ERROR(device.fill_zero(buffers.out.data(), sizeof(float)));
  }
  return device.kernels().get<kernels::ReductionKernels>().sum(
      rung, config, in, static_cast<int>(n), buffers.outputs());
}

Result<float> read_result(Device& device, const SumBuffers& buffers) {
  TL_RETURN_IF_ERROR(device.synchronize());
  float value = 0;
  TL_RETURN_IF_ERROR(device.copy_to_host(&value, buffers.out.data(), sizeof(float)));
  return value;
}

std::vector<std::uint64_t> contention_addresses(std::uint64_t n) {
  std::vector<std::uint64_t> addresses;
  for (std::uint64_t a :
       {std::uint64_t{1}, std::uint64_t{32}, std::uint64_t{1024}, std::uint64_t{32768}, n}) {
    if (a <= n && (addresses.empty() || addresses.back() < a)) addresses.push_back(a);
  }
  return addresses;
}

Result<HistogramResult> run_histogram(Device& device, const ReductionsRequest& request,
                                      bool skewed) {
  const auto& p = request.params;
  const std::uint32_t bins = lessons::kHistogramBins;
  const auto values = lessons::make_histogram_values(p.n, bins, skewed, request.seed + 7);
  const auto expected = lessons::histogram_reference(values, bins);
  auto device_values = allocate_filled<std::uint32_t>(device, values);
  if (!device_values) return device_values.error();
  auto counts = allocate_array<std::uint32_t>(device, bins);
  if (!counts) return counts.error();
  const auto blocks = static_cast<std::uint32_t>((p.n + p.block - 1) / p.block);
  const LaunchConfig global_config{{blocks, 1, 1}, {p.block, 1, 1}};
  // A block's shared histogram pays off over many elements: a grid-stride loop with at most 1024
  // blocks gives each block at least n / 1024 of them.
  const LaunchConfig shared_config{{std::min<std::uint32_t>(blocks, 1024), 1, 1}, {p.block, 1, 1}};
  TL_RETURN_IF_ERROR(check_emulator_budget(device, global_config, false));
  const int n = static_cast<int>(p.n);
  const auto& k = device.kernels().get<kernels::ReductionKernels>();
  HistogramResult result;
  result.skewed = skewed;
  for (bool shared : {false, true}) {
    const LaunchConfig& config = shared ? shared_config : global_config;
    auto launch = [&]() -> Status {
      return (shared ? k.histogram_shared : k.histogram_global)(config, device_values->data(),
                                                                counts->data(), n, int{bins});
    };
    auto times = device.time_repeated(launch, request.warmup, request.repeats);
    if (!times) return times.error();
    // The timed launches added up: one more from zero gives the counts to check.
    TL_RETURN_IF_ERROR(device.fill_zero(counts->data(), bins * sizeof(std::uint32_t)));
    TL_RETURN_IF_ERROR(launch());
    TL_RETURN_IF_ERROR(device.synchronize());
    std::vector<std::uint32_t> got(bins);
    TL_RETURN_IF_ERROR(
        device.copy_to_host(got.data(), counts->data(), bins * sizeof(std::uint32_t)));
    (shared ? result.shared : result.global) = summarize_timings(*times);
    (shared ? result.shared_correct : result.global_correct) = got == expected;
  }
  return result;
}

Result<SoftmaxResult> run_softmax(Device& device, const ReductionsRequest& request) {
  const auto& p = request.params;
  const std::uint64_t count = std::uint64_t{p.rows} * p.cols;
  const LaunchConfig config{{p.rows, 1, 1}, {p.block, 1, 1}};
  TL_RETURN_IF_ERROR(check_emulator_budget(device, config, false));
  auto x = allocate_array<float>(device, count);
  if (!x) return x.error();
  auto y = allocate_array<float>(device, count);
  if (!y) return y.error();
  const auto& k = device.kernels().get<kernels::ReductionKernels>();
  SoftmaxResult result;
  result.rows = p.rows;
  result.cols = p.cols;
  std::vector<float> got(count);
  std::vector<double> exact(count);
  constexpr float kScale = 4.0f;
  for (bool large : {false, true}) {
    const auto logits = lessons::make_logits(
        p.rows, p.cols, kScale, large ? lessons::kLargeLogitShift : 0.0f, request.seed + 11);
    TL_RETURN_IF_ERROR(device.copy_to_device(x->data(), logits.data(), count * sizeof(float)));
    if (request.check) lessons::softmax_reference(logits, p.rows, p.cols, exact);
    for (bool stable : {false, true}) {
      auto launch = [&]() -> Status {
        return (stable ? k.softmax_stable : k.softmax_naive)(
            config, x->data(), y->data(), static_cast<int>(p.rows), static_cast<int>(p.cols));
      };
      // Timed on the ordinary logits; on the large ones only run, to show what they give.
      if (!large) {
        auto times = device.time_repeated(launch, request.warmup, request.repeats);
        if (!times) return times.error();
        (stable ? result.stable : result.naive) = summarize_timings(*times);
      } else {
        TL_RETURN_IF_ERROR(launch());
      }
      TL_RETURN_IF_ERROR(device.synchronize());
      if (!request.check) continue;
      TL_RETURN_IF_ERROR(device.copy_to_host(got.data(), y->data(), count * sizeof(float)));
      auto check = lessons::check_softmax(got, exact, p.cols, p.block, 2.0 * kScale);
      if (large) {
        (stable ? result.stable_large : result.naive_large) = check;
      } else {
        (stable ? result.stable_ordinary : result.naive_ordinary) = check;
      }
    }
  }
  return result;
}

Result<CountResult> run_count(Device& device, const ReductionsRequest& request, const float* in,
                              std::span<const float> data) {
  const auto& p = request.params;
  const auto& k = device.kernels().get<kernels::ReductionKernels>();
  CountResult result;
  result.expected = static_cast<std::uint64_t>(std::count_if(
      data.begin(), data.end(), [](float x) { return x > lessons::kCountThreshold; }));
  auto count = allocate_array<unsigned int>(device, 1);
  if (!count) return count.error();
  const LaunchConfig config = lessons::sum_config(SumRung::kAtomic, p.n, p.block);
  TL_RETURN_IF_ERROR(check_emulator_budget(device, config, false));
  for (bool ballot : {false, true}) {
    auto launch = [&]() -> Status {
      TL_RETURN_IF_ERROR(device.fill_zero(count->data(), sizeof(unsigned int)));
      return (ballot ? k.count_above_ballot : k.count_above_atomic)(
          config, in, static_cast<int>(p.n), lessons::kCountThreshold, count->data());
    };
    auto times = device.time_repeated(launch, request.warmup, request.repeats);
    if (!times) return times.error();
    TL_RETURN_IF_ERROR(device.synchronize());
    unsigned int got = 0;
    TL_RETURN_IF_ERROR(device.copy_to_host(&got, count->data(), sizeof(unsigned int)));
    (ballot ? result.ballot : result.atomic) = summarize_timings(*times);
    (ballot ? result.ballot_count : result.atomic_count) = got;
  }
  return result;
}

Result<ScanResult> run_scan(Device& device, const ReductionsRequest& request, const float* in,
                            std::span<const float> data) {
  const auto& p = request.params;
  const auto& k = device.kernels().get<kernels::ReductionKernels>();
  TL_RETURN_IF_ERROR(
      check_emulator_budget(device, lessons::sum_config(SumRung::kAtomic, p.n, p.block), false));
  ScanResult result;
  result.levels = kernels::scan_levels(p.n, p.block);
  auto out = allocate_array<float>(device, p.n);
  if (!out) return out.error();
  auto scratch = allocate_array<float>(
      device, std::max<std::uint64_t>(1, kernels::scan_scratch_floats(p.n, p.block)));
  if (!scratch) return scratch.error();
  const int n = static_cast<int>(p.n);
  std::vector<float> got(p.n);
  auto read_and_check = [&](std::uint64_t depth) -> Result<lessons::ScanCheck> {
    TL_RETURN_IF_ERROR(device.synchronize());
    TL_RETURN_IF_ERROR(device.copy_to_host(got.data(), out->data(), p.n * sizeof(float)));
    return lessons::check_scan(got, data, depth);
  };
  auto times =
      device.time_repeated([&] { return k.scan(p.block, in, out->data(), n, scratch->data()); },
                           request.warmup, request.repeats);
  if (!times) return times.error();
  result.time = summarize_timings(*times);
  auto check = read_and_check(lessons::scan_depth(p.n, p.block));
  if (!check) return check.error();
  result.check = *check;
  if (k.library_scan == nullptr) return result;
  std::size_t temp_bytes = 0;
  TL_RETURN_IF_ERROR(k.library_scan(nullptr, &temp_bytes, in, out->data(), n));
  auto temp = allocate_array<unsigned char>(device, std::max<std::size_t>(1, temp_bytes));
  if (!temp) return temp.error();
  auto library_times = device.time_repeated(
      [&] {
        std::size_t size = temp_bytes;
        return k.library_scan(temp->data(), &size, in, out->data(), n);
      },
      request.warmup, request.repeats);
  if (!library_times) return library_times.error();
  result.library = summarize_timings(*library_times);
  // CUB's order is its own: a decoupled look-back over tiles of many elements per thread. Each
  // prefix passes through a tile's scan (a few tens of adds at most) and one add per tile before
  // it in the worst case of a serial look-back, which the bound below allows for.
  const std::uint64_t tiles = (p.n + 255) / 256;
  auto library_check = read_and_check(64 + tiles);
  if (!library_check) return library_check.error();
  result.library_check = *library_check;
  return result;
}

Status time_cpu_sums(const std::vector<float>& data, const ReductionsRequest& request,
                     ReductionsReport& report) {
  float sink = 0;
  report.cpu_single = time_on_host([&] { sink += lessons::sequential_float_sum(data); },
                                   request.warmup, request.repeats);
  if (cancel_requested(request.cancel)) return cancelled_error();
  const unsigned threads = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(),
                                                           static_cast<unsigned>(data.size())));
  report.cpu_threads = threads;
  report.cpu_multi = time_on_host(
      [&] {
        std::vector<float> partial(threads, 0.0f);
        std::vector<std::thread> workers;
        const std::size_t chunk = (data.size() + threads - 1) / threads;
        for (unsigned t = 0; t < threads; ++t) {
          workers.emplace_back([&, t] {
            const std::size_t begin = std::min(data.size(), t * chunk);
            const std::size_t end = std::min(data.size(), begin + chunk);
            partial[t] = lessons::sequential_float_sum(std::span(data).subspan(begin, end - begin));
          });
        }
        for (auto& w : workers) w.join();
        sink += lessons::sequential_float_sum(partial);
      },
      request.warmup, request.repeats);
  (void)sink;
  return Status::ok();
}

}  // namespace

const RungResult* ReductionsReport::find(lessons::SumRung rung) const {
  for (const RungResult& r : rungs) {
    if (r.rung == rung) return &r;
  }
  return nullptr;
}

bool ReductionsReport::passed() const {
  for (const RungResult& r : rungs) {
    if (!r.check.passed) return false;
  }
  if (library_check && !library_check->passed) return false;
  if (!count.passed() || !scan.check.passed) return false;
  if (scan.library_check && !scan.library_check->passed) return false;
  for (const HistogramResult& h : histograms) {
    if (!h.global_correct || !h.shared_correct) return false;
  }
  return softmax.stable_ordinary.passed && softmax.stable_large.passed;
}

std::string ReductionsReport::describe_check() const {
  std::string text;
  for (const RungResult& r : rungs) text += r.check.describe() + "; ";
  if (library_check) text += library_check->describe() + "; ";
  text += "count above " + std::to_string(lessons::kCountThreshold).substr(0, 3) + ": " +
          std::to_string(count.expected) + " on the CPU, atomics " +
          std::to_string(count.atomic_count) + ", ballots " + std::to_string(count.ballot_count) +
          (count.passed() ? "" : ": WRONG") + "; " + scan.check.describe() + "; ";
  if (scan.library_check) text += "CUB " + scan.library_check->describe() + "; ";
  for (const HistogramResult& h : histograms) {
    text += std::string("histogram (") + (h.skewed ? "skewed" : "uniform") + "): global " +
            (h.global_correct ? "exact" : "WRONG") + ", shared " +
            (h.shared_correct ? "exact" : "WRONG") + "; ";
  }
  text += "softmax: stable " + softmax.stable_ordinary.describe() + ", on large logits " +
          softmax.stable_large.describe();
  return text;
}

Result<ReductionsReport> run_reductions(Device& device, const ReductionsRequest& request) {
  const lessons::ReductionParams& p = request.params;
  TL_RETURN_IF_ERROR(lessons::validate_reduction(p));
  std::vector<LaunchConfig> configs;
  std::uint32_t most_blocks = 1;
  for (SumRung rung : kernels::kSumRungs) {
    // The grid parameter is the vectorized rung's (its grid-stride loop covers any n with any
    // grid); rungs 1-6 give every element, or pair, a thread of their own and keep that grid.
    const bool takes_grid = rung == SumRung::kVectorized;
    configs.push_back(lessons::sum_config(rung, p.n, p.block, takes_grid ? p.grid : 0));
    TL_RETURN_IF_ERROR(check_emulator_budget(device, configs.back(), false));
    most_blocks = std::max(most_blocks, configs.back().grid.x);
  }
  const auto data = lessons::make_sum_data(p.n, p.data, request.seed);
  ReductionsReport report;
  report.on_gpu = device.is_gpu();
  report.n = p.n;
  report.exact = lessons::exact_sum(data);
  report.abs_total = lessons::abs_sum(data);

  auto in = allocate_array<float>(device, p.n);
  if (!in) return in.error();
  const std::size_t bytes = p.n * sizeof(float);
  auto upload = device.time_repeated(
      [&] { return device.copy_to_device(in->data(), data.data(), bytes); }, 0, request.repeats);
  if (!upload) return upload.error();
  report.host_to_device = summarize_timings(*upload);
  auto buffers = allocate_sum_buffers(device, most_blocks);
  if (!buffers) return buffers.error();

  // The copy every rung is compared with: the same n floats read and written once.
  {
    auto copy = allocate_array<float>(device, p.n);
    if (!copy) return copy.error();
    auto times =
        device.time_repeated([&] { return device.copy_on_device(copy->data(), in->data(), bytes); },
                             request.warmup, request.repeats);
    if (!times) return times.error();
    report.device_copy = summarize_timings(*times);
  }

  for (std::size_t r = 0; r < std::size(kernels::kSumRungs); ++r) {
    if (cancel_requested(request.cancel)) return cancelled_error();
    const SumRung rung = kernels::kSumRungs[r];
    RungResult result;
    result.rung = rung;
    result.config = configs[r];
    auto times = device.time_repeated(
        [&] { return launch_sum(device, rung, result.config, in->data(), p.n, *buffers); },
        request.warmup, request.repeats);
    if (!times) return times.error();
    result.time = summarize_timings(*times);
    auto value = read_result(device, *buffers);
    if (!value) return value.error();
    const std::uint64_t depth = lessons::sum_depth(rung, p.n, result.config);
    result.check = lessons::check_sum(std::string(lessons::to_string(rung)), *value, report.exact,
                                      lessons::sum_error_bound(depth, report.abs_total));
    report.rungs.push_back(std::move(result));
  }

  const auto& k = device.kernels().get<kernels::ReductionKernels>();
  if (k.library_sum == nullptr) {
    report.library_absent =
        "CUB's DeviceReduce::Sum runs only on an NVIDIA GPU: the emulator has no library row";
  } else {
    std::size_t temp_bytes = 0;
    TL_RETURN_IF_ERROR(k.library_sum(nullptr, &temp_bytes, in->data(), buffers->out.data(),
                                     static_cast<int>(p.n)));
    auto temp = allocate_array<unsigned char>(device, std::max<std::size_t>(1, temp_bytes));
    if (!temp) return temp.error();
    auto times = device.time_repeated(
        [&] {
          std::size_t size = temp_bytes;
          return k.library_sum(temp->data(), &size, in->data(), buffers->out.data(),
                               static_cast<int>(p.n));
        },
        request.warmup, request.repeats);
    if (!times) return times.error();
    report.library = summarize_timings(*times);
    auto value = read_result(device, *buffers);
    if (!value) return value.error();
    // CUB's order is its own (a tree over many elements per thread); its depth is far below
    // log2(n) + n / (a full GPU's threads), which the vectorized rung's bound at that grid covers.
    const LaunchConfig full{
        {lessons::device_filling_grid(device.info().multiprocessors, 2048, 256), 1, 1},
        {256, 1, 1}};
    report.library_check = lessons::check_sum(
        "CUB DeviceReduce::Sum", *value, report.exact,
        lessons::sum_error_bound(lessons::sum_depth(SumRung::kVectorized, p.n, full) + 64,
                                 report.abs_total));
  }

  if (cancel_requested(request.cancel)) return cancelled_error();
  auto count = run_count(device, request, in->data(), data);
  if (!count) return count.error();
  report.count = *count;
  if (cancel_requested(request.cancel)) return cancelled_error();
  auto scan = run_scan(device, request, in->data(), data);
  if (!scan) return scan.error();
  report.scan = std::move(*scan);

  if (cancel_requested(request.cancel)) return cancelled_error();
  report.cpu_sums = {
      lessons::check_sum("CPU sequential float", lessons::sequential_float_sum(data), report.exact,
                         0),
      lessons::check_sum("CPU Kahan float", lessons::kahan_float_sum(data), report.exact, 0),
      lessons::check_sum("CPU pairwise float", lessons::pairwise_float_sum(data), report.exact, 0)};
  for (auto& s : report.cpu_sums) s.passed = true;  // shown for comparison, not judged
  if (request.time_cpu) TL_RETURN_IF_ERROR(time_cpu_sums(data, request, report));

  // Atomic contention: the same n atomics spread over more and more addresses.
  {
    auto targets = allocate_array<float>(device, p.n);
    if (!targets) return targets.error();
    TL_RETURN_IF_ERROR(device.fill_zero(targets->data(), bytes));
    const LaunchConfig config = lessons::sum_config(SumRung::kAtomic, p.n, p.block);
    for (std::uint64_t addresses : contention_addresses(p.n)) {
      if (cancel_requested(request.cancel)) return cancelled_error();
      auto times = device.time_repeated(
          [&] {
            return k.add_to_addresses(config, in->data(), targets->data(), static_cast<int>(p.n),
                                      static_cast<int>(addresses));
          },
          request.warmup, request.repeats);
      if (!times) return times.error();
      report.contention.push_back({addresses, summarize_timings(*times).median_ms});
    }
  }

  for (bool skewed : {false, true}) {
    if (cancel_requested(request.cancel)) return cancelled_error();
    auto histogram = run_histogram(device, request, skewed);
    if (!histogram) return histogram.error();
    report.histograms.push_back(*histogram);
  }
  if (cancel_requested(request.cancel)) return cancelled_error();
  auto softmax = run_softmax(device, request);
  if (!softmax) return softmax.error();
  report.softmax = *softmax;

  for (SumRung rung : kernels::kSumRungs) {
    if (rung == SumRung::kAtomic) continue;  // no tree: every element is its own atomic
    auto tree = record_tree(device, rung, std::min(p.block, kDrawnTreeBlock), p.data, request.seed);
    if (!tree) return tree.error();
    report.banks.push_back(lessons::bank_accesses(*tree));
    report.trees.push_back(std::move(*tree));
  }
  return report;
}

namespace {

struct TracedSum {
  float value = 0;
  std::vector<int> tree;
};

Result<TracedSum> traced_sum(Device& device, SumRung rung, const LaunchConfig& config,
                             std::span<const float> data, TraceRecord* records) {
  auto in = allocate_filled<float>(device, data);
  if (!in) return in.error();
  auto buffers = allocate_sum_buffers(device, config.grid.x);
  if (!buffers) return buffers.error();
  std::vector<int> tree(2 * std::size_t{kernels::kReductionTreeLevels} * config.block.x, -1);
  auto device_tree = allocate_filled<int>(device, tree);
  if (!device_tree) return device_tree.error();
  TL_RETURN_IF_ERROR(device.fill_zero(buffers->out.data(), sizeof(float)));
  TL_RETURN_IF_ERROR(device.kernels().get<kernels::ReductionKernels>().sum_traced(
      rung, config, in->data(), static_cast<int>(data.size()), buffers->outputs(), records,
      device_tree->data()));
  auto value = read_result(device, *buffers);
  if (!value) return value.error();
  TL_RETURN_IF_ERROR(
      device.copy_to_host(tree.data(), device_tree->data(), tree.size() * sizeof(int)));
  return TracedSum{*value, std::move(tree)};
}

}  // namespace

Result<lessons::SumCheck> trace_reduction(Device& device, const lessons::ReductionParams& params,
                                          const LaunchConfig& config, TraceSink& sink,
                                          std::uint32_t seed) {
  TL_RETURN_IF_ERROR(lessons::validate_reduction(params));
  TL_RETURN_IF_ERROR(check_emulator_budget(device, config, true));
  const auto data = lessons::make_sum_data(params.n, params.data, seed);
  auto records = sink.acquire(device, params.n);
  if (!records) return records.error();
  auto traced = traced_sum(device, params.rung, config, data, *records);
  // Publish even after a failed launch: the sink must give its buffer back.
  const Status published = sink.publish(device);
  if (!traced) return traced.error();
  TL_RETURN_IF_ERROR(published);
  const double exact = lessons::exact_sum(data);
  return lessons::check_sum(
      std::string(lessons::to_string(params.rung)), traced->value, exact,
      lessons::sum_error_bound(lessons::sum_depth(params.rung, params.n, config),
                               lessons::abs_sum(data)));
}

Result<lessons::ScanCheck> trace_scan(Device& device, const lessons::ReductionParams& params,
                                      TraceSink& sink, std::uint32_t seed) {
  TL_RETURN_IF_ERROR(lessons::validate_reduction(params));
  const LaunchConfig config = lessons::sum_config(SumRung::kAtomic, params.n, params.block);
  TL_RETURN_IF_ERROR(check_emulator_budget(device, config, true));
  const auto data = lessons::make_sum_data(params.n, params.data, seed);
  auto in = allocate_filled<float>(device, data);
  if (!in) return in.error();
  auto out = allocate_array<float>(device, params.n);
  if (!out) return out.error();
  auto scratch = allocate_array<float>(
      device, std::max<std::uint64_t>(1, kernels::scan_scratch_floats(params.n, params.block)));
  if (!scratch) return scratch.error();
  auto records = sink.acquire(device, params.n);
  if (!records) return records.error();
  const Status launched = device.kernels().get<kernels::ReductionKernels>().scan_traced(
      params.block, in->data(), out->data(), static_cast<int>(params.n), scratch->data(), *records);
  const Status synchronized = launched.is_ok() ? device.synchronize() : launched;
  // Publish even after a failed launch: the sink must give its buffer back.
  const Status published = sink.publish(device);
  TL_RETURN_IF_ERROR(synchronized);
  TL_RETURN_IF_ERROR(published);
  std::vector<float> got(params.n);
  TL_RETURN_IF_ERROR(device.copy_to_host(got.data(), out->data(), params.n * sizeof(float)));
  return lessons::check_scan(got, data, lessons::scan_depth(params.n, params.block));
}

Result<std::vector<ReductionCountedKernel>> count_reductions(Device& device,
                                                             const lessons::ReductionParams& params,
                                                             std::span<const SumRung> rungs,
                                                             std::uint32_t seed) {
  TL_RETURN_IF_ERROR(lessons::validate_reduction(params));
  const auto data = lessons::make_sum_data(params.n, params.data, seed);
  auto in = allocate_filled<float>(device, data);
  if (!in) return in.error();
  std::vector<LaunchConfig> configs;
  std::uint32_t most_blocks = 1;
  for (const SumRung rung : rungs) {
    configs.push_back(lessons::sum_config(rung, params.n, params.block,
                                          rung == SumRung::kVectorized ? params.grid : 0));
    most_blocks = std::max(most_blocks, configs.back().grid.x);
  }
  auto buffers = allocate_sum_buffers(device, most_blocks);
  if (!buffers) return buffers.error();
  const auto& kernels = device.kernels().get<kernels::ReductionKernels>();
  std::vector<ReductionCountedKernel> counted;
  for (std::size_t i = 0; i < rungs.size(); ++i) {
    // No zeroing of *out inside the counted launch: CUPTI counts every kernel the callback
    // launches, and the sum the replays leave is never read.
    auto counters = count_kernel(device, [&] {
      return kernels.sum(rungs[i], configs[i], in->data(), static_cast<int>(params.n),
                         buffers->outputs());
    });
    if (!counters) return counters.error();
    counted.push_back({rungs[i], configs[i], *counters});
  }
  return counted;
}

Result<lessons::ReductionTree> record_tree(Device& device, SumRung rung, std::uint32_t block,
                                           lessons::SumData data, std::uint32_t seed) {
  // One block's worth of elements: the block reads all of them in one go.
  std::uint64_t n = block;
  if (rung == SumRung::kFirstAdd || rung == SumRung::kWarpShuffle ||
      rung == SumRung::kCooperativeGroups) {
    n = 2ull * block;
  }
  if (rung == SumRung::kVectorized) n = 4ull * block;
  const LaunchConfig config{{1, 1, 1}, {block, 1, 1}};
  const auto values = lessons::make_sum_data(n, data, seed);
  auto records = allocate_array<TraceRecord>(device, n);
  if (!records) return records.error();
  TL_RETURN_IF_ERROR(device.fill_zero(records->data(), n * sizeof(TraceRecord)));
  auto traced = traced_sum(device, rung, config, values, records->data());
  if (!traced) return traced.error();
  return lessons::tree_from_record(rung, block, traced->tree);
}

}  // namespace tl::compute

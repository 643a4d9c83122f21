#include "cupti_counters.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/dynamic_library.hpp"

namespace tl::compute {
namespace {

// Only the functions ThreadLab calls, typed from CUPTI's own declarations.
struct CuptiApi {
  decltype(&cuptiGetResultString) result_string;
  decltype(&cuptiProfilerInitialize) profiler_initialize;
  decltype(&cuptiProfilerDeviceSupported) device_supported;
  decltype(&cuptiDeviceGetChipName) chip_name;
  decltype(&cuptiProfilerGetCounterAvailability) counter_availability;
  decltype(&cuptiProfilerHostInitialize) host_initialize;
  decltype(&cuptiProfilerHostDeinitialize) host_deinitialize;
  decltype(&cuptiProfilerHostConfigAddMetrics) host_add_metrics;
  decltype(&cuptiProfilerHostGetConfigImageSize) host_config_image_size;
  decltype(&cuptiProfilerHostGetConfigImage) host_config_image;
  decltype(&cuptiProfilerHostGetNumOfPasses) host_passes;
  decltype(&cuptiProfilerHostEvaluateToGpuValues) host_evaluate;
  decltype(&cuptiRangeProfilerEnable) range_enable;
  decltype(&cuptiRangeProfilerDisable) range_disable;
  decltype(&cuptiRangeProfilerGetCounterDataSize) range_counter_data_size;
  decltype(&cuptiRangeProfilerCounterDataImageInitialize) range_counter_data_initialize;
  decltype(&cuptiRangeProfilerSetConfig) range_set_config;
  decltype(&cuptiRangeProfilerStart) range_start;
  decltype(&cuptiRangeProfilerStop) range_stop;
  decltype(&cuptiRangeProfilerDecodeData) range_decode;
  decltype(&cuptiRangeProfilerGetCounterDataInfo) range_counter_data_info;
};

// Where to look: the variable's path alone when it is set; else CUPTI of the CUDA major version
// ThreadLab was built with, any CUPTI, and the toolkit's usual folders (CUPTI's folder is often
// not on the loader's path).
std::vector<std::string> candidate_paths() {
  if (const char* forced = std::getenv(kCuptiLibraryVariable); forced != nullptr && *forced) {
    return {forced};
  }
  const std::string versioned = "libcupti.so." + std::to_string(CUDART_VERSION / 1000);
  return {versioned, "libcupti.so", "/usr/local/cuda/lib64/" + versioned,
          "/usr/local/cuda/extras/CUPTI/lib64/" + versioned};
}

Result<const CuptiApi*> load(const std::vector<std::string>& paths) {
  DynamicLibrary library = DynamicLibrary::open_first(paths);
  if (!library.loaded()) {
    return Error{ErrorKind::kNoDevice,
                 "hardware counters need CUPTI, which is not installed here (" + library.tried() +
                     " not found): install the CUDA toolkit's CUPTI (libcupti), or set " +
                     kCuptiLibraryVariable + " to its path"};
  }
  auto api = std::make_unique<CuptiApi>();
  const bool complete =
      library.bind(api->result_string, "cuptiGetResultString") &&
      library.bind(api->profiler_initialize, "cuptiProfilerInitialize") &&
      library.bind(api->device_supported, "cuptiProfilerDeviceSupported") &&
      library.bind(api->chip_name, "cuptiDeviceGetChipName") &&
      library.bind(api->counter_availability, "cuptiProfilerGetCounterAvailability") &&
      library.bind(api->host_initialize, "cuptiProfilerHostInitialize") &&
      library.bind(api->host_deinitialize, "cuptiProfilerHostDeinitialize") &&
      library.bind(api->host_add_metrics, "cuptiProfilerHostConfigAddMetrics") &&
      library.bind(api->host_config_image_size, "cuptiProfilerHostGetConfigImageSize") &&
      library.bind(api->host_config_image, "cuptiProfilerHostGetConfigImage") &&
      library.bind(api->host_passes, "cuptiProfilerHostGetNumOfPasses") &&
      library.bind(api->host_evaluate, "cuptiProfilerHostEvaluateToGpuValues") &&
      library.bind(api->range_enable, "cuptiRangeProfilerEnable") &&
      library.bind(api->range_disable, "cuptiRangeProfilerDisable") &&
      library.bind(api->range_counter_data_size, "cuptiRangeProfilerGetCounterDataSize") &&
      library.bind(api->range_counter_data_initialize,
                   "cuptiRangeProfilerCounterDataImageInitialize") &&
      library.bind(api->range_set_config, "cuptiRangeProfilerSetConfig") &&
      library.bind(api->range_start, "cuptiRangeProfilerStart") &&
      library.bind(api->range_stop, "cuptiRangeProfilerStop") &&
      library.bind(api->range_decode, "cuptiRangeProfilerDecodeData") &&
      library.bind(api->range_counter_data_info, "cuptiRangeProfilerGetCounterDataInfo");
  if (!complete) {
    return Error{ErrorKind::kNoDevice,
                 "hardware counters need CUPTI's Range Profiler (CUDA 12.6 or later); the CUPTI "
                 "found here (" +
                     library.path() + ") lacks it: no " + library.missing()};
  }
  return api.release();  // kept for the life of the process, like the library
}

// Loaded once per path list: a test may point the variable elsewhere and back.
Result<const CuptiApi*> cupti_api() {
  static std::mutex mutex;
  static std::map<std::vector<std::string>, Result<const CuptiApi*>> loaded;
  const std::vector<std::string> paths = candidate_paths();
  std::lock_guard lock(mutex);
  auto found = loaded.find(paths);
  if (found == loaded.end()) found = loaded.emplace(paths, load(paths)).first;
  return found->second;
}

std::string result_name(const CuptiApi& api, CUptiResult result) {
  const char* text = nullptr;
  if (api.result_string(result, &text) == CUPTI_SUCCESS && text != nullptr) return text;
  return "CUPTI error " + std::to_string(static_cast<int>(result));
}

// CUPTI's result as the reason the counters cannot be read; OK on success.
Status check(const CuptiApi& api, CUptiResult result, const char* step) {
  if (result == CUPTI_SUCCESS) return Status::ok();
  // cuptiGetResultString gives the enum's name for the known results; the reason is chosen by it.
  return Error{ErrorKind::kCudaError, cupti_unavailable_reason(step, result_name(api, result), "")};
}

#define TL_CUPTI(call, step) TL_RETURN_IF_ERROR(check(api, (call), (step)))

// The profiler host object, given back whatever happens.
struct HostObject {
  const CuptiApi& api;
  CUpti_Profiler_Host_Object* object = nullptr;
  ~HostObject() {
    if (object == nullptr) return;
    CUpti_Profiler_Host_Deinitialize_Params params{
        CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    params.pHostObject = object;
    api.host_deinitialize(&params);
  }
};

// Range profiling enabled on the context, disabled whatever happens.
struct RangeProfiler {
  const CuptiApi& api;
  CUpti_RangeProfiler_Object* object = nullptr;
  ~RangeProfiler() {
    if (object == nullptr) return;
    CUpti_RangeProfiler_Disable_Params params{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    params.pRangeProfilerObject = object;
    api.range_disable(&params);
  }
};

Result<CUcontext> current_context() {
  void* function = nullptr;
  cudaDriverEntryPointQueryResult found{};
  const cudaError_t status = cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &function, 12000,
                                                              cudaEnableDefault, &found);
  if (status != cudaSuccess || found != cudaDriverEntryPointSuccess || function == nullptr) {
    return Error{ErrorKind::kCudaError,
                 "hardware counters: the CUDA driver does not offer cuCtxGetCurrent"};
  }
  CUcontext context = nullptr;
  using GetCurrent = CUresult (*)(CUcontext*);
  if (reinterpret_cast<GetCurrent>(function)(&context) != CUDA_SUCCESS || context == nullptr) {
    return Error{ErrorKind::kCudaError, "hardware counters: no current CUDA context"};
  }
  return context;
}

// Why the device cannot be profiled at all, before anything is enabled: the checks CUPTI offers
// one by one, so that the reason names the one that failed.
Status check_device_supported(const CuptiApi& api, int ordinal) {
  CUpti_Profiler_DeviceSupported_Params params{CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE};
  params.cuDevice = ordinal;
  params.api = CUPTI_PROFILER_RANGE_PROFILING;
  TL_CUPTI(api.device_supported(&params), "asking whether the device can be profiled");
  if (params.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return Status::ok();
  std::string why;
  auto add = [&why](CUpti_Profiler_Support_Level level, const char* what) {
    if (level != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
      why += (why.empty() ? "" : ", ") + std::string(what);
  };
  add(params.architecture, "its architecture (compute capability 7.0 or later is needed)");
  add(params.sli, "SLI");
  add(params.vGpu, params.vGpu == CUPTI_PROFILER_CONFIGURATION_DISABLED
                       ? "a virtual GPU with profiling turned off"
                       : "a virtual GPU");
  add(params.confidentialCompute, "confidential computing");
  add(params.cmp, "a mining processor (CMP)");
  add(params.wsl, "WSL");
  return Error{ErrorKind::kNoDevice, "hardware counters are not supported on this device: " +
                                         (why.empty() ? std::string("CUPTI gave no reason") : why)};
}

Result<KernelCounters> count(const CuptiApi& api, int ordinal,
                             const std::function<Status()>& launch_once) {
  static std::once_flag initialized;
  static CUptiResult initialize_result = CUPTI_SUCCESS;
  std::call_once(initialized, [&api] {
    CUpti_Profiler_Initialize_Params params{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    initialize_result = api.profiler_initialize(&params);
  });
  TL_CUPTI(initialize_result, "initializing the profiler");
  TL_RETURN_IF_ERROR(check_device_supported(api, ordinal));
  auto context = current_context();
  if (!context) return context.error();

  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = static_cast<size_t>(ordinal);
  TL_CUPTI(api.chip_name(&chip), "reading the chip's name");

  RangeProfiler profiler{api};
  {
    CUpti_RangeProfiler_Enable_Params params{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    params.ctx = *context;
    TL_CUPTI(api.range_enable(&params), "enabling the range profiler");
    profiler.object = params.pRangeProfilerObject;
  }

  // Which counters this context may read now (others may be in use, or restricted).
  std::vector<std::uint8_t> availability;
  {
    CUpti_Profiler_GetCounterAvailability_Params params{
        CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
    params.ctx = *context;
    TL_CUPTI(api.counter_availability(&params), "asking which counters are available");
    availability.resize(params.counterAvailabilityImageSize);
    params.pCounterAvailabilityImage = availability.data();
    TL_CUPTI(api.counter_availability(&params), "asking which counters are available");
  }

  std::vector<const char*> metrics;
  std::vector<std::string> metric_storage;
  for (std::string_view name : counter_metric_names()) metric_storage.emplace_back(name);
  for (const std::string& name : metric_storage) metrics.push_back(name.c_str());

  HostObject host{api};
  {
    CUpti_Profiler_Host_Initialize_Params params{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    params.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    params.pChipName = chip.pChipName;
    params.pCounterAvailabilityImage = availability.data();
    TL_CUPTI(api.host_initialize(&params), "preparing the metrics for this chip");
    host.object = params.pHostObject;
  }
  {
    CUpti_Profiler_Host_ConfigAddMetrics_Params params{
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    params.pHostObject = host.object;
    params.ppMetricNames = metrics.data();
    params.numMetrics = metrics.size();
    TL_CUPTI(api.host_add_metrics(&params), "adding the metrics");
  }
  std::vector<std::uint8_t> config;
  {
    CUpti_Profiler_Host_GetConfigImageSize_Params size{
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    size.pHostObject = host.object;
    TL_CUPTI(api.host_config_image_size(&size), "sizing the configuration");
    config.resize(size.configImageSize);
    CUpti_Profiler_Host_GetConfigImage_Params image{
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    image.pHostObject = host.object;
    image.configImageSize = config.size();
    image.pConfigImage = config.data();
    TL_CUPTI(api.host_config_image(&image), "building the configuration");
  }
  CUpti_Profiler_Host_GetNumOfPasses_Params passes{
      CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
  passes.configImageSize = config.size();
  passes.pConfigImage = config.data();
  TL_CUPTI(api.host_passes(&passes), "counting the passes");

  // Room for a few kernels, so that work launching more than one is reported as such rather than
  // as a dropped range.
  constexpr std::size_t kMaxRanges = 8;
  std::vector<std::uint8_t> counter_data;
  {
    CUpti_RangeProfiler_GetCounterDataSize_Params size{
        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    size.pRangeProfilerObject = profiler.object;
    size.pMetricNames = metrics.data();
    size.numMetrics = metrics.size();
    size.maxNumOfRanges = kMaxRanges;
    size.maxNumRangeTreeNodes = kMaxRanges;
    TL_CUPTI(api.range_counter_data_size(&size), "sizing the counter data");
    counter_data.resize(size.counterDataSize);
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params init{
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    init.pRangeProfilerObject = profiler.object;
    init.counterDataSize = counter_data.size();
    init.pCounterData = counter_data.data();
    TL_CUPTI(api.range_counter_data_initialize(&init), "initializing the counter data");
  }
  {
    CUpti_RangeProfiler_SetConfig_Params params{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    params.pRangeProfilerObject = profiler.object;
    params.configSize = config.size();
    params.pConfig = config.data();
    params.counterDataImageSize = counter_data.size();
    params.pCounterDataImage = counter_data.data();
    // Each kernel its own range, replayed by CUPTI until every pass is collected.
    params.range = CUPTI_AutoRange;
    params.replayMode = CUPTI_KernelReplay;
    params.maxRangesPerPass = kMaxRanges;
    params.numNestingLevels = 1;
    params.minNestingLevel = 1;
    params.passIndex = 0;
    params.targetNestingLevel = 1;
    TL_CUPTI(api.range_set_config(&params), "configuring the range profiler");
  }

  // Kernel replay collects every pass within one launch; the loop only matters should CUPTI ask
  // for the work again.
  bool all_passes = false;
  for (std::size_t attempt = 0; !all_passes && attempt <= passes.numOfPasses; ++attempt) {
    CUpti_RangeProfiler_Start_Params start{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    start.pRangeProfilerObject = profiler.object;
    TL_CUPTI(api.range_start(&start), "starting the range profiler");
    Status launched = launch_once();
    if (launched) {
      const cudaError_t synced = cudaDeviceSynchronize();
      if (synced != cudaSuccess) {
        launched = Error{ErrorKind::kCudaError,
                         std::string("the counted kernel failed: ") + cudaGetErrorString(synced)};
      }
    }
    CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    stop.pRangeProfilerObject = profiler.object;
    const CUptiResult stopped = api.range_stop(&stop);
    TL_RETURN_IF_ERROR(launched);
    TL_CUPTI(stopped, "stopping the range profiler");
    all_passes = stop.isAllPassSubmitted != 0;
  }
  if (!all_passes) {
    return Error{ErrorKind::kCudaError,
                 "hardware counters: CUPTI did not collect every pass of the kernel"};
  }
  {
    CUpti_RangeProfiler_DecodeData_Params params{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    params.pRangeProfilerObject = profiler.object;
    TL_CUPTI(api.range_decode(&params), "decoding the counters");
  }
  CUpti_RangeProfiler_GetCounterDataInfo_Params info{
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
  info.pCounterDataImage = counter_data.data();
  info.counterDataImageSize = counter_data.size();
  TL_CUPTI(api.range_counter_data_info(&info), "reading the counter data");
  if (info.numTotalRanges != 1) {
    return Error{ErrorKind::kInvalidArgument,
                 "hardware counters are read for one kernel, and this work launched " +
                     std::to_string(info.numTotalRanges) + " kernels"};
  }
  std::vector<double> values(metrics.size(), 0.0);
  CUpti_Profiler_Host_EvaluateToGpuValues_Params evaluate{
      CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
  evaluate.pHostObject = host.object;
  evaluate.pCounterDataImage = counter_data.data();
  evaluate.counterDataImageSize = counter_data.size();
  evaluate.rangeIndex = 0;
  evaluate.ppMetricNames = metrics.data();
  evaluate.numMetrics = metrics.size();
  evaluate.pMetricValues = values.data();
  TL_CUPTI(api.host_evaluate(&evaluate), "evaluating the metrics");

  std::map<std::string, double, std::less<>> by_name;
  for (std::size_t i = 0; i < metrics.size(); ++i) by_name[metric_storage[i]] = values[i];
  return counters_from_metrics(by_name, static_cast<int>(passes.numOfPasses));
}

#undef TL_CUPTI

}  // namespace

Status cupti_library_status() {
  auto api = cupti_api();
  if (!api) return api.error();
  return Status::ok();
}

Result<KernelCounters> count_kernel_with_cupti(const std::function<Status()>& launch_once) {
  auto api = cupti_api();
  if (!api) return api.error();
  int ordinal = 0;
  if (cudaGetDevice(&ordinal) != cudaSuccess) {
    return Error{ErrorKind::kCudaError, "hardware counters: no current CUDA device"};
  }
  static std::mutex one_at_a_time;
  std::lock_guard lock(one_at_a_time);
  return count(**api, ordinal, launch_once);
}

}  // namespace tl::compute

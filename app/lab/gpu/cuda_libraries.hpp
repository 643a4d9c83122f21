#pragma once
// NVRTC and the CUDA driver, loaded at run time with dlopen. The app must start, and the Lab's
// emulator path must work, where neither is installed: a missing library is a message in the Lab
// ("NVRTC was not found: ..."), never a failure to start. Only the handful of entry points the Lab
// uses are declared, with their C signatures from nvrtc.h and cuda.h, so that no CUDA header is
// needed to build this.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace tl::lab {

// ---- NVRTC ----
struct NvrtcProgramOpaque;
using NvrtcProgram = NvrtcProgramOpaque*;

struct Nvrtc {
  int (*version)(int*, int*) = nullptr;
  const char* (*error_string)(int) = nullptr;
  int (*create_program)(NvrtcProgram*, const char*, const char*, int, const char* const*,
                        const char* const*) = nullptr;
  int (*destroy_program)(NvrtcProgram*) = nullptr;
  int (*compile_program)(NvrtcProgram, int, const char* const*) = nullptr;
  int (*get_program_log_size)(NvrtcProgram, std::size_t*) = nullptr;
  int (*get_program_log)(NvrtcProgram, char*) = nullptr;
  int (*get_cubin_size)(NvrtcProgram, std::size_t*) = nullptr;
  int (*get_cubin)(NvrtcProgram, char*) = nullptr;
  int (*get_ptx_size)(NvrtcProgram, std::size_t*) = nullptr;
  int (*get_ptx)(NvrtcProgram, char*) = nullptr;
  int (*add_name_expression)(NvrtcProgram, const char*) = nullptr;
  int (*get_lowered_name)(NvrtcProgram, const char*, const char**) = nullptr;
  std::string path;  // where it was found

  // Loaded once per process; the error says where it looked.
  static Result<const Nvrtc*> load();
};

// What NVRTC made of one source.
struct CompiledKernel {
  std::vector<char> cubin;
  std::string lowered_name;  // the kernel's mangled name, for cuModuleGetFunction
  std::string log;           // warnings, even on success
  std::string ptx;           // with NvrtcPurpose::kInspect only
};

// What a compile is for: running (traced or timed), or showing what the compiler made, which
// adds ptxas's verbose report to the log and keeps the PTX.
enum class NvrtcPurpose { kRun, kInspect };

// Compiles `source` (the learner's file, shown to NVRTC as kernel.cu, with the Lab's prelude as
// a header) for `sm_<arch>` and finds `kernel_name` in it. A compile error is kParseError with
// NVRTC's log, whose lines read `kernel.cu(LINE): error: ...`.
[[nodiscard]] Result<CompiledKernel> compile_with_nvrtc(const Nvrtc& nvrtc,
                                                        const std::string& source,
                                                        const std::string& kernel_name, int arch,
                                                        bool traced,
                                                        NvrtcPurpose purpose = NvrtcPurpose::kRun);

// ---- the CUDA driver ----
using CuDevice = int;
struct CuContextOpaque;
using CuContext = CuContextOpaque*;
struct CuModuleOpaque;
using CuModule = CuModuleOpaque*;
struct CuFunctionOpaque;
using CuFunction = CuFunctionOpaque*;
struct CuEventOpaque;
using CuEvent = CuEventOpaque*;
using CuDevicePointer = unsigned long long;

inline constexpr int kCuAttributeComputeMajor = 75;
inline constexpr int kCuAttributeComputeMinor = 76;
inline constexpr int kCuAttributeMaxSharedPerBlockOptin = 97;
inline constexpr int kCuFunctionNumRegisters = 4;
inline constexpr int kCuFunctionMaxDynamicShared = 8;

struct CudaDriver {
  int (*init)(unsigned) = nullptr;
  int (*device_get_count)(int*) = nullptr;
  int (*device_get)(CuDevice*, int) = nullptr;
  int (*device_get_name)(char*, int, CuDevice) = nullptr;
  int (*device_get_attribute)(int*, int, CuDevice) = nullptr;
  int (*primary_context_retain)(CuContext*, CuDevice) = nullptr;
  int (*context_set_current)(CuContext) = nullptr;
  int (*context_synchronize)() = nullptr;
  int (*module_load_data)(CuModule*, const void*) = nullptr;
  int (*module_unload)(CuModule) = nullptr;
  int (*module_get_function)(CuFunction*, CuModule, const char*) = nullptr;
  int (*function_get_attribute)(int*, int, CuFunction) = nullptr;
  int (*function_set_attribute)(CuFunction, int, int) = nullptr;
  int (*mem_alloc)(CuDevicePointer*, std::size_t) = nullptr;
  int (*mem_free)(CuDevicePointer) = nullptr;
  int (*memcpy_htod)(CuDevicePointer, const void*, std::size_t) = nullptr;
  int (*memcpy_dtoh)(void*, CuDevicePointer, std::size_t) = nullptr;
  int (*memcpy_dtod)(CuDevicePointer, CuDevicePointer, std::size_t) = nullptr;
  int (*memset_d8)(CuDevicePointer, unsigned char, std::size_t) = nullptr;
  int (*launch_kernel)(CuFunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                       unsigned, void*, void**, void**) = nullptr;
  int (*event_create)(CuEvent*, unsigned) = nullptr;
  int (*event_record)(CuEvent, void*) = nullptr;
  int (*event_synchronize)(CuEvent) = nullptr;
  int (*event_elapsed_time)(float*, CuEvent, CuEvent) = nullptr;
  int (*event_destroy)(CuEvent) = nullptr;
  int (*get_error_name)(int, const char**) = nullptr;
  int (*get_error_string)(int, const char**) = nullptr;

  static Result<const CudaDriver*> load();
  // "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered"
  [[nodiscard]] std::string describe(int result) const;
};

}  // namespace tl::lab

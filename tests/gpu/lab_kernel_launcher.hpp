#pragma once
// A Lab kernel compiled by NVRTC exactly as the Lab's GPU path compiles it (the prelude as a
// header, untraced), loaded with the driver API into the runtime's primary context and set up to
// launch on one check case of its exercise: for GPU tests that hold the emulator's memory model
// against what the GPU counts. The source is ThreadLab's own (an exercise's solution or a variant
// written in the test), so it runs in the test's process, not in a sandboxed worker.

#include <memory>
#include <string>
#include <vector>

#include "compute/device.hpp"
#include "core/result.hpp"
#include "lab/exercise.hpp"
#include "lab/gpu/cuda_libraries.hpp"
#include "lab/kernel_signature.hpp"
#include "lab/worker/kernel_parameters.hpp"

namespace tl::testing {

class LabKernelLauncher {
 public:
  LabKernelLauncher(const LabKernelLauncher&) = delete;
  LabKernelLauncher& operator=(const LabKernelLauncher&) = delete;
  ~LabKernelLauncher() {
    for (lab::CuDevicePointer p : allocations_) driver_->mem_free(p);
    if (module_ != nullptr) driver_->module_unload(module_);
  }

  // Compiles `source` for `device`'s architecture and uploads `check`'s arrays.
  static Result<std::unique_ptr<LabKernelLauncher>> make(compute::Device& device,
                                                         const lab::Exercise& exercise,
                                                         const std::string& source,
                                                         const lab::CheckCase& check) {
    auto nvrtc = lab::Nvrtc::load();
    if (!nvrtc) return nvrtc.error();
    auto driver = lab::CudaDriver::load();
    if (!driver) return driver.error();
    std::unique_ptr<LabKernelLauncher> launcher(new LabKernelLauncher(**driver, check.launch));
    TL_RETURN_IF_ERROR(launcher->load(device, **nvrtc, exercise, source, check));
    return launcher;
  }

  // One launch, not waited for.
  [[nodiscard]] Status launch() {
    const int r = driver_->launch_kernel(
        function_, launch_.grid.x, launch_.grid.y, launch_.grid.z, launch_.block.x, launch_.block.y,
        launch_.block.z, launch_.dynamic_shared_bytes, nullptr, pointers_.data(), nullptr);
    return r == 0 ? Status::ok() : Status(Error{ErrorKind::kCudaError, driver_->describe(r)});
  }
  [[nodiscard]] Status synchronize() {
    const int r = driver_->context_synchronize();
    return r == 0 ? Status::ok() : Status(Error{ErrorKind::kCudaError, driver_->describe(r)});
  }

 private:
  LabKernelLauncher(const lab::CudaDriver& driver, const lab::LaunchShape& launch)
      : driver_(&driver), launch_(launch) {}

  Status failed(int r) const { return Error{ErrorKind::kCudaError, driver_->describe(r)}; }

  Status load(compute::Device& device, const lab::Nvrtc& nvrtc, const lab::Exercise& exercise,
              const std::string& source, const lab::CheckCase& check) {
    const int arch = device.info().compute_major * 10 + device.info().compute_minor;
    auto compiled = lab::compile_with_nvrtc(nvrtc, source, exercise.kernel_name, arch, false);
    if (!compiled) return compiled.error();
    // Each parameter as the kernel declares it (a plain pointer, Array<T> or Matrix<T>).
    auto signature = lab::find_kernel(source, exercise.kernel_name);
    if (!signature) return signature.error();
    TL_RETURN_IF_ERROR(lab::match_parameters(*signature, exercise));
    // The runtime's primary context, the one CUPTI and Nsight Compute profile.
    lab::CuDevice cu_device = 0;
    lab::CuContext context = nullptr;
    if (int r = driver_->device_get(&cu_device, 0); r != 0) return failed(r);
    if (int r = driver_->primary_context_retain(&context, cu_device); r != 0) return failed(r);
    if (int r = driver_->context_set_current(context); r != 0) return failed(r);
    if (int r = driver_->module_load_data(&module_, compiled->cubin.data()); r != 0) {
      return failed(r);
    }
    if (int r = driver_->module_get_function(&function_, module_, compiled->lowered_name.c_str());
        r != 0) {
      return failed(r);
    }
    storage_.resize(check.arguments.size());
    for (std::size_t i = 0; i < check.arguments.size(); ++i) {
      const lab::Argument& argument = check.arguments[i];
      lab::WireArgument wire;
      pointers_.push_back(storage_[i].data());
      wire.form = signature->parameters[i].form;
      if (wire.form == lab::ArgumentForm::kScalar) {
        wire.int_value = argument.int_value;
        lab::write_parameter(wire, i, 0, 0, 0, storage_[i]);
        continue;
      }
      wire.rows = argument.array.rows;
      wire.cols = argument.array.cols;
      const std::size_t bytes = static_cast<std::size_t>(argument.array.size()) * 4;
      lab::CuDevicePointer data = 0;
      // cuMemAlloc aligns to 256 bytes, as the recording lays the arrays out; the spare bytes
      // stand in for the Lab's guard zone.
      if (int r = driver_->mem_alloc(&data, bytes + 4096); r != 0) return failed(r);
      allocations_.push_back(data);
      if (int r = driver_->memcpy_htod(data, argument.array.words.data(), bytes); r != 0) {
        return failed(r);
      }
      lab::write_parameter(wire, i, data, 0, 0, storage_[i]);
    }
    return Status::ok();
  }

  const lab::CudaDriver* driver_;
  lab::LaunchShape launch_;
  lab::CuModule module_ = nullptr;
  lab::CuFunction function_ = nullptr;
  std::vector<lab::CuDevicePointer> allocations_;
  std::vector<lab::ParameterSlot> storage_;
  std::vector<void*> pointers_;
};

}  // namespace tl::testing

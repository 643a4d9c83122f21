// The emulator's stand-in for CUDA's device_launch_parameters.h: kernels often include it, and everything they
// use from it inside a kernel (the built-in variables, the qualifiers, the device functions) comes
// from the shim ThreadLab includes first. Host-side runtime calls (cudaMalloc, ...) are not for
// kernels and are not provided.
#pragma once

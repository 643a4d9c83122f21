// Lesson 10: an error check for every CUDA call, and for every launch.
//
// Every CUDA runtime call returns a cudaError_t; a kernel launch returns nothing, and its error
// waits in the runtime until someone asks. CHECK_CUDA asks, and stops the program at the first
// error with the file, the line, the call as written and CUDA's own name for the error. The
// do { } while (0) makes the macro one statement, safe after an unbraced `if`; the value is
// evaluated once.
//
// A launch is checked in two steps. cudaGetLastError() right after it reports what stopped the
// launch itself (a bad configuration, too much shared memory): those errors are not sticky, and
// asking clears them. A fault inside the running kernel (an illegal address) comes back only from
// a call that waits for the kernel, the next cudaDeviceSynchronize() or cudaMemcpy(): that error
// is sticky, every later call returns it too, and the process must end to use the GPU again.
//
// fprintf, exit, cudaGetErrorName and cudaGetErrorString come from <cstdio>, <cstdlib> and the
// CUDA runtime, which the file that uses the macro includes.

#define CHECK_CUDA(call)                                                                 \
  do {                                                                                   \
    const cudaError_t check_cuda_error = (call);                                         \
    if (check_cuda_error != cudaSuccess) {                                               \
      fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call,          \
              cudaGetErrorString(check_cuda_error), cudaGetErrorName(check_cuda_error)); \
      exit(EXIT_FAILURE);                                                                \
    }                                                                                    \
  } while (0)

// After a launch: what stopped the launch, then (in a debug build, where the cost of waiting is
// acceptable) what went wrong while the kernel ran.
#define CHECK_LAUNCH()                   \
  do {                                   \
    CHECK_CUDA(cudaGetLastError());      \
    CHECK_CUDA(cudaDeviceSynchronize()); \
  } while (0)

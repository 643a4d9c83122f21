// Lesson 12 (a scratch lesson): y = a·x + y, one thread per element.
//
// SAXPY ("single-precision a times x plus y") is BLAS's level-1 update, and the first kernel of
// many CUDA introductions. It has vector add's shape (lesson 1): each thread computes its global
// index, the `if (i < n)` guard stops the threads past the end, and each element is read and
// written by its own thread only.
//
// `out` may be `y` itself: the lesson passes y twice and updates it in place, as BLAS's saxpy
// does (each thread reads y[i] before it writes out[i], and no thread touches another's element,
// so the two names for one array are safe). The mapping probe passes another array, so that it
// sees every write without the kernel reading back what it wrote.
//
// `trace.wrote(i)` records which thread wrote element i in the traced build, and compiles to
// nothing in the timed one (kernels/trace.cuh).
template <class Trace>
__global__ void saxpy(int n, float a, const float* x, const float* y, float* out, Trace trace) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = a * x[i] + y[i];
    trace.wrote(i);
  }
}

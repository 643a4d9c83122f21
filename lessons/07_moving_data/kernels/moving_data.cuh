// Lesson 7: the work between the copies. Each chunk of a pipeline is copied in, transformed by this
// kernel and copied out again.
//
// The kernel's only job is to take a chosen time: every element goes through `rounds` fused
// multiply-adds, so the lesson can make the kernel as long as the copies (where streams win the
// most) or much shorter or longer. One thread per element, as in lesson 1.
template <class Trace>
__global__ void transform_chunk(const float* in, float* out, int n, int rounds, Trace trace) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = in[i];
    // x stays in [0, 1) for inputs in [0, 1): a contraction towards 0.5, never overflowing.
    for (int r = 0; r < rounds; ++r) x = fmaf(x, 0.75f, 0.125f);
    out[i] = x;
    trace.wrote(i);
  }
}

// expect: past its end
// A teacher's existing assignment with plain pointers: no view stops the write to c[n], so the
// guard zone after c catches it.
__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) c[i] = a[i] + b[i];  // one element too many
}

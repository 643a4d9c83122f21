// expect: past its end
// Plain pointers and no guard: the last block's spare threads write past the end of c.
__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] + b[i];
}

// expect: no thread wrote it
__global__ void vector_add_grid_stride(Array<const float> a, Array<const float> b,
                                       Array<float> c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// c[i] = a[i] + b[i], one element per thread.
__global__ void vector_add(Array<const float> a, Array<const float> b, Array<float> c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];  // the last block's spare threads do nothing
}

// expect: no thread wrote it
__global__ void vector_add(Array<const float> a, Array<const float> b, Array<float> c, int n) {
  const int i = threadIdx.x;  // every block computes the first blockDim.x elements
  if (i < n) c[i] = a[i] + b[i];
}

// A correct vector add that spills: it keeps 48 values of `a` alive at once, and its
// __launch_bounds__ (256 threads, at least 8 blocks an SM) leaves it 65536 / (256 × 8) = 32
// registers a thread. The extra sum never changes c: it is NaN only for inputs that are not finite.
__global__ void __launch_bounds__(256, 8)
    vector_add(Array<const float> a, Array<const float> b, Array<float> c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float kept[48];
#pragma unroll
  for (int j = 0; j < 48; ++j) kept[j] = a[(i + j * 977) % n];
  float s = 0.0f;
#pragma unroll
  for (int j = 0; j < 48; ++j) s += kept[j] * kept[(j * 7) % 48];
#pragma unroll
  for (int j = 0; j < 48; ++j) s += kept[j] * a[(i * j) % n];
  c[i] = a[i] + b[i] + (s != s ? 1.0f : 0.0f);
}

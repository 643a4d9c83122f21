// expect: was changed
// Right results, and the input a overwritten through a cast-away const: the grader's reference
// is computed from its own copy, and the changed input is named.
__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    c[i] = a[i] + b[i];
    const_cast<float*>(a)[i] = 0.0f;
  }
}

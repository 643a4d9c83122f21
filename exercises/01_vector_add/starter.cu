// c[i] = a[i] + b[i], one element per thread.
__global__ void vector_add(Array<const float> a, Array<const float> b, Array<float> c, int n) {
  // TODO: this thread's index in the whole grid, then the element it owns — only if there is one.
}

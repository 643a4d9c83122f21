// counts[v] = how many elements of values equal v.
__global__ void histogram(Array<const int> values, Array<int> counts, int n, int bins) {
  // TODO
}

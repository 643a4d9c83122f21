// Lesson 1: C = A + B, one thread per element.
//
// The same source runs on the GPU (compiled by nvcc) and on ThreadLab's CPU emulator (compiled by
// the host compiler), and the lesson shows it to you exactly as it is here.

// Each thread computes its global index from its block's position in the grid and its own position
// in the block. The grid usually has more threads than elements (the last block is not full), so
// threads past the end must do nothing: that is the `if (i < n)` guard.
//
// `trace` is how ThreadLab sees which thread wrote which element: `trace.wrote(i)` records it in
// the kernel it draws, and is an empty call, compiled away, in the kernel it times. Both are this
// very code (kernels/trace.cuh).
template <class Trace>
__global__ void vector_add(const float* a, const float* b, float* c, int n, Trace trace) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    c[i] = a[i] + b[i];
    trace.wrote(i);
  }
}

// ---- At the copy ceiling ----------------------------------------------------------------------
//
// The kernel above is right, and on a large vector it is slower than a plain device-to-device
// copy of the same bytes: each thread has only two 4-byte loads in flight, and a modern GPU needs
// megabytes in flight at once to keep its memory busy (bandwidth × latency: several TB/s × about a
// microsecond). The timed-only kernel below does the same C = A + B with more bytes in flight.
//
// What ThreadLab runs is vector_add_vectorized<1, false>: every load and store is a float4, 16
// bytes, one instruction for four elements, one float4 of A and of B per thread, no cache hints,
// and a grid that covers N / 4 (one thread per float4), so the loop below makes one trip.
//
// The two template parameters are the knobs tools/gpu/perf_sweep.cu turned, which did not help on
// an H200 (docs/PERFORMANCE.md, "Vector add: what it took"): kUnroll float4s of A and of B per
// thread and pass, all loaded before the first add (a warp's accesses stay contiguous: the j-th
// float4 of every thread lies `threads` float4s further on); kStreaming, __ldcs and __stcs, which
// mark the data as used once. The sweep also tried grids sized to the device, the threads looping
// over the vector `threads` float4s per step (a grid-stride loop, lesson 2).
//
// The last N % 4 elements (and every element when a pointer is not 16-byte aligned, which float4
// accesses need) are added one at a time. Only its untraced build is compiled: it is timed, not
// drawn.
template <int kUnroll, bool kStreaming, class Trace>
__global__ void vector_add_vectorized(const float* a, const float* b, float* c, int n,
                                      Trace trace) {
  const int threads = gridDim.x * blockDim.x;
  const int first = blockIdx.x * blockDim.x + threadIdx.x;
  const bool aligned =
      (reinterpret_cast<unsigned long long>(a) | reinterpret_cast<unsigned long long>(b) |
       reinterpret_cast<unsigned long long>(c)) %
          16 ==
      0;
  const int quads = aligned ? n / 4 : 0;
  const float4* a4 = reinterpret_cast<const float4*>(a);
  const float4* b4 = reinterpret_cast<const float4*>(b);
  float4* c4 = reinterpret_cast<float4*>(c);
  auto load = [](const float4* p) { return kStreaming ? __ldcs(p) : *p; };
  auto add_store = [&trace](float4* p, int i, float4 x, float4 y) {
    const float4 sum = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    if constexpr (kStreaming) {
      __stcs(p, sum);
    } else {
      *p = sum;
    }
    for (int e = 0; e < 4; ++e) trace.wrote(4 * i + e);
  };
  int i = first;
  // quads < 2^29 and threads is a device's worth: these sums cannot overflow an int.
  for (; i + (kUnroll - 1) * threads < quads; i += kUnroll * threads) {
    float4 x[kUnroll], y[kUnroll];
    for (int j = 0; j < kUnroll; ++j) {
      x[j] = load(a4 + i + j * threads);
      y[j] = load(b4 + i + j * threads);
    }
    for (int j = 0; j < kUnroll; ++j) add_store(c4 + i + j * threads, i + j * threads, x[j], y[j]);
  }
  for (; i < quads; i += threads) add_store(c4 + i, i, load(a4 + i), load(b4 + i));
  for (int e = 4 * quads + first; e < n; e += threads) {
    c[e] = a[e] + b[e];
    trace.wrote(e);
  }
}

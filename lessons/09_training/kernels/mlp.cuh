// The capstone: the kernels that train a multilayer perceptron, on the GPU and on the emulator.
//
// A network of L dense layers. Layer l has in_l inputs and out_l neurons; its parameters are one
// row-major matrix of out_l rows and in_l + 1 columns: row o is neuron o's weights followed by its
// bias, the weight of an input that is always 1. Every layer's matrix lies in one array, so the
// optimizer updates the whole network in one launch.
//
// One training step on a batch of B examples (X: B × in_0, labels y):
//   forward    A_l = relu(A_{l-1} · W_lᵀ + b_l) for the hidden layers, Z_L = A_{L-1} · W_Lᵀ + b_L
//              (lesson 5's dense layer, with ReLU instead of the sigmoid)
//   loss       softmax of each row of Z_L, cross-entropy against y, and its gradient
//              dZ_L = (softmax − onehot(y)) / B in the same pass (lesson 6's stable softmax)
//   backward   dW_l = dZ_lᵀ · [A_{l-1} | 1]   (a transposed product; the column of ones makes the
//                                             bias gradient, the sum of dZ_l over the batch)
//              dZ_{l-1} = (dZ_l · W_l) where A_{l-1} > 0   (the product with W, not Wᵀ, and the
//                                             ReLU's derivative applied as the result is stored)
//   update     SGD with momentum, or Adam, over every parameter at once
// All are in this file; all matrices float32, row-major.
//
// The same source runs on the GPU (nvcc) and on ThreadLab's CPU emulator (the host compiler).

// ---------------------------------------------------------------------------------------------
// The one product, C = A · B with any layout (kernels::MlpGemm says how each operand is read), and
// what to do with each sum before it is stored (the epilogue). It is lesson 4's tiled product
// grown by register tiling: a block of 16 × 16 threads owns a 64 × 64 tile of C and each thread a
// 4 × 4 patch of it. For every 16-wide slice of the shared dimension the block stages a 64 × 16
// slice of A and a 16 × 64 slice of B in shared memory; each thread then reads its 4 values of A
// and 4 of B per step and does 16 multiply-adds with them.
//
// Three things make it fast enough to train on (each measured on an H200 at batch 4096, where a
// 256 × 256 layer's product is most of a step; docs/PERFORMANCE.md):
// - A thread's patch is 4 neighbouring rows and 4 neighbouring columns, so its 4 values of A and
//   of B are each one 16-byte shared-memory read (float4) instead of four 4-byte ones: 2 reads
//   per 16 multiply-adds, where 8 made shared memory, not arithmetic, the limit.
// - Two shared slices: while the block multiplies out one, the next one's global loads are in
//   flight into registers and then stored into the other, so the loads' latency hides behind
//   arithmetic and one barrier per slice is enough.
// - Rows of the result are stored 4 floats at a time where the layout allows.
template <class Trace>
__global__ void __launch_bounds__(256) mlp_gemm(kernels::MlpGemm g, Trace trace) {
  constexpr int kTile = 64, kTileK = 16, kSide = 16, kPer = 4;
  constexpr int kLoads = kTile * kTileK / (kSide * kSide);  // elements of each slice per thread
  // +4: rows of 68 floats, so a slice written column by column spreads over the banks and every
  // row still starts on a 16-byte boundary for the float4 reads.
  __shared__ __align__(16) float a_tile[2][kTileK][kTile + 4];  // [slice][k][m]
  __shared__ __align__(16) float b_tile[2][kTileK][kTile + 4];  // [slice][k][n]

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int thread = ty * kSide + tx;
  const int m0 = blockIdx.y * kTile, n0 = blockIdx.x * kTile;
  // A split product (grid z > 1): this block's slice of the shared dimension, and where its
  // partial result goes.
  const int k_begin = g.k_split > 0 ? static_cast<int>(blockIdx.z) * g.k_split : 0;
  const int k_end = g.k_split > 0 && k_begin + g.k_split < g.k ? k_begin + g.k_split : g.k;
  float* const c = g.c + static_cast<int>(blockIdx.z) * g.split_stride;

  // Which element of each slice this thread loads: consecutive threads take consecutive
  // addresses of whichever index is contiguous in memory, so the loads stay coalesced for a
  // transposed operand too.
  const bool a_k_contiguous = g.a_col == 1, b_n_contiguous = g.b_col == 1;
  float a_next[kLoads], b_next[kLoads];
  auto load_slice = [&](int k0) {
    for (int l = 0; l < kLoads; ++l) {
      const int s = thread + l * kSide * kSide;
      const int am = a_k_contiguous ? s / kTileK : s % kTile;
      const int ak = a_k_contiguous ? s % kTileK : s / kTile;
      const int gm = m0 + am, gak = k0 + ak;
      // Outside the matrices load 0: it adds nothing.
      a_next[l] = (gm < g.m && gak < k_end) ? g.a[gm * g.a_row + gak * g.a_col] : 0.0f;
      const int bn = b_n_contiguous ? s % kTile : s / kTileK;
      const int bk = b_n_contiguous ? s / kTile : s % kTileK;
      const int gbk = k0 + bk, gn = n0 + bn;
      float value = 0.0f;
      if (gbk < k_end && gn < g.n) {
        value = gn == g.b_ones_col ? 1.0f : g.b[gbk * g.b_row + gn * g.b_col];
      }
      b_next[l] = value;
    }
  };
  auto store_slice = [&](int buffer) {
    for (int l = 0; l < kLoads; ++l) {
      const int s = thread + l * kSide * kSide;
      const int am = a_k_contiguous ? s / kTileK : s % kTile;
      const int ak = a_k_contiguous ? s % kTileK : s / kTile;
      a_tile[buffer][ak][am] = a_next[l];
      const int bn = b_n_contiguous ? s % kTile : s / kTileK;
      const int bk = b_n_contiguous ? s / kTile : s % kTileK;
      b_tile[buffer][bk][bn] = b_next[l];
    }
  };

  float acc[kPer][kPer];
  for (int i = 0; i < kPer; ++i) {
    for (int j = 0; j < kPer; ++j) acc[i][j] = 0.0f;
  }

  int buffer = 0;
  if (k_begin < k_end) {
    load_slice(k_begin);
    store_slice(0);
  }
  __syncthreads();  // the first slice is complete before anyone reads it
  for (int k0 = k_begin; k0 < k_end; k0 += kTileK) {
    const bool more = k0 + kTileK < k_end;
    if (more) load_slice(k0 + kTileK);  // in flight while this slice is multiplied out
    for (int k = 0; k < kTileK; ++k) {
      const float4 a = *reinterpret_cast<const float4*>(&a_tile[buffer][k][ty * kPer]);
      const float4 b = *reinterpret_cast<const float4*>(&b_tile[buffer][k][tx * kPer]);
      const float av[kPer] = {a.x, a.y, a.z, a.w};
      const float bv[kPer] = {b.x, b.y, b.z, b.w};
      for (int i = 0; i < kPer; ++i) {
        for (int j = 0; j < kPer; ++j) acc[i][j] += av[i] * bv[j];
      }
    }
    // The other buffer was last read before the previous barrier: free to overwrite now.
    if (more) store_slice(buffer ^ 1);
    __syncthreads();  // the next slice is complete, and everyone is done with this one
    buffer ^= 1;
  }

  const int n_first = n0 + tx * kPer;
  for (int i = 0; i < kPer; ++i) {
    const int m = m0 + ty * kPer + i;
    if (m >= g.m) continue;
    float value[kPer];
    for (int j = 0; j < kPer; ++j) {
      const int n = n_first + j;
      value[j] = acc[i][j];
      if (n >= g.n) continue;
      if (g.epilogue == kernels::kMlpBiasRelu) {
        value[j] = fmaxf(value[j] + g.bias[n * g.bias_stride], 0.0f);
      } else if (g.epilogue == kernels::kMlpBias) {
        value[j] += g.bias[n * g.bias_stride];
      } else if (g.epilogue == kernels::kMlpReluMask) {
        // relu'(z) is 1 where the neuron fired and 0 where it did not: its output says which.
        value[j] = g.mask[m * g.ldc + n] > 0.0f ? value[j] : 0.0f;
      }
    }
    float* const row = c + m * g.ldc + n_first;
    if (n_first + kPer <= g.n && (reinterpret_cast<unsigned long long>(row) & 15) == 0) {
      *reinterpret_cast<float4*>(row) = make_float4(value[0], value[1], value[2], value[3]);
    } else {
      for (int j = 0; j < kPer && n_first + j < g.n; ++j) row[j] = value[j];
    }
    for (int j = 0; j < kPer && n_first + j < g.n; ++j) {
      trace.wrote(static_cast<unsigned long long>(m) * g.ldc + n_first + j);
    }
  }
}

// Every split product's slices added in one launch at the end of the backward pass (one launch in
// place of one per layer: in a step of a few dozen microseconds each launch counts). Row y of the
// grid is layer y's sum. Each element is summed by a group of `lanes` threads of one warp (a power
// of two up to 32): lane g adds slices g, g + lanes, ... in order, then the group meets in a fixed
// butterfly of shuffles, so the rounding is the same on every run. One lane is the plain
// sequential sum, used where there are few slices; many slices (the thin weight gradients below
// leave one per 32 rows) would make that one thread's chain of loads the whole kernel.
__global__ void mlp_sum_all_splits(kernels::MlpSplitSums sums) {
  const kernels::MlpSplitSum& layer = sums.layer[blockIdx.y];
  const int lanes = layer.lanes;
  const long long thread = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  // Whole blocks past this layer's work leave together; inside a warp every lane stays for the
  // shuffles.
  if (static_cast<long long>(blockIdx.x) * blockDim.x >=
      static_cast<long long>(layer.count) * lanes) {
    return;
  }
  const long long element = thread / lanes;
  const int lane_in_group = static_cast<int>(thread % lanes);
  float sum = 0.0f;
  if (element < layer.count) {
    for (int s = lane_in_group; s < layer.splits; s += lanes) {
      sum += layer.partials[static_cast<long long>(s) * layer.count + element];
    }
  }
  for (int offset = lanes / 2; offset > 0; offset /= 2) {
    sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  }
  if (lane_in_group == 0 && element < layer.count) layer.out[element] = sum;
}

// ---------------------------------------------------------------------------------------------
// Softmax, cross-entropy and the loss's gradient, one thread per example (a few classes each).
// Subtracting the row's maximum first keeps expf from overflowing (lesson 6's stable softmax):
// loss = log(sum of e^(z_c − max)) − (z_y − max). The gradient of the batch's mean loss with
// respect to z_c is (p_c − [c = y]) / B: grad_scale is 1 / B.
// A NaN or infinite logit gives a NaN or infinite loss, which the trainer reports with its step.
__device__ inline void mlp_row_softmax_cross_entropy(const float* z, int y, int classes,
                                                     float grad_scale, float* dz, float* loss,
                                                     float* correct) {
  float largest = z[0];
  int predicted = 0;
  for (int c = 1; c < classes; ++c) {
    if (z[c] > largest) {
      largest = z[c];
      predicted = c;
    }
  }
  float sum = 0.0f;
  for (int c = 0; c < classes; ++c) sum += expf(z[c] - largest);
  *loss = logf(sum) - (z[y] - largest);
  *correct = predicted == y ? 1.0f : 0.0f;
  for (int c = 0; c < classes; ++c) {
    const float p = expf(z[c] - largest) / sum;
    dz[c] = (p - (c == y ? 1.0f : 0.0f)) * grad_scale;
  }
}

__global__ void mlp_softmax_cross_entropy(const float* logits, const int* labels, float* dlogits,
                                          float* row_loss, float* row_correct, int batch,
                                          int classes, float grad_scale) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= batch) return;
  mlp_row_softmax_cross_entropy(logits + r * classes, labels[r], classes, grad_scale,
                                dlogits + r * classes, row_loss + r, row_correct + r);
}

// ---------------------------------------------------------------------------------------------
// The thin layers: a layer of at most kMlpThinMax neurons (the output layer of a classifier with a
// few classes). In the 64 × 64 tiles of mlp_gemm such a layer is 2 useful columns of 64: the
// forward product read the whole A for 2.1 million multiply-adds and took two thirds of the time
// of a 256 × 256 layer's, 128 times the arithmetic (Nsight Compute, H100, docs/PERFORMANCE.md).
// Here the work is laid out along the long dimension, the batch, instead.

// Forward: one warp per example row. The lanes read the row 32 consecutive floats at a time (one
// 128-byte line per load), each keeps one partial sum per neuron, and a butterfly of shuffles
// gives every lane the row's sums; lane 0 stores them. `relu`: a hidden layer's max(·, 0).
// `labels` set (the output layer of a training step): lane 0 then goes on with the row's softmax,
// cross-entropy and the loss's gradient (mlp_row_softmax_cross_entropy, the same code as
// mlp_softmax_cross_entropy), which saves that kernel's launch and its reading the logits back.
__global__ void mlp_thin_forward(const float* a, const float* w, float* z, int rows, int in,
                                 int out, int relu, const int* labels, float* dlogits,
                                 float* row_loss, float* row_correct, float grad_scale) {
  constexpr int kMax = kernels::kMlpThinMax;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int row = static_cast<int>(blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32);
  if (row >= rows) return;  // the row is the warp's: its lanes leave together
  const float* x = a + static_cast<long long>(row) * in;
  float sum[kMax];
  for (int o = 0; o < kMax; ++o) sum[o] = 0.0f;
  for (int i = lane; i < in; i += 32) {
    const float v = x[i];
    for (int o = 0; o < kMax; ++o) {
      if (o < out) sum[o] += v * w[o * (in + 1) + i];
    }
  }
  for (int o = 0; o < kMax; ++o) {
    if (o >= out) break;
    for (int offset = 16; offset > 0; offset /= 2) {
      sum[o] += __shfl_xor_sync(0xffffffffu, sum[o], offset);
    }
  }
  if (lane != 0) return;
  float* const z_row = z + static_cast<long long>(row) * out;
  for (int o = 0; o < kMax; ++o) {
    if (o >= out) break;
    const float value = sum[o] + w[o * (in + 1) + in];  // column `in` is the bias
    z_row[o] = relu ? fmaxf(value, 0.0f) : value;
  }
  if (labels != nullptr) {
    mlp_row_softmax_cross_entropy(z_row, labels[row], out, grad_scale, dlogits + row * out,
                                  row_loss + row, row_correct + row);
  }
}

// Backward through a thin layer, both products in one pass over its input:
//   [dW | db] (out × (in + 1)) = dZᵀ · [input | 1]   — over the block's kMlpThinRows rows only: a
//                                                     slice for mlp_sum_all_splits, written at
//                                                     partials + blockIdx.x · out · (in + 1)
//   dprev (rows × in) = (dZ · W) where input > 0      — the layer below's dZ (when dprev is set)
// The block's rows of dZ (a few floats each) are staged in shared memory; thread t then owns
// column t of the input (and t + blockDim, ...; column `in` is the ones whose sums are the bias
// gradients), walks the block's rows reading one coalesced float per row, and keeps one sum per
// neuron. Each input element is read once for both products.
__global__ void mlp_thin_backward(const float* dz, const float* input, const float* w,
                                  float* partials, float* dprev, int rows, int in, int out) {
  constexpr int kMax = kernels::kMlpThinMax, kRows = kernels::kMlpThinRows;
  __shared__ float dz_rows[kRows * kMax];
  const int first = static_cast<int>(blockIdx.x) * kRows;
  const int count = rows - first < kRows ? rows - first : kRows;
  for (int e = static_cast<int>(threadIdx.x); e < count * out; e += static_cast<int>(blockDim.x)) {
    dz_rows[e] = dz[static_cast<long long>(first) * out + e];
  }
  __syncthreads();
  float* const slice = partials + static_cast<long long>(blockIdx.x) * out * (in + 1);
  for (int i = static_cast<int>(threadIdx.x); i <= in; i += static_cast<int>(blockDim.x)) {
    float weight[kMax], sum[kMax];
    for (int o = 0; o < kMax; ++o) {
      weight[o] = o < out ? w[o * (in + 1) + i] : 0.0f;
      sum[o] = 0.0f;
    }
    for (int r = 0; r < count; ++r) {
      const long long at = static_cast<long long>(first + r) * in + i;
      const float x = i < in ? input[at] : 1.0f;
      float back = 0.0f;
      for (int o = 0; o < kMax; ++o) {
        if (o < out) {
          const float d = dz_rows[r * out + o];
          sum[o] += d * x;
          back += d * weight[o];
        }
      }
      // relu'(z) is 1 where the neuron below fired: its output, the input here, says which.
      if (dprev != nullptr && i < in) dprev[at] = x > 0.0f ? back : 0.0f;
    }
    for (int o = 0; o < kMax; ++o) {
      if (o < out) slice[o * (in + 1) + i] = sum[o];
    }
  }
}

// The weight gradient of a first layer with at most kMlpThinMax inputs (the plane's 2
// coordinates) and many neurons: as a product it is out × (in + 1) sums over the whole batch, a
// handful of columns that 64 × 64 tiles mostly pad. Here a block takes kMlpThinRows rows: their
// inputs (a few floats each) are staged in shared memory, thread o owns neuron o, reads dZ's
// column o one coalesced float per row, and keeps in + 1 sums; the block's sums are one slice for
// mlp_sum_all_splits, at partials + blockIdx.x · out · (in + 1). The first layer needs no dZ below
// it, so that is all.
__global__ void mlp_narrow_input_gradient(const float* dz, const float* input, float* partials,
                                          int rows, int in, int out) {
  constexpr int kMax = kernels::kMlpThinMax, kRows = kernels::kMlpThinRows;
  __shared__ float input_rows[kRows * kMax];
  const int first = static_cast<int>(blockIdx.x) * kRows;
  const int count = rows - first < kRows ? rows - first : kRows;
  for (int e = static_cast<int>(threadIdx.x); e < count * in; e += static_cast<int>(blockDim.x)) {
    input_rows[e] = input[static_cast<long long>(first) * in + e];
  }
  __syncthreads();
  float* const slice = partials + static_cast<long long>(blockIdx.x) * out * (in + 1);
  for (int o = static_cast<int>(threadIdx.x); o < out; o += static_cast<int>(blockDim.x)) {
    float sum[kMax];
    for (int i = 0; i < kMax; ++i) sum[i] = 0.0f;
    float bias = 0.0f;  // the sum against the column of ones
    for (int r = 0; r < count; ++r) {
      const float d = dz[static_cast<long long>(first + r) * out + o];
      for (int i = 0; i < kMax; ++i) {
        if (i < in) sum[i] += d * input_rows[r * in + i];
      }
      bias += d;
    }
    for (int i = 0; i < kMax; ++i) {
      if (i < in) slice[o * (in + 1) + i] = sum[i];
    }
    slice[o * (in + 1) + in] = bias;
  }
}

// The class probabilities alone (the decision boundary's colours), one thread per example.
__global__ void mlp_softmax(const float* logits, float* probabilities, int batch, int classes) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= batch) return;
  const float* z = logits + r * classes;
  float largest = z[0];
  for (int c = 1; c < classes; ++c) largest = fmaxf(largest, z[c]);
  float sum = 0.0f;
  for (int c = 0; c < classes; ++c) sum += expf(z[c] - largest);
  for (int c = 0; c < classes; ++c) probabilities[r * classes + c] = expf(z[c] - largest) / sum;
}

// The batch's mean loss and its count of correct predictions into out[0] and out[1]: one block of
// 256 threads, each summing a strided share, then a tree in shared memory (lesson 6). A fixed tree
// and no atomics: the same rounding on every run, so a seed gives one loss curve.
__global__ void mlp_sum_losses(const float* row_loss, const float* row_correct, int batch,
                               float* out) {
  constexpr int kThreads = 256;
  __shared__ float loss[kThreads];
  __shared__ float correct[kThreads];
  float my_loss = 0.0f, my_correct = 0.0f;
  for (int r = threadIdx.x; r < batch; r += kThreads) {
    my_loss += row_loss[r];
    my_correct += row_correct[r];
  }
  loss[threadIdx.x] = my_loss;
  correct[threadIdx.x] = my_correct;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (static_cast<int>(threadIdx.x) < half) {
      loss[threadIdx.x] += loss[threadIdx.x + half];
      correct[threadIdx.x] += correct[threadIdx.x + half];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    out[0] = loss[0] / static_cast<float>(batch);
    out[1] = correct[0];
  }
}

// ---------------------------------------------------------------------------------------------
// The optimizers, one thread per parameter of the whole network.
//
// SGD with momentum: the velocity remembers past gradients, v = μ·v + g, and the step follows it,
// p = p − lr·v, so steady directions speed up and zig-zags cancel.
__global__ void mlp_sgd_momentum(float* params, const float* grads, float* velocity, int count,
                                 float learning_rate, float momentum) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const float v = momentum * velocity[i] + grads[i];
  velocity[i] = v;
  params[i] -= learning_rate * v;
}

// Adam: running means of the gradient (m) and of its square (v) give each parameter its own step
// size, lr · m_hat / (√v_hat + ε), where m_hat and v_hat are m and v corrected for starting at 0.
// The host folds the corrections of step t into corrected_rate (lr · √(1 − β₂ᵗ) / (1 − β₁ᵗ)) and
// corrected_epsilon (ε · √(1 − β₂ᵗ)), which is the same update.
__global__ void mlp_adam(float* params, const float* grads, float* mean, float* mean_square,
                         int count, float corrected_rate, float beta1, float beta2,
                         float corrected_epsilon) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const float g = grads[i];
  const float m = beta1 * mean[i] + (1.0f - beta1) * g;
  const float v = beta2 * mean_square[i] + (1.0f - beta2) * g * g;
  mean[i] = m;
  mean_square[i] = v;
  params[i] -= corrected_rate * m / (sqrtf(v) + corrected_epsilon);
}

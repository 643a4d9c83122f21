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
// slice of A and a 16 × 64 slice of B in shared memory; each thread then reads 4 values of A and 4
// of B per step and does 16 multiply-adds with them, four times the work per shared-memory read
// of one output per thread.
//
// A thread's patch is spread out, rows ty, ty + 16, ty + 32, ty + 48 and columns likewise, so that
// the 16 threads of a row of the block store 16 neighbouring floats: coalesced stores.
template <class Trace>
__global__ void __launch_bounds__(256) mlp_gemm(kernels::MlpGemm g, Trace trace) {
  constexpr int kTile = 64, kTileK = 16, kSide = 16, kPer = 4;
  // +4: rows of 68 floats, so a slice written column by column spreads over the banks.
  __shared__ float a_tile[kTileK][kTile + 4];  // [k][m]
  __shared__ float b_tile[kTileK][kTile + 4];  // [k][n]

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int thread = ty * kSide + tx;
  const int m0 = blockIdx.y * kTile, n0 = blockIdx.x * kTile;
  // A split product (grid z > 1): this block's slice of the shared dimension, and where its
  // partial result goes.
  const int k_begin = g.k_split > 0 ? static_cast<int>(blockIdx.z) * g.k_split : 0;
  const int k_end = g.k_split > 0 && k_begin + g.k_split < g.k ? k_begin + g.k_split : g.k;
  float* const c = g.c + static_cast<int>(blockIdx.z) * g.split_stride;

  float acc[kPer][kPer];
  for (int i = 0; i < kPer; ++i) {
    for (int j = 0; j < kPer; ++j) acc[i][j] = 0.0f;
  }

  for (int k0 = k_begin; k0 < k_end; k0 += kTileK) {
    // Load the slices, 4 elements per thread each. Consecutive threads take consecutive addresses
    // of whichever index is contiguous in memory, so the loads stay coalesced for a transposed
    // operand too. Outside the matrices load 0: it adds nothing.
    for (int s = thread; s < kTile * kTileK; s += kSide * kSide) {
      const bool k_contiguous = g.a_col == 1;
      const int m = k_contiguous ? s / kTileK : s % kTile;
      const int k = k_contiguous ? s % kTileK : s / kTile;
      const int gm = m0 + m, gk = k0 + k;
      a_tile[k][m] = (gm < g.m && gk < k_end) ? g.a[gm * g.a_row + gk * g.a_col] : 0.0f;
    }
    for (int s = thread; s < kTile * kTileK; s += kSide * kSide) {
      const bool n_contiguous = g.b_col == 1;
      const int n = n_contiguous ? s % kTile : s / kTileK;
      const int k = n_contiguous ? s / kTile : s % kTileK;
      const int gk = k0 + k, gn = n0 + n;
      float value = 0.0f;
      if (gk < k_end && gn < g.n) {
        value = gn == g.b_ones_col ? 1.0f : g.b[gk * g.b_row + gn * g.b_col];
      }
      b_tile[k][n] = value;
    }
    __syncthreads();  // the slices are complete before anyone reads them
    for (int k = 0; k < kTileK; ++k) {
      float a[kPer], b[kPer];
      for (int i = 0; i < kPer; ++i) a[i] = a_tile[k][ty + kSide * i];
      for (int j = 0; j < kPer; ++j) b[j] = b_tile[k][tx + kSide * j];
      for (int i = 0; i < kPer; ++i) {
        for (int j = 0; j < kPer; ++j) acc[i][j] += a[i] * b[j];
      }
    }
    __syncthreads();  // everyone is done reading before the next slice overwrites them
  }

  for (int i = 0; i < kPer; ++i) {
    const int m = m0 + ty + kSide * i;
    if (m >= g.m) continue;
    for (int j = 0; j < kPer; ++j) {
      const int n = n0 + tx + kSide * j;
      if (n >= g.n) continue;
      float value = acc[i][j];
      if (g.epilogue == kernels::kMlpBiasRelu) {
        value = fmaxf(value + g.bias[n * g.bias_stride], 0.0f);
      } else if (g.epilogue == kernels::kMlpBias) {
        value += g.bias[n * g.bias_stride];
      } else if (g.epilogue == kernels::kMlpReluMask) {
        // relu'(z) is 1 where the neuron fired and 0 where it did not: its output says which.
        value = g.mask[m * g.ldc + n] > 0.0f ? value : 0.0f;
      }
      c[m * g.ldc + n] = value;
      trace.wrote(static_cast<unsigned long long>(m) * g.ldc + n);
    }
  }
}

// The slices of a split product added in order: out[i] = partials[i] + partials[stride + i] + ...
// One thread per element of the result.
__global__ void mlp_sum_splits(const float* partials, float* out, int count, int splits,
                               int stride) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  float sum = 0.0f;
  for (int s = 0; s < splits; ++s) sum += partials[s * stride + i];
  out[i] = sum;
}

// ---------------------------------------------------------------------------------------------
// Softmax, cross-entropy and the loss's gradient, one thread per example (a few classes each).
// Subtracting the row's maximum first keeps expf from overflowing (lesson 6's stable softmax):
// loss = log(sum of e^(z_c − max)) − (z_y − max). The gradient of the batch's mean loss with
// respect to z_c is (p_c − [c = y]) / B: grad_scale is 1 / B.
// A NaN or infinite logit gives a NaN or infinite loss, which the trainer reports with its step.
__global__ void mlp_softmax_cross_entropy(const float* logits, const int* labels, float* dlogits,
                                          float* row_loss, float* row_correct, int batch,
                                          int classes, float grad_scale) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= batch) return;
  const float* z = logits + r * classes;
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
  const int y = labels[r];
  row_loss[r] = logf(sum) - (z[y] - largest);
  row_correct[r] = predicted == y ? 1.0f : 0.0f;
  for (int c = 0; c < classes; ++c) {
    const float p = expf(z[c] - largest) / sum;
    dlogits[r * classes + c] = (p - (c == y ? 1.0f : 0.0f)) * grad_scale;
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

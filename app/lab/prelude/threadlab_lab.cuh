// threadlab_lab.cuh: included before every Kernel Lab kernel, on the GPU (NVRTC) and on the
// emulator (the host compiler with ThreadLab's CUDA shim). It gives exercise kernels two array
// views that read like plain CUDA:
//
//   __global__ void add(Array<const float> a, Array<const float> b, Array<float> c, int n) {
//     int i = blockIdx.x * blockDim.x + threadIdx.x;
//     if (i < n) c[i] = a[i] + b[i];
//   }
//
// and `Matrix<T>` with `M(row, col)`, `M.rows`, `M.cols`. ThreadLab compiles each kernel twice.
// Untraced (timed), an access is a plain load or store. Traced (checked and drawn, with
// TL_LAB_TRACED defined), every write records which block and thread wrote the element, and an
// access outside the array is caught and named instead of faulting: it goes to a spare slot past
// the array's end, the first one is reported with its thread, and every thread that made one is
// flagged (the Lab draws those threads as out of range, not idle). Plain pointers work too; only
// the tracing and the named out-of-range report need the views.
//
// No standard headers: NVRTC compiles this without a C++ library.
#ifndef THREADLAB_LAB_PRELUDE
#define THREADLAB_LAB_PRELUDE

namespace tl {

// The layout of core/trace_record.hpp's TraceRecord: one per element, 16 bytes.
struct LabTraceRecord {
  unsigned int block;
  unsigned int thread_and_sm;
  unsigned int iteration;
  unsigned int writes;
};

// The first out-of-range access of a traced run; `hit` is 0 while there is none. Where
// `thread_flags` is not 0, one byte per launched thread follows the record (in the order of
// lab_global_thread) and each thread that accessed outside an array sets its own to 1.
struct LabFault {
  unsigned int hit;
  unsigned int parameter;  // which kernel parameter's array
  unsigned int is_write;
  unsigned int block[3];
  unsigned int thread[3];
  unsigned int thread_flags;
  unsigned int line;  // the line of kernel.cu the access is written on; 0: not known
  unsigned int reserved;
  long long row;   // the index for an Array, the row for a Matrix
  long long col;   // -1 for an Array
  long long rows;  // the size for an Array
  long long cols;  // -1 for an Array
};

__device__ __forceinline__ unsigned int lab_linear_block() {
  return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}
__device__ __forceinline__ unsigned int lab_linear_thread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

// The thread's place among all the launch's threads: block after block, each block's threads in
// order (x fastest), as the Lab's picture lays out a 1-D launch's threads.
__device__ __forceinline__ unsigned long long lab_global_thread() {
  return static_cast<unsigned long long>(lab_linear_block()) *
             (blockDim.x * blockDim.y * blockDim.z) +
         lab_linear_thread();
}

__device__ __forceinline__ void lab_report_fault(LabFault* fault, unsigned int parameter,
                                                 bool is_write, long long row, long long col,
                                                 long long rows, long long cols,
                                                 unsigned int line) {
  if (fault == 0) return;
  // Every thread that strays is flagged (a plain store: all write the same 1), the first named.
  if (fault->thread_flags != 0u) {
    reinterpret_cast<unsigned char*>(fault + 1)[lab_global_thread()] = 1;
  }
  if (atomicCAS(&fault->hit, 0u, 1u) != 0u) return;
  fault->parameter = parameter;
  fault->is_write = is_write ? 1u : 0u;
  fault->block[0] = blockIdx.x;
  fault->block[1] = blockIdx.y;
  fault->block[2] = blockIdx.z;
  fault->thread[0] = threadIdx.x;
  fault->thread[1] = threadIdx.y;
  fault->thread[2] = threadIdx.z;
  fault->row = row;
  fault->col = col;
  fault->rows = rows;
  fault->cols = cols;
  fault->line = line;
}

// Who wrote an element. A thread writing its own element again (an accumulation loop) counts once;
// a second thread counts again, so "written by more than one thread" shows as writes > 1.
__device__ __forceinline__ void lab_record_write(LabTraceRecord* record) {
  if (record == 0) return;
  const unsigned int block = lab_linear_block();
  const unsigned int thread = lab_linear_thread() & 0xFFFFu;
  if (record->writes != 0u && record->block == block &&
      (record->thread_and_sm & 0xFFFFu) == thread) {
    return;
  }
  record->block = block;
  record->thread_and_sm = thread;
  atomicAdd(&record->writes, 1u);
}

#if defined(TL_LAB_TRACED)
// An index that keeps the line of kernel.cu it is written on, so that an access outside an array
// is marked on its line in the editor: __builtin_LINE() as a default argument is evaluated where
// the conversion happens, in the learner's `a[i]` (kernel.cu's lines: the source follows
// `#line 1 "kernel.cu"`).
// A template, so that an index that is itself a traced element (`counts[values[i]]`) still
// converts: LabElement → int → LabIndex would be two user-defined conversions.
struct LabIndex {
  long long value;
  unsigned int line;
  template <class Index>
  __device__ __forceinline__ LabIndex(Index at, unsigned int where = __builtin_LINE())
      : value(static_cast<long long>(at)), line(where) {}
};

// A traced element: reads convert to T, writes record the writer.
template <class T>
struct LabElement {
  T* address;
  LabTraceRecord* record;
  __device__ __forceinline__ operator T() const { return *address; }
  __device__ __forceinline__ LabElement& operator=(T value) {
    *address = value;
    lab_record_write(record);
    return *this;
  }
  __device__ __forceinline__ LabElement& operator=(const LabElement& other) {
    return *this = static_cast<T>(other);
  }
  __device__ __forceinline__ LabElement& operator+=(T value) { return *this = *address + value; }
  __device__ __forceinline__ LabElement& operator-=(T value) { return *this = *address - value; }
  __device__ __forceinline__ LabElement& operator*=(T value) { return *this = *address * value; }
  __device__ __forceinline__ LabElement& operator/=(T value) { return *this = *address / value; }
  // `&c[i]` for atomics, e.g. atomicAdd(&sum[0], x): a plain pointer, as in the untraced build.
  // Writes through it are not traced.
  __device__ __forceinline__ T* operator&() const { return address; }
};
template <class T>
struct LabElement<const T> {  // read-only arrays need no recording
  const T* address;
  LabTraceRecord* record;
  __device__ __forceinline__ operator T() const { return *address; }
  __device__ __forceinline__ const T* operator&() const { return address; }
};
#define TL_LAB_ELEMENT(T) LabElement<T>
#else
#define TL_LAB_ELEMENT(T) T&
#endif

template <class U>
struct LabIsConst {
  static constexpr bool value = false;
};
template <class U>
struct LabIsConst<const U> {
  static constexpr bool value = true;
};

template <class T>
struct Array {
  T* data;
  int size;
  unsigned int parameter;
  LabTraceRecord* trace;
  LabFault* fault;

#if defined(TL_LAB_TRACED)
  __device__ __forceinline__ TL_LAB_ELEMENT(T) operator[](LabIndex index) const {
    const long long i = index.value;
    if (i < 0 || i >= size) {
      lab_report_fault(fault, parameter, !LabIsConst<T>::value, i, -1, size, -1, index.line);
      return LabElement<T>{data + size, 0};  // the spare slot past the end
    }
    return LabElement<T>{data + i, trace ? trace + i : 0};
  }
#else
  __device__ __forceinline__ TL_LAB_ELEMENT(T) operator[](long long i) const {
    return data[i];
  }
#endif
};

template <class T>
struct Matrix {
  T* data;
  int rows;
  int cols;
  LabTraceRecord* trace;
  LabFault* fault;
  unsigned int parameter;

  // Row-major: element (row, col) is data[row * cols + col]. A column past the end is caught even
  // where row * cols + col would still land inside the array (on the next row).
#if defined(TL_LAB_TRACED)
  __device__ __forceinline__ TL_LAB_ELEMENT(T) operator()(
      long long row, long long col, unsigned int line = __builtin_LINE()) const {
    if (row < 0 || row >= rows || col < 0 || col >= cols) {
      lab_report_fault(fault, parameter, !LabIsConst<T>::value, row, col, rows, cols, line);
      return LabElement<T>{data + static_cast<long long>(rows) * cols, 0};
    }
    const long long at = row * cols + col;
    return LabElement<T>{data + at, trace ? trace + at : 0};
  }
#else
  __device__ __forceinline__ TL_LAB_ELEMENT(T) operator()(long long row, long long col) const {
    return data[row * cols + col];
  }
#endif
};

}  // namespace tl

using tl::Array;
using tl::Matrix;

#endif  // THREADLAB_LAB_PRELUDE

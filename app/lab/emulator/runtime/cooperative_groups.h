#pragma once
#error "ThreadLab's CPU emulator does not support cooperative groups; use __syncthreads() and the __shfl_*_sync / __*_sync warp functions, or run on the GPU"

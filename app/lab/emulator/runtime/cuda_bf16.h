#pragma once
#error "ThreadLab's CPU emulator does not support bfloat16 (__nv_bfloat16); use float, or run on the GPU"

#pragma once
#error "ThreadLab's CPU emulator does not support tensor-core fragments (nvcuda::wmma); run on the GPU"

#pragma once
#error "ThreadLab's CPU emulator does not support half precision (__half); use float, or run on the GPU"

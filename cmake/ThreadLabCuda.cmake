# Decides whether the real CUDA kernels are built. Without nvcc the build still succeeds and the app
# runs every kernel on the CPU emulator.
set(THREADLAB_HAVE_CUDA OFF)
if(NOT THREADLAB_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    # CMake 3.25 does not know nvcc 13's flag for C++20; tell it.
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    # The CUDA runtime is linked statically, so a machine with an NVIDIA driver but no CUDA toolkit
    # runs ThreadLab as it is.
    set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
    set(THREADLAB_HAVE_CUDA ON)
  elseif(THREADLAB_CUDA STREQUAL "ON")
    message(FATAL_ERROR "THREADLAB_CUDA=ON but no CUDA compiler was found (set CUDACXX or CMAKE_CUDA_COMPILER)")
  else()
    message(STATUS "ThreadLab: nvcc not found, building with the CPU emulator only")
  endif()
endif()

# Where scripts/install-deps.sh puts the toolkit's disassembler (cuobjdump, nvdisasm) when the
# toolkit came without it: lessons/CMakeLists.txt looks here after the toolkit's own bin/.
set(THREADLAB_CUDA_TOOLS_HINTS)
foreach(tools_dir "$ENV{THREADLAB_CUDA_TOOLS_DIR}" /opt/threadlab/cuda-tools
        "$ENV{HOME}/.local/share/threadlab/cuda-tools")
  if(tools_dir)
    file(GLOB tool_bins LIST_DIRECTORIES true "${tools_dir}/nvidia/*/bin")
    list(APPEND THREADLAB_CUDA_TOOLS_HINTS ${tool_bins})
  endif()
endforeach()

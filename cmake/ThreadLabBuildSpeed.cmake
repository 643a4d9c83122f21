# What makes a rebuild cheap, each part optional and found, never required: a compiler cache, a
# faster linker and split debug info. Included after the CUDA language is enabled, so the launcher
# reaches nvcc too. Every choice is printed, so a build log says what it was built with.
#
#   THREADLAB_CCACHE      AUTO (use ccache when it is installed), ON (require it) or OFF
#   THREADLAB_LINKER      AUTO (mold, then lld, when the compiler accepts them), bfd, mold or lld
#   THREADLAB_SPLIT_DWARF ON by default: debug info goes to .dwo files beside the objects, so the
#                         linker copies none of it (the 18 test executables each link the whole app)

set(THREADLAB_CCACHE "AUTO" CACHE STRING "Compile through ccache: AUTO, ON or OFF")
set_property(CACHE THREADLAB_CCACHE PROPERTY STRINGS AUTO ON OFF)
set(THREADLAB_LINKER "AUTO" CACHE STRING "Linker: AUTO, bfd, mold or lld")
set_property(CACHE THREADLAB_LINKER PROPERTY STRINGS AUTO bfd mold lld)
option(THREADLAB_SPLIT_DWARF "Write debug info to .dwo files (-gsplit-dwarf), not into objects" ON)

# A launcher the caller chose (-DCMAKE_CXX_COMPILER_LAUNCHER=…) is kept as it is.
if(NOT THREADLAB_CCACHE STREQUAL "OFF" AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(THREADLAB_CCACHE_PROGRAM ccache)
  if(THREADLAB_CCACHE_PROGRAM)
    set(CMAKE_C_COMPILER_LAUNCHER "${THREADLAB_CCACHE_PROGRAM}")
    set(CMAKE_CXX_COMPILER_LAUNCHER "${THREADLAB_CCACHE_PROGRAM}")
    if(THREADLAB_HAVE_CUDA)
      set(CMAKE_CUDA_COMPILER_LAUNCHER "${THREADLAB_CCACHE_PROGRAM}")
    endif()
    message(STATUS "ThreadLab: compiling through ${THREADLAB_CCACHE_PROGRAM}")
  elseif(THREADLAB_CCACHE STREQUAL "ON")
    message(FATAL_ERROR "THREADLAB_CCACHE=ON but ccache was not found (apt-get install ccache)")
  endif()
endif()

# -fuse-ld= is tried with a real link, since gcc and clang accept different linkers by version.
include(CheckCXXSourceCompiles)
function(threadlab_linker_works linker result_var)
  set(CMAKE_REQUIRED_LINK_OPTIONS "-fuse-ld=${linker}")
  set(CMAKE_REQUIRED_QUIET ON)
  check_cxx_source_compiles("int main() { return 0; }" ${result_var})
endfunction()

set(threadlab_chosen_linker "")
if(THREADLAB_LINKER STREQUAL "AUTO")
  foreach(candidate IN ITEMS mold lld)
    find_program(THREADLAB_${candidate}_PROGRAM NAMES ${candidate} ld.${candidate})
    if(THREADLAB_${candidate}_PROGRAM)
      threadlab_linker_works(${candidate} THREADLAB_LINKER_${candidate}_WORKS)
      if(THREADLAB_LINKER_${candidate}_WORKS)
        set(threadlab_chosen_linker ${candidate})
        break()
      endif()
    endif()
  endforeach()
elseif(NOT THREADLAB_LINKER STREQUAL "bfd")
  threadlab_linker_works(${THREADLAB_LINKER} THREADLAB_LINKER_${THREADLAB_LINKER}_WORKS)
  if(NOT THREADLAB_LINKER_${THREADLAB_LINKER}_WORKS)
    message(FATAL_ERROR "THREADLAB_LINKER=${THREADLAB_LINKER}: the C++ compiler cannot link with it")
  endif()
  set(threadlab_chosen_linker ${THREADLAB_LINKER})
endif()
if(threadlab_chosen_linker)
  # Only links driven by the C or C++ compiler: nvcc's device link has its own linker.
  add_link_options("$<$<LINK_LANGUAGE:C,CXX>:-fuse-ld=${threadlab_chosen_linker}>")
  message(STATUS "ThreadLab: linking with ${threadlab_chosen_linker}")
else()
  message(STATUS "ThreadLab: linking with the compiler's default linker")
endif()

if(THREADLAB_SPLIT_DWARF AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:-gsplit-dwarf>")
  # nvcc passes host flags through -Xcompiler; its own objects keep their (small) host debug info.
  message(STATUS "ThreadLab: split debug info (.dwo beside each object)")
endif()

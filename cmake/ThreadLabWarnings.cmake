# Warnings for ThreadLab's own targets (never for generated or third-party code).
add_library(threadlab_warnings INTERFACE)
target_compile_options(threadlab_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)

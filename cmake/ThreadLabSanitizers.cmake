# Sanitizers for ThreadLab's host code: `-DTHREADLAB_SANITIZE=address,undefined` (with
# THREADLAB_CUDA=OFF: nvcc's device code is checked by compute-sanitizer on the GPU instead).
# Applied to every target, so that the libraries the tests link are instrumented too.
set(THREADLAB_SANITIZE "" CACHE STRING "Sanitizers for the host code, e.g. address,undefined")
if(THREADLAB_SANITIZE)
  add_compile_options(
    "$<$<COMPILE_LANGUAGE:C,CXX>:-fsanitize=${THREADLAB_SANITIZE};-fno-omit-frame-pointer;-fno-sanitize-recover=all>")
  add_link_options("-fsanitize=${THREADLAB_SANITIZE}")
  message(STATUS "ThreadLab: sanitizers ${THREADLAB_SANITIZE}")
endif()

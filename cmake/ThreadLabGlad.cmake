# GLAD 2 loader for OpenGL 4.3 core and EGL 1.5, generated at build time from the specifications that
# python3-glad ships. --reproducible keeps glad from fetching newer specifications over the network.
find_program(GLAD_EXECUTABLE glad REQUIRED)
set(GLAD_OUT "${CMAKE_BINARY_DIR}/glad")
set(GLAD_EXTENSIONS
    GL_KHR_debug
    EGL_EXT_device_base EGL_EXT_device_enumeration EGL_EXT_device_query EGL_EXT_platform_base
    EGL_EXT_platform_device EGL_MESA_platform_surfaceless EGL_KHR_surfaceless_context
    EGL_KHR_create_context)
list(JOIN GLAD_EXTENSIONS "," GLAD_EXTENSION_LIST)
set(GLAD_SOURCES "${GLAD_OUT}/src/gl.c" "${GLAD_OUT}/src/egl.c")
add_custom_command(
  OUTPUT ${GLAD_SOURCES} "${GLAD_OUT}/include/glad/gl.h" "${GLAD_OUT}/include/glad/egl.h"
  COMMAND "${GLAD_EXECUTABLE}" --quiet --reproducible --api "gl:core=4.3,egl=1.5"
          --extensions "${GLAD_EXTENSION_LIST}" --out-path "${GLAD_OUT}" c --loader
  COMMENT "Generating the GLAD loader (OpenGL 4.3 core, EGL 1.5)"
  VERBATIM)
add_library(threadlab_glad STATIC ${GLAD_SOURCES})
target_include_directories(threadlab_glad SYSTEM PUBLIC "${GLAD_OUT}/include")
target_link_libraries(threadlab_glad PUBLIC ${CMAKE_DL_LIBS})
set_target_properties(threadlab_glad PROPERTIES POSITION_INDEPENDENT_CODE ON)

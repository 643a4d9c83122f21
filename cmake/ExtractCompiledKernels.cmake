# Build step: the compiled forms of the lessons' GPU kernels, as the toolkit's own tools print them,
# written into a C++ source that embeds them (lessons/compiled_kernels.hpp). Run by CMake after the
# GPU kernel library is built:
#   cmake -DARCHIVE=<libthreadlab_kernels_gpu.a> -DCUOBJDUMP=<path> -DNVDISASM=<path>
#         -DWORK_DIR=<dir> -DOUTPUT=<file.cpp> -DSOURCE_ROOT=<project> -DBUILD_DIR=<build>
#         -DUNITS=<unit=lesson|...> -P ExtractCompiledKernels.cmake
# For each translation unit of a lesson's kernel set and each architecture built: the SASS with
# its source lines (nvdisasm -g, the kernels are built with line information), the PTX where the
# fat binary carries it, and the resources ptxas gave each kernel (cuobjdump -res-usage). Paths
# are made relative to the project root. The files are embedded with the assembler's .incbin
# (megabytes of text as C++ string literals would cost the compiler minutes); the source carries
# each file's hash, so that a compiler cache sees a change in them.
cmake_minimum_required(VERSION 3.25)
foreach(var ARCHIVE CUOBJDUMP NVDISASM WORK_DIR OUTPUT SOURCE_ROOT BUILD_DIR UNITS)
  if(NOT ${var})
    message(FATAL_ERROR "ExtractCompiledKernels.cmake needs -D${var}")
  endif()
endforeach()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
foreach(what elf ptx)
  execute_process(COMMAND "${CUOBJDUMP}" -x${what} all "${ARCHIVE}" WORKING_DIRECTORY "${WORK_DIR}"
                  RESULT_VARIABLE status OUTPUT_QUIET ERROR_VARIABLE error)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "cuobjdump -x${what} failed on ${ARCHIVE}: ${error}")
  endif()
endforeach()

# unit name -> lesson folder
string(REPLACE "|" ";" unit_list "${UNITS}")
set(units_known)
foreach(entry IN LISTS unit_list)
  string(REPLACE "=" ";" pair "${entry}")
  list(GET pair 0 unit)
  list(GET pair 1 lesson)
  set(lesson_of_${unit} "${lesson}")
  list(APPEND units_known "${unit}")
endforeach()

# The paths nvdisasm and ptxas wrote are the compile's absolute ones, and a compiler cache may
# serve objects compiled in another checkout ("/elsewhere/build/../lessons/..."): each quoted
# absolute path becomes its longest ending that names a file of this project (without ".."),
# whatever directory it was compiled in. Paths outside the project (the toolkit's headers) stay.
get_filename_component(source_root "${SOURCE_ROOT}" ABSOLUTE)

function(relative_paths file)
  file(READ "${file}" text)
  string(REGEX MATCHALL "\"/[^\"\n]+\"" quoted "${text}")
  if(quoted)
    list(REMOVE_DUPLICATES quoted)
  endif()
  foreach(q IN LISTS quoted)
    string(REGEX REPLACE "^\"(.*)\"$" "\\1" path "${q}")
    set(rest "${path}")
    while(rest MATCHES "^/*[^/]+/(.+)$")
      set(rest "${CMAKE_MATCH_1}")
      if(NOT rest MATCHES "(^|/)\\.\\.(/|$)" AND EXISTS "${source_root}/${rest}" AND
         NOT IS_DIRECTORY "${source_root}/${rest}")
        string(REPLACE "${q}" "\"${rest}\"" text "${text}")
        break()
      endif()
    endwhile()
  endforeach()
  file(WRITE "${file}" "${text}")
endfunction()

file(GLOB cubins "${WORK_DIR}/*.cubin")
list(SORT cubins)
set(asm "")
set(declarations "")
set(entries "")
set(hashes "")
set(index 0)
foreach(cubin IN LISTS cubins)
  get_filename_component(name "${cubin}" NAME)
  # matrix_add_gpu.sm_90.cubin, matmul_wgmma_gpu.sm_90a.cubin
  if(NOT name MATCHES "^(.+)\\.(sm_[0-9]+a?)\\.cubin$")
    continue()
  endif()
  set(unit "${CMAKE_MATCH_1}")
  set(arch "${CMAKE_MATCH_2}")
  if(NOT unit IN_LIST units_known)
    continue()
  endif()
  set(stem "${WORK_DIR}/${unit}.${arch}")
  execute_process(COMMAND "${NVDISASM}" -g -c "${cubin}" OUTPUT_FILE "${stem}.sass"
                  RESULT_VARIABLE status ERROR_VARIABLE error)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "nvdisasm failed on ${cubin}: ${error}")
  endif()
  execute_process(COMMAND "${CUOBJDUMP}" -res-usage "${cubin}" OUTPUT_FILE "${stem}.res"
                  RESULT_VARIABLE status ERROR_VARIABLE error)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "cuobjdump -res-usage failed on ${cubin}: ${error}")
  endif()
  # The PTX of the same architecture, where the fat binary carries one (the last architecture of
  # the build's list, compiled for compute_XX as well as sm_XX).
  set(ptx "${WORK_DIR}/${unit}.${arch}.ptx")
  if(NOT EXISTS "${ptx}")
    file(WRITE "${ptx}" "")
  endif()
  foreach(kind sass ptx res)
    set(file "${stem}.${kind}")
    if(kind STREQUAL "ptx")
      set(file "${ptx}")
    endif()
    relative_paths("${file}")
    file(MD5 "${file}" md5)
    string(APPEND hashes "// ${unit}.${arch}.${kind} ${md5}\n")
    set(symbol "tl_compiled_${index}_${kind}")
    string(APPEND asm "    \".globl ${symbol}\\n.hidden ${symbol}\\n${symbol}:\\n.incbin \\\"${file}\\\"\\n"
                      ".globl ${symbol}_end\\n.hidden ${symbol}_end\\n${symbol}_end:\\n\"\n")
    string(APPEND declarations "extern \"C\" const char ${symbol}[];\nextern \"C\" const char ${symbol}_end[];\n")
  endforeach()
  string(APPEND entries "    {\"${lesson_of_${unit}}\", \"${unit}\", \"${arch}\", "
                        "text(tl_compiled_${index}_sass, tl_compiled_${index}_sass_end), "
                        "text(tl_compiled_${index}_ptx, tl_compiled_${index}_ptx_end), "
                        "text(tl_compiled_${index}_res, tl_compiled_${index}_res_end)},\n")
  math(EXPR index "${index} + 1")
endforeach()

set(body "// Generated by cmake/ExtractCompiledKernels.cmake. Do not edit.\n")
string(APPEND body "// The embedded files and their hashes (a change in them changes this source):\n${hashes}\n")
string(APPEND body "#include \"compiled_kernels.hpp\"\n\n")
string(APPEND body "__asm__(\".section .rodata\\n\"\n${asm}    \".previous\\n\");\n\n")
string(APPEND body "${declarations}\n")
string(APPEND body "namespace tl::compiled_kernels {\nnamespace {\n")
string(APPEND body "std::string_view text(const char* begin, const char* end) {\n  return {begin, static_cast<std::size_t>(end - begin)};\n}\n")
string(APPEND body "}  // namespace\n\n")
string(APPEND body "std::span<const CompiledUnit> units() {\n  static const CompiledUnit kUnits[] = {\n${entries}  };\n  return kUnits;\n}\n\n")
string(APPEND body "std::string_view unavailable() { return {}; }\n\n}  // namespace tl::compiled_kernels\n")
if(index EQUAL 0)
  message(FATAL_ERROR "no lesson kernel was found in ${ARCHIVE}")
endif()
file(WRITE "${OUTPUT}.tmp" "${body}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")

# Installing ThreadLab, and its Debian package (scripts/package.sh runs CPack's DEB generator on
# the normal build). Everything the installed program reads at run time is either inside the
# executable (lesson texts, exercises, compiled listings), in the system's packages (fonts, GLFW,
# the C++ runtime) or under share/threadlab (the demo scripts); nothing refers back to the source
# tree. The CUDA runtime is linked statically and NVRTC, NCCL, cuBLAS and CUPTI are opened at run
# time, so the same package serves machines with and without an NVIDIA GPU: the toolkit is only
# recommended, and what needs it says so when it is missing.
include(GNUInstallDirs)

install(TARGETS threadlab RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(DIRECTORY docs/demos/ DESTINATION "${CMAKE_INSTALL_DATADIR}/threadlab/demos"
        FILES_MATCHING PATTERN "*.toml")
install(FILES packaging/threadlab.desktop DESTINATION "${CMAKE_INSTALL_DATADIR}/applications")
install(FILES packaging/threadlab.svg
        DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps")
install(FILES packaging/io.github.threadlab.ThreadLab.metainfo.xml
        DESTINATION "${CMAKE_INSTALL_DATADIR}/metainfo")
# Debian's documentation folder is named after the package, not the CMake project.
set(threadlab_doc_dir "${CMAKE_INSTALL_DATADIR}/doc/threadlab")
install(FILES packaging/copyright DESTINATION "${threadlab_doc_dir}")

# The man page and the bash completion, from the CLI's own --help, each time the executable is
# linked (cmake/GenerateCliDocs.cmake); gzip'd as Debian installs manuals and changelogs.
set(cli_docs_dir "${CMAKE_BINARY_DIR}/cli-docs")
string(TIMESTAMP threadlab_docs_date "%Y-%m-%d" UTC)
# A native package's changelog in Debian's format (the release, pointing at CHANGELOG.md).
string(TIMESTAMP THREADLAB_CHANGELOG_DATE "%a, %d %b %Y 00:00:00 +0000" UTC)
configure_file(packaging/changelog.in "${CMAKE_BINARY_DIR}/generated/changelog" @ONLY)
add_custom_command(
  OUTPUT "${cli_docs_dir}/threadlab.1.gz" "${cli_docs_dir}/threadlab"
         "${cli_docs_dir}/changelog.gz" "${cli_docs_dir}/CHANGELOG.md.gz"
  COMMAND "${CMAKE_COMMAND}" -E make_directory "${cli_docs_dir}"
  COMMAND "${CMAKE_COMMAND}" "-DTHREADLAB=$<TARGET_FILE:threadlab>"
          "-DMAN_PAGE=${cli_docs_dir}/threadlab.1" "-DCOMPLETION=${cli_docs_dir}/threadlab"
          "-DVERSION=${PROJECT_VERSION}" "-DDATE=${threadlab_docs_date}"
          -P "${PROJECT_SOURCE_DIR}/cmake/GenerateCliDocs.cmake"
  COMMAND gzip -n -9 -f "${cli_docs_dir}/threadlab.1"
  COMMAND "${CMAKE_COMMAND}" -E copy "${PROJECT_SOURCE_DIR}/CHANGELOG.md"
          "${cli_docs_dir}/CHANGELOG.md"
  COMMAND gzip -n -9 -f "${cli_docs_dir}/CHANGELOG.md"
  COMMAND "${CMAKE_COMMAND}" -E copy "${CMAKE_BINARY_DIR}/generated/changelog"
          "${cli_docs_dir}/changelog"
  COMMAND gzip -n -9 -f "${cli_docs_dir}/changelog"
  DEPENDS threadlab "${PROJECT_SOURCE_DIR}/cmake/GenerateCliDocs.cmake"
          "${PROJECT_SOURCE_DIR}/CHANGELOG.md" "${CMAKE_BINARY_DIR}/generated/changelog"
  COMMENT "Writing threadlab's man page and bash completion from its --help"
  VERBATIM)
# Not part of `all`: only scripts/package.sh needs them (and a sanitizer tree would run its
# instrumented executable at build time).
add_custom_target(threadlab_cli_docs DEPENDS "${cli_docs_dir}/threadlab.1.gz")
install(FILES "${cli_docs_dir}/threadlab.1.gz" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
install(FILES "${cli_docs_dir}/threadlab"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/bash-completion/completions")
install(FILES "${cli_docs_dir}/changelog.gz" "${cli_docs_dir}/CHANGELOG.md.gz"
        DESTINATION "${threadlab_doc_dir}")

set(CPACK_PACKAGE_NAME "threadlab")
set(CPACK_PACKAGE_VENDOR "The ThreadLab maintainers")
set(CPACK_PACKAGE_CONTACT "ThreadLab maintainers <maintainers@threadlab.invalid>")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Learn CUDA by running real kernels and seeing which thread computed what")
set(CPACK_PACKAGE_DESCRIPTION
    "ThreadLab's lessons launch real CUDA kernels with the grid and block you
choose, draw which thread computed which element and plot CPU against GPU
timings. Its Kernel Lab judges your own kernels with hidden checks, on an
NVIDIA GPU or on a CPU emulator that runs the same source, so a machine
without a GPU can follow every lesson.")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # threadlab_<version>_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION "education")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The fonts the window draws with, by path (app/ui/theme.cpp); the code font is optional.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "fonts-dejavu-core")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-jetbrains-mono")
# NVRTC, nvdisasm, cuBLAS, NCCL and CUPTI from the toolkit light up the Lab's GPU path and the
# lessons' library rows; without them the app says what is missing.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "nvidia-cuda-toolkit, compute-sanitizer")
set(CPACK_DEBIAN_COMPRESSION_TYPE "xz")
set(CPACK_GENERATOR "DEB")
include(CPack)

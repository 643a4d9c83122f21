# Every dependency comes from Debian packages (scripts/install-deps.sh installs them); nothing is
# vendored or downloaded while building.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
# The emulator's fibers switch with Boost.Context (libboost-context-dev): no system call per switch.
# Linked statically: the switch is then a direct call, not one through the PLT, and the binary needs
# no Boost library at run time.
set(Boost_USE_STATIC_LIBS ON)
find_package(Boost 1.74 REQUIRED COMPONENTS context)
find_package(OpenGL REQUIRED COMPONENTS OpenGL EGL)
find_package(glfw3 3.3 REQUIRED)
find_package(CLI11 REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
pkg_check_modules(IMGUI REQUIRED IMPORTED_TARGET imgui)
pkg_check_modules(STB REQUIRED IMPORTED_TARGET stb)
pkg_check_modules(MD4C REQUIRED IMPORTED_TARGET md4c)
# Demo scripts and settings are TOML (libtomlplusplus-dev).
pkg_check_modules(TOMLPP REQUIRED IMPORTED_TARGET tomlplusplus)
# The class server and client (app/net): HTTP on the local network, libcpp-httplib-dev. Debian
# builds it as a shared library with OpenSSL, zlib and Brotli on; its pkg-config file carries the
# matching CPPHTTPLIB_* definitions, which every user of httplib.h must see.
pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
# Finding a class on the LAN (app/net/class_discovery): Avahi's headers only, from
# libavahi-client-dev. The library itself is loaded at run time with dlopen, so the app (and its
# Debian package) runs where Avahi is absent and says so; docs/ARCHITECTURE.md says why.
pkg_check_modules(AVAHI_CLIENT REQUIRED avahi-client)
# The Lab sandbox's system-call filter (app/lab/worker/sandbox.cpp).
pkg_check_modules(SECCOMP REQUIRED IMPORTED_TARGET libseccomp)
if(THREADLAB_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()

# Fonts are looked up at run time; these are the Debian locations, overridable for other systems.
set(THREADLAB_FONT_SANS "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf" CACHE FILEPATH "UI font")
set(THREADLAB_FONT_MONO "/usr/share/fonts/truetype/jetbrains-mono/JetBrainsMono-Regular.ttf"
    CACHE FILEPATH "Monospace font for code")

#include "core/dynamic_library.hpp"

#include <dlfcn.h>

namespace tl {
namespace {

void append(std::string& list, const std::string& item) {
  if (!list.empty()) list += ", ";
  list += item;
}

}  // namespace

DynamicLibrary DynamicLibrary::open_first(const std::vector<std::string>& candidates) {
  DynamicLibrary library;
  for (const std::string& candidate : candidates) {
    if (candidate.empty()) continue;
    library.handle_ = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library.handle_ != nullptr) {
      library.path_ = candidate;
      break;
    }
    append(library.tried_, candidate);
  }
  return library;
}

void* DynamicLibrary::find(const char* symbol) {
  void* address = handle_ != nullptr ? ::dlsym(handle_, symbol) : nullptr;
  if (address == nullptr) append(missing_, symbol);
  return address;
}

}  // namespace tl

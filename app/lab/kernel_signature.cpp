#include "lab/kernel_signature.hpp"

#include <cctype>
#include <regex>

namespace tl::lab {
namespace {

bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

std::string trim(std::string_view text) {
  std::size_t begin = 0;
  std::size_t end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin])) != 0) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1])) != 0) --end;
  return std::string(text.substr(begin, end - begin));
}

bool contains_word(std::string_view text, std::string_view word) {
  for (std::size_t at = text.find(word); at != std::string_view::npos;
       at = text.find(word, at + 1)) {
    const bool starts = at == 0 || !is_identifier_char(text[at - 1]);
    const std::size_t after = at + word.size();
    const bool ends = after >= text.size() || !is_identifier_char(text[after]);
    if (starts && ends) return true;
  }
  return false;
}

ArgumentForm form_of(std::string_view type) {
  if (contains_word(type, "Matrix")) return ArgumentForm::kMatrixView;
  if (contains_word(type, "Array")) return ArgumentForm::kArrayView;
  if (type.find('*') != std::string_view::npos) return ArgumentForm::kPointer;
  return ArgumentForm::kScalar;
}

// "const float* __restrict__ a" → type "const float* __restrict__", name "a".
DeclaredParameter split_parameter(std::string_view text) {
  const std::string parameter = trim(text);
  std::size_t end = parameter.size();
  std::size_t begin = end;
  while (begin > 0 && is_identifier_char(parameter[begin - 1])) --begin;
  DeclaredParameter declared;
  declared.name = parameter.substr(begin, end - begin);
  declared.type = trim(std::string_view(parameter).substr(0, begin));
  if (declared.type.empty()) {  // an unnamed parameter: the whole text is its type
    declared.type = parameter;
    declared.name.clear();
  }
  declared.form = form_of(declared.type);
  return declared;
}

const char* expected_form(const ParameterSpec& spec) {
  if (spec.kind == ParameterKind::kInt) return "an int";
  if (spec.kind == ParameterKind::kFloat) return "a float";
  if (spec.kind == ParameterKind::kInputArray) {
    if (spec.matrix) {
      return spec.element == ElementType::kFloat32 ? "Matrix<const float> or const float*"
                                                   : "Matrix<const int> or const int*";
    }
    return spec.element == ElementType::kFloat32 ? "Array<const float> or const float*"
                                                 : "Array<const int> or const int*";
  }
  if (spec.matrix) {
    return spec.element == ElementType::kFloat32 ? "Matrix<float> or float*"
                                                 : "Matrix<int> or int*";
  }
  return spec.element == ElementType::kFloat32 ? "Array<float> or float*" : "Array<int> or int*";
}

}  // namespace

std::string without_comments_and_strings(std::string_view source) {
  std::string out(source);
  enum class State { kCode, kLineComment, kBlockComment, kString, kChar } state = State::kCode;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const char c = source[i];
    const char next = i + 1 < source.size() ? source[i + 1] : '\0';
    switch (state) {
      case State::kCode:
        if (c == '/' && next == '/') {
          state = State::kLineComment;
          out[i] = ' ';
        } else if (c == '/' && next == '*') {
          state = State::kBlockComment;
          out[i] = out[i + 1] = ' ';
          ++i;
        } else if (c == '"') {
          state = State::kString;
        } else if (c == '\'') {
          state = State::kChar;
        }
        break;
      case State::kLineComment:
        if (c == '\n') {
          state = State::kCode;
        } else {
          out[i] = ' ';
        }
        break;
      case State::kBlockComment:
        if (c == '*' && next == '/') {
          out[i] = out[i + 1] = ' ';
          ++i;
          state = State::kCode;
        } else if (c != '\n') {
          out[i] = ' ';
        }
        break;
      case State::kString:
      case State::kChar: {
        const char quote = state == State::kString ? '"' : '\'';
        if (c == '\\' && next != '\0') {
          out[i] = ' ';
          if (next != '\n') out[i + 1] = ' ';
          ++i;
        } else if (c == quote) {
          state = State::kCode;
        } else if (c != '\n') {
          out[i] = ' ';
        }
        break;
      }
    }
  }
  return out;
}

Result<KernelSignature> find_kernel(std::string_view source, std::string_view kernel_name) {
  const std::string code = without_comments_and_strings(source);
  std::vector<std::string> other_kernels;
  for (std::size_t at = code.find("__global__"); at != std::string::npos;
       at = code.find("__global__", at + 1)) {
    // The name is the identifier before the first parenthesis that is not an attribute's:
    // `__global__ void __launch_bounds__(256, 8) kernel(...)`.
    std::size_t search_from = at;
    std::size_t open = std::string::npos;
    std::string name;
    for (;;) {
      open = code.find('(', search_from);
      if (open == std::string::npos) break;
      std::size_t name_end = open;
      while (name_end > at && std::isspace(static_cast<unsigned char>(code[name_end - 1])) != 0) {
        --name_end;
      }
      std::size_t name_begin = name_end;
      while (name_begin > at && is_identifier_char(code[name_begin - 1])) --name_begin;
      name = code.substr(name_begin, name_end - name_begin);
      if (name != "__launch_bounds__" && name != "__maxnreg__" && name != "__cluster_dims__") break;
      int depth = 0;
      std::size_t close = open;
      for (; close < code.size(); ++close) {
        if (code[close] == '(') ++depth;
        if (code[close] == ')' && --depth == 0) break;
      }
      search_from = close + 1;
    }
    if (open == std::string::npos) break;
    if (name != kernel_name) {
      if (!name.empty()) other_kernels.push_back(name);
      continue;
    }
    KernelSignature signature;
    signature.name = name;
    signature.line = 1 + static_cast<int>(std::count(code.begin(), code.begin() + at, '\n'));
    int depth = 0;
    std::size_t piece_begin = open + 1;
    for (std::size_t i = open + 1; i < code.size(); ++i) {
      const char c = code[i];
      if (c == '(' || c == '<' || c == '[') ++depth;
      if ((c == ')' || c == '>' || c == ']') && depth > 0) {
        --depth;
        continue;
      }
      if ((c == ',' && depth == 0) || (c == ')' && depth == 0)) {
        const std::string piece = trim(std::string_view(code).substr(piece_begin, i - piece_begin));
        if (!piece.empty() && piece != "void") {
          signature.parameters.push_back(split_parameter(piece));
        }
        piece_begin = i + 1;
        if (c == ')') return signature;
      }
    }
    return Error{ErrorKind::kParseError,
                 "the parameter list of kernel '" + name + "' is not closed"};
  }
  std::string message = "no __global__ function named '" + std::string(kernel_name) + "'";
  if (!other_kernels.empty()) message += " (found '" + other_kernels.front() + "')";
  return Error{ErrorKind::kParseError,
               message + "; the exercise launches '" + std::string(kernel_name) + "'"};
}

Status match_parameters(const KernelSignature& signature, const Exercise& exercise) {
  if (signature.parameters.size() != exercise.parameters.size()) {
    std::string expected;
    for (const ParameterSpec& p : exercise.parameters) {
      expected += (expected.empty() ? "" : ", ") + p.name;
    }
    return Error{ErrorKind::kInvalidArgument, "kernel '" + signature.name + "' takes " +
                                                  std::to_string(signature.parameters.size()) +
                                                  " parameters; the exercise passes " +
                                                  std::to_string(exercise.parameters.size()) +
                                                  " (" + expected + ")"};
  }
  for (std::size_t i = 0; i < signature.parameters.size(); ++i) {
    const DeclaredParameter& declared = signature.parameters[i];
    const ParameterSpec& spec = exercise.parameters[i];
    const bool declared_array = declared.form != ArgumentForm::kScalar;
    const bool const_input = declared.type.find("const") != std::string::npos;
    bool fits = declared_array == is_array(spec);
    if (fits && !is_array(spec)) {
      const bool declared_float = contains_word(declared.type, "float");
      fits = declared_float == (spec.kind == ParameterKind::kFloat);
    }
    if (fits && spec.kind == ParameterKind::kOutputArray && const_input &&
        declared.form != ArgumentForm::kPointer) {
      fits = false;  // Array<const float> cannot be written
    }
    if (!fits) {
      return Error{ErrorKind::kInvalidArgument,
                   "parameter " + std::to_string(i + 1) + " ('" + declared.name + "', " +
                       declared.type + ") must be " + expected_form(spec) +
                       ": the exercise passes " + spec.name + " there"};
    }
  }
  return Status::ok();
}

std::vector<SourceRule> broken_rules(std::string_view source, std::span<const SourceRule> rules) {
  const std::string code = without_comments_and_strings(source);
  std::vector<SourceRule> broken;
  for (SourceRule rule : rules) {
    bool followed = false;
    switch (rule) {
      case SourceRule::kUsesSharedMemory:
        followed = contains_word(code, "__shared__");
        break;
      case SourceRule::kUsesSyncthreads:
        followed = contains_word(code, "__syncthreads");
        break;
      case SourceRule::kUsesAtomics:
        followed = std::regex_search(code, std::regex(R"(\batomic[A-Z][A-Za-z]*\s*\()"));
        break;
      case SourceRule::kUsesWarpShuffle:
        followed = std::regex_search(code, std::regex(R"(\b__shfl(_up|_down|_xor)?_sync\s*\()"));
        break;
    }
    if (!followed) broken.push_back(rule);
  }
  return broken;
}

}  // namespace tl::lab

#include "lab/worker/lab_protocol.hpp"

#include <nlohmann/json.hpp>

namespace tl::lab {
namespace {

using nlohmann::json;

json dim(const Dim3& d) {
  return json::array({d.x, d.y, d.z});
}
Dim3 dim(const json& j) {
  return {j.at(0).get<std::uint32_t>(), j.at(1).get<std::uint32_t>(), j.at(2).get<std::uint32_t>()};
}

const char* form_name(ArgumentForm form) {
  switch (form) {
    case ArgumentForm::kPointer:
      return "pointer";
    case ArgumentForm::kArrayView:
      return "array";
    case ArgumentForm::kMatrixView:
      return "matrix";
    case ArgumentForm::kScalar:
      return "scalar";
  }
  return "scalar";
}

ArgumentForm form_named(const std::string& name) {
  if (name == "pointer") return ArgumentForm::kPointer;
  if (name == "array") return ArgumentForm::kArrayView;
  if (name == "matrix") return ArgumentForm::kMatrixView;
  return ArgumentForm::kScalar;
}

template <typename T, typename F>
Result<T> decode(const std::string& line, F&& read) {
  try {
    return read(json::parse(line));
  } catch (const std::exception& e) {
    return Error{ErrorKind::kParseError,
                 std::string("a Lab message could not be read: ") + e.what()};
  }
}

}  // namespace

const char* to_string(LabBackend backend) {
  return backend == LabBackend::kGpu ? "gpu" : "emulator";
}

std::string encode(const CompileRequest& r) {
  return json{{"op", "compile"},
              {"backend", to_string(r.backend)},
              {"source", r.source},
              {"kernel", r.kernel_name},
              {"cache_dir", r.cache_dir}}
      .dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string encode(const CompileReply& r) {
  return json{{"ok", r.ok},
              {"error", r.error},
              {"log", r.log},
              {"device", r.device},
              {"registers", r.registers},
              {"from_cache", r.from_cache},
              {"compile_ms", r.compile_ms}}
      .dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string encode(const RunRequest& r) {
  json arguments = json::array();
  for (const WireArgument& a : r.arguments) {
    arguments.push_back({{"form", form_name(a.form)},
                         {"is_float", a.is_float},
                         {"int", a.int_value},
                         {"float", a.float_value},
                         {"offset", a.offset},
                         {"rows", a.rows},
                         {"cols", a.cols},
                         {"trace_offset", a.trace_offset},
                         {"copy_back", a.copy_back}});
  }
  return json{{"op", "run"},
              {"traced", r.traced},
              {"region", r.region},
              {"region_bytes", r.region_bytes},
              {"fault_offset", r.fault_offset},
              {"arguments", arguments},
              {"grid", dim(r.grid)},
              {"block", dim(r.block)},
              {"shared", r.dynamic_shared_bytes},
              {"timed_repeats", r.timed_repeats},
              {"library", r.library}}
      .dump();
}

std::string encode(const RunReply& r) {
  return json{{"ok", r.ok},
              {"error", r.error},
              {"fatal", r.fatal},
              {"ms", r.milliseconds},
              {"finding", r.finding}}
      .dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string encode(const CopyRequest& r) {
  return json{{"op", "copy"}, {"bytes", r.bytes}, {"repeats", r.repeats}}.dump();
}

Result<CopyRequest> decode_copy_request(const std::string& line) {
  return decode<CopyRequest>(line, [](const json& j) {
    CopyRequest r;
    r.bytes = j.at("bytes");
    r.repeats = j.at("repeats");
    return r;
  });
}

Result<std::string> request_op(const std::string& line) {
  return decode<std::string>(line, [](const json& j) { return j.at("op").get<std::string>(); });
}

Result<CompileRequest> decode_compile_request(const std::string& line) {
  return decode<CompileRequest>(line, [](const json& j) {
    CompileRequest r;
    r.backend = j.at("backend") == "gpu" ? LabBackend::kGpu : LabBackend::kEmulator;
    r.source = j.at("source");
    r.kernel_name = j.at("kernel");
    r.cache_dir = j.at("cache_dir");
    return r;
  });
}

Result<CompileReply> decode_compile_reply(const std::string& line) {
  return decode<CompileReply>(line, [](const json& j) {
    CompileReply r;
    r.ok = j.at("ok");
    r.error = j.at("error");
    r.log = j.at("log");
    r.device = j.at("device");
    r.registers = j.at("registers");
    r.from_cache = j.at("from_cache");
    r.compile_ms = j.at("compile_ms");
    return r;
  });
}

Result<RunRequest> decode_run_request(const std::string& line) {
  return decode<RunRequest>(line, [](const json& j) {
    RunRequest r;
    r.traced = j.at("traced");
    r.region = j.at("region");
    r.region_bytes = j.at("region_bytes");
    r.fault_offset = j.at("fault_offset");
    for (const json& a : j.at("arguments")) {
      WireArgument w;
      w.form = form_named(a.at("form"));
      w.is_float = a.at("is_float");
      w.int_value = a.at("int");
      w.float_value = a.at("float");
      w.offset = a.at("offset");
      w.rows = a.at("rows");
      w.cols = a.at("cols");
      w.trace_offset = a.at("trace_offset");
      w.copy_back = a.at("copy_back");
      r.arguments.push_back(w);
    }
    r.grid = dim(j.at("grid"));
    r.block = dim(j.at("block"));
    r.dynamic_shared_bytes = j.at("shared");
    r.timed_repeats = j.at("timed_repeats");
    r.library = j.value("library", "");
    return r;
  });
}

Result<RunReply> decode_run_reply(const std::string& line) {
  return decode<RunReply>(line, [](const json& j) {
    RunReply r;
    r.ok = j.at("ok");
    r.error = j.at("error");
    r.fatal = j.at("fatal");
    r.milliseconds = j.at("ms").get<std::vector<double>>();
    r.finding = j.value("finding", "");
    return r;
  });
}

}  // namespace tl::lab

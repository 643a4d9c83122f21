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

// A row's requests, each lane as [lane, address, bytes]: a few thousand lanes per reply, so
// without a key per lane. Space and kind are the row's.
json requests_json(const std::vector<memory::WarpRequest>& requests) {
  json out = json::array();
  for (const memory::WarpRequest& r : requests) {
    json lanes = json::array();
    for (const memory::LaneAccess& l : r.lanes) lanes.push_back({l.lane, l.address, l.bytes});
    out.push_back(
        {{"block", r.block}, {"warp", r.warp}, {"occurrence", r.occurrence}, {"lanes", lanes}});
  }
  return out;
}

std::vector<memory::WarpRequest> requests_from_json(const json& j, const memory::LineTotals& row) {
  std::vector<memory::WarpRequest> requests;
  for (const json& r : j) {
    memory::WarpRequest request;
    request.block = r.at("block");
    request.warp = r.at("warp");
    request.occurrence = r.at("occurrence");
    request.space = row.space;
    request.kind = row.kind;
    for (const json& l : r.at("lanes")) {
      request.lanes.push_back({l.at(0).get<std::uint32_t>(), l.at(1).get<std::uint64_t>(),
                               l.at(2).get<std::uint32_t>()});
    }
    requests.push_back(std::move(request));
  }
  return requests;
}

// The table travels as the model's own fields; the app derives ratios and names from them.
json memory_json(const MemoryReply& m) {
  json rows = json::array();
  for (std::size_t i = 0; i < m.table.rows.size(); ++i) {
    const memory::LineTotals& t = m.table.rows[i];
    rows.push_back({{"line", t.line},
                    {"shared", t.space == memory::MemorySpace::kShared},
                    {"store", t.kind == memory::AccessKind::kStore},
                    {"argument", i < m.row_argument.size() ? m.row_argument[i] : -1},
                    {"requests", t.requests},
                    {"lanes", t.lanes},
                    {"sectors", t.sectors},
                    {"ideal_sectors", t.ideal_sectors},
                    {"lines_touched", t.lines_touched},
                    {"bytes_requested", t.bytes_requested},
                    {"wavefronts", t.wavefronts},
                    {"ideal_wavefronts", t.ideal_wavefronts},
                    {"worst_conflict_degree", t.worst_conflict_degree},
                    {"requests_kept", i < m.row_requests.size() ? requests_json(m.row_requests[i])
                                                                : json::array()}});
  }
  json arrays = json::array();
  for (const MemoryReply::RecordedArray& a : m.arrays) {
    arrays.push_back({{"argument", a.argument},
                      {"address", a.address},
                      {"bytes", a.bytes},
                      {"element_bytes", a.element_bytes},
                      {"rows", a.rows},
                      {"cols", a.cols},
                      {"element_loads", a.loads.element_loads},
                      {"block_elements", a.loads.block_elements},
                      {"blocks", a.loads.blocks}});
  }
  return {{"rows", rows},
          {"arrays", arrays},
          {"recorded_blocks", m.table.recorded_blocks},
          {"grid_blocks", m.table.grid_blocks},
          {"lines_note", m.lines_note},
          {"dropped_accesses", m.dropped_accesses}};
}

MemoryReply memory_from_json(const json& j) {
  MemoryReply m;
  for (const json& row : j.at("rows")) {
    memory::LineTotals t;
    t.line = row.at("line");
    t.space =
        row.at("shared").get<bool>() ? memory::MemorySpace::kShared : memory::MemorySpace::kGlobal;
    t.kind = row.at("store").get<bool>() ? memory::AccessKind::kStore : memory::AccessKind::kLoad;
    t.requests = row.at("requests");
    t.lanes = row.at("lanes");
    t.sectors = row.at("sectors");
    t.ideal_sectors = row.at("ideal_sectors");
    t.lines_touched = row.at("lines_touched");
    t.bytes_requested = row.at("bytes_requested");
    t.wavefronts = row.at("wavefronts");
    t.ideal_wavefronts = row.at("ideal_wavefronts");
    t.worst_conflict_degree = row.at("worst_conflict_degree");
    m.table.rows.push_back(t);
    m.row_argument.push_back(row.at("argument"));
    m.row_requests.push_back(row.contains("requests_kept")
                                 ? requests_from_json(row.at("requests_kept"), t)
                                 : std::vector<memory::WarpRequest>{});
  }
  if (j.contains("arrays")) {
    for (const json& a : j.at("arrays")) {
      MemoryReply::RecordedArray array;
      array.argument = a.at("argument");
      array.address = a.at("address");
      array.bytes = a.at("bytes");
      array.element_bytes = a.at("element_bytes");
      array.rows = a.at("rows");
      array.cols = a.at("cols");
      array.loads.element_loads = a.at("element_loads");
      array.loads.block_elements = a.at("block_elements");
      array.loads.blocks = a.at("blocks");
      m.arrays.push_back(array);
    }
  }
  m.table.recorded_blocks = j.at("recorded_blocks");
  m.table.grid_blocks = j.at("grid_blocks");
  m.lines_note = j.at("lines_note");
  m.dropped_accesses = j.at("dropped_accesses");
  return m;
}

}  // namespace

bool MemoryReply::requests_cut() const {
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const std::size_t kept = i < row_requests.size() ? row_requests[i].size() : 0;
    if (kept < table.rows[i].requests) return true;
  }
  return false;
}

const char* to_string(LabBackend backend) {
  return backend == LabBackend::kGpu ? "gpu" : "emulator";
}

std::string encode(const CompileRequest& r) {
  return json{{"op", "compile"},          {"backend", to_string(r.backend)},
              {"source", r.source},       {"kernel", r.kernel_name},
              {"cache_dir", r.cache_dir}, {"record_memory", r.record_memory}}
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
                         {"copy_back", a.copy_back},
                         {"element_bytes", a.element_bytes},
                         {"guard_elements", a.guard_elements}});
  }
  return json{{"op", "run"},
              {"traced", r.traced},
              {"region_bytes", r.region_bytes},
              {"fault_offset", r.fault_offset},
              {"fault_bytes", r.fault_bytes},
              {"arguments", arguments},
              {"grid", dim(r.grid)},
              {"block", dim(r.block)},
              {"shared", r.dynamic_shared_bytes},
              {"timed_repeats", r.timed_repeats},
              {"library", r.library},
              {"record_memory", r.record_memory},
              {"record_blocks", r.record_blocks}}
      .dump();
}

std::string encode(const RunReply& r) {
  json reply{{"ok", r.ok},
             {"error", r.error},
             {"fatal", r.fatal},
             {"ms", r.milliseconds},
             {"finding", r.finding}};
  if (r.memory) reply["memory"] = memory_json(*r.memory);
  return reply.dump(-1, ' ', false, json::error_handler_t::replace);
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

std::string encode(const InspectRequest& r) {
  return json{{"op", "inspect"},
              {"source", r.source},
              {"kernel", r.kernel_name},
              {"arch", r.arch},
              {"disassembler", r.disassembler},
              {"scratch_dir", r.scratch_dir}}
      .dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string encode(const InspectReply& r) {
  return json{{"ok", r.ok},
              {"error", r.error},
              {"log", r.log},
              {"symbol", r.symbol},
              {"ptx", r.ptx},
              {"sass", r.sass},
              {"sass_unavailable", r.sass_unavailable}}
      .dump(-1, ' ', false, json::error_handler_t::replace);
}

Result<InspectRequest> decode_inspect_request(const std::string& line) {
  return decode<InspectRequest>(line, [](const json& j) {
    InspectRequest r;
    r.source = j.at("source");
    r.kernel_name = j.at("kernel");
    r.arch = j.at("arch");
    r.disassembler = j.at("disassembler");
    r.scratch_dir = j.at("scratch_dir");
    return r;
  });
}

Result<InspectReply> decode_inspect_reply(const std::string& line) {
  return decode<InspectReply>(line, [](const json& j) {
    InspectReply r;
    r.ok = j.at("ok");
    r.error = j.at("error");
    r.log = j.at("log");
    r.symbol = j.at("symbol");
    r.ptx = j.at("ptx");
    r.sass = j.at("sass");
    r.sass_unavailable = j.at("sass_unavailable");
    return r;
  });
}

Result<CompileRequest> decode_compile_request(const std::string& line) {
  return decode<CompileRequest>(line, [](const json& j) {
    CompileRequest r;
    r.backend = j.at("backend") == "gpu" ? LabBackend::kGpu : LabBackend::kEmulator;
    r.source = j.at("source");
    r.kernel_name = j.at("kernel");
    r.cache_dir = j.at("cache_dir");
    r.record_memory = j.value("record_memory", false);
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
    r.region_bytes = j.at("region_bytes");
    r.fault_offset = j.at("fault_offset");
    r.fault_bytes = std::max<std::uint64_t>(
        sizeof(WireFault), j.value("fault_bytes", std::uint64_t{sizeof(WireFault)}));
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
      w.element_bytes = a.value("element_bytes", 4u);
      w.guard_elements = std::max(1u, a.value("guard_elements", 1u));
      r.arguments.push_back(w);
    }
    r.grid = dim(j.at("grid"));
    r.block = dim(j.at("block"));
    r.dynamic_shared_bytes = j.at("shared");
    r.timed_repeats = j.at("timed_repeats");
    r.library = j.value("library", "");
    r.record_memory = j.value("record_memory", false);
    r.record_blocks = j.value("record_blocks", 0u);
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
    if (j.contains("memory")) r.memory = memory_from_json(j.at("memory"));
    return r;
  });
}

std::string encode(const SandboxReply& reply) {
  return json{{"ok", true}, {"layers", reply.layers}, {"isolates", reply.isolates}}.dump();
}

Result<SandboxReply> decode_sandbox_reply(const std::string& line) {
  return decode<SandboxReply>(line, [](const json& j) {
    SandboxReply r;
    r.layers = j.at("layers");
    r.isolates = j.at("isolates");
    return r;
  });
}

}  // namespace tl::lab

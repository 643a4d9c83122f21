#include "lab/worker/lab_worker.hpp"

#include <unistd.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lab/gpu/kernel_inspection.hpp"
#include "lab/source_policy.hpp"
#include "lab/worker/worker_process.hpp"

namespace tl::lab {

std::uint64_t fnv1a(std::string_view text, std::uint64_t hash) {
  for (char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return hash;
}

int run_lab_worker(int request_fd, int reply_fd, const SandboxLayers& sandbox) {
  std::unique_ptr<WorkerBackend> backend;
  std::string buffer;
  // Descriptors that came with requests, oldest first: each run's shared memory.
  std::vector<int> received;
  const auto next_region_fd = [&received]() {
    if (received.empty()) return -1;
    const int fd = received.front();
    received.erase(received.begin());
    return fd;
  };
  for (;;) {
    Result<std::string> line = read_line(request_fd, buffer, &received);
    if (!line) {
      if (line.error().kind != ErrorKind::kInvalidArgument) return 0;  // the app closed the socket
      // A line past the limit is not a request: said, and the worker ends.
      (void)write_line(reply_fd, encode(RunReply{false, line.error().message, true, {}, {}, {}}));
      return 2;
    }
    const Result<std::string> op = request_op(*line);
    if (!op) {
      (void)write_line(reply_fd, encode(RunReply{false, op.error().message, true, {}, {}, {}}));
      return 2;
    }
    if (*op == "quit") return 0;
    if (*op == "sandbox") {
      if (!write_line(reply_fd, encode(SandboxReply{sandbox.describe(), sandbox.isolates()}))) {
        return 1;
      }
      continue;
    }
    if (*op == "inspect") {
      Result<InspectRequest> request = decode_inspect_request(*line);
      InspectReply reply;
      if (!request) {
        reply.error = request.error().message;
      } else if (std::optional<std::string> refused =
                     source_policy_violation(request->source, "kernel.cu")) {
        reply.error = *refused;
        reply.log = *refused;
      } else {
        reply = inspect_learner_kernel(*request);
      }
      if (!write_line(reply_fd, encode(reply))) return 1;
      continue;
    }
    if (*op == "compile") {
      Result<CompileRequest> request = decode_compile_request(*line);
      if (!request) {
        CompileReply reply;
        reply.error = request.error().message;
        (void)write_line(reply_fd, encode(reply));
        return 2;
      }
      // Refused before any compiler reads it (source_policy.hpp): the compile step reads files.
      if (std::optional<std::string> refused =
              source_policy_violation(request->source, "kernel.cu")) {
        CompileReply reply;
        reply.error = *refused;
        reply.log = *refused;
        if (!write_line(reply_fd, encode(reply))) return 1;
        continue;
      }
      backend = request->backend == LabBackend::kGpu ? make_gpu_worker_backend()
                                                     : make_emulator_worker_backend();
      if (!write_line(reply_fd, encode(backend->compile(*request)))) return 1;
      continue;
    }
    if (*op == "run") {
      Result<RunRequest> request = decode_run_request(*line);
      const int region_fd = next_region_fd();
      RunReply reply;
      if (!request) {
        if (region_fd >= 0) ::close(region_fd);
        reply.error = request.error().message;
      } else if (!backend) {
        if (region_fd >= 0) ::close(region_fd);
        reply.error = "nothing was compiled before the run";
      } else if (Result<SharedRegion> region =
                     SharedRegion::adopt(region_fd, request->region_bytes);
                 !region) {
        reply.error = region.error().message;
      } else {
        reply = backend->run(*request, region->data());
      }
      // What the kernel printed reaches the app before the reply does (stdout is a pipe, so
      // fully buffered: a worker killed later would take it with it).
      std::fflush(stdout);
      std::fflush(stderr);
      if (!write_line(reply_fd, encode(reply))) return 1;
      if (reply.fatal) return 3;
      continue;
    }
    if (*op == "copy") {
      Result<CopyRequest> request = decode_copy_request(*line);
      RunReply reply;
      if (!request) {
        reply.error = request.error().message;
      } else if (!backend) {
        reply.error = "nothing was compiled before the copy";
      } else {
        reply = backend->time_copy(*request);
      }
      if (!write_line(reply_fd, encode(reply))) return 1;
      if (reply.fatal) return 3;
      continue;
    }
    (void)write_line(reply_fd,
                     encode(RunReply{false, "unknown request '" + *op + "'", true, {}, {}, {}}));
    return 2;
  }
}

}  // namespace tl::lab

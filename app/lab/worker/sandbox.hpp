#pragma once
// The Lab's sandbox: what `threadlab worker` does to itself before it reads its first request, so
// that a learner's code — compiled by the system compiler or NVRTC, then run as native code on the
// emulator or as a kernel on the GPU — cannot reach anything the check does not need. SECURITY.md
// says what it promises and on which kernels.
//
// Layered, each applied where the kernel allows and reported when it is not:
//   1. namespaces: new user, PID, network, mount and IPC namespaces. The worker becomes PID 1 of
//      its namespace (whatever it forks dies with it), sees no network at all, and sees a minimal
//      read-only file system: /usr (the compiler, its headers, the CUDA toolkit), a few files of
//      /etc, /dev/null and friends (and /dev/nvidia* for the GPU worker), its own /proc, a small
//      private /tmp, and read-write only the folders it is given (its scratch and its cache);
//   2. Landlock: the same file rules again (read-only toolchain, writes only to those folders),
//      on ABI 4 and later no TCP bind or connect, on ABI 6 and later no signal to and no abstract
//      socket of a process outside the sandbox;
//   3. seccomp (libseccomp): system calls a kernel check never needs are refused (sockets other
//      than the GPU driver's, ptrace, signals to other processes, mount, namespaces, bpf, keyctl,
//      io_uring, perf_event_open, personality changes, new sessions or process groups);
//   4. no_new_privs, always (a setuid program cannot give the sandbox back its rights).
// rlimits and the wall-clock kill are applied by the app that starts the worker
// (worker_process.hpp).
//
// Namespaces need a fork: the process the app started stays outside as a relay that waits for the
// sandboxed worker and ends the way it ended (same exit status, same signal), so the app sees one
// worker as before.

#include <string>
#include <vector>

namespace tl::lab {

struct SandboxPolicy {
  bool gpu = false;  // the GPU worker: /dev/nvidia*, /sys and the driver's Unix sockets allowed
  // Folders the worker may write (and read): its scratch folder, the compiled-kernel cache.
  // They keep their paths inside the sandbox. Missing ones are created.
  std::vector<std::string> writable;
  // Folders or files it may only read, beyond the toolchain (/usr and the rest listed above).
  std::vector<std::string> readable;
  // Size of the private /tmp (namespaces only).
  unsigned long long tmp_bytes = 256ull << 20;
};

// Which layers hold in the calling process, and why the others do not.
struct SandboxLayers {
  bool namespaces = false;    // user, PID, network, mount and IPC
  bool private_view = false;  // the minimal file system (part of the namespaces layer)
  int landlock_abi = 0;       // 0: no Landlock
  bool seccomp = false;
  bool no_new_privs = false;
  std::vector<std::string> missing;  // "namespaces: unshare: Operation not permitted"

  // "user+pid+net+mount+ipc namespaces, Landlock v7, seccomp" (what threadlab info prints).
  [[nodiscard]] std::string describe() const;
  // Whether others' code may be run under it: the file system confined (a private view or
  // Landlock), the network closed (a network namespace or seccomp's socket rule) and the grader
  // out of reach (a PID namespace, or seccomp's signal and ptrace rules).
  [[nodiscard]] bool isolates() const;
};

// What enter_sandbox tells the worker's main to do.
struct SandboxEntry {
  bool is_worker = true;  // false: this process is the relay, its work is done
  int relay_status = 0;   // the relay's exit status (the sandboxed worker's), when !is_worker
  SandboxLayers layers;
};

// Applies every layer it can to the calling process. Call it first thing in the worker's main,
// while the process has one thread. In the relay (namespaces applied), it returns only when the
// sandboxed worker has ended; a relay whose worker was killed by a signal kills itself with the
// same signal before returning.
[[nodiscard]] SandboxEntry enter_sandbox(const SandboxPolicy& policy);

// The worker's arguments for a policy, and the policy read back from them (the worker's side).
[[nodiscard]] std::vector<std::string> sandbox_arguments(const SandboxPolicy& policy);
[[nodiscard]] SandboxPolicy sandbox_policy_from_arguments(const std::vector<std::string>& args);

}  // namespace tl::lab

#include "lab/worker/sandbox.hpp"

#include <fcntl.h>
#include <glob.h>
#include <linux/sched.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace tl::lab {
namespace {

std::string failed(const std::string& what) {
  return what + ": " + std::strerror(errno);
}

// ---- namespaces ----------------------------------------------------------------------------

bool write_proc_file(const char* path, const std::string& text) {
  const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  return written;
}

// New user, PID, network, mount and IPC namespaces in one call: where one of them is refused (an
// AppArmor profile that keeps unprivileged user namespaces without capabilities, a kernel built
// without one) the call fails as a whole and the process is where it was.
bool unshare_namespaces(std::string& why) {
  const uid_t uid = ::geteuid();
  const gid_t gid = ::getegid();
  if (::unshare(CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWNS | CLONE_NEWIPC) != 0) {
    why = failed("unshare") +
          (errno == EPERM || errno == EACCES
               ? " (unprivileged user namespaces are refused here: on Ubuntu 24.04 AppArmor's "
                 "kernel.apparmor_restrict_unprivileged_userns does this)"
               : "");
    return false;
  }
  // The same user inside as outside: files the worker writes belong to the person.
  if (!write_proc_file("/proc/self/setgroups", "deny") ||
      !write_proc_file("/proc/self/uid_map",
                       std::to_string(uid) + " " + std::to_string(uid) + " 1\n") ||
      !write_proc_file("/proc/self/gid_map",
                       std::to_string(gid) + " " + std::to_string(gid) + " 1\n")) {
    why = failed("user namespace id maps");
    return false;
  }
  return true;
}

// ---- the minimal file system ---------------------------------------------------------------

bool make_directories(const std::string& path) {
  std::string partial;
  std::size_t start = 1;
  while (start <= path.size()) {
    const std::size_t slash = path.find('/', start);
    partial = path.substr(0, slash == std::string::npos ? path.size() : slash);
    if (::mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST) return false;
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return true;
}

bool make_file(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash != std::string::npos && slash > 0 && !make_directories(path.substr(0, slash))) {
    return false;
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return errno == EEXIST;
  ::close(fd);
  return true;
}

// The flags a bind mount inherits and may not drop in a user namespace (the kernel locks them):
// a read-only remount must name them again or it is refused.
unsigned long locked_flags(const std::string& path) {
  struct statvfs info {};
  if (::statvfs(path.c_str(), &info) != 0) return 0;
  unsigned long flags = 0;
  if (info.f_flag & ST_NOSUID) flags |= MS_NOSUID;
  if (info.f_flag & ST_NODEV) flags |= MS_NODEV;
  if (info.f_flag & ST_NOEXEC) flags |= MS_NOEXEC;
  if (info.f_flag & ST_NOATIME) flags |= MS_NOATIME;
  if (info.f_flag & ST_NODIRATIME) flags |= MS_NODIRATIME;
  if (info.f_flag & ST_RELATIME) flags |= MS_RELATIME;
  return flags;
}

// Binds `path` of the old root at the same path under `new_root`; read-only unless `writable`.
// A path that does not exist is skipped (a machine without /lib64, without a GPU's nodes).
bool bind_path(const std::string& path, const std::string& new_root, bool writable,
               std::string& why) {
  const std::string source = "/oldroot" + path;
  const std::string target = new_root + path;
  struct stat info {};
  if (::stat(source.c_str(), &info) != 0) return true;
  const bool made = S_ISDIR(info.st_mode) ? make_directories(target) : make_file(target);
  if (!made) {
    why = failed("mkdir " + path);
    return false;
  }
  if (::mount(source.c_str(), target.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0) {
    why = failed("bind " + path);
    return false;
  }
  if (writable) return true;
  const unsigned long flags = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | locked_flags(target);
  if (::mount(nullptr, target.c_str(), nullptr, flags, nullptr) != 0) {
    why = failed("read-only " + path);
    return false;
  }
  return true;
}

// /bin, /lib and friends: links into /usr on a merged-/usr system (Debian 12, Ubuntu 24.04), kept
// as the same links; real folders elsewhere, bound read-only.
bool copy_top_level_entry(const std::string& path, const std::string& new_root, std::string& why) {
  const std::string source = "/oldroot" + path;
  struct stat info {};
  if (::lstat(source.c_str(), &info) != 0) return true;
  if (S_ISLNK(info.st_mode)) {
    char target[4096];
    const ssize_t length = ::readlink(source.c_str(), target, sizeof target - 1);
    if (length <= 0) return true;
    target[length] = '\0';
    if (::symlink(target, (new_root + path).c_str()) != 0 && errno != EEXIST) {
      why = failed("symlink " + path);
      return false;
    }
    return true;
  }
  return bind_path(path, new_root, false, why);
}

// Everything the worker may see, gathered under a new root, which then replaces `/`.
bool make_private_view(const SandboxPolicy& policy, std::string& why) {
  // Nothing done here may reach the person's own mount table.
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
    why = failed("private mounts");
    return false;
  }
  // A staging tmpfs becomes the root for a moment, with the old root beneath it at /oldroot, so
  // that every path (a scratch folder under /tmp included) can still be bound from there.
  if (::mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m") != 0) {
    why = failed("staging tmpfs");
    return false;
  }
  if (::mkdir("/tmp/oldroot", 0755) != 0 || ::mkdir("/tmp/newroot", 0755) != 0 ||
      ::chdir("/tmp") != 0 || ::syscall(SYS_pivot_root, "/tmp", "/tmp/oldroot") != 0 ||
      ::chdir("/") != 0) {
    why = failed("pivot_root (staging)");
    return false;
  }
  const std::string root = "/newroot";
  if (::mount("tmpfs", root.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m") != 0) {
    why = failed("root tmpfs");
    return false;
  }
  for (const char* top : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
    if (!copy_top_level_entry(top, root, why)) return false;
  }
  std::vector<std::string> read_only = {"/usr",
                                        "/etc/ld.so.cache",
                                        "/etc/ld.so.conf",
                                        "/etc/ld.so.conf.d",
                                        "/etc/alternatives",
                                        "/etc/localtime",
                                        "/dev/null",
                                        "/dev/zero",
                                        "/dev/full",
                                        "/dev/random",
                                        "/dev/urandom"};
  if (policy.gpu) read_only.push_back("/sys");
  for (const std::string& path : policy.readable) read_only.push_back(path);
  // Device nodes keep their rights: /dev/null is written, the GPU's nodes too. A bind mount of a
  // node works in a user namespace where making one would not.
  std::vector<std::string> writable = {"/dev/null", "/dev/full"};
  if (policy.gpu) {
    glob_t nodes{};
    if (::glob("/oldroot/dev/nvidia*", 0, nullptr, &nodes) == 0) {
      for (std::size_t i = 0; i < nodes.gl_pathc; ++i) {
        writable.emplace_back(nodes.gl_pathv[i] + std::strlen("/oldroot"));
      }
    }
    ::globfree(&nodes);
  }
  for (const std::string& path : read_only) {
    const bool device_written = std::find(writable.begin(), writable.end(), path) != writable.end();
    if (!device_written && !bind_path(path, root, false, why)) return false;
  }
  for (const std::string& path : writable) {
    if (!bind_path(path, root, true, why)) return false;
  }
  for (const std::string& path : policy.writable) {
    if (!make_directories("/oldroot" + path)) {
      why = failed("mkdir " + path);
      return false;
    }
    if (!bind_path(path, root, true, why)) return false;
  }
  // Its own /proc: only the sandbox's processes are in it.
  if (!make_directories(root + "/proc") ||
      ::mount("proc", (root + "/proc").c_str(), "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
              nullptr) != 0) {
    why = failed("mount /proc");
    return false;
  }
  const std::string tmp_options = "mode=1777,size=" + std::to_string(policy.tmp_bytes);
  if (!make_directories(root + "/tmp") || !make_directories(root + "/dev/shm") ||
      ::mount("tmpfs", (root + "/tmp").c_str(), "tmpfs", MS_NOSUID | MS_NODEV,
              tmp_options.c_str()) != 0 ||
      ::mount("tmpfs", (root + "/dev/shm").c_str(), "tmpfs", MS_NOSUID | MS_NODEV,
              tmp_options.c_str()) != 0) {
    why = failed("private /tmp");
    return false;
  }
  for (const auto& [link, target] :
       std::vector<std::pair<std::string, std::string>>{{"/dev/fd", "/proc/self/fd"},
                                                        {"/dev/stdin", "/proc/self/fd/0"},
                                                        {"/dev/stdout", "/proc/self/fd/1"},
                                                        {"/dev/stderr", "/proc/self/fd/2"}}) {
    (void)::symlink(target.c_str(), (root + link).c_str());
  }
  // The new root replaces the staging one, and the old root goes with it.
  if (::mount(root.c_str(), root.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0 ||
      ::chdir(root.c_str()) != 0 || ::syscall(SYS_pivot_root, ".", ".") != 0 ||
      ::umount2(".", MNT_DETACH) != 0 || ::chdir("/") != 0) {
    why = failed("pivot_root");
    return false;
  }
  if (::mount(nullptr, "/", nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV,
              nullptr) != 0) {
    why = failed("read-only root");
    return false;
  }
  return true;
}

// ---- Landlock ------------------------------------------------------------------------------
// Defined here rather than taken from <linux/landlock.h>: Debian 12's headers stop at ABI 2, and
// the worker must use what the running kernel offers (ABI 4's network rules, ABI 6's scopes).

constexpr std::uint64_t kExecute = 1ull << 0;
constexpr std::uint64_t kWriteFile = 1ull << 1;
constexpr std::uint64_t kReadFile = 1ull << 2;
constexpr std::uint64_t kReadDir = 1ull << 3;
constexpr std::uint64_t kRemoveDir = 1ull << 4;
constexpr std::uint64_t kRemoveFile = 1ull << 5;
constexpr std::uint64_t kMakeChar = 1ull << 6;
constexpr std::uint64_t kMakeDir = 1ull << 7;
constexpr std::uint64_t kMakeReg = 1ull << 8;
constexpr std::uint64_t kMakeSock = 1ull << 9;
constexpr std::uint64_t kMakeFifo = 1ull << 10;
constexpr std::uint64_t kMakeBlock = 1ull << 11;
constexpr std::uint64_t kMakeSym = 1ull << 12;
constexpr std::uint64_t kRefer = 1ull << 13;             // ABI 2
constexpr std::uint64_t kTruncate = 1ull << 14;          // ABI 3
constexpr std::uint64_t kIoctlDev = 1ull << 15;          // ABI 5
constexpr std::uint64_t kNetBindTcp = 1ull << 0;         // ABI 4
constexpr std::uint64_t kNetConnectTcp = 1ull << 1;      // ABI 4
constexpr std::uint64_t kScopeAbstractUnix = 1ull << 0;  // ABI 6
constexpr std::uint64_t kScopeSignal = 1ull << 1;        // ABI 6
constexpr int kRulePathBeneath = 1;

struct RulesetAttributes {
  std::uint64_t handled_access_fs = 0;
  std::uint64_t handled_access_net = 0;
  std::uint64_t scoped = 0;
};

struct __attribute__((packed)) PathBeneath {
  std::uint64_t allowed_access = 0;
  std::int32_t parent_fd = -1;
};

int landlock_abi() {
  const long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, 1u /* VERSION */);
  return abi < 0 ? 0 : static_cast<int>(abi);
}

bool add_path_rule(int ruleset, const std::string& path, std::uint64_t access) {
  const int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) return true;  // absent here: nothing to allow
  struct stat info {};
  ::fstat(fd, &info);
  // A file (not a folder) takes only the rights that apply to files.
  if (!S_ISDIR(info.st_mode)) access &= kExecute | kWriteFile | kReadFile | kTruncate | kIoctlDev;
  PathBeneath rule{access, fd};
  const bool added = ::syscall(SYS_landlock_add_rule, ruleset, kRulePathBeneath, &rule, 0) == 0;
  ::close(fd);
  return added;
}

bool apply_landlock(const SandboxPolicy& policy, int abi, bool private_tmp, std::string& why) {
  RulesetAttributes attributes;
  std::uint64_t all_fs = kExecute | kWriteFile | kReadFile | kReadDir | kRemoveDir | kRemoveFile |
                         kMakeChar | kMakeDir | kMakeReg | kMakeSock | kMakeFifo | kMakeBlock |
                         kMakeSym;
  if (abi >= 2) all_fs |= kRefer;
  if (abi >= 3) all_fs |= kTruncate;
  if (abi >= 5 && std::getenv("THREADLAB_LAB_LANDLOCK_NO_IOCTL") == nullptr) all_fs |= kIoctlDev;
  attributes.handled_access_fs = all_fs;
  std::size_t size = sizeof(std::uint64_t);
  if (abi >= 4) {
    // Handled, and no port allowed: no TCP bind or connect at all.
    attributes.handled_access_net = kNetBindTcp | kNetConnectTcp;
    size = 2 * sizeof(std::uint64_t);
  }
  if (abi >= 6) {
    attributes.scoped = kScopeAbstractUnix | kScopeSignal;
    size = sizeof attributes;
  }
  const int ruleset =
      static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attributes, size, 0u));
  if (ruleset < 0) {
    why = failed("landlock_create_ruleset");
    return false;
  }
  const std::uint64_t read = kExecute | kReadFile | kReadDir;
  // Writable folders: everything but making device nodes, and nothing executed from them (a
  // compiled kernel is mapped, not executed).
  const std::uint64_t write = all_fs & ~(kMakeChar | kMakeBlock | kExecute);
  std::vector<std::pair<std::string, std::uint64_t>> rules = {
      {"/usr", read},
      {"/bin", read},
      {"/sbin", read},
      {"/lib", read},
      {"/lib32", read},
      {"/lib64", read},
      {"/libx32", read},
      {"/etc/ld.so.cache", read},
      {"/etc/ld.so.conf", read},
      {"/etc/ld.so.conf.d", read},
      {"/etc/alternatives", read},
      {"/etc/localtime", read},
      {"/proc", read},
      {"/dev/zero", read},
      {"/dev/random", read},
      {"/dev/urandom", read},
      {"/dev/null", read | kWriteFile | kTruncate},
      {"/dev/full", read | kWriteFile}};
  if (policy.gpu) {
    rules.emplace_back("/sys", read);
    rules.emplace_back("/dev/shm", write);
    // The CUDA driver writes to its own process's /proc files when it starts (cuInit fails with
    // CUDA_ERROR_OPERATING_SYSTEM otherwise, seen on an H200 with driver 580): the worker's own
    // /proc/PID only, which /proc/self names when the rule is made.
    rules.emplace_back("/proc/self", read | kWriteFile | kTruncate);
    glob_t nodes{};
    if (::glob("/dev/nvidia*", 0, nullptr, &nodes) == 0) {
      for (std::size_t i = 0; i < nodes.gl_pathc; ++i) {
        rules.emplace_back(nodes.gl_pathv[i], read | kWriteFile | kIoctlDev);
      }
    }
    ::globfree(&nodes);
  }
  for (const std::string& path : policy.readable) rules.emplace_back(path, read);
  for (const std::string& path : policy.writable) rules.emplace_back(path, write);
  // Inside the namespaces /tmp is the sandbox's own, small one; outside it is the machine's, and
  // stays closed (the scratch folder is where temporary files go).
  if (private_tmp) rules.emplace_back("/tmp", write);
  // Troubleshooting (SECURITY.md): THREADLAB_LAB_LANDLOCK_EXTRA="/path=r;/other=w" adds rules, to
  // find what a driver needs beyond these.
  if (const char* extra = std::getenv("THREADLAB_LAB_LANDLOCK_EXTRA"); extra != nullptr) {
    std::string list = extra;
    std::size_t start = 0;
    while (start < list.size()) {
      const std::size_t end = std::min(list.find(';', start), list.size());
      const std::string item = list.substr(start, end - start);
      const std::size_t equals = item.rfind('=');
      if (equals != std::string::npos && equals > 0) {
        rules.emplace_back(item.substr(0, equals),
                           item.substr(equals + 1) == "w" ? all_fs : read | kIoctlDev);
      }
      start = end + 1;
    }
  }
  for (const auto& [path, access] : rules) {
    if (!add_path_rule(ruleset, path, access & all_fs)) {
      why = failed("landlock rule for " + path);
      ::close(ruleset);
      return false;
    }
  }
  const bool restricted = ::syscall(SYS_landlock_restrict_self, ruleset, 0u) == 0;
  if (!restricted) why = failed("landlock_restrict_self");
  ::close(ruleset);
  return restricted;
}

// ---- seccomp -------------------------------------------------------------------------------

bool apply_seccomp(const SandboxPolicy& policy, std::string& why) {
  scmp_filter_ctx filter = ::seccomp_init(SCMP_ACT_ALLOW);
  if (filter == nullptr) {
    why = "seccomp_init failed";
    return false;
  }
  const auto refuse = SCMP_ACT_ERRNO(EPERM);
  bool ok = true;
  auto deny = [&](const char* name) {
    const int number = ::seccomp_syscall_resolve_name(name);
    if (number == __NR_SCMP_ERROR) return;  // not on this architecture
    ok = ok && ::seccomp_rule_add(filter, refuse, number, 0) == 0;
  };
  for (const char* name : {"ptrace",
                           "process_vm_readv",
                           "process_vm_writev",
                           "mount",
                           "umount2",
                           "pivot_root",
                           "chroot",
                           "unshare",
                           "setns",
                           "bpf",
                           "keyctl",
                           "add_key",
                           "request_key",
                           "io_uring_setup",
                           "io_uring_enter",
                           "io_uring_register",
                           "perf_event_open",
                           "kexec_load",
                           "kexec_file_load",
                           "init_module",
                           "finit_module",
                           "delete_module",
                           "reboot",
                           "swapon",
                           "swapoff",
                           "userfaultfd",
                           "open_by_handle_at",
                           "name_to_handle_at",
                           "acct",
                           "settimeofday",
                           "clock_settime",
                           "clock_adjtime",
                           "adjtimex",
                           "quotactl",
                           "fanotify_init",
                           "open_tree",
                           "move_mount",
                           "fsopen",
                           "fsconfig",
                           "fsmount",
                           "fspick",
                           "mount_setattr",
                           "pidfd_send_signal",
                           "pidfd_getfd",
                           "rt_tgsigqueueinfo",
                           "setsid",
                           "setpgid",
                           "vhangup",
                           "syslog",
                           "lookup_dcookie",
                           "iopl",
                           "ioperm"}) {
    deny(name);
  }
  // Signals: to the worker's own process group (kill's pid 0) and to its own threads (tgkill of
  // its own pid, which raise() and abort() use) only. libseccomp takes one comparison per
  // argument in a rule, hence "group 0" rather than a list; the 32-bit comparisons match a pid
  // however the register was extended.
  const auto self = static_cast<std::uint32_t>(::getpid());
  ok = ok && ::seccomp_rule_add(filter, refuse, SCMP_SYS(kill), 1, SCMP_A0_32(SCMP_CMP_NE, 0)) == 0;
  for (int number : {SCMP_SYS(tgkill), SCMP_SYS(rt_sigqueueinfo)}) {
    ok = ok && ::seccomp_rule_add(filter, refuse, number, 1, SCMP_A0_32(SCMP_CMP_NE, self)) == 0;
  }
  ok = ok && ::seccomp_rule_add(filter, refuse, SCMP_SYS(tkill), 0) == 0;
  // No new namespaces through clone either; clone3 passes its flags in memory, where a filter
  // cannot look, so it answers "not implemented" and glibc falls back to clone.
  for (std::uint64_t flag : {CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWNET, CLONE_NEWPID, CLONE_NEWIPC,
                             CLONE_NEWUTS, CLONE_NEWCGROUP}) {
    ok = ok && ::seccomp_rule_add(filter, refuse, SCMP_SYS(clone), 1,
                                  SCMP_A0_64(SCMP_CMP_MASKED_EQ, flag, flag)) == 0;
  }
  ok = ok && ::seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0) == 0;
  // Sockets: none at all on the emulator (a kernel check never talks); the GPU driver may use a
  // Unix socket of its own daemon (MPS, persistenced), so the GPU worker keeps those.
  if (policy.gpu) {
    ok = ok && ::seccomp_rule_add(filter, refuse, SCMP_SYS(socket), 1,
                                  SCMP_A0_32(SCMP_CMP_NE, AF_UNIX)) == 0;
  } else {
    ok = ok && ::seccomp_rule_add(filter, refuse, SCMP_SYS(socket), 0) == 0;
  }
  // personality(0xffffffff) only reads the current one; any change (ADDR_NO_RANDOMIZE,
  // READ_IMPLIES_EXEC) is refused.
  ok = ok && ::seccomp_rule_add(filter, refuse, SCMP_SYS(personality), 1,
                                SCMP_A0_32(SCMP_CMP_NE, 0xffffffffu)) == 0;
  if (!ok) {
    why = "a seccomp rule could not be added";
    ::seccomp_release(filter);
    return false;
  }
  const int loaded = ::seccomp_load(filter);
  ::seccomp_release(filter);
  if (loaded != 0) {
    errno = -loaded;
    why = failed("seccomp_load");
    return false;
  }
  return true;
}

// The relay's end: the sandboxed worker's exit status, or its death by the same signal.
int relay(pid_t worker) {
  // The relay holds nothing of the protocol: with its copies of the pipes closed, the app sees
  // the worker's end of them only.
  for (int fd = 3; fd < 1024; ++fd) ::close(fd);
  int status = 0;
  while (::waitpid(worker, &status, 0) < 0) {
    if (errno != EINTR) return 1;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    ::signal(signal, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signal);
    ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
    ::raise(signal);
    return 128 + signal;
  }
  return 1;
}

}  // namespace

std::string SandboxLayers::describe() const {
  std::vector<std::string> parts;
  if (namespaces) {
    parts.push_back(std::string("user+pid+net+mount+ipc namespaces") +
                    (private_view ? "" : " (no private file system view)"));
  }
  if (landlock_abi > 0) parts.push_back("Landlock v" + std::to_string(landlock_abi));
  if (seccomp) parts.push_back("seccomp");
  if (no_new_privs && parts.empty()) parts.push_back("no_new_privs only");
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : ", ") + part;
  if (text.empty()) text = "none";
  if (!missing.empty()) {
    text += " (missing: ";
    for (std::size_t i = 0; i < missing.size(); ++i) text += (i ? "; " : "") + missing[i];
    text += ")";
  }
  return text;
}

bool SandboxLayers::isolates() const {
  const bool files = private_view || landlock_abi > 0;
  const bool network = namespaces || seccomp;
  const bool grader = namespaces || seccomp;
  return files && network && grader;
}

SandboxEntry enter_sandbox(const SandboxPolicy& policy) {
  SandboxEntry entry;
  SandboxLayers& layers = entry.layers;
  std::string why;
  // THREADLAB_LAB_SANDBOX_OFF=namespaces,view,landlock,seccomp leaves those layers out: for
  // finding which one a driver or a distribution conflicts with (SECURITY.md, Troubleshooting).
  // Each one left out is reported as missing, so `lab grade` still sees what holds.
  const char* off_list = std::getenv("THREADLAB_LAB_SANDBOX_OFF");
  const std::string off = off_list != nullptr ? std::string(",") + off_list + "," : "";
  const auto left_out = [&](const char* layer) {
    if (off.find(std::string(",") + layer + ",") == std::string::npos) return false;
    layers.missing.push_back(std::string(layer) + ": left out (THREADLAB_LAB_SANDBOX_OFF)");
    return true;
  };
  if (!left_out("namespaces") && unshare_namespaces(why)) {
    // The first child is PID 1 of the new namespace.
    const pid_t worker = ::fork();
    if (worker < 0) {
      // Without the fork, nothing of the PID namespace holds; the rest still does.
      layers.missing.push_back(failed("namespaces: fork"));
    } else if (worker > 0) {
      entry.is_worker = false;
      entry.relay_status = relay(worker);
      return entry;
    } else {
      // The worker must not outlive its relay (which the app kills to stop it).
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      layers.namespaces = true;
      if (left_out("view")) {
      } else if (make_private_view(policy, why)) {
        layers.private_view = true;
      } else {
        layers.missing.push_back("private file system view: " + why);
      }
    }
  } else if (!why.empty()) {
    layers.missing.push_back("namespaces: " + why);
  }
  // Temporary files of the compiler go where the worker may write.
  if (!layers.private_view && !policy.writable.empty()) {
    ::setenv("TMPDIR", policy.writable.front().c_str(), 1);
  } else if (layers.private_view) {
    ::setenv("TMPDIR", "/tmp", 1);
  }
  if (!policy.writable.empty()) (void)::chdir(policy.writable.front().c_str());

  layers.no_new_privs = ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0;
  if (!layers.no_new_privs) layers.missing.push_back(failed("no_new_privs"));
  if (left_out("landlock")) {
  } else if (const int abi = landlock_abi(); abi <= 0) {
    layers.missing.push_back("Landlock: not offered by this kernel");
  } else if (apply_landlock(policy, abi, layers.private_view, why)) {
    layers.landlock_abi = abi;
    if (const char* extra = std::getenv("THREADLAB_LAB_LANDLOCK_EXTRA"); extra != nullptr) {
      layers.missing.push_back(std::string("Landlock widened by THREADLAB_LAB_LANDLOCK_EXTRA=") +
                               extra);
    }
  } else {
    layers.missing.push_back("Landlock: " + why);
  }
  if (left_out("seccomp")) {
  } else if (apply_seccomp(policy, why)) {
    layers.seccomp = true;
  } else {
    layers.missing.push_back("seccomp: " + why);
  }
  return entry;
}

std::vector<std::string> sandbox_arguments(const SandboxPolicy& policy) {
  std::vector<std::string> args = {"--sandbox"};
  if (policy.gpu) args.emplace_back("--sandbox-gpu");
  for (const std::string& path : policy.writable) {
    args.emplace_back("--sandbox-writable");
    args.push_back(path);
  }
  for (const std::string& path : policy.readable) {
    args.emplace_back("--sandbox-readable");
    args.push_back(path);
  }
  return args;
}

SandboxPolicy sandbox_policy_from_arguments(const std::vector<std::string>& args) {
  SandboxPolicy policy;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--sandbox-gpu") policy.gpu = true;
    if (i + 1 < args.size() && args[i] == "--sandbox-writable")
      policy.writable.push_back(args[++i]);
    if (i + 1 < args.size() && args[i] == "--sandbox-readable")
      policy.readable.push_back(args[++i]);
  }
  return policy;
}

}  // namespace tl::lab

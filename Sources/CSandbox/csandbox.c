// The confinement steps of the decode worker and the fd passing of its channel: C because
// Landlock has no libc wrapper and SCM_RIGHTS needs the CMSG macros.
#define _GNU_SOURCE
#include "csandbox.h"
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <linux/landlock.h>
#include <poll.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int sbx_die_with_parent(void) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
    // The viewer may have died before the prctl: then we were re-parented already.
    return getppid() == 1 ? -1 : 0;
}

int sbx_no_new_privs(void) { return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); }

// AddressSanitizer and ThreadSanitizer reserve terabytes of address space for their shadow
// memory: under them an address-space limit fails every allocation, so the sanitizer test
// builds (and only they) leave it out.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SBX_SANITIZED 1
#endif
#endif

int sbx_sanitized(void) {
#ifdef SBX_SANITIZED
    return 1;
#else
    return 0;
#endif
}

int sbx_limits(uint64_t address_space, uint64_t files) {
    struct rlimit as = { address_space, address_space }, nofile = { files, files }, core = { 0, 0 };
#ifndef SBX_SANITIZED
    if (setrlimit(RLIMIT_AS, &as) != 0) return -1;
#else
    (void)as;
#endif
    if (setrlimit(RLIMIT_NOFILE, &nofile) != 0) return -1;
    // A crashing decoder must not write the attacker's heap to disk.
    return setrlimit(RLIMIT_CORE, &core);
}

int sbx_unshare_net(void) { return unshare(CLONE_NEWUSER | CLONE_NEWNET); }

int sbx_landlock_abi(void) {
    long v = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return v < 0 ? 0 : (int)v;
}

// Rights by ABI version, spelled out so an older header still builds the newest ruleset.
struct sbx_ruleset { uint64_t fs, net, scoped; };

int sbx_landlock_deny_all(int abi) { return sbx_landlock_read_only(abi, NULL, 0); }

int sbx_landlock_read_only(int abi, const char *const *paths, int count) {
    if (abi < 1) return -1;
    struct sbx_ruleset r = { 0, 0, 0 };
    r.fs = (1ULL << 13) - 1;                 // ABI 1: EXECUTE .. MAKE_SYM
    if (abi >= 2) r.fs |= 1ULL << 13;        // REFER
    if (abi >= 3) r.fs |= 1ULL << 14;        // TRUNCATE
    if (abi >= 5) r.fs |= 1ULL << 15;        // IOCTL_DEV
    if (abi >= 4) r.net = (1ULL << 0) | (1ULL << 1);   // BIND_TCP, CONNECT_TCP
    if (abi >= 6) r.scoped = (1ULL << 0) | (1ULL << 1); // abstract unix sockets, signals
    size_t size = abi >= 6 ? 24 : abi >= 4 ? 16 : 8;
    int fd = (int)syscall(SYS_landlock_create_ruleset, &r, size, 0);
    if (fd < 0) return -1;
    for (int i = 0; i < count; i++) {
        struct landlock_path_beneath_attr beneath = { 0 };
        beneath.allowed_access = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
        beneath.parent_fd = open(paths[i], O_PATH | O_CLOEXEC);
        if (beneath.parent_fd < 0) continue;
        int added = (int)syscall(SYS_landlock_add_rule, fd, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0);
        close(beneath.parent_fd);
        if (added != 0) { close(fd); return -1; }
    }
    int rc = (int)syscall(SYS_landlock_restrict_self, fd, 0);
    close(fd);
    return rc;
}

static int apply_filter(int reading);

static int allow(scmp_filter_ctx ctx, int nr) { return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0); }

// Threads, never processes: libheif's HEVC decoder (libde265) starts a worker thread for
// every picture, whatever it is asked. clone is allowed only with CLONE_THREAD, CLONE_VM and
// CLONE_SIGHAND set: a thread in this process, under the same filter and Landlock domain.
// clone3 keeps its flags in memory, which the filter cannot read, so it fails with ENOSYS
// and glibc falls back to clone. A new thread registers its robust futex list and rseq area.
static int allow_threads(scmp_filter_ctx ctx) {
    const scmp_datum_t thread = CLONE_THREAD | CLONE_VM | CLONE_SIGHAND;
    int rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, thread, thread));
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    rc |= allow(ctx, SCMP_SYS(set_robust_list));
    rc |= allow(ctx, SCMP_SYS(rseq));
    // libavcodec and dav1d size their thread pools by the CPUs this process may use: asked
    // of this process only, and it tells nothing a decoder could not time for itself.
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(sched_getaffinity), 1, SCMP_A0(SCMP_CMP_EQ, 0));
    // dav1d asks it of the thread that opens the decoder by that thread's id
    // (pthread_getaffinity_np): the worker's main thread, whose id is the process's.
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(sched_getaffinity), 1, SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)getpid()));
    // glibc's qsort asks the memory size (sysconf, sysinfo) before sorting a large array, as
    // libtiff does with its tags; refused, it sorts without the extra buffer.
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(sysinfo), 0);
#ifndef SBX_SANITIZED
    // dav1d (AV1) names each thread it starts, with PR_SET_NAME: the worker was killed on
    // the first AV1 video. Naming a thread of its own is all it may do with prctl. (The
    // sanitizer builds allow every prctl, below.)
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prctl), 1, SCMP_A0(SCMP_CMP_EQ, PR_SET_NAME));
#endif
    return rc;
}

// Asking about a path is answered as opening one is, EACCES: fontconfig checks whether
// its configuration changed (stat) when librsvg draws text, and goes on with what it loaded
// at warm-up. Landlock does not cover these, so without this rule they would tell a crafted
// file which paths exist. access() alone is allowed: cairo asks it of a font file before
// each use, even of a file it holds open since the warm-up (SVGFonts), and refuses the font
// on EACCES; it opens nothing, and what it tells can leave the worker only as pixels.
static int refuse_paths(scmp_filter_ctx ctx) {
    static const int asks[] = {
        SCMP_SYS(stat), SCMP_SYS(lstat), SCMP_SYS(statx), SCMP_SYS(readlink), SCMP_SYS(readlinkat),
    };
    int rc = 0;
    for (size_t i = 0; i < sizeof asks / sizeof asks[0]; i++) rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), asks[i], 0);
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(newfstatat), 1, SCMP_A3(SCMP_CMP_MASKED_EQ, AT_EMPTY_PATH, 0));
    rc |= allow(ctx, SCMP_SYS(access));
    rc |= allow(ctx, SCMP_SYS(faccessat));
    rc |= allow(ctx, SCMP_SYS(faccessat2));
    return rc;
}

int sbx_seccomp_apply(void) { return apply_filter(0); }

int sbx_seccomp_apply_reading(void) { return apply_filter(1); }

// Opening a path: refused with EACCES, or (`reading`) allowed for reading alone. Flags that
// write, create or truncate are refused; Landlock decides which paths can be read.
static int open_rules(scmp_filter_ctx ctx, int reading) {
    int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(open), 0);
    if (!reading) return rc | seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(openat), 0);
    const scmp_datum_t writes = O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND | __O_TMPFILE;
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(openat), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, writes, 0));
    static const scmp_datum_t each[] = { O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND, __O_TMPFILE };
    for (size_t i = 0; i < sizeof each / sizeof each[0]; i++) {
        rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(openat), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, each[i], each[i]));
    }
    return rc;
}

static int apply_filter(int reading) {
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_KILL_PROCESS);
    if (!ctx) return -1;
    static const int allowed[] = {
        SCMP_SYS(read), SCMP_SYS(write), SCMP_SYS(readv), SCMP_SYS(writev), SCMP_SYS(pread64),
        SCMP_SYS(recvmsg), SCMP_SYS(sendmsg), SCMP_SYS(close),
        SCMP_SYS(mmap), SCMP_SYS(munmap), SCMP_SYS(mremap), SCMP_SYS(mprotect), SCMP_SYS(brk),
        SCMP_SYS(madvise), SCMP_SYS(futex), SCMP_SYS(clock_gettime), SCMP_SYS(gettimeofday),
        SCMP_SYS(nanosleep), SCMP_SYS(clock_nanosleep), SCMP_SYS(sched_yield),
        SCMP_SYS(exit), SCMP_SYS(exit_group), SCMP_SYS(rt_sigreturn), SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigaction),
        SCMP_SYS(memfd_create), SCMP_SYS(ftruncate), SCMP_SYS(fcntl), SCMP_SYS(fstat),
        SCMP_SYS(lseek), SCMP_SYS(getrandom), SCMP_SYS(getpid), SCMP_SYS(gettid),
    };
    int rc = 0;
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++) rc |= allow(ctx, allowed[i]);
    // fstat on an fd only: glibc's fstat is newfstatat(fd, "", AT_EMPTY_PATH).
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(newfstatat), 1, SCMP_A3(SCMP_CMP_MASKED_EQ, AT_EMPTY_PATH, AT_EMPTY_PATH));
    // abort() signals its own thread; no other process may be signalled.
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1, SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)getpid()));
    // A library that looks for a file (a config, a font) is told no rather than killed:
    // the decode can go on without it, and Landlock would refuse the path anyway.
    rc |= open_rules(ctx, reading);
    rc |= allow_threads(ctx);
    // GLib asks whether stderr is journald's socket, then whether it is a terminal (an
    // ioctl), before it writes a warning there: it is told no terminal, and no device may
    // be driven.
    rc |= allow(ctx, SCMP_SYS(getpeername));
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOTTY), SCMP_SYS(ioctl), 0);
    rc |= refuse_paths(ctx);
#ifdef SBX_SANITIZED
    // The sanitizers' runtime gives each new thread an alternate signal stack, asks how
    // many CPUs it may use and sets process attributes; only their test builds get these.
    rc |= allow(ctx, SCMP_SYS(sigaltstack));
    rc |= allow(ctx, SCMP_SYS(sched_getaffinity));
    rc |= allow(ctx, SCMP_SYS(prctl));
#endif
    // Every thread gets the filter, should a library have left one running after the warm-up.
    rc |= seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
    if (rc == 0) rc = seccomp_load(ctx);
    seccomp_release(ctx);
    return rc;
}

void sbx_close_from(int first) { syscall(SYS_close_range, (unsigned)first, ~0U, 0); }

long sbx_send(int sock, const void *buf, size_t len, int fd) {
    struct iovec iov = { (void *)buf, len };
    union { char space[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } c;
    struct msghdr m = { 0 };
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    if (fd >= 0) {
        memset(&c, 0, sizeof c);
        m.msg_control = c.space;
        m.msg_controllen = sizeof c.space;
        struct cmsghdr *h = CMSG_FIRSTHDR(&m);
        h->cmsg_level = SOL_SOCKET;
        h->cmsg_type = SCM_RIGHTS;
        h->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(h), &fd, sizeof fd);
    }
    long n;
    do { n = sendmsg(sock, &m, MSG_NOSIGNAL); } while (n < 0 && errno == EINTR);
    return n;
}

long sbx_recv(int sock, void *buf, size_t len, int *fd) {
    struct iovec iov = { buf, len };
    union { char space[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } c;
    struct msghdr m = { 0 };
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = c.space;
    m.msg_controllen = sizeof c.space;
    *fd = -1;
    long n;
    do { n = recvmsg(sock, &m, MSG_CMSG_CLOEXEC); } while (n < 0 && errno == EINTR);
    if (n < 0) return n;
    for (struct cmsghdr *h = CMSG_FIRSTHDR(&m); h; h = CMSG_NXTHDR(&m, h)) {
        if (h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_RIGHTS) memcpy(fd, CMSG_DATA(h), sizeof(int));
    }
    return n;
}

int sbx_message_waiting(int sock) {
    // recvmsg, not recv or poll: recvmsg is the one receive call the worker's filter allows.
    char byte;
    struct iovec iov = { &byte, 1 };
    struct msghdr m = { 0 };
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    long n;
    do { n = recvmsg(sock, &m, MSG_PEEK | MSG_DONTWAIT); } while (n < 0 && errno == EINTR);
    return n > 0;
}

int sbx_seal(int fd) { return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL); }

int sbx_seal_size(int fd) { return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL); }

int sbx_seal_handed_over(int fd) {
    return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_FUTURE_WRITE | F_SEAL_SEAL);
}

int sbx_size_sealed(int fd) {
    int seals = fcntl(fd, F_GET_SEALS);
    return seals >= 0 && (seals & F_SEAL_SHRINK) ? 1 : 0;
}

int sbx_memfd(const char *name) { return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING); }

int sbx_term_signal(int status) { return WIFSIGNALED(status) ? WTERMSIG(status) : 0; }

int sbx_exit_code(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }

int sbx_become_subreaper(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

int sbx_fork_to(int parent) {
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) return -1;
    pid_t middle = fork();
    if (middle < 0) {
        // The caller says why in its one line: fork's reason, not close's.
        int why = errno;
        close(p[0]);
        close(p[1]);
        errno = why;
        return -1;
    }
    if (middle == 0) {
        pid_t worker = fork();
        if (worker == 0) {
            close(p[0]);
            close(p[1]);
            // The middle process exits as soon as it has said our pid; until then a death
            // signal would be tied to it. At most 2 s, then this worker gives up.
            for (int i = 0; i < 40000 && getppid() != parent; i++) usleep(50);
            if (getppid() != parent) _exit(1);
            return 0;
        }
        _exit(write(p[1], &worker, sizeof worker) == (ssize_t)sizeof worker && worker > 0 ? 0 : 1);
    }
    close(p[1]);
    pid_t worker = -1;
    ssize_t n;
    do { n = read(p[0], &worker, sizeof worker); } while (n < 0 && errno == EINTR);
    close(p[0]);
    // Once the middle process is collected, the worker has been re-parented to the viewer.
    int status;
    while (waitpid(middle, &status, 0) < 0 && errno == EINTR) {}
    return n == (ssize_t)sizeof worker && worker > 0 ? worker : -1;
}

int sbx_retitle(const char *word, int argc) {
    // A zygote started by hand, without the room, keeps its arguments.
    if (argc < 3) return -1;
    // glibc's program_invocation_name is argv[0] itself; the arguments follow it, each
    // ended by a NUL, in one block the kernel reports as the command line.
    char *start = program_invocation_name + strlen(program_invocation_name) + 1;
    char *end = start + strlen(start);
    end += strlen(end + 1) + 1;
    size_t room = (size_t)(end - start), n = strlen(word);
    if (n > room) return -1;
    memcpy(start, word, n);
    memset(start + n, 0, room - n);
    return 0;
}

int sbx_wait_message(int sock, int milliseconds) {
    struct pollfd p = { .fd = sock, .events = POLLIN };
    int n;
    do { n = poll(&p, 1, milliseconds); } while (n < 0 && errno == EINTR);
    return n < 0 ? -1 : n > 0;
}

// The ranges to let go, all found before any is dropped: reading an object's headers would
// otherwise map again the first pages of the objects already let go.
struct sbx_ranges {
    uintptr_t start[2048], end[2048];
    int count;
};

// A loaded object's segments the dynamic linker never writes: PT_LOAD without PF_W, in an
// object without text relocations (a writable segment, RELRO among them, may hold copied
// pages; dropping those would undo the relocations).
static int find_read_only(struct dl_phdr_info *info, size_t size, void *found) {
    (void)size;
    struct sbx_ranges *r = found;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    // The vDSO is the kernel's own mapping, not a file's.
    if (info->dlpi_addr == (uintptr_t)getauxval(AT_SYSINFO_EHDR) && info->dlpi_addr != 0) return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *h = &info->dlpi_phdr[i];
        if (h->p_type != PT_DYNAMIC) continue;
        for (const ElfW(Dyn) *d = (const ElfW(Dyn) *)(info->dlpi_addr + h->p_vaddr); d->d_tag != DT_NULL; d++) {
            if (d->d_tag == DT_TEXTREL || (d->d_tag == DT_FLAGS && (d->d_un.d_val & DF_TEXTREL))) return 0;
        }
    }
    for (int i = 0; i < info->dlpi_phnum && r->count < 2048; i++) {
        const ElfW(Phdr) *h = &info->dlpi_phdr[i];
        if (h->p_type != PT_LOAD || (h->p_flags & PF_W) || h->p_memsz == 0) continue;
        uintptr_t start = (info->dlpi_addr + h->p_vaddr) & ~(page - 1);
        uintptr_t end = (info->dlpi_addr + h->p_vaddr + h->p_memsz + page - 1) & ~(page - 1);
        // A page shared with a writable segment is that segment's (mapped last): kept.
        for (int j = 0; j < info->dlpi_phnum; j++) {
            const ElfW(Phdr) *w = &info->dlpi_phdr[j];
            if (w->p_type != PT_LOAD || !(w->p_flags & PF_W)) continue;
            uintptr_t ws = (info->dlpi_addr + w->p_vaddr) & ~(page - 1);
            uintptr_t we = (info->dlpi_addr + w->p_vaddr + w->p_memsz + page - 1) & ~(page - 1);
            if (ws <= start && start < we) start = we;
            if (start < ws && ws < end) end = ws;
        }
        if (start >= end) continue;
        r->start[r->count] = start;
        r->end[r->count] = end;
        r->count++;
    }
    return 0;
}

int sbx_release_read_only_file_pages(void) {
    static struct sbx_ranges found;
    found.count = 0;
    dl_iterate_phdr(find_read_only, &found);
    int released = 0;
    for (int i = 0; i < found.count; i++) {
        released += madvise((void *)found.start[i], found.end[i] - found.start[i], MADV_DONTNEED) == 0;
    }
    return released;
}

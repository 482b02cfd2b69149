#ifndef MEDIAVIEW_CSANDBOX_H
#define MEDIAVIEW_CSANDBOX_H
#include <stddef.h>
#include <stdint.h>

/// Which confinement steps the worker managed to apply (a bit each), so the viewer can say
/// which ones this kernel refused.
enum {
    SBX_PDEATHSIG = 1 << 0,
    SBX_NO_NEW_PRIVS = 1 << 1,
    SBX_RLIMITS = 1 << 2,
    SBX_USERNS = 1 << 3,
    SBX_LANDLOCK = 1 << 4,
    SBX_SECCOMP = 1 << 5,
};

/// Dies with the viewer: a worker must never outlive the process it decodes for.
int sbx_die_with_parent(void);
/// No setuid gain through exec; also what lets an unprivileged process load seccomp.
int sbx_no_new_privs(void);
/// Caps the address space and open files, so a bomb fails an allocation instead of the desktop.
int sbx_limits(uint64_t address_space, uint64_t files);
/// New user and network namespaces: no interface but a down loopback, so no network at all.
int sbx_unshare_net(void);
/// The Landlock ABI version (0 when the kernel has none), to pick the rights it knows.
int sbx_landlock_abi(void);
/// A Landlock domain that handles every file (and TCP, and scope) right and allows none.
int sbx_landlock_deny_all(int abi);
/// Landlock as deny_all, except that the files and folders beneath each of the `count`
/// `paths` may be read (fonts, for the worker that draws subtitles); a path that does not
/// exist is left out. 0 when the process is restricted.
int sbx_landlock_read_only(int abi, const char *const *paths, int count);
/// The seccomp allow-list; everything else kills the process (SIGSYS).
int sbx_seccomp_apply(void);
/// The same allow-list, except that a path may be opened for reading (never for writing,
/// creating or truncating): only where Landlock already limits which paths those are.
int sbx_seccomp_apply_reading(void);
/// Closes every fd from `first` up, so nothing inherited by mistake stays reachable.
void sbx_close_from(int first);
/// Sends `len` bytes and, when `fd` >= 0, the fd with them (SCM_RIGHTS), as one message.
long sbx_send(int sock, const void *buf, size_t len, int fd);
/// Receives one message into `buf`; `*fd` is the fd sent with it or -1.
long sbx_recv(int sock, void *buf, size_t len, int *fd);
/// Whether a message is waiting on `sock`, without taking it: a preview worker stops
/// work the viewer no longer wants when a newer request is already queued. 1 yes, 0 no.
int sbx_message_waiting(int sock);
/// Seals a memfd against growing, shrinking and writing, so the reader maps fixed pixels.
int sbx_seal(int fd);
/// Seals a memfd's size, not its bytes: one the worker keeps writing into while the viewer
/// maps it, which must never shrink under that mapping (a read past its end is SIGBUS).
int sbx_seal_size(int fd);
/// Seals a memfd a picture was decoded into through a shared mapping: F_SEAL_WRITE would
/// be refused while that mapping exists, so writes are sealed for the future instead.
int sbx_seal_handed_over(int fd);
/// Whether a memfd's size can no longer shrink: a mapping of one that could would fault
/// (SIGBUS) when a worker cut it short under the viewer.
int sbx_size_sealed(int fd);
/// A memfd that may be sealed later.
int sbx_memfd(const char *name);
/// The signal that ended a waitpid status, or 0 when it exited.
int sbx_term_signal(int status);
/// The exit code of a waitpid status, or -1 when a signal ended it.
int sbx_exit_code(int status);

/// Whether this is a sanitizer test build: its worker must not run the leak check at exit,
/// which needs ptrace, forbidden in the sandbox.
int sbx_sanitized(void);

/// Makes the viewer the parent of the workers its zygote forks (PR_SET_CHILD_SUBREAPER), so
/// it can collect them and read how they ended, as it does for workers it starts itself.
int sbx_become_subreaper(void);
/// In the zygote: forks a worker whose parent becomes `parent` (the viewer, a subreaper)
/// through a middle process that exits at once. Returns the worker's pid, once it is the
/// viewer's child, in the zygote; 0 in the worker; -1 on failure.
int sbx_fork_to(int parent);
/// Writes `word` over the process's arguments after its name, so `ps` and `pgrep -f` show
/// what a forked worker is for rather than the zygote's arguments: the zygote is started
/// with `argc` 3, its last argument the room. -1 if it does not fit.
int sbx_retitle(const char *word, int argc);
/// Waits up to `milliseconds` for a message on `sock`: 1 when one is there, 0 when none
/// came, -1 on error: the zygote lets go of its loaded pages if no first request comes.
int sbx_wait_message(int sock, int milliseconds);
/// Drops this process's page-table entries for the segments of its program and libraries
/// that the dynamic linker never writes (code, constants, symbol tables). The pages stay in
/// the page cache and come back on the next touch; a segment that may hold written pages is
/// kept. Returns how many segments were let go.
int sbx_release_read_only_file_pages(void);
#endif

import CSandbox
import Glibc
import Playback

/// The worker's confinement, applied before it reads any request, in this order: die with
/// the viewer, no new privileges, limits, no network (user and net namespaces), no files
/// (Landlock), then the syscall allow-list (seccomp).
///
/// Each step the kernel refuses is left out and reported in the ready message, so the
/// viewer can say which are missing (and, strict, refuse to use the worker).
enum Confinement {
    /// Address space: the largest picture the default budget allows (100 MP, 400 MB as
    /// RGBA) decoded, managed and copied to its memfd, with room for the libraries.
    static let addressSpace: UInt64 = 2 << 30
    /// fds: the channel, stdio, a request's memfd and an answer's, and a few for libraries.
    /// A video's worker also holds each new slot's memfd until its first picture goes out:
    /// as many as the decoder has pictures under way.
    static func files(_ kind: WorkerKind) -> UInt64 { kind == .media ? 16 + UInt64(StreamWork.maxSlots) : 16 }

    /// Applies every step it can; the `SBX_*` bits of those applied.
    static func apply(_ kind: WorkerKind) -> Int32 {
        sbx_close_from(3)
        var done: Int32 = 0
        if sbx_die_with_parent() == 0 { done |= Int32(SBX_PDEATHSIG) }
        if sbx_no_new_privs() == 0 { done |= Int32(SBX_NO_NEW_PRIVS) }
        // Libraries that load or read files on first use do it now, while they still can.
        Warmup.run(kind)
        if sbx_limits(addressSpace, files(kind)) == 0 { done |= Int32(SBX_RLIMITS) }
        if sbx_unshare_net() == 0 { done |= Int32(SBX_USERNS) }
        if sbx_landlock_deny_all(sbx_landlock_abi()) == 0 { done |= Int32(SBX_LANDLOCK) }
        // seccomp needs no_new_privs without CAP_SYS_ADMIN; the load fails cleanly without it.
        if sbx_seccomp_apply() == 0 { done |= Int32(SBX_SECCOMP) }
        return done
    }
}

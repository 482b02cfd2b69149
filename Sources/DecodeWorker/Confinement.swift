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
        // The subtitles worker opens a font file the first time a script uses it: the font
        // folders stay readable, and nothing else does.
        let readable = kind == .subtitles ? fontFolders() : []
        let landlocked = withCStrings(readable) { sbx_landlock_read_only(sbx_landlock_abi(), $0, Int32(readable.count)) } == 0
        if landlocked { done |= Int32(SBX_LANDLOCK) }
        // seccomp needs no_new_privs without CAP_SYS_ADMIN; the load fails cleanly without it.
        // Paths are opened for reading only where Landlock says which: without it, the
        // subtitles worker keeps the fonts it opened while warming up.
        if (kind == .subtitles && landlocked ? sbx_seccomp_apply_reading() : sbx_seccomp_apply()) == 0 { done |= Int32(SBX_SECCOMP) }
        return done
    }

    /// The folders fontconfig reads fonts from on Debian (its `fonts.conf`), the user's
    /// among them.
    static func fontFolders() -> [String] {
        var folders = ["/usr/share/fonts", "/usr/local/share/fonts", "/usr/X11R6/lib/X11/fonts"]
        let home = getenv("HOME").map { String(cString: $0) }
        if let home { folders.append(home + "/.fonts") }
        if let data = getenv("XDG_DATA_HOME").map({ String(cString: $0) }), data.hasPrefix("/") {
            folders.append(data + "/fonts")
        } else if let home {
            folders.append(home + "/.local/share/fonts")
        }
        return folders
    }

    /// `body` given the strings as an array of C strings.
    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = strings.map { UnsafePointer(strdup($0)) }
        defer { copies.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
        return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

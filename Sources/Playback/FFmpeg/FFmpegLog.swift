import CFFmpeg
import Synchronization

/// Whether FFmpeg's own log lines reach stderr. They are for developers: users get one
/// line of ours per failure, so they are silenced unless the app asks for them (the
/// program does when `MEDIAVIEW_FFMPEG_LOG=1`).
public enum FFmpegLog {
    // An atomic rather than a lock: one flag, written before the first media opens and
    // read when FFmpeg is first used.
    private static let wanted = Atomic<Bool>(false)

    /// Set before the first media opens.
    public static var showsFFmpegLines: Bool {
        get { wanted.load(ordering: .relaxed) }
        set {
            wanted.store(newValue, ordering: .relaxed)
            av_log_set_level(newValue ? AV_LOG_INFO : AV_LOG_QUIET)
        }
    }

    /// Silences FFmpeg once, before anything of it runs, unless the app asked for its
    /// lines: evaluating it is enough (`_ = FFmpegLog.quiet`).
    static let quiet: Void = {
        if !showsFFmpegLines { av_log_set_level(AV_LOG_QUIET) }
    }()
}

/// Silences FFmpeg's log as the player does, for a process that decodes without a player
/// (the decode worker).
public func silenceFFmpegLog() { FFmpegLog.quiet }

import CDelayLoad
import CFFmpeg
import Synchronization

/// Whether FFmpeg's own log lines reach stderr. They are for developers: users get one
/// line of ours per failure, so they are silenced unless the app asks for them (the
/// program does when `MEDIAVIEW_FFMPEG_LOG=1`).
public enum FFmpegLog {
    // An atomic rather than a lock: one flag, written before the first media opens and
    // read when FFmpeg is first used.
    private static let wanted = Atomic<Bool>(false)

    /// Set before the first media opens. FFmpeg is loaded when media first needs it (a
    /// viewer showing photos never loads it), and gets this level as it loads.
    public static var showsFFmpegLines: Bool {
        get { wanted.load(ordering: .relaxed) }
        set {
            wanted.store(newValue, ordering: .relaxed)
            delayload_set_ffmpeg_log_level(newValue ? AV_LOG_INFO : AV_LOG_QUIET)
        }
    }

    /// FFmpeg quiet unless the app asked for its lines, without loading it: evaluating it is
    /// enough (`_ = FFmpegLog.quiet`).
    static let quiet: Void = {
        delayload_set_ffmpeg_log_level(showsFFmpegLines ? AV_LOG_INFO : AV_LOG_QUIET)
    }()
}

/// Silences FFmpeg's log as the player does, for a process that decodes without a player
/// (the decode worker).
public func silenceFFmpegLog() { FFmpegLog.quiet }

import CDelayLoad
import MediaCore

/// FFmpeg's libraries are loaded on first use (see CDelayLoad), which costs 25-60 ms of the
/// dynamic linker's work on this machine. When the program's first item will need them in
/// the viewer (a video, a sound, a picture decoded in-process), they are loaded
/// on a thread of their own while the viewer connects to the display and makes its window.
public enum FFmpegAhead {
    /// Starts loading FFmpeg unless the item at `path` is a still or an animation that a worker will decode
    /// (`sandboxed`): then the viewer may never need it. A film does, sandboxed or not: the
    /// viewer builds its player on a description of the container the worker read, and
    /// loaded then, FFmpeg kept a launch's first picture waiting 30 ms more (0.21 s → 0.18 s).
    public static func load(for path: String, sandboxed: Bool) {
        if sandboxed, let kind = DecodeWorkers.kindAhead(for: path), kind != .media { return }
        NamedThread.start(name: "ffmpeg-ahead") {
            // A library that cannot be loaded is said by the first call that needs it.
            for library in [DELAYLOAD_AVUTIL, DELAYLOAD_AVCODEC, DELAYLOAD_AVFORMAT, DELAYLOAD_SWSCALE, DELAYLOAD_SWRESAMPLE] {
                _ = delayload_load(library)
            }
        }
    }
}

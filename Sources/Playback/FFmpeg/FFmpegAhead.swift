import CDelayLoad
import MediaCore

/// FFmpeg's libraries are loaded on first use (see CDelayLoad), which costs 25-60 ms of the
/// dynamic linker's work on this machine. When the program's first item will need them in
/// the viewer (a video, a sound, a picture decoded in-process), they are loaded
/// on a thread of their own while the viewer connects to the display and makes its window.
public enum FFmpegAhead {
    /// Starts loading FFmpeg unless the item at `path` is a still or an animation that a worker will decode
    /// (`sandboxed`): then the viewer may never need it. A sandboxed film needs only
    /// libavutil, libswscale and libswresample here (its stand-in container, packets,
    /// conversion into the window and the sound's resampling), which load in about 3 ms;
    /// libavcodec and libavformat, with the hundred libraries they link, stay in the workers.
    public static func load(for path: String, sandboxed: Bool) {
        if sandboxed, DecodeWorkers.kindAhead(for: path) != .media { return }
        let libraries = sandboxed ? [DELAYLOAD_AVUTIL, DELAYLOAD_SWSCALE, DELAYLOAD_SWRESAMPLE]
            : [DELAYLOAD_AVUTIL, DELAYLOAD_AVCODEC, DELAYLOAD_AVFORMAT, DELAYLOAD_SWSCALE, DELAYLOAD_SWRESAMPLE]
        NamedThread.start(name: "ffmpeg-ahead") {
            // A library that cannot be loaded is said by the first call that needs it.
            for library in libraries { _ = delayload_load(library) }
        }
    }
}

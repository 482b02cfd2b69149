/// Where still pictures, animations, videos and songs, a local video's track previews and
/// a zoomed photo's tiles are decoded: the viewer's safety against crafted files.
public enum SandboxMode: String, Sendable, CaseIterable {
    /// In the sandboxed worker, with whatever confinement the kernel allows (said once when
    /// a step is missing); in-process when the worker program is not installed.
    case automatic = "auto"
    /// Only in a fully confined worker: a picture or video is refused rather than decoded
    /// with less.
    case strict
    /// In the viewer's own process, as before the worker existed.
    case off
}

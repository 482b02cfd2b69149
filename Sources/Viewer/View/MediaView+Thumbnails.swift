import Dispatch
import FoundationEssentials
import Glibc
import Playback
import Windowing

/// Thumbnails (a picture or a GIF, from memory, a file or the web) shown before playback
/// and for audio, and the preview GIF shown while the button is held on a video: MediaView's
/// `set...` variants that take them.
extension MediaView {
    /// A video with a thumbnail picture and, optionally, a preview GIF (a path or URL).
    public func setVideo(url: String, thumbnail: RGBAImage?, previewGIFUrl: String? = nil) {
        setMedia(url, kind: .video, completion: nil)
        content.thumbnailImage = thumbnail
        content.previewGIFURL = previewGIFUrl
    }

    /// A video with a thumbnail and a preview GIF, both paths or URLs.
    public func setVideo(url: String, thumbnailUrl: String, previewGIFUrl: String) {
        setVideo(url: url, thumbnailUrl: thumbnailUrl)
        content.previewGIFURL = previewGIFUrl
    }

    /// A video with a thumbnail picture and a preview GIF held in memory.
    public func setVideo(url: String, thumbnail: RGBAImage?, previewGIFData: Data) {
        setVideo(url: url, thumbnail: thumbnail)
        content.previewGIFURL = keepTemporary(previewGIFData)
    }

    /// A video with a thumbnail path or URL and a preview GIF held in memory.
    public func setVideo(url: String, thumbnailUrl: String, previewGIFData: Data) {
        setVideo(url: url, thumbnailUrl: thumbnailUrl)
        content.previewGIFURL = keepTemporary(previewGIFData)
    }

    /// A video whose thumbnail is an animated GIF (a path or URL).
    public func setVideo(url: String, thumbnailGIFUrl: String) {
        setVideo(url: url, thumbnailUrl: thumbnailGIFUrl)
    }

    /// A video whose thumbnail is an animated GIF held in memory.
    public func setVideo(url: String, thumbnailGIFData: Data) {
        setMedia(url, kind: .video, completion: nil)
        content.thumbnailURL = keepTemporary(thumbnailGIFData)
    }

    /// Audio with a picture to show while it plays.
    public func setAudio(url: String, thumbnail: RGBAImage?) {
        setMedia(url, kind: .audio, completion: nil)
        content.thumbnailImage = thumbnail
    }

    /// Audio with an animated GIF (a path or URL) to show while it plays.
    public func setAudio(url: String, thumbnailGIFUrl: String) {
        setAudio(url: url, thumbnailUrl: thumbnailGIFUrl)
    }

    /// Audio with an animated GIF held in memory to show while it plays.
    public func setAudio(url: String, thumbnailGIFData: Data) {
        setMedia(url, kind: .audio, completion: nil)
        content.thumbnailURL = keepTemporary(thumbnailGIFData)
    }
}

import Dispatch
import FoundationEssentials
import Glibc
import Playback
import Web

/// Preloading and the `didDownload...` callbacks.
extension MediaView {
    /// Downloads this view's web video into the disk cache in the background;
    /// `didDownloadVideo` fires on the main thread when the file is complete.
    public func preloadVideo() { preload(into: .video, kind: .video) }

    /// As `preloadVideo()`, for audio; `didDownloadAudio` fires when it is complete.
    public func preloadAudio() { preload(into: .audio, kind: .audio) }

    /// Whether a preload of this view is running.
    public var isPreloading: Bool { preloader != nil }

    /// Starts a preload when `shouldPreloadPlayableMedia` asks for it: when the URL is set
    /// (or the option turned on after it), as MediaView does, and again when queued.
    func preloadIfWanted() {
        guard settings.shouldPreloadPlayableMedia else { return }
        switch kind {
        case .video: preloadVideo()
        case .audio: preloadAudio()
        default: break
        }
    }

    private func preload(into directory: CacheManager.Directory, kind: MediaKind) {
        guard preloader == nil, let url = mediaURL, SourceOptions.isNetwork(url),
              let cache = CacheManager.shared.openedDisk else { return }
        var o = settings.playerOptions.source
        o.cache = cache
        o.cacheDirectory = directory
        preloader = Downloader(url: url, options: o) { [weak self] outcome in
            let view = self
            CacheManager.post { view?.finishPreload(outcome, kind: kind, url: url) }
        }
    }

    private func finishPreload(_ outcome: Downloader.Outcome, kind: MediaKind, url: String) {
        // A view reset to other media meanwhile does not hear about the old one.
        guard mediaURL == url else { return }
        preloader = nil
        if case .success(let path) = outcome { didDownload(path, kind: kind) }
    }

    /// Stops a running preload; its partial file is deleted.
    func cancelPreload() {
        preloader?.cancel()
        preloader = nil
    }

    /// Tells the delegate a download of this view's media is complete, under `path`.
    func didDownload(_ path: String, kind: MediaKind?) {
        switch kind {
        case .image: notify { $0.mediaView(self, didDownloadImage: path) }
        case .gif: notify { $0.mediaView(self, didDownloadGif: path) }
        case .audio: notify {
            $0.mediaView(self, didDownloadAudio: path)
            $0.mediaView(self, didDownloadAudio: URL(fileURLWithPath: path))
        }
        default: notify {
            $0.mediaView(self, didDownloadVideo: path)
            $0.mediaView(self, didDownloadVideo: URL(fileURLWithPath: path))
        }
        }
    }
}

import MediaCore
import Subtitles
import Web

/// Draws a player's chosen subtitle track where its options say: in a sandboxed worker when
/// the sandbox is on, so that libass, HarfBuzz and FreeType never parse a script or a font
/// in the viewer; with libass here when it is off, or (auto) when no worker can be had.
///
/// A worker that stops costs the item its subtitles, said in one line; the video plays on.
/// Used by the thread that draws the player.
public final class SubtitleDrawer {
    private enum Drawing {
        case here(SubtitleRenderer)
        case worker(WorkerSubtitles)
        /// Nothing more is drawn: the worker stopped, or strict found none.
        case stopped
    }

    private var drawing: Drawing
    private let onWarning: @Sendable (String) -> Void

    /// A drawer for `player`'s subtitles, sandboxed as its options say; nil when libass
    /// cannot start here.
    public convenience init?(for player: Player) {
        self.init(options: player.engine.options)
    }

    init?(options: PlayerOptions) {
        onWarning = options.onWarning
        guard options.sandbox != .off else {
            guard let here = SubtitleRenderer() else { return nil }
            drawing = .here(here)
            return
        }
        let pool = DecodeWorkers.shared
        do throws(AVError) {
            if let worker = try pool.confinedWorker(.subtitles, name: "subtitles", options: options) {
                drawing = .worker(WorkerSubtitles(worker: worker, pool: pool))
            } else {
                guard let here = SubtitleRenderer() else { return nil }
                drawing = .here(here)
            }
        } catch {
            options.onWarning("mediaview: \(error.message)")
            drawing = .stopped
        }
    }

    /// Whether the subtitles are drawn by a sandboxed worker.
    public var isSandboxed: Bool {
        if case .worker = drawing { return true }
        return false
    }

    /// Whether a frame was drawn without its subtitles because the worker had not drawn them
    /// yet (it waits at most 50 ms for them); the caller looks at `owedImagesReady` until
    /// it is false again.
    public var owesImages: Bool {
        if case .worker(let w) = drawing { return w.owesImages }
        return false
    }

    /// Whether the images owed can be had now: the frame is then to be drawn again, which
    /// takes them (or ends a worker that took too long, with its line).
    public var owedImagesReady: Bool {
        if case .worker(let w) = drawing { return w.owedImagesReady }
        return false
    }

    /// Hands `draw` the images of `player`'s chosen subtitle track due at `seconds`, for a
    /// video shown `width` x `height` pixels large, text `fontScale` times the script's size.
    /// Nothing when no track is chosen.
    public func render(_ player: Player, at seconds: Double, width: Int, height: Int, fontScale: Double = 1,
                       _ draw: (SubtitleBitmap) -> Void) {
        guard let id = player.engine.tracks.subtitleID else { return }
        let news = { (index: Int) in player.engine.subtitleCues(id, from: index) }
        switch drawing {
        case .here(let renderer):
            renderer.render(track: id, at: seconds, width: width, height: height, fontScale: fontScale, news: news, draw)
        case .worker(let worker):
            do throws(AVError) {
                try worker.render(track: id, at: seconds, width: width, height: height, fontScale: fontScale, news: news, draw)
            } catch {
                drawing = .stopped
                onWarning("mediaview: \(SourceOptions.displayName(player.engine.demux.url)): \(error.message)")
            }
        case .stopped:
            return
        }
    }
}

import Playback
import Windowing

extension MediaView {
    /// Carries out a command on this view's media.
    func perform(_ c: PlayerCommand) {
        switch c {
        case .togglePause: togglePlay()
        case .seek(let s): seek(by: s)
        case .seekAbsolutePercent(let p): seek(toFraction: p / 100)
        case .seekAbsolute(let s): seek(to: s)
        case .chapter(let d): jumpChapter(by: d)
        case .volume(let d): volume += Double(d) / 100
        case .toggleMute: isMuted.toggle()
        case .toggleLoop: settings.allowLooping.toggle()
        case .rotate(let degrees): rotate(by: degrees)
        case .toggleTrack: settings.shouldShowTrack.toggle()
        case .zoom(let d): zoom(by: d)
        case .zoomReset: toggleFitNative()
        case .pan(let dx, let dy): pan(dx: dx, dy: dy)
        case .frameStep(let forward): stepFrame(forward: forward)
        case .cycleSubtitles: cycleSubtitleTrack()
        case .cycleAudio: cycleAudioTrack()
        default: break
        }
    }
}

import Foundation
import Testing
import TestSupport
@testable import Viewer

/// The tracks a `MediaView` offers its app, and what the keys' commands say on screen.
@Suite(.serialized) @MainActor struct TrackSelectionTests {
    /// Two sound tracks (eng 440 Hz, deu 1000 Hz) and a subtitle track titled "English",
    /// plus a subtitle file of the app's own.
    @Test func aViewListsChoosesAndSaysWhichTrack() throws {
        let srt = try Fixtures.srt("tracks-view.srt", [Fixtures.Cue(0, 2, "Hello")])
        let video = try Fixtures.make("two-tones-with-english-subtitles.mkv", [
            "-i", try Fixtures.twoToneVideo(440, 1000, seconds: 2), "-i", srt, "-map", "0", "-map", "1", "-c", "copy",
            "-c:s", "srt", "-metadata:s:s:0", "language=eng", "-metadata:s:s:0", "title=English"])
        let file = try Fixtures.srt("tracks-view-file.srt", [Fixtures.Cue(0, 2, "From a file")])
        let h = QueueHarness()
        let v = MediaView()
        v.playerOptions.audio = false
        v.playerOptions.subtitleFiles = [file]
        v.setMedia(url: video)
        h.queue.queue(mediaView: v)
        h.pump(seconds: 5) { v.hasPicture }
        try #require(v.info != nil, "the media did not open: \(String(describing: v.failure))")

        #expect(v.audioTracks.map(\.label) == ["eng", "deu"] && v.selectedAudioTrack?.id == 1)
        #expect(v.subtitleTracks.map(\.label) == ["tracks-view-file.srt", "English"], "\(v.subtitleTracks)")
        #expect(v.subtitleTracks.map(\.isExternal) == [true, false] && v.subtitleTracks.last?.codec == "subrip")
        #expect(v.selectedSubtitleTrack?.id == 1)

        v.cycleSubtitleTrack()
        #expect(v.messageText == "Subtitles: 2/2 English" && v.selectedSubtitleTrack?.id == 2)
        v.cycleSubtitleTrack()
        #expect(v.messageText == "Subtitles: off" && v.selectedSubtitleTrack == nil)
        v.cycleAudioTrack()
        #expect(v.messageText == "Audio: 2/2 deu" && v.selectedAudioTrack?.id == 2)
        v.toggleSubtitles()
        #expect(v.messageText == "Subtitles hidden" && !v.showsSubtitles)

        let lines = Dictionary(uniqueKeysWithValues: InfoPanel.describe(v).map { ($0.label, $0.value) })
        #expect(lines["Sound tracks"] == "eng, deu" && lines["Subtitles"] == "tracks-view-file.srt, English", "\(lines)")
        h.queue.shutdown()
    }
}

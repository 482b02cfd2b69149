import Dispatch
import Foundation
import Glibc
// Viewer with MediaView's Foundation spellings (CGFloat, URL, Notification.post).
import ViewerUIKitCompat

// A small app on the viewer library: it shows a video, minimizes and restores it from
// code on timers, then shows a file that cannot play, dismisses it with its animation,
// shows a view queued 0.4 s after the queue went empty, and quits. Every delegate call is
// printed as one line, so a test (or a curious developer) sees them in order.
//
//   SeedClient VIDEO BROKEN-FILE [SUBTITLE-FILE]

let arguments = CommandLine.arguments
guard arguments.count == 3 || arguments.count == 4 else {
    print("usage: SeedClient VIDEO BROKEN-FILE [SUBTITLE-FILE]")
    exit(2)
}

@MainActor
final class Client: MediaViewDelegate, KeyboardSpyAgent {
    var keyboardEventsToSpyOn: [KeyboardSpyEvent] = [.keyPress, .willShow, .didShow, .willHide, .didHide,
                                                     .willChangeFrame, .didChangeFrame]
    var offsets: [CGFloat] = []
    /// Keyboard focus coming and going (the software keyboard's show and hide); how often
    /// depends on the window manager, so it is counted, not printed.
    var keyboardShows = 0
    /// The view queued late showed its first picture.
    var lateOnScreen = false

    func say(_ line: String) { print(line) }

    func willPresent(mediaView: MediaView) { say("willPresent") }
    func didPresent(mediaView: MediaView) { say("didPresent") }
    func didPlayMedia(for mediaView: MediaView) { say("didPlayMedia") }
    func didPauseMedia(for mediaView: MediaView) { say("didPauseMedia") }
    func didFailToPlayMedia(for mediaView: MediaView) { say("didFailToPlayMedia") }
    func willDismiss(mediaView: MediaView) { say("willDismiss") }
    func didDismiss(mediaView: MediaView) { say("didDismiss") }
    func willChangeMinimization(for mediaView: MediaView) { say("willChangeMinimization") }
    func didChangeMinimization(for mediaView: MediaView) { say("didChangeMinimization") }
    func willEndMinimizing(for mediaView: MediaView, atMinimizedState isMinimized: Bool) {
        say("willEndMinimizing \(isMinimized)")
    }
    func didEndMinimizing(for mediaView: MediaView, atMinimizedState isMinimized: Bool) {
        say("didEndMinimizing \(isMinimized) offset \(offsets.last ?? -1)")
    }
    func mediaView(_ mediaView: MediaView, didChangeOffset offsetPercentage: CGFloat) {
        offsets.append(offsetPercentage)
    }
    func mediaView(_ mediaView: MediaView, didDownloadVideo video: URL) { say("downloaded \(video.lastPathComponent)") }
    func didShowFirstFrame(for mediaView: MediaView) {
        guard mediaView.title == "Late" else { return }
        lateOnScreen = true
        say("didShowFirstFrame Late")
    }
    func keyboardSpyEventProcessed(event: KeyboardSpyEvent, keyboardInfo: KeyboardSpyInfo) {
        switch event {
        case .keyPress: say("key \(keyboardInfo.keyName ?? "?")")
        case .willShow: keyboardShows += keyboardInfo.keyboardHeight == 0 && keyboardInfo.endFrame.isEmpty ? 1 : 0
        default: break
        }
    }
}

/// Dismisses the last view with its animation; with the queue empty the loop goes on, and
/// a view queued 0.4 s later is presented. It rotates, minimizes (offsets as CGFloat) and
/// is reset with MediaView's other spellings.
@MainActor
func showLate(queue: MediaQueue, video: String, client: Client) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        queue.dismissCurrent(animated: true) {
            print("dismissed animated, queue empty \(queue.current == nil && queue.views.isEmpty)")
            done.resume()
        }
    }
    let heard = MediaNotifications.shared.addObserver(for: .mediaViewWillRotateNotification) { view in
        print("will rotate notification from \(view?.title ?? "the app")")
    }
    defer { MediaNotifications.shared.removeObserver(heard) }
    let late = MediaView(frame: Rect(x: 40, y: 30, width: 160, height: 90))
    late.setVideo(url: video)
    late.setTitle("Late")
    late.shouldAutoPlayAfterPresentation = false
    late.imageViewNotReused = true
    late.delegate = client
    try? await Task.sleep(nanoseconds: 400_000_000)
    queue.queue(mediaView: late)
    // Up to 20 s for its first picture, however busy the machine is.
    for _ in 0..<200 where !client.lateOnScreen { try? await Task.sleep(nanoseconds: 100_000_000) }
    late.rotate(by: 90)
    Notification.post(.mediaViewWillRotateNotification)
    late.resetMediaInView()
    print("reset media: url \(late.mediaURL ?? "none"), title \(late.title ?? "none")")
    late.resetVariables()
    print("reset variables: title \(late.title ?? "none"), autoplay \(late.shouldAutoPlayAfterPresentation)")
}

@MainActor
func run() -> Int32 {
    let client = Client()
    KeyboardSpy.spy(on: client)
    CacheManager.cacheMediaWhenDownloaded = true

    let video = MediaView()
    video.setVideo(url: arguments[1])
    video.setTitle("Clip", details: "from disk")
    video.swipeMode = .minimize
    video.themeColor = .red
    video.contentMode = .scaleAspectFit
    video.minimizedAspectRatio = (6.0 / 5.0)
    video.topBuffer = .statusBarBuffer
    video.bottomBuffer = .tabBarBuffer
    video.shouldDismissAfterFinishedPlaying = false
    video.allowLooping = true
    video.delegate = client
    // Subtitles for the clip, as a file of the app's own (files beside it are found too).
    if arguments.count > 3 { video.playerOptions.subtitleFiles = [arguments[3]] }

    let broken = MediaView()
    broken.setVideo(url: arguments[2])
    broken.delegate = client

    let queue = MediaQueue.shared
    queue.presentation.windowed = true
    queue.presentation.geometry = (480, 270, 0, 0)
    queue.queue(mediaView: video)
    queue.queue(mediaView: broken)

    // Work scheduled the usual ways must run while the queue's loop runs.
    var ticks = 0
    let timer = DispatchSource.makeTimerSource(queue: .main)
    timer.schedule(deadline: .now() + 0.1, repeating: 0.1)
    timer.setEventHandler { MainActor.assumeIsolated { ticks += 1 } }
    timer.resume()
    DispatchQueue.main.asyncAfter(deadline: .now() + 1.0) {
        MainActor.assumeIsolated {
            print("asyncAfter ran")
            video.minimize(animated: true)
        }
    }
    Task { @MainActor in
        try? await Task.sleep(nanoseconds: 2_000_000_000)
        print("task slept, minimized \(video.isMinimized)")
        let subtitles = video.subtitleTracks
        print("subtitle tracks \(subtitles.count), "
              + (subtitles.first.map { "\($0.codec) external \($0.isExternal)" } ?? "none")
              + ", shown \(video.selectedSubtitleTrack?.id ?? 0)")
        video.selectSubtitleTrack(id: nil)
        print("subtitles off \(video.selectedSubtitleTrack == nil)")
        video.restore(animated: false)
        try? await Task.sleep(nanoseconds: 500_000_000)
        print("timer ticks \(ticks >= 15 ? "enough" : "too few: \(ticks)")")
        queue.presentNext()
        try? await Task.sleep(nanoseconds: 1_000_000_000)
        print("failure: \(broken.failure.map { _ in "reported" } ?? "none")")
        await showLate(queue: queue, video: arguments[1], client: client)
        queue.stop()
    }

    guard queue.run() else {
        print("no window")
        return 2
    }
    timer.cancel()
    queue.shutdown()
    print("done")
    return 0
}

exit(run())

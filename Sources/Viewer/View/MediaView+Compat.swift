import Playback
import Windowing

/// MediaView's other spellings: the calls an iOS app writes, with their desktop meaning.
extension MediaView {
    /// A view with no media whose presentation grows from `frame` (a rectangle of the host
    /// window the app draws, as `originRect`) and shrinks back to it when dismissed.
    public convenience init(frame: Rect) {
        self.init()
        settings.originRect = frame
    }

    /// Removes the media, keeping the options: `resetMedia()`.
    public func resetMediaInView() { resetMedia() }

    /// Removes the media and puts every option back to its default: `reset()`.
    public func resetVariables() { reset() }

    /// How sound plays when the phone's silent switch is on (an AVAudioSession category).
    @available(*, unavailable, message: "a desktop has no silent switch: streams play as PulseAudio's media.role video or music and the mixer controls them; use volume/isMuted")
    public enum AudioType {
        /// Sound follows the silent switch.
        case standard
        /// Sound plays even when the switch is on silent.
        case playWhenSilent
    }

    /// The audio session category while a view plays.
    @available(*, unavailable, message: "a desktop has no silent switch: streams play as PulseAudio's media.role video or music and the mixer controls them; use volume/isMuted")
    public static var audioTypeWhenPlay: Int { 0 }

    /// The audio session category once a view stops playing.
    @available(*, unavailable, message: "a desktop has no silent switch: streams play as PulseAudio's media.role video or music and the mixer controls them; use volume/isMuted")
    public static var audioTypeWhenStop: Int { 0 }
}

/// A view controller that registers for keyboard notifications in `viewDidLoad`.
@available(*, unavailable, message: "no view controllers on X11: an object becomes a KeyboardSpyAgent and calls KeyboardSpy.spy(on:) to hear the window's keyboard focus")
public final class BaseViewController {}

/// The keyboard notifications a `BaseViewController` hears.
@available(*, unavailable, message: "adopt KeyboardSpyAgent: its willShow/didShow/willHide/didHide/willChangeFrame/didChangeFrame events are keyboard focus coming to and leaving the window")
public protocol KeyboardNotificationDelegate {}

/// Resigns the first responder inside a view controller.
@available(*, unavailable, message: "a desktop keyboard is never dismissed; the window keeps the focus until the user moves it, and KeyboardSpy reports willHide when it goes")
public func dismissKeyboard() {}

/// The keyboard's frames from a keyboard notification.
@available(*, unavailable, message: "a desktop keyboard covers nothing: KeyboardSpyInfo.beginFrame and endFrame are zero rectangles")
public func framesForKeyboard<N>(notification: N) -> (fromFrame: Rect, toFrame: Rect) { fatalError() }

/// Insets a scroll view so the keyboard does not cover its content.
@available(*, unavailable, message: "a desktop keyboard covers nothing, so no content inset is needed; KeyboardSpyInfo.keyboardHeight is 0")
public func adjustContentInset<S, N>(scrollview scrollView: S, forKeyboardWillChangeFrameNotification notification: N) {}

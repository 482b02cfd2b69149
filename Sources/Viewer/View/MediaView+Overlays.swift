import Glibc
import MediaCore
import Playback
import Windowing

extension MediaView {
    /// `m:ss`, or `h:mm:ss` when the media is an hour or longer.
    public static func formatTime(_ seconds: Double, longest: Double) -> String {
        let s = max(0, Int(seconds.isFinite ? seconds : 0))
        let h = s / 3600, m = (s % 3600) / 60, sec = s % 60
        let pad = { (n: Int) in TextFormat.padded(n, width: 2) }
        if longest >= 3600 || h > 0 { return "\(h):\(pad(m)):\(pad(sec))" }
        return "\(m):\(pad(sec))"
    }
}

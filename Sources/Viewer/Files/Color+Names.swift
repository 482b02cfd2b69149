import Playback
import Windowing

extension Color {
    /// Pure red, as `themeColor = .red`.
    public static let red = Color(rgb: 0xFF0000)
    /// Green, as CSS names it (half intensity).
    public static let green = Color(rgb: 0x008000)
    /// Pure blue.
    public static let blue = Color(rgb: 0x0000FF)
    /// Yellow.
    public static let yellow = Color(rgb: 0xFFFF00)
    /// Orange.
    public static let orange = Color(rgb: 0xFFA500)
    /// Purple.
    public static let purple = Color(rgb: 0x800080)
    /// Cyan.
    public static let cyan = Color(rgb: 0x00FFFF)
    /// Magenta.
    public static let magenta = Color(rgb: 0xFF00FF)
    /// Mid grey.
    public static let gray = Color(rgb: 0x808080)
    /// Pink.
    public static let pink = Color(rgb: 0xFFC0CB)
}

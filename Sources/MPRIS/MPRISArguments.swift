import Playback
import SessionBus
import MediaCore

/// What callers on the bus hand the player, read and checked before anything acts on it:
/// OpenUri's address, Seek's and SetPosition's microseconds, and the values Set gives
/// Volume, Rate and LoopStatus. Any process on the session bus may call, so each value
/// either becomes something the player can do or a one-line refusal.
public enum MPRISArguments {
    /// A player property value Set may give.
    public enum Setting: Equatable, Sendable {
        /// The player's volume, 0 to 1 (MPRIS allows more; this player's sound stops at full).
        case volume(Double)
        /// A play speed the speed keys also reach.
        case rate(Double)
        /// A rate of 0, which the specification makes a pause.
        case pause
        /// Whether the item loops.
        case loop(Bool)
    }

    /// Why a call's value is refused: the D-Bus error name, and a line for a person.
    public struct Refusal: Error, Equatable {
        /// The D-Bus error name.
        public let name: String
        /// The line for a person.
        public let text: String
    }

    /// The slowest and fastest play the speed keys allow.
    public static let rates = (min: 0.25, max: 4.0)

    /// What OpenUri plays for `uri`: a `file://` URI's path (every escape back to its
    /// byte, so a Latin-1 name opens), an absolute path or an http(s) link as it is; nil
    /// for anything else.
    public static func source(openURI uri: String) -> String? {
        if uri.hasPrefix("/") { return uri.utf8.contains(0) ? nil : uri }
        let lower = uri.prefix(8).lowercased()
        if lower.hasPrefix("file://") { return FileName.path(fromFileURL: uri) }
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return uri.utf8.contains(0) ? nil : uri }
        return nil
    }

    /// Seek's offset in seconds (an int64 of microseconds is always a finite number of them).
    public static func seconds(microseconds: Int64) -> Double {
        Double(microseconds) / 1_000_000
    }

    /// SetPosition's target in seconds, or nil when it lies outside the media, which the
    /// specification says to ignore.
    public static func position(microseconds: Int64, length: Int64?) -> Double? {
        guard microseconds >= 0, microseconds <= length ?? 0 else { return nil }
        return seconds(microseconds: microseconds)
    }

    /// What Set with `value` does to the player property `property`, or why not.
    public static func setting(_ property: String, _ value: BusValue) -> Result<Setting, Refusal> {
        switch (property, value) {
        case ("Volume", .double(let level)):
            guard level.isFinite else { return .failure(invalid("Volume must be a finite number")) }
            return .success(.volume(max(0, min(1, level))))
        case ("Rate", .double(let rate)):
            if rate == 0 { return .success(.pause) }
            guard rate.isFinite, rate >= rates.min, rate <= rates.max else {
                return .failure(invalid("Rate is 0.25 to 4, got \(rate)"))
            }
            return .success(.rate(rate))
        case ("LoopStatus", .string(let loop)):
            guard ["None", "Track", "Playlist"].contains(loop) else {
                return .failure(invalid("LoopStatus is None, Track or Playlist, got '\(TextFormat.quotable(loop))'"))
            }
            return .success(.loop(loop != "None"))
        case ("Volume", _), ("LoopStatus", _), ("Rate", _):
            let wanted = property == "LoopStatus" ? "a string (s)" : "a double (d)"
            return .failure(invalid("\(property) takes \(wanted), got '\(value.signature)'"))
        default:
            return .failure(Refusal(name: BusErrorName.propertyReadOnly, text: "\(TextFormat.quotable(property)) cannot be set"))
        }
    }

    private static func invalid(_ text: String) -> Refusal {
        Refusal(name: BusErrorName.invalidArgs, text: text)
    }
}

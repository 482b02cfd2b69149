/// Where a stream stands: still playing, played to its end in a seek generation, or not
/// played at all (a still has no sound; sound without a picture has no video).
enum StreamEnd: Equatable, Sendable {
    case running
    case ended(serial: Int)
    case absent

    /// Whether nothing more is to come from this stream in generation `serial`.
    func isOver(in serial: Int) -> Bool {
        switch self {
        case .running: false
        case .ended(let s): s == serial
        case .absent: true
        }
    }
}

import MediaCore
import Playback

/// The stream (a video's pictures, or sound) a worker decodes for the viewer: opened with
/// `videoOpen` or `soundOpen`, its decoder kept between packets until the next open or the
/// worker's end.
final class StreamServing {
    private let channel: Int32
    private var work: StreamWork?
    /// The open stream's item name, for the tests' crashing files.
    private(set) var name = ""
    /// Packets the open stream has had, for the tests' files that fail mid-play.
    private(set) var packets = 0

    init(channel: Int32) { self.channel = channel }

    /// Opens the decoder the request describes.
    func open(_ m: WorkerMessage) -> WorkerMessage {
        work = nil
        name = m.text
        packets = 0
        do throws(AVError) {
            work = try StreamWork(m)
            return WorkerMessage(kind: .streamOpened)
        } catch {
            return WorkerMessage(kind: .failure, text: error.message)
        }
    }

    /// Decodes one packet: its pictures are sent as they come, then the answer.
    func packet(_ m: WorkerMessage) -> WorkerMessage {
        guard let work else { return WorkerMessage(kind: .failure, text: "stream: none is open") }
        packets += 1
        return work.packet(m) { $0.send(on: channel) }
    }

    func release(_ m: WorkerMessage) { work?.release(m) }

    func flush() { work?.flush() }
}

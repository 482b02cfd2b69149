import Glibc
import Playback

/// The container a worker reads for the viewer's player: the video's or song's file handed
/// over with `containerOpen`, its demuxer held between requests, until the next open or the
/// worker's end.
final class ContainerServing {
    private var work: ContainerWork?
    /// The file's descriptor, this worker's from the open on (the demuxer reads it).
    private var fd: Int32 = -1
    /// The open file's name and the packets asked for so far (the tests' crash trigger).
    private(set) var name = ""
    private(set) var packets = 0
    private let channel: Int32

    init(channel: Int32) { self.channel = channel }

    /// Opens the container in `m`'s fd (taken over, closed with the session), or the one the
    /// viewer reads for it through the channel.
    func open(_ m: WorkerMessage) -> WorkerMessage {
        end()
        fd = m.fd
        name = m.text
        packets = 0
        let (opened, answer) = ContainerWork.open(m, channel: channel)
        work = opened
        return answer
    }

    /// The next packet the viewer asks for.
    func read(_ m: WorkerMessage) -> WorkerMessage {
        packets += 1
        return work?.read(m) ?? WorkerMessage(kind: .failure, text: "no container is open")
    }

    /// A seek in the open container.
    func seek(_ m: WorkerMessage) -> WorkerMessage {
        work?.seek(m) ?? WorkerMessage(kind: .failure, text: "no container is open")
    }

    /// Closes the session's container, if one is open.
    private func end() {
        work = nil
        if fd >= 0 { close(fd) }
        fd = -1
    }
}

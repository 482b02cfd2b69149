import CSandbox
import Glibc
import Playback

/// The track-preview session a worker serves: the video handed over with `previewOpen`,
/// held open with its demuxer and keyframe decoder between pictures, until the next open
/// or the worker's end.
final class PreviewServing {
    private var work: TrackPreviewer.Work?
    /// The file's descriptor, this worker's from the open on (the demuxer reads it); -1
    /// for web media, read through the channel.
    private var fd: Int32 = -1
    /// The reader of web media, which also hears the viewer's cancel while it waits.
    private var io: ChannelIO?
    /// The channel, watched while a picture is made: a newer message there means the
    /// viewer's pointer moved on.
    private let channel: Int32

    init(channel: Int32) { self.channel = channel }

    /// Opens the video in `m`'s fd (taken over, closed with the session), or the one the
    /// viewer reads for it, and answers its keyframe index, or a failure without text when
    /// it has no moving picture.
    func open(_ m: WorkerMessage) -> WorkerMessage {
        end()
        fd = m.fd
        let name = m.text.isEmpty ? "previews" : m.text
        guard let asked = PreviewRequest.opening(m) else {
            return WorkerMessage(kind: .failure, text: "\(name): the request was malformed")
        }
        let opened: TrackPreviewer.Work?
        switch asked.source {
        case .file:
            guard let size = SealedBytes.size(m.fd) else {
                return WorkerMessage(kind: .failure, text: "\(name): the request was malformed")
            }
            opened = TrackPreviewer.Work(fd: m.fd, size: size, name: m.text, width: asked.width, maxPixels: asked.maxPixels)
        case .channel(let size):
            guard let reader = ChannelIO(channel: channel, size: size) else {
                return WorkerMessage(kind: .failure, numbers: [Int64(ENOMEM)])
            }
            io = reader
            opened = reader.io.flatMap { TrackPreviewer.Work(io: $0, name: m.text, width: asked.width, maxPixels: asked.maxPixels) }
        }
        guard let opened else { return WorkerMessage(kind: .failure) }
        work = opened
        return PreviewRequest.index(opened.keyframes) ?? WorkerMessage(kind: .failure, numbers: [Int64(ENOMEM)])
    }

    /// The picture at the time `m` asks for; a failure without text when there is none
    /// within the bounds, or when the viewer asked something newer meanwhile.
    func picture(_ m: WorkerMessage) -> WorkerMessage {
        guard let work, let seconds = PreviewRequest.seconds(in: m) else {
            return WorkerMessage(kind: .failure, text: "previews: the request was malformed")
        }
        io?.startRequest()
        let picture = work.picture(at: seconds) { [channel, io] in
            sbx_message_waiting(channel) == 0 && io?.wasCancelled != true
        }
        return picture.flatMap(PreviewRequest.answer) ?? WorkerMessage(kind: .failure)
    }

    /// Closes the session's video, if one is open.
    private func end() {
        work = nil
        io = nil
        if fd >= 0 { close(fd) }
        fd = -1
    }
}

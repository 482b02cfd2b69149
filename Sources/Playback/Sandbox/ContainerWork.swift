import CFFmpeg
import FoundationEssentials
import Glibc
import Web

/// A video's or song's container read in a worker for the viewer's player (the worker's
/// side of `SandboxedContainer`): FFmpeg's demuxer over the file's descriptor, its packets
/// handed out one request at a time into the worker's packet memfd, and its text subtitles
/// decoded here into events.
package final class ContainerWork {
    private let demuxer: Demuxer
    private let streams: Int
    private let packet = Packet()
    /// The memfd packets are written into, and whether the viewer has it yet.
    private var area: (fd: Int32, fresh: Bool)?
    /// Packets of streams nobody asked for skipped at most per request, so one request
    /// cannot read on for ever through a track nobody plays.
    private static let skipped = 10_000

    /// Web media's reader through the channel, kept as long as the demuxer reads it.
    private let reader: ChannelIO?
    /// The text subtitle streams' decoders, by stream: their packets are decoded here and
    /// only the events cross to the viewer.
    private let subtitles: [Int: SubtitleDecoder]

    private init(demuxer: Demuxer, reader: ChannelIO?, subtitles: [Int: SubtitleDecoder]) {
        self.demuxer = demuxer
        self.reader = reader
        self.subtitles = subtitles
        streams = min(demuxer.streamCount, ContainerDescription.mostStreams)
    }

    deinit { if let area { close(area.fd) } }

    /// Opens the container the open request `m` names: the file in its fd (the caller's,
    /// read with pread while the session lives), or web media the viewer reads for the
    /// worker through `channel`, which may then open nothing else, not even a playlist's next
    /// part. The session and its answer, or the answer saying why not in one line.
    package static func open(_ m: WorkerMessage, channel: Int32) -> (ContainerWork?, WorkerMessage) {
        let name = m.text.isEmpty ? "the file" : m.text
        var reader: ChannelIO?
        let io: CustomIO?
        // A web playlist's address, whose parts are opened through the viewer.
        var playlist: String?
        switch (m.kind == .containerOpen ? m.numbers.first : nil, m.fd >= 0) {
        case (0?, true):
            io = SealedBytes.size(m.fd).flatMap { ReaderIO.descriptor(m.fd, size: Int64($0)) }
        case (1?, false) where m.numbers.count >= 2:
            reader = ChannelIO(channel: channel, size: max(-1, m.numbers[1]))
            io = reader?.io
        case (1?, true) where m.numbers.count >= 3 && m.numbers[2] > 0:
            guard let url = address(m.fd, count: m.numbers[2]) else {
                return (nil, WorkerMessage(kind: .failure, text: "\(name): the request was malformed"))
            }
            playlist = url
            reader = ChannelIO(channel: channel, size: max(-1, m.numbers[1]))
            io = reader?.io
        default:
            return (nil, WorkerMessage(kind: .failure, text: "\(name): the request was malformed"))
        }
        guard let io else { return (nil, WorkerMessage(kind: .failure, text: "\(name): out of memory")) }
        let d: Demuxer
        do {
            d = try Demuxer(url: playlist ?? (reader != nil ? "memory:" + name : name), options: SourceOptions(), io: io,
                            opener: playlist != nil ? ChannelOpener(channel: channel) : nil)
        } catch {
            return (nil, WorkerMessage(kind: .failure, numbers: [Int64(error.code)], text: error.message))
        }
        var description = ContainerDescription(d.ctx)
        var subtitles: [Int: SubtitleDecoder] = [:]
        for i in description.streams.indices where SubtitleDecoder.isText(d.stream(i)) {
            guard let decoder = try? SubtitleDecoder(stream: d.stream(i)) else { continue }
            subtitles[i] = decoder
            description.streams[i].subtitleHeader = decoder.header
        }
        guard let json = try? JSONEncoder().encode(description), json.count <= ContainerDescription.largest,
              let sealed = json.withUnsafeBytes({ SealedBytes.make([$0], name: "mediaview-container") }) else {
            return (nil, WorkerMessage(kind: .failure, text: "\(name): out of memory"))
        }
        return (ContainerWork(demuxer: d, reader: reader, subtitles: subtitles),
                WorkerMessage(kind: .containerOpened, numbers: [Int64(json.count)], fd: sealed))
    }

    /// The web address in the sealed memfd `fd`, `count` bytes long; nil unless it is one.
    private static func address(_ fd: Int32, count: Int64) -> String? {
        guard count <= 64 << 10, let p = SealedBytes.map(fd, count: Int(count)) else { return nil }
        defer { munmap(p, Int(count)) }
        let url = String(decoding: UnsafeRawBufferPointer(start: p, count: Int(count)), as: UTF8.self)
        return SourceOptions.isNetwork(url) ? url : nil
    }

    /// The next packet of a stream the read request `m` asks for, or the end, or why not.
    package func read(_ m: WorkerMessage) -> WorkerMessage {
        for _ in 0..<ContainerWork.skipped {
            cff_packet_unref(packet.raw)
            switch demuxer.read(into: packet) {
            case .packet:
                let index = packet.streamIndex
                guard index < streams, ContainerPackets.wants(m, index) else { continue }
                if let decoder = subtitles[index] {
                    let cues = decoder.decode(packet)
                    if cues.isEmpty { continue }
                    return SubtitleWork.cuesMessage(stream: index, cues)
                        ?? WorkerMessage(kind: .containerEnd, numbers: [2, Int64(cff_averror(ENOMEM))], text: "out of memory")
                }
                return ContainerPackets.message(packet.raw, area: &area)
                    ?? WorkerMessage(kind: .containerEnd, numbers: [2, Int64(cff_averror(ENOMEM))], text: "out of memory")
            case .again:
                return WorkerMessage(kind: .containerEnd, numbers: [1])
            case .endOfFile:
                return WorkerMessage(kind: .containerEnd, numbers: [0])
            case .failed(let e):
                return WorkerMessage(kind: .containerEnd, numbers: [2, Int64(e.code)], text: e.message)
            }
        }
        return WorkerMessage(kind: .containerEnd, numbers: [1])
    }

    /// Seeks to the time the request `m` asks for.
    package func seek(_ m: WorkerMessage) -> WorkerMessage {
        let seconds = m.numbers.first.map { Double(bitPattern: UInt64(bitPattern: $0)) } ?? 0
        return WorkerMessage(kind: .containerSeeked, numbers: [demuxer.seek(to: seconds.isFinite ? seconds : 0) ? 1 : 0])
    }
}

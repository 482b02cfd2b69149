import CFFmpeg
import CSandbox
import Glibc
import Subtitles

/// The checks the viewer makes on a container worker's answers, run on arbitrary bytes: what
/// the parser fuzzer calls, since a subverted worker may send anything.
package enum WorkerAnswerChecks {
    /// Takes `bytes` as a container description (JSON in a sealed memfd) and, when the
    /// checks pass, builds and frees the stand-in context; as a packet's subtitle events, as
    /// a subtitle file's script and as a frame's subtitle images (their count in the first
    /// two bytes); then as a packet message, its
    /// first nine numbers from the start of the bytes and the rest in the packet memfd.
    /// Traps when a check lets through what it must not.
    package static func check(_ bytes: [UInt8]) {
        if let fd = bytes.withUnsafeBytes({ SealedBytes.make([$0], name: "fuzz-description") }) {
            let m = WorkerMessage(kind: .containerOpened, numbers: [Int64(bytes.count)], fd: fd)
            if let d = SandboxedContainer.described(m) {
                precondition(d.isSound && d.streams.count <= ContainerDescription.mostStreams, "a description out of bounds was taken")
                if let c = SandboxedContainer.standIn(d) {
                    precondition(Int(c.pointee.nb_streams) == d.streams.count, "the stand-in lost a stream")
                    cff_standin_free(c)
                }
            }
            let cues = WorkerMessage(kind: .containerCues, numbers: [1, Int64(bytes.count)], fd: fd)
            if let found = SubtitleWork.cues(in: cues, subtitleStreams: [1]) {
                precondition(found.stream == 1 && bounded(found.cues), "subtitle events out of bounds were taken")
            }
            let script = WorkerMessage(kind: .subtitleScript, numbers: [Int64(bytes.count)], fd: fd)
            if let s = SubtitleWork.script(in: script) {
                precondition(bounded(s.cues) && s.header.utf8.count <= SubtitleWork.largestHeader, "a subtitle script out of bounds was taken")
            }
            if bytes.count >= 2, let mapping = SubtitleImages.Mapping(fd: fd) {
                let images = WorkerMessage(kind: .subtitleImages, numbers: [1, Int64(bytes[0]) << 8 | Int64(bytes[1]), Int64(bytes.count)])
                for p in SubtitleImages.parse(images, map: mapping.base, size: mapping.size) ?? [] {
                    precondition(p.offset >= 0 && p.width > 0 && p.height > 0 && p.offset + p.width * p.height <= mapping.size,
                                 "a subtitle image beyond its memfd was taken")
                }
            }
            close(fd)
        }
        guard bytes.count >= 72 else { return }
        let numbers = (0..<9).map { i in bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: i * 8, as: Int64.self) } }
        let body = bytes.dropFirst(72)
        let area = sbx_memfd("fuzz-packets")
        guard area >= 0 else { return }
        defer { close(area) }
        _ = Array(body).withUnsafeBytes { write(area, $0.baseAddress, $0.count) }
        let packet = Packet()
        if ContainerPackets.take(WorkerMessage(kind: .containerPacket, numbers: numbers), area: area, streams: 4, into: packet) {
            precondition(packet.size <= body.count && (0..<4).contains(packet.streamIndex), "a packet beyond its memfd was taken")
        }
    }

    /// Whether every event is one libass may be given: a finite time, a length a line has.
    private static func bounded(_ cues: [SubtitleCue]) -> Bool {
        cues.count <= SubtitleCues.maxCues && cues.allSatisfy {
            $0.start.isFinite && $0.duration.isFinite && $0.duration > 0 && $0.fields.utf8.count <= SubtitleWork.largestEvent
        }
    }
}

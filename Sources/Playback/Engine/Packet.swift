import CFFmpeg

/// Owns one `AVPacket`, freed in deinit.
///
/// Packets travel from the demux thread to a decode thread through a `BoundedQueue`; one
/// thread at a time touches a packet, which is what makes the `@unchecked Sendable` true.
/// Made and freed with libavutil alone (`cff_packet_alloc`), so a viewer that moves a
/// sandboxed worker's packets never loads libavcodec.
final class Packet: @unchecked Sendable {
    let raw: UnsafeMutablePointer<AVPacket>

    init() {
        guard let p = cff_packet_alloc() else { fatalError("out of memory allocating an AVPacket") }
        raw = p
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = raw
        cff_packet_free(&p)
    }

    var streamIndex: Int { Int(raw.pointee.stream_index) }
    var size: Int { Int(raw.pointee.size) }
}

import CFFmpeg
import CFrameShare

/// A film's first picture, decoded on its own and sent with the first packet.
///
/// The decoder that plays the film holds its first picture back: each frame thread adds a
/// packet of delay, and a stream with B-frames is reordered, so x264's defaults at 1080p
/// gave their first picture after the fourth packet, 26 ms of decoding on two cores, when
/// the keyframe alone decodes in 7 ms on one. The first keyframe is also given to a second,
/// single-threaded decoder, drained at once; its picture goes to the viewer ahead, and the
/// playing decoder's own picture of that keyframe, the same pixels, is not sent again. The
/// playing decoder then starts the keyframe's decoding time later, which a stream light
/// enough for one or two threads (up to 1080p at 30 frames a second) makes up before its
/// second picture is due; heavier streams, which need every thread, do without it.
extension StreamWork {
    /// The single-threaded decoder for the first picture, rendering into the same slots; nil
    /// when it cannot be opened (the playing decoder then shows the first picture itself).
    static func firstPictureDecoder(_ opened: StreamOpening.Opened, pool: OpaquePointer) -> Decoder? {
        try? Decoder(codec: opened.raw, timeBase: opened.timeBase, threads: 1, maxPixels: opened.maxPixels) { ctx in
            ctx.pointee.opaque = UnsafeMutableRawPointer(pool)
            ctx.pointee.get_buffer2 = cfs_get_buffer2
            ctx.pointee.thread_type = 0
        }
    }

    /// Decodes `packet`, when it is the stream's first keyframe, and sends its picture; false
    /// when the viewer is gone. The second decoder is let go either way.
    func sendAhead(_ packet: Packet, send: (WorkerMessage) -> Bool) -> Bool {
        guard let single = firstPicture else { return true }
        firstPicture = nil
        guard packet.raw.pointee.flags & AV_PKT_FLAG_KEY != 0, packet.raw.pointee.size > 0,
              single.send(packet) >= 0, single.send(nil) >= 0 else { return true }
        let frame = Frame()
        // A picture of one field of two (interlaced, coded as fields) is not a whole picture.
        guard case .frame = single.receive(into: frame), frame.raw.pointee.interlaced_frame == 0,
              frame.raw.pointee.pts != cff_nopts, let message = hand(frame) else { return true }
        sentAhead = frame.raw.pointee.pts
        let ok = send(message)
        if message.fd >= 0 { close(message.fd) }
        return ok
    }
}

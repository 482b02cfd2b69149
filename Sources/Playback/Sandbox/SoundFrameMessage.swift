import CFFmpeg
import CFrameShare
import MediaCore

/// Decoded sound as a `soundFrame` message carries it: where its planes lie in the slot,
/// and what the resampler reads of it.
///
/// Numbers: the frame's number (for the release), its slot, sample format, samples, sample
/// rate, channel count and order, channel mask, the first plane's offset, the stride from
/// one plane to the next, best-effort timestamp, duration, timestamp.
enum SoundFrameMessage {
    /// The message for a frame in a slot; nil when its planes are not evenly laid out.
    static func make(_ f: UnsafeMutablePointer<AVFrame>, number: Int64, place: cfs_place) -> WorkerMessage? {
        var place = place
        var offset: Int64 = 0, stride: Int64 = 0
        guard cfs_sound_layout(f, &place, &offset, &stride) == 0 else { return nil }
        let p = f.pointee
        let layout = p.ch_layout
        let mask = layout.order == AV_CHANNEL_ORDER_NATIVE ? Int64(bitPattern: layout.u.mask) : 0
        return WorkerMessage(kind: .soundFrame,
                             numbers: [number, place.slot, Int64(p.format), Int64(p.nb_samples), Int64(p.sample_rate),
                                       StreamOpening.pair(layout.nb_channels, Int32(bitPattern: layout.order.rawValue)), mask,
                                       offset, stride, p.best_effort_timestamp, p.pkt_duration, p.pts],
                             fd: place.fd)
    }

    /// The sound a message describes, over `slot`'s bytes, or nil when it does not fit the
    /// slot (nothing is read until it does).
    static func frame(_ m: WorkerMessage, slot: FrameSlot, release: FrameRelease) -> Frame? {
        let n = m.numbers
        let format = Int32(truncatingIfNeeded: n[2]), samples = Int32(truncatingIfNeeded: n[3])
        let channels = Int32(truncatingIfNeeded: n[5])
        guard n[3] == Int64(samples), n[5] & 0xFFFF_FFFF == Int64(channels), n[4] > 0, n[4] <= 768_000,
              cfs_fits_sound(format, channels, samples, n[7], n[8], slot.size) == 1 else { return nil }
        let frame = Frame()
        let f = frame.raw
        f.pointee.format = format
        f.pointee.nb_samples = samples
        f.pointee.sample_rate = Int32(n[4])
        let order = AVChannelOrder(rawValue: UInt32(truncatingIfNeeded: n[5] >> 32))
        if !(order == AV_CHANNEL_ORDER_NATIVE && n[6] != 0 && av_channel_layout_from_mask(&f.pointee.ch_layout, UInt64(bitPattern: n[6])) >= 0
             && f.pointee.ch_layout.nb_channels == channels) {
            av_channel_layout_default(&f.pointee.ch_layout, channels)
        }
        guard release.attach({ cfs_wrap_sound(f, slot.base, slot.size, n[7], n[8], $0, $1) }) else { return nil }
        f.pointee.best_effort_timestamp = n[9]
        f.pointee.pkt_duration = n[10]
        f.pointee.pts = n[11]
        return frame
    }
}

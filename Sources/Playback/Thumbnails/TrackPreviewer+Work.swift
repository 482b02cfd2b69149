import CFFmpeg
import Web

extension TrackPreviewer {
    /// The preview thread's demuxer and keyframe-only decoder; used by that thread alone.
    package final class Work {
        let demuxer: Demuxer
        let decoder: Decoder
        let stream: Int
        let width: Int
        let rotation: Int
        /// Keyframe times from the container's index, in order; empty when it has none.
        package let keyframes: [Double]
        /// Where the file's clock starts: an MPEG-TS recording starts at a second or more,
        /// while the track's places count from the start of the media.
        let startTime: Double
        /// Ends the blocking read or seek under way when the pointer moved on.
        let interrupt: Interrupt
        /// Packets read for one picture at most: a file with one keyframe an hour gives up
        /// rather than decode the hour.
        static let readBudget = 600
        /// Seconds one seek or read may block once the file is open: a file without an index
        /// is seeked by reading through it, which gives up rather than take longer.
        static let stepTimeout = 2.0

        /// Opens `url` for previews; nil when it has no moving picture to preview.
        convenience init?(url: String, options: SourceOptions, width: Int, interrupt: Interrupt) {
            guard let d = try? Demuxer(url: url, options: options, interrupt: interrupt) else { return nil }
            self.init(demuxer: d, width: width, maxPixels: options.maxPixels, interrupt: interrupt)
        }

        /// Opens the file behind `fd` (`size` bytes, read with `pread` only) for previews:
        /// what a sandboxed worker, which may open no path, is handed. nil when it has no
        /// moving picture to preview.
        package convenience init?(fd: Int32, size: Int, name: String, width: Int, maxPixels: Int) {
            guard let io = ReaderIO.descriptor(fd, size: Int64(size)) else { return nil }
            self.init(io: io, name: name, width: width, maxPixels: maxPixels)
        }

        /// Opens the video `io` reads (in a worker: a file's descriptor, or web media the
        /// viewer reads for it through the channel) for previews; nil when it has no moving
        /// picture to preview.
        package convenience init?(io: CustomIO, name: String, width: Int, maxPixels: Int) {
            var options = SourceOptions()
            options.maxPixels = maxPixels
            let interrupt = Interrupt(timeout: options.effectiveTimeout)
            guard let d = try? Demuxer(url: name, options: options, interrupt: interrupt, io: io) else { return nil }
            self.init(demuxer: d, width: width, maxPixels: maxPixels, interrupt: interrupt)
        }

        /// Previews from the opened `d`; nil when it has no moving picture to preview.
        init?(demuxer d: Demuxer, width: Int, maxPixels: Int, interrupt: Interrupt) {
            interrupt.setTimeout(Work.stepTimeout)
            self.interrupt = interrupt
            let v = av_find_best_stream(d.ctx, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
            guard v >= 0 else { return nil }
            let st = d.stream(Int(v))
            // Cover art is one picture: there is nothing to preview along the track.
            guard st.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0 else { return nil }
            for i in 0..<Int(d.ctx.pointee.nb_streams) where i != Int(v) {
                d.stream(i).pointee.discard = AVDISCARD_ALL
            }
            guard let dec = try? Decoder(stream: st, threads: 1, maxPixels: maxPixels) else { return nil }
            // Keyframes only: the picture a preview shows is the one a fast seek lands on.
            dec.ctx.pointee.skip_frame = AVDISCARD_NONKEY
            // Deblocking is invisible at 160 px and a good part of a keyframe's decode time.
            dec.ctx.pointee.skip_loop_filter = AVDISCARD_ALL
            let start = d.ctx.pointee.start_time
            let startSeconds = start == cff_nopts ? 0 : Double(start) / Double(AV_TIME_BASE)
            startTime = startSeconds
            demuxer = d
            decoder = dec
            stream = Int(v)
            self.width = width
            rotation = StreamFacts.rotation(of: st)
            let base = av_q2d(st.pointee.time_base)
            let count = Int(avformat_index_get_entries_count(st))
            var times: [Double] = []
            times.reserveCapacity(min(count, 100_000))
            for i in 0..<min(count, 100_000) {
                guard let e = avformat_index_get_entry(st, Int32(i)), e.pointee.flags & AVINDEX_KEYFRAME != 0 else { continue }
                times.append(Double(e.pointee.timestamp) * base - startSeconds)
            }
            keyframes = times.sorted()
        }

        /// The keyframe at or before `seconds`, scaled to the preview width; nil when the
        /// read budget runs out, the source fails, or `stillWanted` says the pointer moved on.
        package func picture(at seconds: Double, stillWanted: () -> Bool) -> VideoFrame? {
            var budget = 2 * Work.readBudget
            // A container without a keyframe index (MPEG-TS) seeks to a byte position, and what
            // follows it is often the middle of a group, so the first keyframe read lies past
            // the place: step back until the keyframe found is at or before it.
            for back in [0.0, 2, 6, 15, 40] {
                let target = max(0, seconds - back)
                let found = keyframe(at: target, budget: &budget, stillWanted: stillWanted)
                if let found, found.pts <= seconds + 0.05 || target == 0 { return found }
                if budget <= 0 || target == 0 || !stillWanted() { return found }
            }
            return nil
        }

        /// The first keyframe after a seek to `seconds`, scaled; reading at most `budget` packets.
        private func keyframe(at seconds: Double, budget: inout Int, stillWanted: () -> Bool) -> VideoFrame? {
            decoder.flush()
            // A seek by timestamp lands on the last packet at or before it, which at the very
            // start is a frame or two past the first keyframe; the file's own start is safe.
            guard demuxer.seek(to: seconds > 0 ? seconds + startTime : 0) else { return nil }
            let packet = Packet(), frame = Frame()
            while budget > 0 {
                budget -= 1
                guard stillWanted() else { return nil }
                switch demuxer.read(into: packet) {
                case .packet: break
                case .again: continue
                case .endOfFile: return drained(into: frame, at: seconds)
                case .failed: return nil
                }
                defer { cff_packet_unref(packet.raw) }
                guard packet.streamIndex == stream else { continue }
                _ = decoder.send(packet)
                if let picture = received(into: frame, at: seconds) { return picture }
                // Encoders' defaults (x264, x265, AV1) reorder frames, so a decoder holds a
                // keyframe back until later frames arrive; with every other frame skipped that
                // means the next keyframes, seconds of packets away. Draining brings it out now.
                if packet.raw.pointee.flags & AV_PKT_FLAG_KEY != 0 {
                    if let picture = drained(into: frame, at: seconds) { return picture }
                    decoder.flush()
                }
            }
            return nil
        }

        /// The decoded picture waiting in the decoder, scaled; nil when it has none yet.
        private func received(into frame: Frame, at seconds: Double) -> VideoFrame? {
            guard case .frame = decoder.receive(into: frame) else { return nil }
            let pts = decoder.seconds(frame.raw.pointee.best_effort_timestamp).map { $0 - startTime } ?? seconds
            return small(frame, pts: pts)
        }

        /// Ends the decoder's input so it gives up the pictures it holds for reordering.
        private func drained(into frame: Frame, at seconds: Double) -> VideoFrame? {
            _ = decoder.send(nil)
            return received(into: frame, at: seconds)
        }

        /// `frame` scaled to the preview width (height by its shape), as a frame of its own.
        private func small(_ frame: Frame, pts: Double) -> VideoFrame? {
            let src = frame.raw
            let sw = Int(src.pointee.width), sh = Int(src.pointee.height)
            guard sw > 0, sh > 0 else { return nil }
            let dw = min(width, sw), dh = max(2, (sh * dw / sw) & ~1)
            guard let out = av_frame_alloc() else { return nil }
            let owned = Frame(adopting: out)
            out.pointee.format = AV_PIX_FMT_YUV420P.rawValue
            out.pointee.width = Int32(dw & ~1)
            out.pointee.height = Int32(dh)
            out.pointee.sample_aspect_ratio = src.pointee.sample_aspect_ratio
            guard av_frame_get_buffer(out, 0) >= 0,
                  let sws = sws_getContext(Int32(sw), Int32(sh), AVPixelFormat(rawValue: src.pointee.format),
                                           out.pointee.width, out.pointee.height, AV_PIX_FMT_YUV420P,
                                           SWS_BILINEAR, nil, nil, nil) else { return nil }
            defer { sws_freeContext(sws) }
            guard sws_scale_frame(sws, out, src) >= 0 else { return nil }
            return VideoFrame(frame: owned, pts: pts, duration: 0, serial: 0, rotation: rotation)
        }
    }
}

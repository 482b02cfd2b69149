import CFFmpeg

/// Decodes the first picture of a file into RGBA bytes, at once, on the calling thread.
///
/// For small things the viewer draws itself (custom indicator icons, thumbnails), where
/// starting a whole player would be waste.
public enum StillDecoder {
    /// An RGBA picture: `width * height * 4` bytes, straight alpha.
    public struct RGBA: Sendable {
        public let width: Int
        public let height: Int
        public let pixels: [UInt8]
    }

    public static func decodeRGBA(url: String, options: SourceOptions = SourceOptions()) throws(AVError) -> RGBA {
        let d = try Demuxer(url: url, options: options)
        let v = av_find_best_stream(d.ctx, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard v >= 0 else { throw AVError(message: "\(Demuxer.displayName(url)): no picture in it") }
        let st = d.stream(Int(v))
        let w = Int(st.pointee.codecpar.pointee.width), h = Int(st.pointee.codecpar.pointee.height)
        guard w > 0, h > 0, w * h <= options.maxPixels else {
            throw AVError(message: "\(Demuxer.displayName(url)): picture size \(w)x\(h) refused")
        }
        let dec = try Decoder(stream: st, threads: 1, maxPixels: options.maxPixels)
        let packet = Packet()
        let frame = Frame()
        var sentEnd = false
        while true {
            switch dec.receive(into: frame) {
            case .frame:
                return convert(frame)
            case .endOfStream:
                throw AVError(message: "\(Demuxer.displayName(url)): no picture could be decoded")
            case .failed(let e):
                throw e
            case .needsInput:
                if sentEnd { throw AVError(message: "\(Demuxer.displayName(url)): no picture could be decoded") }
                switch d.read(into: packet) {
                case .packet:
                    if packet.streamIndex == Int(v) { _ = dec.send(packet) }
                    av_packet_unref(packet.raw)
                case .again:
                    continue
                case .endOfFile, .failed:
                    _ = dec.send(nil)
                    sentEnd = true
                }
            }
        }
    }

    private static func convert(_ frame: Frame) -> RGBA {
        let f = frame.raw
        let w = Int(f.pointee.width), h = Int(f.pointee.height)
        var out = [UInt8](repeating: 0, count: w * h * 4)
        let sws = sws_getContext(f.pointee.width, f.pointee.height, AVPixelFormat(rawValue: f.pointee.format),
                                 f.pointee.width, f.pointee.height, AV_PIX_FMT_RGBA, SWS_BICUBIC, nil, nil, nil)
        defer { sws_freeContext(sws) }
        out.withUnsafeMutableBufferPointer { buf in
            var dst: [UnsafeMutablePointer<UInt8>?] = [buf.baseAddress, nil, nil, nil]
            var stride: [Int32] = [Int32(w * 4), 0, 0, 0]
            withUnsafePointer(to: &f.pointee.data) { data in
                withUnsafePointer(to: &f.pointee.linesize) { sizes in
                    data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { src in
                        sizes.withMemoryRebound(to: Int32.self, capacity: 8) { srcStride in
                            _ = sws_scale(sws, src, srcStride, 0, f.pointee.height, &dst, &stride)
                        }
                    }
                }
            }
        }
        return RGBA(width: w, height: h, pixels: out)
    }
}

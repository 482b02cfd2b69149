import CFFmpeg
import MediaCore
import Web

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
        guard v >= 0 else { throw AVError(message: "\(SourceOptions.displayName(url)): no picture in it") }
        let st = d.stream(Int(v))
        let w = Int(st.pointee.codecpar.pointee.width), h = Int(st.pointee.codecpar.pointee.height)
        guard w > 0, h > 0, w * h <= options.maxPixels else {
            throw AVError(message: "\(SourceOptions.displayName(url)): picture size \(w)x\(h) refused")
        }
        let dec = try Decoder(stream: st, threads: 1, maxPixels: options.maxPixels)
        let frame = Frame()
        switch firstPicture(of: d, stream: Int(v), decoder: dec, into: frame) {
        case .picture: return convert(frame)
        case .none: throw AVError(message: "\(SourceOptions.displayName(url)): no picture could be decoded")
        case .failed(let e): throw e
        }
    }

    /// What decoding a stream up to its first picture came to.
    enum FirstPicture {
        /// The picture is in the frame.
        case picture
        /// The stream ended (or the budget ran out) without one.
        case none
        /// The decoder refused the data.
        case failed(AVError)
    }

    /// Feeds packets of stream `index` of `d` to `decoder` until the first picture is in
    /// `frame`, at most `budget` turns: a damaged file can feed packets that never make one.
    static func firstPicture(of d: Demuxer, stream index: Int, decoder: Decoder, into frame: Frame,
                             budget: Int = .max) -> FirstPicture {
        let packet = Packet()
        var sentEnd = false
        for _ in 0..<budget {
            switch decoder.receive(into: frame) {
            case .frame:
                return .picture
            case .endOfStream:
                return .none
            case .failed(let e):
                return .failed(e)
            case .needsInput:
                if sentEnd { return .none }
                switch d.read(into: packet) {
                case .packet:
                    if packet.streamIndex == index { _ = decoder.send(packet) }
                    cff_packet_unref(packet.raw)
                case .again:
                    continue
                case .endOfFile, .failed:
                    _ = decoder.send(nil)
                    sentEnd = true
                }
            }
        }
        return .none
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

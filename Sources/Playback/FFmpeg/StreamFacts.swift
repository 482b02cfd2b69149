import CFFmpeg

/// Facts about a container stream that FFmpeg keeps outside the codec parameters: how it
/// is turned, and its metadata tags. The player, the thumbnailer and the track previews
/// all show a phone video upright from the same answer.
enum StreamFacts {
    /// Clockwise degrees needed to show the stream upright, from its display matrix.
    static func rotation(of st: UnsafeMutablePointer<AVStream>) -> Int {
        guard let sd = cff_stream_side_data(st, AV_PKT_DATA_DISPLAYMATRIX) else { return 0 }
        let theta = -av_display_rotation_get(UnsafeRawPointer(sd).assumingMemoryBound(to: Int32.self))
        guard theta.isFinite else { return 0 }
        let r = Int((theta / 90).rounded()) * 90
        return ((r % 360) + 360) % 360
    }

    /// The metadata tag `key` of a stream, chapter or container; nil when absent or empty.
    static func tag(_ dict: OpaquePointer?, _ key: String) -> String? {
        guard let e = av_dict_get(dict, key, nil, 0), let v = e.pointee.value else { return nil }
        let s = String(cString: v)
        return s.isEmpty ? nil : s
    }
}

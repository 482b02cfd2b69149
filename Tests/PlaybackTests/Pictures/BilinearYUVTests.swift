import CFFmpeg
import CScale
import Testing
@testable import Playback

/// Video changing size on its way to the window goes through the scaler of our own: what it
/// shows must be what swscale's careful bilinear filter shows, in every matrix and range,
/// at sizes that do not divide evenly, and right to the last row and column.
@Suite struct BilinearYUVTests {
    /// A 4:2:0 frame of smooth ramps (luma across, chroma down and across) tagged as given,
    /// so every filter that reads the right samples agrees to within rounding.
    func ramps(width: Int, height: Int, space: AVColorSpace = AVCOL_SPC_BT709,
               range: AVColorRange = AVCOL_RANGE_MPEG) throws -> Frame {
        let frame = Frame()
        let f = frame.raw
        f.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        f.pointee.colorspace = space
        f.pointee.color_range = range
        try #require(av_frame_get_buffer(f, 0) >= 0)
        for y in 0..<height {
            for x in 0..<width {
                f.pointee.data.0![y * Int(f.pointee.linesize.0) + x] = UInt8(16 + 219 * x / max(1, width - 1))
            }
        }
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        for y in 0..<ch {
            for x in 0..<cw {
                f.pointee.data.1![y * Int(f.pointee.linesize.1) + x] = UInt8(40 + 176 * y / max(1, ch - 1))
                f.pointee.data.2![y * Int(f.pointee.linesize.2) + x] = UInt8(216 - 176 * x / max(1, cw - 1))
            }
        }
        return frame
    }

    /// BGRX pixels of `frame` drawn `width` x `height` by the player's scaler for moving video.
    func ours(_ frame: Frame, width: Int, height: Int) -> [UInt32] {
        var px = [UInt32](repeating: 0, count: width * height)
        px.withUnsafeMutableBytes { raw in
            let t = ImageTarget(base: raw.baseAddress!, width: width, height: height, stride: width * 4)
            let v = VideoFrame(frame: frame, pts: 0, duration: 0, serial: 0, rotation: 0)
            Scaler().render(v, into: t, rect: PixelRect(x: 0, y: 0, width: width, height: height), quality: .fast, rotation: 0)
        }
        return px
    }

    /// The same by swscale with bilinear filtering, accurate rounding and full chroma, told
    /// the frame's matrix and range as the player tells it.
    func reference(_ frame: Frame, width: Int, height: Int) throws -> [UInt32] {
        let f = frame.raw
        let sws = try #require(sws_getContext(f.pointee.width, f.pointee.height, AVPixelFormat(rawValue: f.pointee.format),
                                              Int32(width), Int32(height), AV_PIX_FMT_BGR0,
                                              SWS_BILINEAR | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nil, nil, nil))
        defer { sws_freeContext(sws) }
        SourceColour(of: f).apply(to: sws)
        var px = [UInt32](repeating: 0, count: width * height)
        px.withUnsafeMutableBytes { raw in
            var dst: [UnsafeMutablePointer<UInt8>?] = [raw.baseAddress!.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
            var stride: [Int32] = [Int32(width * 4), 0, 0, 0]
            let src: [UnsafePointer<UInt8>?] = [UnsafePointer(f.pointee.data.0), UnsafePointer(f.pointee.data.1),
                                                UnsafePointer(f.pointee.data.2), nil]
            let lines: [Int32] = [f.pointee.linesize.0, f.pointee.linesize.1, f.pointee.linesize.2, 0]
            _ = sws_scale(sws, src, lines, 0, f.pointee.height, &dst, &stride)
        }
        return px
    }

    /// The largest difference in any channel, and where it is.
    func worst(_ a: [UInt32], _ b: [UInt32], width: Int) -> (diff: Int, x: Int, y: Int) {
        var best = (diff: 0, x: 0, y: 0)
        for i in a.indices {
            for shift in [0, 8, 16] {
                let d = abs(Int((a[i] >> UInt32(shift)) & 0xFF) - Int((b[i] >> UInt32(shift)) & 0xFF))
                if d > best.diff { best = (d, i % width, i / width) }
            }
        }
        return best
    }

    @Test("Shrunk, enlarged and odd-sized video shows what swscale's bilinear shows",
          arguments: [(1920, 1080, 1280, 720), (1280, 720, 1920, 1080), (1919, 1079, 641, 359),
                      (640, 360, 427, 240), (321, 241, 213, 161)])
    func matchesSwscale(size: (Int, Int, Int, Int)) throws {
        let frame = try ramps(width: size.0, height: size.1)
        let mine = ours(frame, width: size.2, height: size.3)
        let theirs = try reference(frame, width: size.2, height: size.3)
        let w = worst(mine, theirs, width: size.2)
        // Bilinear from the same samples: a few levels of rounding and chroma siting.
        #expect(w.diff <= 6, "\(size): \(w.diff) levels apart at (\(w.x), \(w.y))")
    }

    /// swscale is no reference for a source a few pixels wide (it shows blocks), so there
    /// each corner of the enlarged picture, whose centre lies beyond the source's corner
    /// pixel's, is checked against that pixel converted at its own size: the taps reach the
    /// last row and column and never past them.
    @Test("A picture three pixels wide, enlarged, keeps its corner colours at its corners",
          arguments: [(3, 3, 17, 9), (4, 3, 11, 7), (5, 6, 12, 31)])
    func tinyCorners(size: (Int, Int, Int, Int)) throws {
        let frame = try ramps(width: size.0, height: size.1)
        let mine = ours(frame, width: size.2, height: size.3)
        let own = try reference(frame, width: size.0, height: size.1)
        for (cx, cy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let got = mine[cy * (size.3 - 1) * size.2 + cx * (size.2 - 1)]
            let want = own[cy * (size.1 - 1) * size.0 + cx * (size.0 - 1)]
            let d = worst([got], [want], width: 1).diff
            #expect(d <= 6, "\(size) corner (\(cx), \(cy)): \(String(got, radix: 16)) against \(String(want, radix: 16))")
        }
    }

    @Test("Every matrix and range the player reads comes out as swscale converts it",
          arguments: [(AVCOL_SPC_BT709, AVCOL_RANGE_MPEG), (AVCOL_SPC_BT709, AVCOL_RANGE_JPEG),
                      (AVCOL_SPC_SMPTE170M, AVCOL_RANGE_MPEG), (AVCOL_SPC_BT470BG, AVCOL_RANGE_JPEG),
                      (AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_MPEG)])
    func matricesAndRanges(tags: (AVColorSpace, AVColorRange)) throws {
        let frame = try ramps(width: 960, height: 540, space: tags.0, range: tags.1)
        let w = worst(ours(frame, width: 640, height: 360), try reference(frame, width: 640, height: 360), width: 640)
        #expect(w.diff <= 6, "\(tags): \(w.diff) levels apart at (\(w.x), \(w.y))")
    }

    @Test("Limited-range white and black stay pure once scaled, with no rim at the edges")
    func whiteAndBlackArePure() throws {
        for (luma, want) in [(UInt8(235), UInt32(0xFFFF_FFFF)), (16, 0xFF00_0000)] {
            let frame = try ramps(width: 1920, height: 1080)
            let f = frame.raw
            for plane in 0..<3 {
                let base = plane == 0 ? f.pointee.data.0! : plane == 1 ? f.pointee.data.1! : f.pointee.data.2!
                let stride = Int(plane == 0 ? f.pointee.linesize.0 : plane == 1 ? f.pointee.linesize.1 : f.pointee.linesize.2)
                let rows = plane == 0 ? 1080 : 540
                for y in 0..<rows { (base + y * stride).initialize(repeating: plane == 0 ? luma : 128, count: stride) }
            }
            let px = ours(frame, width: 1280, height: 720)
            let off = px.indices.filter { px[$0] != want }
            #expect(off.isEmpty, "\(off.count) pixels are not \(String(want, radix: 16)), first at \(off.first.map { ($0 % 1280, $0 / 1280) } as Any)")
        }
    }

    /// Two rows of noise `width` long: any tap that reads the wrong sample shows.
    static func noiseRows(_ width: Int, seed start: UInt32 = 12345) -> [[UInt8]] {
        var seed = start
        return (0..<2).map { _ in (0..<width).map { _ -> UInt8 in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: seed >> 24)
        } }
    }

    @Test("Processors without SSSE3 resample the same rows as those with it",
          arguments: [(1920, 1280), (1280, 1920), (641, 427), (17, 9)])
    func plainLoopMatchesShuffles(size: (Int, Int)) throws {
        try #require(BilinearYUV.Taps.best != CSCALE_PLAIN, "this processor has no SSSE3 to compare with")
        let rows = Self.noiseRows(size.0)
        let shuffled = BilinearYUV.Taps(from: size.0, to: size.1, form: CSCALE_SHUFFLE)
        let plain = BilinearYUV.Taps(from: size.0, to: size.1, form: CSCALE_PLAIN)
        #expect(plain.groups.isEmpty && shuffled.groups.count == size.1 / 8)
        for below in [0, 96, 256] {
            var a = [UInt8](repeating: 0, count: size.1), b = a
            BilinearYUV.resample(rows[0], rows[1], below: below, taps: shuffled, into: &a)
            BilinearYUV.resample(rows[0], rows[1], below: below, taps: plain, into: &b)
            // The shuffled form weighs in 1/64, the plain loop in 1/256.
            let worst = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 3, "\(size), \(below)/256 down: \(worst) levels apart")
        }
    }

    /// Sizes whose rows end inside a pair of groups, and shrinks of 2:1 and more, where some
    /// groups' pairs do not fit in 16 bytes and take the plain loop's way in both forms.
    @Test("Processors with AVX2 resample exactly the rows that SSSE3 does",
          arguments: [(1920, 1280), (1280, 1920), (641, 427), (1920, 640), (3840, 1000), (17, 9), (40, 24), (100, 8)])
    func wideMatchesShuffles(size: (Int, Int)) throws {
        try #require(BilinearYUV.Taps.best == CSCALE_WIDE, "this processor has no AVX2 to compare with")
        let rows = Self.noiseRows(size.0, seed: 777)
        let wide = BilinearYUV.Taps(from: size.0, to: size.1, form: CSCALE_WIDE)
        let shuffled = BilinearYUV.Taps(from: size.0, to: size.1, form: CSCALE_SHUFFLE)
        for below in [0, 1, 96, 255, 256] {
            var a = [UInt8](repeating: 0, count: size.1), b = a
            BilinearYUV.resample(rows[0], rows[1], below: below, taps: wide, into: &a)
            BilinearYUV.resample(rows[0], rows[1], below: below, taps: shuffled, into: &b)
            let differ = zip(a, b).filter { $0 != $1 }.count
            #expect(differ == 0, "\(size), \(below)/256 down: \(differ) of \(size.1) samples differ")
        }
    }

    @Test("Every form of the conversion makes the same pixels, in either range",
          arguments: [1, 7, 8, 15, 16, 17, 31, 33, 1280])
    func conversionFormsAgree(count: Int) throws {
        let rows = Self.noiseRows(4 * count + 64, seed: UInt32(count))
        // Chroma terms as large as full-range BT.2020 makes them, both signs.
        let terms = (0..<3).map { k in (0..<count + 16).map { i in Int16(Int(rows[1][3 * i + k]) * 90 - 11_500) } }
        let tagged = [try ramps(width: 4, height: 4), try ramps(width: 4, height: 4, space: AVCOL_SPC_BT2020_NCL, range: AVCOL_RANGE_JPEG)]
        for frame in tagged {
            let m = BilinearYUV.Coefficients(SourceColour(of: frame.raw))
            let forms = [CSCALE_PLAIN, CSCALE_SHUFFLE, CSCALE_WIDE].filter { $0.rawValue <= BilinearYUV.Taps.best.rawValue }
            // Into a destination aligned as the shared image's rows are (written around the
            // caches) and into one that is not (written as usual).
            let made = forms.flatMap { form in [0, 4].map { offset in
                let raw = UnsafeMutableRawPointer.allocate(byteCount: 4 * (count + 16) + offset, alignment: 64)
                defer { raw.deallocate() }
                raw.initializeMemory(as: UInt8.self, repeating: 0, count: 4 * (count + 16) + offset)
                let out = (raw + offset).assumingMemoryBound(to: UInt32.self)
                BilinearYUV.convertRow(luma: rows[0], red: terms[0], green: terms[1], blue: terms[2], matrix: m,
                                       form: form, into: out, count: count)
                return (form, Array(UnsafeBufferPointer(start: out, count: count + 16)))
            } }
            for (form, pixels) in made {
                let differ = zip(pixels, made[0].1).filter { $0 != $1 }.count
                #expect(differ == 0, "form \(form.rawValue), \(count) pixels: \(differ) differ from the plain loop")
                #expect(pixels[count...].allSatisfy { $0 == 0 }, "form \(form.rawValue) wrote past \(count) pixels")
            }
        }
    }
}

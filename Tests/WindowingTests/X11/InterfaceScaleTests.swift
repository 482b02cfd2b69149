import Testing
@testable import Windowing

/// The interface scale from what desktops set: `Xft.dpi` in the resource database, else a
/// monitor's physical size when it is believable.
@Suite struct InterfaceScaleTests {
    @Test("Xft.dpi 96, 144 and 192 are 1x, 1.5x and 2x; values between go to the nearest")
    func fromDPI() {
        for (dpi, percent) in [(96.0, 100), (110, 100), (120, 150), (144, 150), (168, 200), (192, 200), (288, 200), (72, 100)] {
            #expect(InterfaceScale(dpi: dpi)?.percent == percent, "\(dpi) dpi")
        }
        #expect(InterfaceScale.two.px(14) == 28 && InterfaceScale.oneAndHalf.px(14) == 21 && InterfaceScale.one.px(14) == 14)
        #expect(InterfaceScale.oneAndHalf.px(3) == 5, "rounded, not cut")
        #expect(InterfaceScale.oneAndHalf.description == "1.5x" && InterfaceScale.two.description == "2x")
    }

    @Test("The resource database's Xft.dpi line is found; the last one wins; garbage is called invalid")
    func resourceLines() {
        #expect(InterfaceScale.resourceDPI(in: "") == .unset)
        #expect(InterfaceScale.resourceDPI(in: "Xft.antialias:\t1\nXft.dpi:\t192\nXft.hinting:\t1\n") == .dpi(192))
        #expect(InterfaceScale.resourceDPI(in: "Xft.dpi: 96\nXft.dpi: 144\n") == .dpi(144))
        #expect(InterfaceScale.resourceDPI(in: "  Xft.dpi :  120.5  \r\n") == .dpi(120.5))
        #expect(InterfaceScale.resourceDPI(in: "Xft.dpiScale: 7\n") == .unset, "another resource")
        #expect(InterfaceScale.resourceDPI(in: "Xft.dpi: banana\n") == .invalid("banana"))
        #expect(InterfaceScale.resourceDPI(in: "Xft.dpi:\n") == .invalid(""))
        #expect(InterfaceScale.resourceDPI(in: "Xft.dpi: -96\n") == .invalid("-96"))
        #expect(InterfaceScale.resourceDPI(in: "Xft.dpi: nan\n") == .invalid("nan"))
        #expect(InterfaceScale.resourceDPI(in: "Xft.dpi: 1e300\n") == .invalid("1e300"))
        #expect(InterfaceScale(factor: .nan) == nil && InterfaceScale(factor: 0) == nil && InterfaceScale(dpi: -1) == nil)
    }

    @Test("A monitor's millimetres count only when they look like a real screen's")
    func monitorSizes() {
        // A 27" 4K monitor: 597 x 336 mm, 163 dpi.
        let uhd = InterfaceScale.monitorDPI(widthPixels: 3840, heightPixels: 2160, widthMM: 597, heightMM: 336)
        #expect(uhd.map { Int($0) } == 163)
        #expect(uhd.flatMap { InterfaceScale(dpi: $0) } == .oneAndHalf)
        // A 24" 1080p monitor: 96 dpi or so.
        #expect(InterfaceScale.monitorDPI(widthPixels: 1920, heightPixels: 1080, widthMM: 531, heightMM: 299).flatMap { InterfaceScale(dpi: $0) } == .one)
        #expect(InterfaceScale.monitorDPI(widthPixels: 1920, heightPixels: 1080, widthMM: 0, heightMM: 0) == nil, "no size")
        #expect(InterfaceScale.monitorDPI(widthPixels: 1920, heightPixels: 1080, widthMM: 1600, heightMM: 900) == nil, "a TV's made-up size")
        #expect(InterfaceScale.monitorDPI(widthPixels: 1920, heightPixels: 1080, widthMM: 160, heightMM: 160) == nil, "wrong shape")
        #expect(InterfaceScale.monitorDPI(widthPixels: 1920, heightPixels: 1080, widthMM: 16, heightMM: 9) == nil, "centimetres, not millimetres")
    }
}

import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// The gallery says where the highlight is in the whole queue ("1 / 5") at its top right.
    @Suite struct GalleryPosition {
        @Test func theGridShowsThePositionAtTheTopRight() throws {
            let g = try Gallery.show(try Gallery.folder(), cache: try Scratch.directory("gallery-pos-cache"))
            let probe = try ScreenProbe()
            // White text on a dark pill, in the corner where no cell label (light grey) is.
            let shown = g.window.waitFor(probe) { img in
                img.fraction(matching: 0xFFFFFF, x: 700, y: 0, width: 100, height: 40, tolerance: 16) > 0.01
                    && img.fraction(matching: 0x000000, x: 700, y: 0, width: 100, height: 40, tolerance: 24) > 0.2
            }
            #expect(shown != nil, "no position at the gallery's top right")
            #expect(try g.quit()?.status == 0)
        }
    }
}

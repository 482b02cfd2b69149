import Foundation
import Testing
import TestSupport
import Viewer

// README-EXAMPLE-BEGIN
@MainActor func showClip(delegate: MediaViewDelegate) {
    let view = MediaView()
    view.setVideo(url: "https://example.org/clip.mp4", thumbnailUrl: "https://example.org/clip.jpg")
    view.setTitle("Clip", details: "from the web")
    view.swipeMode = .minimize
    view.delegate = delegate
    MediaQueue.shared.queue(mediaView: view)
    MediaQueue.shared.run()
}
// README-EXAMPLE-END

/// The README's library example is compiled here, and this test keeps the two texts the same.
@Suite
struct ReadmeExampleTests {
    @Test("The README shows exactly the example that this file compiles")
    func sameText() throws {
        let here = try String(contentsOfFile: #filePath, encoding: .utf8)
        let readme = try String(contentsOfFile: Run.repositoryRoot + "/README.md", encoding: .utf8)
        let begin = try #require(here.range(of: "// README-EXAMPLE-BEGIN\n"))
        let end = try #require(here.range(of: "// README-EXAMPLE-END"))
        let code = String(here[begin.upperBound..<end.lowerBound])
        #expect(code.split(separator: "\n").count >= 8)
        #expect(readme.contains("```swift\nimport Viewer\n\n" + code + "```"), "README example differs from the compiled one")
    }
}

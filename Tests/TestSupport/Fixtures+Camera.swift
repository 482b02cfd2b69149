import Foundation

/// Files as a camera and a music library make them: a JPEG with the EXIF a phone writes
/// (date, camera, lens, exposure, GPS) and an MP3 with its ID3 title, artist and album.
extension Fixtures {
    /// A 320x240 red JPEG taken "2024:07:14 18:22:05" with a Canon EOS R5 and an RF 35mm
    /// lens at f/1.8, 1/250 s, ISO 100, 35 mm, at 48.8584° N, 2.2945° E (exiftool writes it).
    public static func cameraPhoto() throws -> String {
        let plain = try solidImage("red", ext: "jpg")
        return try tool("camera-r5.jpg", "sh") { out in
            ["-c", "cp \"$0\" \"$1\" && exiftool -q -overwrite_original -DateTimeOriginal='2024:07:14 18:22:05' "
                + "-Make=Canon -Model='Canon EOS R5' -LensModel='RF35mm F1.8 MACRO IS STM' -FNumber=1.8 "
                + "-ExposureTime=1/250 -ISO=100 -FocalLength=35 -GPSLatitude=48.8584 -GPSLatitudeRef=N "
                + "-GPSLongitude=2.2945 -GPSLongitudeRef=E \"$1\"", plain, out]
        }
    }

    /// Two seconds of a 440 Hz tone as an MP3 tagged title "Morning Light", artist "The
    /// Test Band", album "Fixtures".
    public static func taggedSong() throws -> String {
        try make("tagged-song.mp3", ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=2",
                                     "-metadata", "title=Morning Light", "-metadata", "artist=The Test Band",
                                     "-metadata", "album=Fixtures", "-id3v2_version", "3"])
    }
}

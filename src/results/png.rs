//! PNG figures drawn in memory and encoded to bytes, so that they are written
//! like every other output file (through
//! [`write_atomic`](super::table::write_atomic): a temporary name unique to
//! the process and call, removed on error and on an interruption). Drawing
//! straight into a file would need a temporary name ending in `.png` (the
//! encoder picks the format from the extension) that concurrent writers
//! share, and it leaves that file behind when the disk is full.

use plotters::coord::Shift;
use plotters::prelude::*;

/// Encode an RGB image (`w * h * 3` bytes, rows top to bottom) as PNG, with
/// the settings plotters' file backend uses (fast compression, adaptive
/// filter), so that the bytes are the same as drawing into a `.png` file.
pub fn encode_rgb(rgb: &[u8], w: u32, h: u32) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::Fast);
    enc.set_filter(png::FilterType::Sub);
    enc.set_adaptive_filter(png::AdaptiveFilterType::Adaptive);
    let mut writer = enc.write_header().map_err(|e| e.to_string())?;
    writer.write_image_data(rgb).map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(out)
}

/// Draw a `w` x `h` image with `draw` into memory and return it as PNG bytes.
pub fn draw_png(
    (w, h): (u32, u32),
    draw: impl FnOnce(DrawingArea<BitMapBackend<'_>, Shift>) -> Result<(), String>,
) -> Result<Vec<u8>, String> {
    let mut rgb = vec![0u8; w as usize * h as usize * 3];
    draw(BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area())?;
    encode_rgb(&rgb, w, h)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picture<DB: DrawingBackend>(root: DrawingArea<DB, Shift>) -> Result<(), String> {
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        root.draw(&Rectangle::new([(5, 5), (40, 30)], RED.filled()))
            .map_err(|e| e.to_string())?;
        root.draw(&Circle::new((60, 40), 12, BLUE.stroke_width(2)))
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())
    }

    /// The bytes are those plotters writes into a `.png` file itself, so
    /// stored figures do not change.
    #[test]
    fn in_memory_png_matches_the_file_backend_byte_for_byte() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("p.png");
        picture(BitMapBackend::new(&file, (80, 60)).into_drawing_area()).unwrap();
        // A closure: `picture` alone is generic over one backend lifetime,
        // not every one as `draw_png` asks.
        #[allow(clippy::redundant_closure)]
        let mine = draw_png((80, 60), |area| picture(area)).unwrap();
        assert_eq!(mine, std::fs::read(&file).unwrap());
    }
}

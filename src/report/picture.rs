//! Pictures for every rule set: each draws its board or table as SVG with
//! the project's font family; [`png`] rasterises any of them with resvg and
//! the font the project ships (no system fonts are needed or used).
//!
//! ```
//! let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><text x="1" y="9" font-size="8">A</text></svg>"#;
//! assert!(umpire::report::picture::png(svg).unwrap().starts_with(b"\x89PNG"));
//! ```

/// The font every picture uses (DejaVu Sans Condensed, shipped in templates/fonts).
const FONT: &[u8] = include_bytes!("../../templates/fonts/DejaVuSansCondensed.ttf");
/// The font family pictures name in their SVG.
pub const FONT_FAMILY: &str = "DejaVu Sans";

/// Pixels per inch of a continuous table (the Hyborean Age, FR! Ancients).
pub const SCALE: f64 = 10.0;
/// Margin around the table, pixels.
pub const MARGIN: f64 = 20.0;

/// A continuous table's coordinates (inches, y north) to picture pixels
/// (y down), for a table `depth` inches deep.
pub struct Frame {
    pub depth: f64,
}

impl Frame {
    /// The pixel of a point of the table.
    pub fn p(&self, v: glam::DVec2) -> (f64, f64) {
        (MARGIN + v.x * SCALE, MARGIN + (self.depth - v.y) * SCALE)
    }

    /// An SVG `points` list of table points.
    pub fn points(&self, pts: &[glam::DVec2]) -> String {
        pts.iter()
            .map(|v| {
                let (x, y) = self.p(*v);
                format!("{x:.1},{y:.1}")
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Errors rasterising a picture.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw the picture: {0}")]
pub struct PictureError(String);

/// Rasterise an SVG picture to PNG.
///
/// # Errors
/// When the SVG is not valid (a bug) or the image cannot be encoded.
pub fn png(svg: &str) -> Result<Vec<u8>, PictureError> {
    use resvg::{tiny_skia, usvg};
    let mut opt = usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        ..usvg::Options::default()
    };
    opt.fontdb_mut().load_font_data(FONT.to_vec());
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| PictureError(e.to_string()))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| PictureError("empty picture".into()))?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| PictureError(e.to_string()))
}

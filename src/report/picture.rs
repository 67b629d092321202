//! Pictures for every rule set: each draws its board or table as SVG with
//! the project's font family; [`png`] rasterises any of them with resvg and
//! the font the project ships (no system fonts are needed or used).
//!
//! ```
//! let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><text x="1" y="9" font-size="8">A</text></svg>"#;
//! assert!(umpire::report::picture::png(svg).unwrap().starts_with(b"\x89PNG"));
//! ```

pub use super::labels::FONT_FAMILY;
use super::labels::{TextBox, FONT};
use resvg::tiny_skia::Pixmap;

/// Pixels per inch of a continuous table (the Hyborean Age, FR! Ancients).
pub const SCALE: f64 = 10.0;
/// Margin around the table, pixels.
pub const MARGIN: f64 = 20.0;

/// A continuous table's coordinates (inches, y north) to picture pixels
/// (y down), for a table `depth` inches deep drawn `scale` pixels an inch
/// with its north-west corner at (`left`, `top`).
pub struct Frame {
    pub depth: f64,
    pub scale: f64,
    pub left: f64,
    pub top: f64,
}

impl Frame {
    /// The frame at [`SCALE`] with a [`MARGIN`] all round.
    pub fn standard(depth: f64) -> Frame {
        Frame {
            depth,
            scale: SCALE,
            left: MARGIN,
            top: MARGIN,
        }
    }

    /// The pixel of a point of the table.
    pub fn p(&self, v: glam::DVec2) -> (f64, f64) {
        (
            self.left + v.x * self.scale,
            self.top + (self.depth - v.y) * self.scale,
        )
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

/// The rasteriser's options: the shipped font and nothing else.
fn options() -> resvg::usvg::Options<'static> {
    // The font is parsed once per process, not once per picture.
    static FONTS: std::sync::OnceLock<std::sync::Arc<resvg::usvg::fontdb::Database>> =
        std::sync::OnceLock::new();
    let fontdb = FONTS
        .get_or_init(|| {
            let mut db = resvg::usvg::fontdb::Database::new();
            db.load_font_data(without_table(FONT, *b"kern"));
            std::sync::Arc::new(db)
        })
        .clone();
    resvg::usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        fontdb,
        ..resvg::usvg::Options::default()
    }
}

/// The font `sfnt` without its table `tag`: the data stays where it is,
/// only the directory no longer lists it.
///
/// Why: the shaper builds a cache of the legacy `kern` table for every
/// text it lays out, a third of a picture's text time (issue 24's
/// profile), and never uses it, since the font's `GPOS` table has its own
/// kerning and takes precedence; without `kern` the glyphs are placed
/// exactly as before (`the_legacy_kern_table_changes_nothing_drawn`).
fn without_table(sfnt: &[u8], tag: [u8; 4]) -> Vec<u8> {
    const HEADER: usize = 12;
    const RECORD: usize = 16;
    let mut font = sfnt.to_vec();
    let tables = usize::from(u16::from_be_bytes([font[4], font[5]]));
    let Some(k) = (0..tables).find(|i| font[HEADER + i * RECORD..][..4] == tag) else {
        return font;
    };
    let end = HEADER + tables * RECORD;
    font.copy_within(HEADER + (k + 1) * RECORD..end, HEADER + k * RECORD);
    font[end - RECORD..end].fill(0);
    let tables = tables - 1;
    // The binary-search hints of the header (OpenType's table directory).
    let power = 1usize << (usize::BITS - 1 - tables.leading_zeros());
    let fields = [
        tables,
        power * RECORD,
        power.trailing_zeros() as usize,
        (tables - power) * RECORD,
    ];
    for (i, v) in fields.into_iter().enumerate() {
        font[4 + 2 * i..6 + 2 * i].copy_from_slice(&(v as u16).to_be_bytes());
    }
    font
}

/// Every text of a picture with the box the rasteriser lays it out in, and
/// the picture's own box: what a test checks labels against (inside the
/// picture, never on one another), measured by the renderer itself rather
/// than by the code that placed them.
///
/// # Errors
/// When the SVG is not valid.
pub fn text_boxes(svg: &str) -> Result<(TextBox, Vec<(String, TextBox)>), PictureError> {
    use resvg::usvg;
    fn walk(g: &usvg::Group, out: &mut Vec<(String, TextBox)>) {
        for node in g.children() {
            match node {
                usvg::Node::Group(g) => walk(g, out),
                usvg::Node::Text(t) => {
                    let b = t.abs_bounding_box();
                    let text: String = t.chunks().iter().map(|c| c.text()).collect();
                    out.push((
                        text,
                        TextBox {
                            x0: f64::from(b.left()),
                            y0: f64::from(b.top()),
                            x1: f64::from(b.right()),
                            y1: f64::from(b.bottom()),
                        },
                    ));
                }
                _ => {}
            }
        }
    }
    let tree = tree(svg)?;
    let size = tree.size();
    let mut out = Vec::new();
    walk(tree.root(), &mut out);
    let whole = TextBox {
        x0: 0.0,
        y0: 0.0,
        x1: f64::from(size.width()),
        y1: f64::from(size.height()),
    };
    Ok((whole, out))
}

/// What is wrong with a picture's texts: any outside the picture, any two
/// on one another (sharing more than a hair: anti-aliasing's half pixel).
///
/// # Errors
/// When the SVG is not valid.
pub fn label_faults(svg: &str) -> Result<Vec<String>, PictureError> {
    let (whole, boxes) = text_boxes(svg)?;
    let mut faults = Vec::new();
    for (text, b) in &boxes {
        if !whole.holds(b) {
            faults.push(format!("'{text}' is outside the picture: {b:?}"));
        }
    }
    let shrink = |b: &TextBox| TextBox {
        x0: b.x0 + 0.5,
        y0: b.y0 + 0.5,
        x1: b.x1 - 0.5,
        y1: b.y1 - 0.5,
    };
    for (i, (ta, a)) in boxes.iter().enumerate() {
        for (tb, b) in &boxes[i + 1..] {
            if shrink(a).overlaps(&shrink(b)) {
                faults.push(format!("'{ta}' and '{tb}' overlap"));
            }
        }
    }
    Ok(faults)
}

/// Where a picture's ground begins: what is drawn first and is the same
/// every turn of a game (and in every game of a scenario): the table, its
/// terrain, the grid and its numbers, the keys that never change. A rule
/// set that marks its ground ([`GROUND_END`] after it) has it rasterised
/// once and kept ([`png`]); everything before this mark (the `<svg>` tag
/// and `<defs>`) belongs to both parts.
pub const GROUND: &str = "<!-- the ground -->\n";
/// Where a picture's ground ends: what follows is drawn over it.
pub const GROUND_END: &str = "<!-- the ground's end -->\n";

/// Rasterise an SVG picture to PNG.
///
/// A picture whose ground is marked ([`GROUND`]) is drawn in two parts:
/// the ground, rasterised once and kept while pictures of it are drawn,
/// then the rest over a copy of it. Since resvg paints element after
/// element, the pixels are the same as the whole picture's drawn at once;
/// the ground was half a picture's time (a tenth of a deadline's), mostly
/// its numbers and keys laid out as text again for every report.
///
/// # Errors
/// When the SVG is not valid (a bug) or the image cannot be encoded.
pub fn png(svg: &str) -> Result<Vec<u8>, PictureError> {
    SCRATCH.with_borrow_mut(|scratch| {
        let Scratch { canvas, buffers } = scratch;
        let canvas = match ground_parts(svg) {
            Some((ground, rest)) => {
                let ground = grounds().get(&ground)?;
                let canvas = canvas_of(canvas, ground.width(), ground.height())?;
                canvas.data_mut().copy_from_slice(ground.data());
                draw_onto(&rest, canvas)?;
                canvas
            }
            None => {
                let tree = tree(svg)?;
                let size = tree.size().to_int_size();
                let canvas = canvas_of(canvas, size.width(), size.height())?;
                canvas.fill(resvg::tiny_skia::Color::TRANSPARENT);
                paint(&tree, canvas);
                canvas
            }
        };
        buffers
            .encode(canvas)
            .map_err(|e| PictureError(e.to_string()))
    })
}

/// What a thread keeps from one picture to the next: the canvas, the
/// buffers its encoding fills, and zlib's compressor with its tables.
///
/// Why: they are megabytes (the canvas alone is four bytes a pixel).
/// Made anew for each picture, the allocator gave them back to the system
/// between pictures and took them again, zeroed page by page, and zlib's
/// tables were allocated and zeroed anew: together a third of a picture's
/// time in issue 24's profile.
#[derive(Default)]
struct Scratch {
    canvas: Option<Pixmap>,
    buffers: Buffers,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

/// The kept canvas when it is `width` × `height`, or a new one kept in
/// its place.
fn canvas_of(
    slot: &mut Option<Pixmap>,
    width: u32,
    height: u32,
) -> Result<&mut Pixmap, PictureError> {
    let fits = |c: &Pixmap| (c.width(), c.height()) == (width, height);
    if !slot.as_ref().is_some_and(fits) {
        let canvas =
            Pixmap::new(width, height).ok_or_else(|| PictureError("empty picture".into()))?;
        *slot = Some(canvas);
    }
    slot.as_mut()
        .ok_or_else(|| PictureError("empty picture".into()))
}

/// A picture's ground on its own (closed), and the rest (the picture
/// without its ground); `None` when the ground is not marked.
pub(crate) fn ground_parts(svg: &str) -> Option<(String, String)> {
    let start = svg.find(GROUND)?;
    let end = svg[start..].find(GROUND_END)? + start;
    let ground = format!("{}</svg>\n", &svg[..end]);
    let rest = format!("{}{}", &svg[..start], &svg[end + GROUND_END.len()..]);
    Some((ground, rest))
}

/// An SVG picture drawn on a new, transparent canvas of its size.
fn rasterise(svg: &str) -> Result<Pixmap, PictureError> {
    let tree = tree(svg)?;
    let size = tree.size().to_int_size();
    let mut pixmap = Pixmap::new(size.width(), size.height())
        .ok_or_else(|| PictureError("empty picture".into()))?;
    paint(&tree, &mut pixmap);
    Ok(pixmap)
}

/// An SVG picture drawn over what `pixmap` holds.
fn draw_onto(svg: &str, pixmap: &mut Pixmap) -> Result<(), PictureError> {
    paint(&tree(svg)?, pixmap);
    Ok(())
}

fn paint(tree: &resvg::usvg::Tree, pixmap: &mut Pixmap) {
    resvg::render(
        tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
}

fn tree(svg: &str) -> Result<resvg::usvg::Tree, PictureError> {
    resvg::usvg::Tree::from_str(svg, &options()).map_err(|e| PictureError(e.to_string()))
}

/// Grounds rasterised lately, the latest first: a few, since a deadline
/// draws the pictures of many games of few scenarios (and keeps a few
/// megabytes: a ground is a picture's full size).
struct Grounds(std::sync::Mutex<Vec<(String, std::sync::Arc<Pixmap>)>>);

/// How many grounds are kept.
const GROUNDS_KEPT: usize = 8;

fn grounds() -> &'static Grounds {
    static GROUNDS: std::sync::OnceLock<Grounds> = std::sync::OnceLock::new();
    GROUNDS.get_or_init(|| Grounds(std::sync::Mutex::new(Vec::new())))
}

impl Grounds {
    /// The ground `svg` rasterised: kept, or drawn now and kept. Two
    /// threads that miss at once both draw it (the same pixels).
    fn get(&self, svg: &str) -> Result<std::sync::Arc<Pixmap>, PictureError> {
        let lock = || {
            self.0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        };
        {
            let mut kept = lock();
            if let Some(i) = kept.iter().position(|(k, _)| k == svg) {
                let hit = kept.remove(i);
                let pixmap = hit.1.clone();
                kept.insert(0, hit);
                return Ok(pixmap);
            }
        }
        let pixmap = std::sync::Arc::new(rasterise(svg)?);
        let mut kept = lock();
        kept.insert(0, (svg.to_string(), pixmap.clone()));
        kept.truncate(GROUNDS_KEPT);
        Ok(pixmap)
    }
}

/// The buffers [`Buffers::encode`] fills, kept ([`Scratch`]).
#[derive(Default)]
struct Buffers {
    runs: Vec<(resvg::tiny_skia::PremultipliedColorU8, usize)>,
    rgb: Vec<([u8; 3], usize)>,
    indices: Vec<u8>,
    rows: Vec<u8>,
    zlib: Option<flate2::write::ZlibEncoder<Vec<u8>>>,
}

impl Buffers {
    /// A rasterised picture as PNG, made for speed and size (issue 24:
    /// compressing was a third of a report's cost, and the picture most of
    /// a report's bytes): when every pixel is opaque (every picture paints
    /// its own background), an indexed palette — one byte a pixel instead
    /// of three — and zlib's fastest level; else RGBA and the fast deflate.
    fn encode(&mut self, pixmap: &Pixmap) -> Result<Vec<u8>, png::EncodingError> {
        let pixels = pixmap.pixels();
        // One pass over the picture's megabytes (each pass cost about as
        // much as the compressing): its runs of one colour, which is all
        // the palette needs.
        runs(pixels, &mut self.runs);
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
        encoder.set_depth(png::BitDepth::Eight);
        if self.runs.iter().all(|(p, _)| p.alpha() == u8::MAX) {
            self.rgb.clear();
            self.rgb.extend(
                self.runs
                    .iter()
                    .map(|(p, n)| ([p.red(), p.green(), p.blue()], *n)),
            );
            let palette = quantise(&self.rgb, &mut self.indices);
            encoder.set_color(png::ColorType::Indexed);
            encoder.set_palette(palette.concat());
            let idat = self.deflate_rows(pixmap.width() as usize)?;
            let mut writer = encoder.write_header()?;
            writer.write_chunk(png::chunk::IDAT, &idat)?;
            writer.finish()?;
        } else {
            let rgba: Vec<u8> = pixels
                .iter()
                .flat_map(|p| {
                    let c = p.demultiply();
                    [c.red(), c.green(), c.blue(), c.alpha()]
                })
                .collect();
            encoder.set_color(png::ColorType::Rgba);
            encoder.set_compression(png::Compression::Fast);
            let mut writer = encoder.write_header()?;
            writer.write_image_data(&rgba)?;
            writer.finish()?;
        }
        Ok(out)
    }

    /// The picture's palette indices as a PNG's image data: each row with
    /// no filter, deflated by the kept compressor at zlib's fastest level.
    /// Filters do not help palette indices (the PNG book's advice), and
    /// fdeflate's fast mode, made for filtered RGB, barely shrinks them;
    /// zlib's fastest level does (measured on the ford's picture: 142 KB
    /// against 25 KB, in about 1 ms). The bytes are the ones the `png`
    /// crate writes with `Filter::NoFilter` and `DeflateCompression::Level(1)`.
    ///
    /// The rows go to zlib in one write: each write zeroes the
    /// compressor's 32 KB of output space first, which row by row was a
    /// tenth of a picture's time.
    fn deflate_rows(&mut self, width: usize) -> std::io::Result<Vec<u8>> {
        use std::io::Write;
        /// The filter byte that starts each row: none.
        const NO_FILTER: u8 = 0;
        self.rows.clear();
        for row in self.indices.chunks(width) {
            self.rows.push(NO_FILTER);
            self.rows.extend_from_slice(row);
        }
        // Taken out while it works: one that failed is not kept.
        let mut zlib = self.zlib.take().unwrap_or_else(|| {
            flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast())
        });
        zlib.write_all(&self.rows)?;
        let idat = zlib.reset(Vec::new())?;
        self.zlib = Some(zlib);
        Ok(idat)
    }
}

/// Most colours a PNG palette holds.
const PALETTE: usize = 256;

/// The runs of one colour in `pixels`, in order, with their lengths, into
/// `out`.
fn runs<T: Copy + PartialEq>(pixels: &[T], out: &mut Vec<(T, usize)>) {
    out.clear();
    out.extend(
        pixels
            .chunk_by(|a, b| a == b)
            .map(|run| (run[0], run.len())),
    );
}

/// The picture (its runs of one colour, [`runs`]) as a palette, returned,
/// and an index a pixel, into `indices`. A picture of at most
/// [`PALETTE`] colours is kept exactly. A larger one is all flat colours
/// but for the soft edges anti-aliasing draws between them: the most
/// common colours make the palette (ties broken by the colour, so the
/// image is the same on every machine) and each rarer edge colour takes
/// the nearest of them.
fn quantise(runs: &[([u8; 3], usize)], indices: &mut Vec<u8>) -> Vec<[u8; 3]> {
    // A fixed fast hash: these maps see every run of the picture, and
    // SipHash was a tenth of its encoding; the result does not depend on
    // the maps' order.
    type Map<V> = std::collections::HashMap<[u8; 3], V, foldhash::fast::FixedState>;
    let mut counts: Map<u32> = Map::default();
    for &(colour, n) in runs {
        *counts.entry(colour).or_default() += n as u32;
    }
    let mut common: Vec<([u8; 3], u32)> = counts.into_iter().collect();
    common.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let palette: Vec<[u8; 3]> = common.iter().take(PALETTE).map(|c| c.0).collect();
    let mut index: Map<u8> = palette
        .iter()
        .enumerate()
        .map(|(i, c)| (*c, i as u8))
        .collect();
    for (rare, _) in common.iter().skip(PALETTE) {
        index.insert(*rare, nearest(&palette, *rare));
    }
    indices.clear();
    for (colour, n) in runs {
        indices.extend(std::iter::repeat_n(index[colour], *n));
    }
    palette
}

/// The palette's index of the colour nearest `c` (squared distance in RGB).
fn nearest(palette: &[[u8; 3]], c: [u8; 3]) -> u8 {
    let distance = |p: &[u8; 3]| -> u32 {
        p.iter()
            .zip(c)
            .map(|(&a, b)| (i32::from(a) - i32::from(b)).pow(2) as u32)
            .sum()
    };
    (0..palette.len())
        .min_by_key(|&i| (distance(&palette[i]), i))
        .map_or(0, |i| i as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A picture drawn over its kept ground has the pixels of the whole
    /// drawn at once: the first time, and when the ground is kept.
    #[test]
    fn a_picture_over_its_kept_ground_is_the_whole_picture() {
        let picture = |ground: &str, end: &str| {
            format!(
                r##"<svg xmlns="http://www.w3.org/2000/svg" width="60" height="40" font-family="{FONT_FAMILY}">
<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>
{ground}<rect width="60" height="40" fill="#fff"/><polygon points="5,5 35,3 30,25" fill="#8db9e3" stroke="#2f6ea8" stroke-dasharray="3 2"/><text x="4" y="36" font-size="9">12 inches</text>
{end}<g opacity="0.5"><polygon points="20,10 50,12 40,35" fill="#D55E00"/></g><line x1="2" y1="2" x2="30" y2="30" stroke="#111" marker-end="url(#arrow)"/><text x="30" y="20" font-size="11" stroke="#fff" stroke-width="2.5" paint-order="stroke">N1</text>
</svg>
"##
            )
        };
        let whole = png(&picture("", "")).unwrap();
        let marked = picture(GROUND, GROUND_END);
        assert_eq!(png(&marked).unwrap(), whole);
        let (ground, rest) = ground_parts(&marked).unwrap();
        assert!(ground.contains("12 inches") && !ground.contains("N1"));
        assert!(rest.contains("N1") && rest.contains("<defs>") && !rest.contains("12 inches"));
        assert!(
            grounds()
                .0
                .lock()
                .unwrap()
                .iter()
                .any(|(k, _)| *k == ground),
            "the ground is kept"
        );
        assert_eq!(png(&marked).unwrap(), whole, "drawn over the kept ground");
    }

    /// `pixels` through [`runs`] and [`quantise`]: the palette and indices.
    fn quantised(pixels: &[[u8; 3]]) -> (Vec<[u8; 3]>, Vec<u8>) {
        let (mut run, mut indices) = (Vec::new(), Vec::new());
        runs(pixels, &mut run);
        (quantise(&run, &mut indices), indices)
    }

    #[test]
    fn few_colours_are_kept_exactly() {
        let pixels = [[1, 2, 3], [1, 2, 3], [200, 0, 0], [1, 2, 3]];
        let (palette, indices) = quantised(&pixels);
        let back: Vec<[u8; 3]> = indices.iter().map(|&i| palette[i as usize]).collect();
        assert_eq!(back, pixels);
        assert_eq!(palette[0], [1, 2, 3], "the commonest colour first");
    }

    #[test]
    fn rare_colours_take_the_nearest_common_one() {
        // 256 common colours, each on two pixels, and 100 rare ones on one.
        let mut pixels: Vec<[u8; 3]> = (0..=255u8).flat_map(|g| [[0, g, 0], [0, g, 0]]).collect();
        pixels.extend((0..100u8).map(|b| [0, b, 1 + b % 3]));
        let (palette, indices) = quantised(&pixels);
        assert_eq!(palette.len(), PALETTE);
        for (p, &i) in pixels.iter().zip(&indices) {
            assert_eq!(palette[i as usize], [0, p[1], 0], "{p:?}");
        }
        assert_eq!(
            quantised(&pixels),
            (palette, indices),
            "the same every time"
        );
    }

    #[test]
    fn the_legacy_kern_table_changes_nothing_drawn() {
        use resvg::{tiny_skia, usvg};
        let stripped = without_table(FONT, *b"kern");
        let listed = |f: &[u8]| {
            let font = skrifa::FontRef::new(f).unwrap();
            let records = font.table_directory.table_records();
            records.iter().map(|r| r.tag()).collect::<Vec<_>>()
        };
        let kern = skrifa::Tag::new(b"kern");
        assert!(listed(FONT).contains(&kern));
        assert_eq!(
            listed(&stripped),
            listed(FONT)
                .into_iter()
                .filter(|t| *t != kern)
                .collect::<Vec<_>>()
        );
        // Pairs the font kerns, drawn with and without the table.
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="400" height="60">
            <rect width="400" height="60" fill="#fff"/>
            <text x="4" y="40" font-size="30" font-family="DejaVu Sans">AVATAR To Ty LT Wa</text></svg>"##;
        let draw = |font: Vec<u8>| {
            let mut db = usvg::fontdb::Database::new();
            db.load_font_data(font);
            let options = usvg::Options {
                font_family: FONT_FAMILY.to_string(),
                fontdb: std::sync::Arc::new(db),
                ..usvg::Options::default()
            };
            let tree = usvg::Tree::from_str(svg, &options).unwrap();
            let mut pixmap = tiny_skia::Pixmap::new(400, 60).unwrap();
            resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
            pixmap.data().to_vec()
        };
        let unkerned = svg.replace("<text ", "<text style=\"font-kerning:none\" ");
        assert_ne!(
            draw(FONT.to_vec()),
            {
                let tree = usvg::Tree::from_str(&unkerned, &options()).unwrap();
                let mut pixmap = tiny_skia::Pixmap::new(400, 60).unwrap();
                resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
                pixmap.data().to_vec()
            },
            "the pairs are kerned at all"
        );
        assert_eq!(draw(FONT.to_vec()), draw(stripped));
    }

    /// The pixels of a PNG, as RGBA, with its size: what a mail client shows.
    fn decoded(bytes: Vec<u8>) -> (u32, u32, Vec<u8>) {
        let mut decoder = ::png::Decoder::new(std::io::Cursor::new(bytes));
        decoder.set_transformations(::png::Transformations::EXPAND | ::png::Transformations::ALPHA);
        let mut reader = decoder.read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let frame = reader.next_frame(&mut pixels).unwrap();
        pixels.truncate(frame.buffer_size());
        (frame.width, frame.height, pixels)
    }

    /// An SVG rasterised on a fresh canvas, as RGBA.
    fn drawn(svg: &str) -> Vec<u8> {
        let pixmap = rasterise(svg).unwrap();
        pixmap
            .pixels()
            .iter()
            .flat_map(|p| {
                let c = p.demultiply();
                [c.red(), c.green(), c.blue(), c.alpha()]
            })
            .collect()
    }

    /// A thread's kept canvas and buffers carry nothing from one picture
    /// to the next: pictures of other sizes and other kinds (opaque or
    /// not, with a ground or without) in between change no pixel, and an
    /// opaque picture of few colours decodes to exactly what was drawn.
    #[test]
    fn a_picture_owes_nothing_to_the_one_before() {
        let opaque = r##"<svg xmlns="http://www.w3.org/2000/svg" width="50" height="30">
            <rect width="50" height="30" fill="#e8eedc"/><rect x="10" y="5" width="20" height="12" fill="#0072B2"/></svg>"##;
        let clear = r##"<svg xmlns="http://www.w3.org/2000/svg" width="50" height="30">
            <rect x="30" y="10" width="15" height="15" fill="#D55E00"/></svg>"##;
        let other = r##"<svg xmlns="http://www.w3.org/2000/svg" width="70" height="20">
            <rect width="70" height="20" fill="#111"/></svg>"##;
        // On a thread of its own, so that its canvas is new.
        let first = std::thread::spawn(move || (png(opaque).unwrap(), png(clear).unwrap()))
            .join()
            .unwrap();
        for svg in [other, clear, opaque, other] {
            png(svg).unwrap();
        }
        assert_eq!(png(opaque).unwrap(), first.0);
        png(opaque).unwrap();
        assert_eq!(
            png(clear).unwrap(),
            first.1,
            "nothing left of the opaque one"
        );
        assert_eq!(decoded(first.0), (50, 30, drawn(opaque)));
        assert_eq!(decoded(first.1), (50, 30, drawn(clear)));
    }

    /// A soft-edged circle (more than 256 colours once anti-aliased) comes
    /// out as an indexed PNG that decodes to the picture's size.
    #[test]
    fn an_opaque_picture_is_an_indexed_png() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80">
            <rect width="120" height="80" fill="#e8eedc"/>
            <circle cx="60" cy="40" r="30" fill="#c05010" stroke="#1060a0" stroke-width="3"/>
            <text x="5" y="75" font-size="11">Black Dragons</text></svg>"##;
        let bytes = png(svg).unwrap();
        let decoder = ::png::Decoder::new(std::io::Cursor::new(bytes));
        let reader = decoder.read_info().unwrap();
        let info = reader.info();
        assert_eq!((info.width, info.height), (120, 80));
        assert_eq!(info.color_type, ::png::ColorType::Indexed);
    }
}

//! Labels that never overlap: the width of a text in the font every picture
//! ships ([`text_width`], from the font's own advances), the box a text
//! takes ([`TextBox`]), and a [`Placer`] that puts each label at the first
//! free place near what it names, in a fixed order of candidates, so the
//! same table always gives the same picture.
//!
//! ```
//! use umpire::report::labels::{Placer, TextBox};
//! let mut p = Placer::new(TextBox { x0: 0.0, y0: 0.0, x1: 200.0, y1: 100.0 });
//! let a = p.place("A1", 11.0, (100.0, 50.0)).unwrap();
//! let b = p.place("A2", 11.0, (100.0, 50.0)).unwrap();
//! assert!(!a.frame.overlaps(&b.frame));
//! ```

use std::sync::OnceLock;

use skrifa::instance::{LocationRef, Size};
use skrifa::{FontRef, MetadataProvider};

/// Room kept clear round every label, pixels.
const PAD: f64 = 1.0;
/// How far (in label heights) a label may be pushed from what it names.
const FARTHEST: usize = 14;
/// A label pushed this many steps away or more gets a leader line.
const LEADER_FROM: usize = 2;

/// The font every picture uses (DejaVu Sans Condensed, shipped in
/// templates/fonts): labels are measured with it, pictures drawn with it.
pub(crate) const FONT: &[u8] = include_bytes!("../../templates/fonts/DejaVuSansCondensed.ttf");
/// The font family pictures name in their SVG.
pub const FONT_FAMILY: &str = "DejaVu Sans";

/// The shipped font, parsed once.
fn font() -> &'static FontRef<'static> {
    static PARSED: OnceLock<FontRef<'static>> = OnceLock::new();
    PARSED.get_or_init(|| FontRef::new(FONT).expect("the shipped font parses"))
}

/// The advance width of `text` at `size` pixels, in pixels.
pub fn text_width(text: &str, size: f64) -> f64 {
    let f = font();
    let charmap = f.charmap();
    let metrics = f.glyph_metrics(Size::new(size as f32), LocationRef::default());
    text.chars()
        .map(|c| {
            let g = charmap.map(c).unwrap_or_default();
            f64::from(metrics.advance_width(g).unwrap_or(0.0))
        })
        .sum()
}

/// The font's ascent and descent at `size` pixels (descent positive).
fn extent(size: f64) -> (f64, f64) {
    let m = font().metrics(Size::new(size as f32), LocationRef::default());
    (f64::from(m.ascent), -f64::from(m.descent))
}

/// A rectangle of the picture, pixels, y down.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextBox {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl TextBox {
    /// The box of `text` drawn centred on `x` with its baseline at `y`.
    pub fn centred(text: &str, size: f64, x: f64, y: f64) -> TextBox {
        let w = text_width(text, size);
        let (up, down) = extent(size);
        TextBox {
            x0: x - w / 2.0,
            y0: y - up,
            x1: x + w / 2.0,
            y1: y + down,
        }
    }

    /// The box of `text` drawn from `x` (text-anchor start), baseline at `y`.
    pub fn from_start(text: &str, size: f64, x: f64, y: f64) -> TextBox {
        let w = text_width(text, size);
        let (up, down) = extent(size);
        TextBox {
            x0: x,
            y0: y - up,
            x1: x + w,
            y1: y + down,
        }
    }

    /// Whether two boxes share any area.
    pub fn overlaps(&self, o: &TextBox) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }

    /// Whether `o` lies wholly inside this box.
    pub fn holds(&self, o: &TextBox) -> bool {
        o.x0 >= self.x0 && o.x1 <= self.x1 && o.y0 >= self.y0 && o.y1 <= self.y1
    }

    fn grown(&self, by: f64) -> TextBox {
        TextBox {
            x0: self.x0 - by,
            y0: self.y0 - by,
            x1: self.x1 + by,
            y1: self.y1 + by,
        }
    }

    fn centre(&self) -> (f64, f64) {
        ((self.x0 + self.x1) / 2.0, (self.y0 + self.y1) / 2.0)
    }
}

/// Where a label was put.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placed {
    /// The text's anchor (text-anchor middle) and baseline.
    pub x: f64,
    pub y: f64,
    /// The box the text takes.
    pub frame: TextBox,
    /// Pushed far from what it names: draw a leader line to it.
    pub leader: bool,
}

/// Puts labels one by one where no earlier label or blocked area is.
#[derive(Debug, Clone)]
pub struct Placer {
    bounds: TextBox,
    taken: Vec<TextBox>,
}

impl Placer {
    /// A placer for labels that must stay inside `bounds`.
    pub fn new(bounds: TextBox) -> Placer {
        Placer {
            bounds,
            taken: Vec::new(),
        }
    }

    /// Keep labels off an area (the north arrow, a text drawn elsewhere).
    pub fn block(&mut self, area: TextBox) {
        self.taken.push(area);
    }

    /// Put `text` as near `at` as it fits: centred on it, then above,
    /// below, right and left of it, then round it ring by ring. `None` when
    /// the picture has no free place within reach.
    pub fn place(&mut self, text: &str, size: f64, at: (f64, f64)) -> Option<Placed> {
        let probe = TextBox::centred(text, size, 0.0, 0.0);
        let (w, h) = (probe.x1 - probe.x0, probe.y1 - probe.y0);
        // The baseline sits this far below the box's centre.
        let drop = -(probe.y0 + probe.y1) / 2.0;
        let step = h + PAD;
        let directions: [(f64, f64); 8] = [
            (0.0, -1.0),
            (0.0, 1.0),
            (1.0, 0.0),
            (-1.0, 0.0),
            (1.0, -1.0),
            (-1.0, -1.0),
            (1.0, 1.0),
            (-1.0, 1.0),
        ];
        let candidates = std::iter::once((0usize, 0.0, 0.0)).chain((1..=FARTHEST).flat_map(|r| {
            directions.iter().map(move |(dx, dy)| {
                let r = r as f64;
                (r as usize, dx * r * (w / 2.0 + step), dy * r * step)
            })
        }));
        for (ring, dx, dy) in candidates {
            let (cx, cy) = (at.0 + dx, at.1 + dy);
            let frame = TextBox {
                x0: cx - w / 2.0,
                y0: cy - h / 2.0,
                x1: cx + w / 2.0,
                y1: cy + h / 2.0,
            };
            if !self.bounds.holds(&frame) {
                continue;
            }
            let padded = frame.grown(PAD);
            if self.taken.iter().any(|t| t.overlaps(&padded)) {
                continue;
            }
            self.taken.push(frame);
            let (x, y) = frame.centre();
            return Some(Placed {
                x,
                y: y + drop,
                frame,
                leader: ring >= LEADER_FROM,
            });
        }
        None
    }
}

impl Placer {
    /// Put `lines`, one under another and centred, at the first of
    /// `centres` (the middle of the block) where the block is inside the
    /// bounds, clear of every earlier label and blocked area, and `fits`
    /// takes its frame (a region it must stay in). One [`Placed`] a line;
    /// `None` when no centre will do.
    pub fn place_lines(
        &mut self,
        lines: &[&str],
        size: f64,
        centres: impl IntoIterator<Item = (f64, f64)>,
        fits: impl Fn(&TextBox) -> bool,
    ) -> Option<Vec<Placed>> {
        let probe = TextBox::centred("Hg", size, 0.0, 0.0);
        let (h, drop) = (probe.y1 - probe.y0, -(probe.y0 + probe.y1) / 2.0);
        let widths: Vec<f64> = lines.iter().map(|l| text_width(l, size)).collect();
        let half = widths.iter().copied().fold(0.0, f64::max) / 2.0;
        let top = lines.len() as f64 * h / 2.0;
        for (cx, cy) in centres {
            let frames: Vec<TextBox> = widths
                .iter()
                .enumerate()
                .map(|(i, w)| {
                    let y0 = cy - top + i as f64 * h;
                    TextBox {
                        x0: cx - w / 2.0,
                        y0,
                        x1: cx + w / 2.0,
                        y1: y0 + h,
                    }
                })
                .collect();
            let block = TextBox {
                x0: cx - half,
                y0: cy - top,
                x1: cx + half,
                y1: cy + top,
            };
            let free = |f: &TextBox| {
                let padded = f.grown(PAD);
                !self.taken.iter().any(|t| t.overlaps(&padded))
            };
            if !self.bounds.holds(&block) || !frames.iter().all(free) || !fits(&block) {
                continue;
            }
            self.taken.extend(frames.iter().copied());
            return Some(
                frames
                    .into_iter()
                    .map(|frame| {
                        let (x, y) = frame.centre();
                        Placed {
                            x,
                            y: y + drop,
                            frame,
                            leader: false,
                        }
                    })
                    .collect(),
            );
        }
        None
    }
}

/// Cut `text` to fit `width` pixels at `size`, ending with "…" if cut.
pub fn fit(text: &str, size: f64, width: f64) -> String {
    if text_width(text, size) <= width {
        return text.to_string();
    }
    let mut cut: String = text.to_string();
    while !cut.is_empty() && text_width(&format!("{cut}…"), size) > width {
        cut.pop();
    }
    format!("{}…", cut.trim_end())
}

/// Break `text` into lines of at most `width` pixels at `size`, at spaces
/// (a word longer than a line is cut with [`fit`]).
pub fn wrap(text: &str, size: f64, width: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if text_width(&candidate, size) <= width || line.is_empty() {
            line = candidate;
        } else {
            lines.push(std::mem::take(&mut line));
            line = word.to_string();
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines.into_iter().map(|l| fit(&l, size, width)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_placed_together_where_the_test_allows_and_nothing_lies() {
        let mut p = Placer::new(TextBox {
            x0: 0.0,
            y0: 0.0,
            x1: 200.0,
            y1: 100.0,
        });
        p.block(TextBox {
            x0: 90.0,
            y0: 40.0,
            x1: 110.0,
            y1: 60.0,
        });
        let centres = [(100.0, 50.0), (100.0, 20.0), (40.0, 50.0)];
        // The blocked middle is skipped; the test refuses the top half.
        let two = p
            .place_lines(&["Kezankian", "Mountains"], 9.0, centres, |b| b.y0 > 30.0)
            .unwrap();
        assert_eq!(two.len(), 2);
        assert_eq!((two[0].x, two[1].x), (40.0, 40.0));
        assert!(two[0].frame.y1 <= two[1].frame.y0 && two[1].y > two[0].y);
        // That place is taken now; nothing else is free.
        assert_eq!(
            p.place_lines(&["Akif"], 9.0, [(40.0, 50.0)], |_| true),
            None
        );
    }

    #[test]
    fn widths_come_from_the_font() {
        let one = text_width("M", 10.0);
        assert!(one > 5.0 && one < 10.0, "{one}");
        assert!((text_width("MM", 20.0) - 4.0 * one).abs() < 0.01);
        assert!(text_width("i", 10.0) < one);
    }

    #[test]
    fn crowded_labels_spread_out_and_get_leaders() {
        let mut p = Placer::new(TextBox {
            x0: 0.0,
            y0: 0.0,
            x1: 300.0,
            y1: 200.0,
        });
        let placed: Vec<Placed> = (0..12)
            .map(|i| p.place(&format!("A{i}"), 11.0, (150.0, 100.0)).unwrap())
            .collect();
        for (i, a) in placed.iter().enumerate() {
            for b in &placed[i + 1..] {
                assert!(!a.frame.overlaps(&b.frame), "{a:?} {b:?}");
            }
        }
        assert!(!placed[0].leader);
        assert!(placed.iter().any(|p| p.leader));
    }

    #[test]
    fn labels_stay_inside_their_bounds() {
        let bounds = TextBox {
            x0: 0.0,
            y0: 0.0,
            x1: 100.0,
            y1: 40.0,
        };
        let mut p = Placer::new(bounds);
        let a = p.place("Corner", 11.0, (0.0, 0.0)).unwrap();
        assert!(bounds.holds(&a.frame), "{a:?}");
    }

    #[test]
    fn long_text_wraps_and_fits() {
        let lines = wrap(
            "The Ford of the Tybor — turn 3: after both phases",
            13.0,
            150.0,
        );
        assert!(lines.len() > 1);
        assert!(
            lines.iter().all(|l| text_width(l, 13.0) <= 150.0),
            "{lines:?}"
        );
        assert_eq!(
            fit("Supercalifragilistic", 11.0, 40.0).chars().last(),
            Some('…')
        );
    }
}

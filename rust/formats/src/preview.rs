//! The preview picture (`preview.png`): the network seen from above, north up.
//!
//! The picture is fitted to the bounding box of everything drawn (block, road and junction
//! polygons and diagnostic positions) plus a margin, keeping the aspect ratio. Layers, bottom
//! to top: a light background, blocks (their sidewalk band in a light warm grey, their lots
//! each filled with a soft colour chosen from a palette by hashing the block's id, holes left
//! open), road pieces in mid grey, junction surfaces in a darker
//! grey, thin outlines (block edges and curbs), and diagnostics as red circled markers. A small
//! legend box in the bottom-left corner holds a scale bar of a round length (labelled with a
//! tiny built-in digit font) and swatches of the block, road, junction and diagnostic styles.
//!
//! Line widths are in pixels, so the picture reads the same at any network size; a road or
//! junction too thin to show its surface is still drawn as a 1 px stroke along its outline.
//!
//! The output is deterministic: the same network and options give the same bytes.

use roadgen_core::{Network, Point, Polygon};
use tiny_skia::{Color, FillRule, LineCap, LineJoin, Paint, Path, PathBuilder, Pixmap, Rect, Stroke, Transform};

/// Largest accepted [`PreviewOptions::max_size_px`]: a square picture of this size takes
/// 256 MiB while it is drawn.
const MAX_SIZE_LIMIT: u32 = 8192;

/// Side of the picture drawn for a network with nothing in it (capped by `max_size_px`).
const EMPTY_SIZE_PX: u32 = 128;

/// A road or junction narrower than this (pixels) is also stroked along its outline in its own
/// colour, and gets no curb line, so that it stays visible as a line.
const THIN_PX: f64 = 4.0;

/// Extents (metres) below this are treated as a single point.
const POINT_EXTENT_M: f64 = 1e-9;

/// Side (metres) of the area shown around a network that is a single point.
const POINT_VIEW_M: f64 = 10.0;

/// How the preview is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreviewOptions {
    /// Length of the picture's longer side, pixels (default 2048). Must be at least
    /// `2 * margin_px + 8` and at most 8192.
    pub max_size_px: u32,
    /// Empty border around the network, pixels (default 24).
    pub margin_px: u32,
}

impl Default for PreviewOptions {
    fn default() -> Self {
        Self { max_size_px: 2048, margin_px: 24 }
    }
}

/// Why a preview could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum PreviewError {
    /// The options cannot give a picture (size too small for the margin, or too large).
    #[error("invalid preview options: {0}")]
    InvalidOptions(String),
    /// A coordinate in the network is NaN or infinite.
    #[error("non-finite coordinate in {0}")]
    NonFiniteCoordinate(String),
    /// The network's extent overflows (its coordinates are too far apart to measure).
    #[error("the network's extent is too large to draw")]
    ExtentTooLarge,
    /// The picture's pixels could not be allocated.
    #[error("could not make a {width}x{height} picture")]
    Allocation {
        /// Width, pixels.
        width: u32,
        /// Height, pixels.
        height: u32,
    },
    /// The PNG encoder failed.
    #[error("PNG encoding failed: {0}")]
    Encode(String),
}

/// Draws the network and returns the picture as PNG bytes.
///
/// The longer side of the picture is `opts.max_size_px`; the other side follows the aspect
/// ratio of the network's bounding box (at least `2 * margin_px + 1`). A network with nothing
/// to draw (no polygons and no diagnostics) gives a small square picture of the background
/// only (128 px, or `max_size_px` if smaller); it is not an error.
///
/// # Errors
/// [`PreviewError::NonFiniteCoordinate`] if any x or y in the network (polygons, centerlines,
/// junction centres, diagnostic positions) is NaN or infinite;
/// [`PreviewError::ExtentTooLarge`] if the bounding box's size overflows;
/// [`PreviewError::InvalidOptions`] for sizes out of range; [`PreviewError::Allocation`] and
/// [`PreviewError::Encode`] if the picture cannot be made or encoded.
pub fn render_preview(network: &Network, opts: &PreviewOptions) -> Result<Vec<u8>, PreviewError> {
    check_options(opts)?;
    check_finite(network)?;
    let Some(bounds) = bounds(network) else {
        let side = EMPTY_SIZE_PX.min(opts.max_size_px);
        let mut pixmap = new_pixmap(side, side)?;
        pixmap.fill(color_of(BACKGROUND));
        return encode(&pixmap);
    };
    let view = View::fit(bounds, opts)?;
    let mut pixmap = new_pixmap(view.width, view.height)?;
    pixmap.fill(color_of(BACKGROUND));
    draw_network(&mut pixmap, network, &view);
    draw_legend(&mut pixmap, &view);
    encode(&pixmap)
}

// ---------------------------------------------------------------------------------------------
// Colours.

/// Background: a calm warm off-white.
const BACKGROUND: [u8; 3] = [0xF5, 0xF3, 0xEE];
/// Road pieces.
const ROAD: [u8; 3] = [0xA6, 0xA6, 0xA8];
/// The sidewalk band of blocks (curb tops and sidewalks, between the curb line and the lots).
const SIDEWALK: [u8; 3] = [0xDE, 0xDA, 0xD2];
/// Junction surfaces.
const JUNCTION: [u8; 3] = [0x86, 0x88, 0x92];
/// Curb lines around roads and junctions.
const CURB: [u8; 3] = [0x55, 0x57, 0x5C];
/// Diagnostic markers.
const DIAGNOSTIC: [u8; 3] = [0xD7, 0x26, 0x3D];
/// Scale bar and legend frame.
const INK: [u8; 3] = [0x3A, 0x3A, 0x3E];

/// Soft block colours; a block's colour is picked by hashing its id.
const PALETTE: [[u8; 3]; 12] = [
    [0xF2, 0xC6, 0xC2], // rose
    [0xF6, 0xD7, 0xB0], // apricot
    [0xF3, 0xE6, 0xA6], // butter
    [0xD9, 0xE8, 0xB0], // pistachio
    [0xBF, 0xE0, 0xC0], // mint
    [0xB5, 0xDD, 0xD8], // seafoam
    [0xBB, 0xD5, 0xEC], // sky
    [0xC9, 0xC8, 0xEE], // periwinkle
    [0xDC, 0xC6, 0xEA], // lavender
    [0xEE, 0xC7, 0xDE], // pink
    [0xE4, 0xD4, 0xC3], // sand
    [0xCB, 0xDC, 0xCB], // sage
];

/// 64-bit FNV-1a of the bytes: stable across runs and platforms.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The fill colour of the block with this id (8-bit RGB).
fn block_rgb(id: &str) -> [u8; 3] {
    let hash = fnv1a(id.as_bytes());
    // Fold the high bits in: FNV's low bits alone are weaker.
    let folded = hash ^ (hash >> 29) ^ (hash >> 47);
    let index = usize::try_from(folded % PALETTE.len() as u64).unwrap_or(0);
    PALETTE[index]
}

/// The outline colour that goes with a block fill: the same hue, darker.
fn block_outline_rgb(fill: [u8; 3]) -> [u8; 3] {
    fill.map(|c| u8::try_from(u16::from(c) * 7 / 10).unwrap_or(c))
}

/// An opaque colour from 8-bit RGB.
fn color_of(c: [u8; 3]) -> Color {
    Color::from_rgba8(c[0], c[1], c[2], 255)
}

fn paint(color: Color) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color(color);
    paint.anti_alias = true;
    paint
}

fn stroke(width: f32) -> Stroke {
    Stroke { width, line_cap: LineCap::Round, line_join: LineJoin::Round, ..Stroke::default() }
}

// ---------------------------------------------------------------------------------------------
// Checks and the view.

fn check_options(opts: &PreviewOptions) -> Result<(), PreviewError> {
    let min = u64::from(opts.margin_px) * 2 + 8;
    if u64::from(opts.max_size_px) < min {
        return Err(PreviewError::InvalidOptions(format!(
            "max_size_px {} is too small for margin_px {} (needs at least {min})",
            opts.max_size_px, opts.margin_px
        )));
    }
    if opts.max_size_px > MAX_SIZE_LIMIT {
        return Err(PreviewError::InvalidOptions(format!(
            "max_size_px {} is larger than {MAX_SIZE_LIMIT}",
            opts.max_size_px
        )));
    }
    Ok(())
}

fn finite(p: Point) -> bool {
    p.x.is_finite() && p.y.is_finite()
}

fn polygon_finite(polygon: &Polygon) -> bool {
    polygon.exterior.iter().all(|&p| finite(p)) && polygon.holes.iter().all(|h| h.iter().all(|&p| finite(p)))
}

fn check_finite(network: &Network) -> Result<(), PreviewError> {
    let bad = |what: String| Err(PreviewError::NonFiniteCoordinate(what));
    for j in &network.junctions {
        if !polygon_finite(&j.polygon) || !finite(j.center) {
            return bad(format!("junction '{}'", j.id));
        }
    }
    for r in &network.pieces {
        if !polygon_finite(&r.polygon) || !r.centerline.iter().all(|p| finite(p.xy())) {
            return bad(format!("road piece '{}'", r.id));
        }
    }
    for b in &network.blocks {
        if !polygon_finite(&b.polygon) {
            return bad(format!("block '{}'", b.id));
        }
    }
    for (i, d) in network.diagnostics.iter().enumerate() {
        if !finite(d.position) {
            return bad(format!("diagnostic #{i} ({})", d.code.as_str()));
        }
    }
    Ok(())
}

/// An axis-aligned box in metres.
#[derive(Clone, Copy, Debug)]
struct Bounds {
    min: Point,
    max: Point,
}

impl Bounds {
    fn add(this: &mut Option<Self>, p: Point) {
        match this {
            None => {
                *this = Some(Self { min: p, max: p });
            }
            Some(b) => {
                b.min.x = b.min.x.min(p.x);
                b.min.y = b.min.y.min(p.y);
                b.max.x = b.max.x.max(p.x);
                b.max.y = b.max.y.max(p.y);
            }
        }
    }
}

/// The bounding box of everything drawn, `None` if nothing is drawn.
fn bounds(network: &Network) -> Option<Bounds> {
    let mut b = None;
    let polygons = network
        .blocks
        .iter()
        .map(|b| &b.polygon)
        .chain(network.pieces.iter().map(|r| &r.polygon))
        .chain(network.junctions.iter().map(|j| &j.polygon));
    for polygon in polygons {
        // Holes lie inside the exterior, but a broken polygon may not respect that.
        for ring in std::iter::once(&polygon.exterior).chain(&polygon.holes) {
            for &p in ring {
                Bounds::add(&mut b, p);
            }
        }
    }
    for d in &network.diagnostics {
        Bounds::add(&mut b, d.position);
    }
    b
}

/// Maps metres to pixels: `px = left + (x - min.x) * scale`, `py = top + (max.y - y) * scale`.
#[derive(Clone, Copy, Debug)]
struct View {
    width: u32,
    height: u32,
    /// Pixels per metre.
    scale: f64,
    min_x: f64,
    max_y: f64,
    left: f64,
    top: f64,
}

impl View {
    fn fit(bounds: Bounds, opts: &PreviewOptions) -> Result<Self, PreviewError> {
        let (mut min, mut max) = (bounds.min, bounds.max);
        let (mut w, mut h) = (max.x - min.x, max.y - min.y);
        if !w.is_finite() || !h.is_finite() {
            return Err(PreviewError::ExtentTooLarge);
        }
        if w.max(h) < POINT_EXTENT_M {
            // A single point: show a small square around it.
            let c = Point::new(min.x / 2.0 + max.x / 2.0, min.y / 2.0 + max.y / 2.0);
            let r = POINT_VIEW_M / 2.0;
            min = Point::new(c.x - r, c.y - r);
            max = Point::new(c.x + r, c.y + r);
            w = max.x - min.x;
            h = max.y - min.y;
            if !(w > 0.0 && h > 0.0) {
                // The coordinates are so large that 10 m does not register.
                return Err(PreviewError::ExtentTooLarge);
            }
        }
        let margin = f64::from(opts.margin_px);
        let long_px = f64::from(opts.max_size_px) - 2.0 * margin;
        let scale = long_px / w.max(h);
        if !(scale.is_finite() && scale > 0.0) {
            return Err(PreviewError::ExtentTooLarge);
        }
        let short_px = (w.min(h) * scale).round().clamp(1.0, long_px);
        let (draw_w, draw_h) = if w >= h { (long_px, short_px) } else { (short_px, long_px) };
        // Both sides are whole numbers between 1 and `MAX_SIZE_LIMIT`.
        let to_u32 = |v: f64| -> u32 {
            let v = v.clamp(1.0, f64::from(MAX_SIZE_LIMIT));
            // In range, exact integer: the cast neither truncates nor saturates.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let n = v as u32;
            n
        };
        let width = to_u32(draw_w + 2.0 * margin);
        let height = to_u32(draw_h + 2.0 * margin);
        // Centre the drawing in the drawable area (rounding of the short side).
        let left = margin + (draw_w - w * scale) / 2.0;
        let top = margin + (draw_h - h * scale) / 2.0;
        Ok(Self { width, height, scale, min_x: min.x, max_y: max.y, left, top })
    }

    /// The pixel position of a point (y flipped: north up).
    #[allow(clippy::cast_possible_truncation)]
    fn px(&self, p: Point) -> (f32, f32) {
        let x = self.left + (p.x - self.min_x) * self.scale;
        let y = self.top + (self.max_y - p.y) * self.scale;
        (x as f32, y as f32)
    }
}

fn new_pixmap(width: u32, height: u32) -> Result<Pixmap, PreviewError> {
    Pixmap::new(width, height).ok_or(PreviewError::Allocation { width, height })
}

fn encode(pixmap: &Pixmap) -> Result<Vec<u8>, PreviewError> {
    pixmap.encode_png().map_err(|e| PreviewError::Encode(e.to_string()))
}

// ---------------------------------------------------------------------------------------------
// Drawing.

/// Adds one closed ring to the path (rings with fewer than two points are skipped).
fn push_ring(pb: &mut PathBuilder, ring: &[Point], view: &View) {
    if ring.len() < 2 {
        return;
    }
    for (i, &p) in ring.iter().enumerate() {
        let (x, y) = view.px(p);
        if i == 0 {
            pb.move_to(x, y);
        } else {
            pb.line_to(x, y);
        }
    }
    pb.close();
}

/// The polygon as a path, holes included (fill it even-odd); `None` if it is degenerate.
fn polygon_path(polygon: &Polygon, view: &View) -> Option<Path> {
    let mut pb = PathBuilder::new();
    push_ring(&mut pb, &polygon.exterior, view);
    for hole in &polygon.holes {
        push_ring(&mut pb, hole, view);
    }
    pb.finish()
}

/// Size of the polygon's bounding box in pixels, smaller side.
fn polygon_min_side_px(polygon: &Polygon, view: &View) -> f64 {
    let mut b = None;
    for &p in &polygon.exterior {
        Bounds::add(&mut b, p);
    }
    b.map_or(0.0, |b| (b.max.x - b.min.x).min(b.max.y - b.min.y) * view.scale)
}

fn fill(pixmap: &mut Pixmap, path: &Path, color: Color) {
    pixmap.fill_path(path, &paint(color), FillRule::EvenOdd, Transform::identity(), None);
}

fn outline(pixmap: &mut Pixmap, path: &Path, color: Color, width: f32) {
    pixmap.stroke_path(path, &paint(color), &stroke(width), Transform::identity(), None);
}

fn draw_network(pixmap: &mut Pixmap, network: &Network, view: &View) {
    // Blocks: the sidewalk band, then the lots in the block's colour.
    let blocks: Vec<(Path, [u8; 3])> =
        network.blocks.iter().filter_map(|b| polygon_path(&b.polygon, view).map(|p| (p, block_rgb(&b.id)))).collect();
    for (path, _) in &blocks {
        fill(pixmap, path, color_of(SIDEWALK));
    }
    for b in &network.blocks {
        for lot in b.lots.iter().filter_map(|l| polygon_path(l, view)) {
            fill(pixmap, &lot, color_of(block_rgb(&b.id)));
        }
    }

    // Road pieces; thin ones also as a 1 px line along their outline.
    let mut curbs: Vec<Path> = Vec::new();
    for piece in &network.pieces {
        let Some(path) = polygon_path(&piece.polygon, view) else {
            continue;
        };
        fill(pixmap, &path, color_of(ROAD));
        let width_px = piece.width * view.scale;
        let wide = width_px >= THIN_PX && polygon_min_side_px(&piece.polygon, view) >= THIN_PX;
        if wide {
            curbs.push(path);
        } else {
            outline(pixmap, &path, color_of(ROAD), 1.0);
        }
    }

    // Junction surfaces.
    for junction in &network.junctions {
        let Some(path) = polygon_path(&junction.polygon, view) else {
            continue;
        };
        fill(pixmap, &path, color_of(JUNCTION));
        if polygon_min_side_px(&junction.polygon, view) >= THIN_PX {
            curbs.push(path);
        } else {
            outline(pixmap, &path, color_of(JUNCTION), 1.0);
        }
    }

    // Outlines: block edges in a darker shade of their fill, then curbs.
    for (path, rgb) in &blocks {
        outline(pixmap, path, color_of(block_outline_rgb(*rgb)), 1.0);
    }
    for path in &curbs {
        outline(pixmap, path, color_of(CURB), 1.0);
    }

    // Diagnostics.
    for d in &network.diagnostics {
        let (x, y) = view.px(d.position);
        draw_marker(pixmap, x, y);
    }
}

/// A red circled marker centred at (x, y), pixels.
fn draw_marker(pixmap: &mut Pixmap, x: f32, y: f32) {
    if let Some(ring) = PathBuilder::from_circle(x, y, 6.5) {
        let halo = Color::from_rgba8(0xD7, 0x26, 0x3D, 0x40);
        fill(pixmap, &ring, halo);
        outline(pixmap, &ring, color_of(DIAGNOSTIC), 1.5);
    }
    if let Some(dot) = PathBuilder::from_circle(x, y, 2.0) {
        fill(pixmap, &dot, color_of(DIAGNOSTIC));
    }
}

// ---------------------------------------------------------------------------------------------
// Legend: scale bar with its length, and style swatches.

/// 3×5 (5×5 for `m`) glyphs, one row per entry top to bottom, most significant bit left.
fn glyph(c: char) -> Option<(u32, [u8; 5])> {
    let rows = match c {
        '0' => [0b111, 0b101, 0b101, 0b101, 0b111],
        '1' => [0b010, 0b110, 0b010, 0b010, 0b111],
        '2' => [0b111, 0b001, 0b111, 0b100, 0b111],
        '3' => [0b111, 0b001, 0b111, 0b001, 0b111],
        '4' => [0b101, 0b101, 0b111, 0b001, 0b001],
        '5' => [0b111, 0b100, 0b111, 0b001, 0b111],
        '6' => [0b111, 0b100, 0b111, 0b101, 0b111],
        '7' => [0b111, 0b001, 0b001, 0b001, 0b001],
        '8' => [0b111, 0b101, 0b111, 0b101, 0b111],
        '9' => [0b111, 0b101, 0b111, 0b001, 0b111],
        'k' => [0b100, 0b100, 0b101, 0b110, 0b101],
        'c' => [0b000, 0b000, 0b111, 0b100, 0b111],
        'm' => return Some((5, [0b00000, 0b00000, 0b11110, 0b10101, 0b10101])),
        ' ' => [0; 5],
        _ => return None,
    };
    Some((3, rows))
}

/// Pixels per glyph cell.
const GLYPH_PX: f32 = 2.0;

/// Width of the text in pixels (glyphs plus one cell of spacing between them).
fn text_width(text: &str) -> f32 {
    let cells: u32 = text.chars().filter_map(glyph).map(|(w, _)| w + 1).sum::<u32>().saturating_sub(1);
    #[allow(clippy::cast_precision_loss)]
    let w = cells as f32 * GLYPH_PX;
    w
}

/// Draws the text with its top-left corner at (x, y).
fn draw_text(pixmap: &mut Pixmap, text: &str, x: f32, y: f32, color: Color) {
    let mut pb = PathBuilder::new();
    let mut cx = x;
    for (w, rows) in text.chars().filter_map(glyph) {
        for (r, bits) in rows.iter().enumerate() {
            for c in 0..w {
                if bits >> (w - 1 - c) & 1 == 1 {
                    #[allow(clippy::cast_precision_loss)]
                    let (col, row) = (c as f32, r as f32);
                    if let Some(rect) = Rect::from_xywh(cx + col * GLYPH_PX, y + row * GLYPH_PX, GLYPH_PX, GLYPH_PX) {
                        pb.push_rect(rect);
                    }
                }
            }
        }
        #[allow(clippy::cast_precision_loss)]
        let advance = (w + 1) as f32 * GLYPH_PX;
        cx += advance;
    }
    if let Some(path) = pb.finish() {
        let mut p = paint(color);
        // Crisp pixels: the cells are on whole pixels.
        p.anti_alias = false;
        pixmap.fill_path(&path, &p, FillRule::Winding, Transform::identity(), None);
    }
}

/// The scale bar: a round length (1, 2 or 5 × 10^k metres) at most `max_px` long, its length
/// in pixels and its label (`None` when the length has no short label).
fn scale_bar(scale: f64, max_px: f64) -> Option<(f64, f32, Option<String>)> {
    let target = max_px / scale;
    if !(target.is_finite() && target > 0.0) {
        return None;
    }
    let pow = 10f64.powf(target.log10().floor());
    let metres = [5.0, 2.0, 1.0].into_iter().map(|m| m * pow).find(|&m| m <= target).unwrap_or(pow);
    let px = metres * scale;
    if !(px.is_finite() && px >= 8.0) {
        return None;
    }
    #[allow(clippy::cast_possible_truncation)]
    let px32 = px as f32;
    Some((metres, px32, scale_label(metres)))
}

/// "50 cm", "20 m", "5 km"…; `None` below 1 cm or above 100000 km.
fn scale_label(metres: f64) -> Option<String> {
    let (value, unit) = if metres >= 1000.0 {
        (metres / 1000.0, "km")
    } else if metres >= 1.0 {
        (metres, "m")
    } else {
        (metres * 100.0, "cm")
    };
    let rounded = value.round();
    if !(1.0..=100_000.0).contains(&rounded) || (value - rounded).abs() > 1e-6 * rounded {
        return None;
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let n = rounded as u32;
    Some(format!("{n} {unit}"))
}

fn draw_legend(pixmap: &mut Pixmap, view: &View) {
    const PAD: f32 = 6.0;
    const BOX_H: f32 = 20.0;
    const INSET: f32 = 3.0;
    const SWATCH: f32 = 10.0;
    const GAP: f32 = 8.0;
    #[allow(clippy::cast_precision_loss)]
    let (img_w, img_h) = (view.width as f32, view.height as f32);
    if img_h < BOX_H + 2.0 * INSET + 8.0 {
        return;
    }
    let Some((_, bar_px, label)) = scale_bar(view.scale, f64::from(img_w.min(600.0) / 5.0)) else {
        return;
    };
    let label_w = label.as_deref().map_or(0.0, |l| text_width(l) + GAP);
    let swatches_w = 4.0 * SWATCH + 3.0 * 4.0;
    let box_w = PAD + bar_px + GAP + label_w + swatches_w + PAD;
    if box_w + 2.0 * INSET > img_w {
        return;
    }
    let (x0, y0) = (INSET, img_h - INSET - BOX_H);
    let Some(frame) = Rect::from_xywh(x0, y0, box_w, BOX_H) else {
        return;
    };
    let frame = PathBuilder::from_rect(frame);
    fill(pixmap, &frame, Color::from_rgba8(0xFF, 0xFF, 0xFF, 0xD8));
    outline(pixmap, &frame, Color::from_rgba8(0x3A, 0x3A, 0x3E, 0x60), 1.0);

    // Scale bar: a line with end ticks, on whole pixels (+0.5 for crisp 1 px lines).
    let mid = y0 + BOX_H / 2.0;
    let (bx0, bx1) = (x0 + PAD, x0 + PAD + bar_px);
    let by = mid.floor() + 2.5;
    let mut pb = PathBuilder::new();
    pb.move_to(bx0, by);
    pb.line_to(bx1, by);
    pb.move_to(bx0, by - 6.0);
    pb.line_to(bx0, by);
    pb.move_to(bx1, by - 6.0);
    pb.line_to(bx1, by);
    pb.move_to(bx0 + bar_px / 2.0, by - 3.0);
    pb.line_to(bx0 + bar_px / 2.0, by);
    if let Some(path) = pb.finish() {
        let mut s = stroke(1.5);
        s.line_cap = LineCap::Square;
        pixmap.stroke_path(&path, &paint(color_of(INK)), &s, Transform::identity(), None);
    }
    let mut x = bx1 + GAP;
    if let Some(label) = &label {
        draw_text(pixmap, label, x, (mid - 5.0).floor(), color_of(INK));
        x += label_w;
    }

    // Swatches: block, road, junction, diagnostic.
    let sy = (mid - SWATCH / 2.0).floor();
    let swatch = |x: f32| Rect::from_xywh(x, sy, SWATCH, SWATCH).map(PathBuilder::from_rect);
    if let Some(p) = swatch(x) {
        let rgb = PALETTE[4];
        fill(pixmap, &p, color_of(rgb));
        outline(pixmap, &p, color_of(block_outline_rgb(rgb)), 1.0);
    }
    x += SWATCH + 4.0;
    if let Some(p) = swatch(x) {
        fill(pixmap, &p, color_of(ROAD));
        outline(pixmap, &p, color_of(CURB), 1.0);
    }
    x += SWATCH + 4.0;
    if let Some(p) = swatch(x) {
        fill(pixmap, &p, color_of(JUNCTION));
        outline(pixmap, &p, color_of(CURB), 1.0);
    }
    x += SWATCH + 4.0;
    draw_marker(pixmap, x + SWATCH / 2.0, mid);
}

#[cfg(test)]
mod tests {
    use super::*;
    use roadgen_core::{Block, Junction, RoadPiece};

    fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Polygon {
        Polygon {
            exterior: vec![Point::new(x0, y0), Point::new(x1, y0), Point::new(x1, y1), Point::new(x0, y1)],
            holes: vec![],
        }
    }

    fn pixel(png: &[u8], x: u32, y: u32) -> [u8; 3] {
        let pixmap = Pixmap::decode_png(png).expect("decodes");
        let c = pixmap.pixel(x, y).expect("inside").demultiply();
        [c.red(), c.green(), c.blue()]
    }

    /// A block 0..100 × 0..100 m, a road strip along its south side, a junction at its corner.
    fn network() -> Network {
        Network {
            blocks: vec![Block {
                id: "b1".into(),
                polygon: rect(0.0, 10.0, 100.0, 100.0),
                area: 9000.0,
                profile: Default::default(),
                bands: vec![],
                lots: vec![rect(3.0, 13.0, 97.0, 97.0)],
            }],
            pieces: vec![RoadPiece {
                id: "r1".into(),
                road: "r".into(),
                from: None,
                to: None,
                start: 0.0,
                end: 90.0,
                centerline: vec![],
                width: 10.0,
                profile: Default::default(),
                polygon: rect(10.0, 0.0, 100.0, 10.0),
            }],
            junctions: vec![Junction {
                id: "j1".into(),
                center: Point::new(5.0, 5.0),
                degree: 1,
                roads: vec!["r".into()],
                polygon: rect(0.0, 0.0, 10.0, 10.0),
            }],
            diagnostics: vec![],
        }
    }

    #[test]
    fn preview_block_centre_has_its_palette_colour() {
        let opts = PreviewOptions { max_size_px: 248, margin_px: 24 };
        // 200 px for 100 m: 2 px per metre; (x, y) m → (24 + 2x, 24 + 2(100 - y)) px.
        let png = render_preview(&network(), &opts).expect("renders");
        assert_eq!(pixel(&png, 124, 104), block_rgb("b1"));
        // The sidewalk band between the curb line (y = 10 m) and the lot (y = 13 m).
        assert_eq!(pixel(&png, 124, 201), SIDEWALK);
        assert_eq!(pixel(&png, 124, 214), ROAD);
        assert_eq!(pixel(&png, 34, 214), JUNCTION);
    }

    #[test]
    fn preview_block_hole_is_not_filled() {
        let mut net = network();
        net.blocks[0].polygon.holes.push(vec![
            Point::new(40.0, 40.0),
            Point::new(40.0, 60.0),
            Point::new(60.0, 60.0),
            Point::new(60.0, 40.0),
        ]);
        net.blocks[0].lots.clear();
        let opts = PreviewOptions { max_size_px: 248, margin_px: 24 };
        let png = render_preview(&net, &opts).expect("renders");
        assert_eq!(pixel(&png, 124, 124), BACKGROUND);
    }

    #[test]
    fn preview_palette_colours_differ_and_hash_is_fnv1a() {
        for (i, a) in PALETTE.iter().enumerate() {
            for b in &PALETTE[i + 1..] {
                assert_ne!(a, b);
            }
        }
        // Published FNV-1a 64 test vectors.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        // Ids spread over the palette.
        let used: std::collections::BTreeSet<[u8; 3]> = (0..200).map(|i| block_rgb(&format!("block-{i}"))).collect();
        assert!(used.len() >= 10, "{}", used.len());
    }

    #[test]
    fn preview_scale_bar_is_round() {
        assert_eq!(scale_label(500.0).as_deref(), Some("500 m"));
        assert_eq!(scale_label(5000.0).as_deref(), Some("5 km"));
        assert_eq!(scale_label(0.5).as_deref(), Some("50 cm"));
        assert_eq!(scale_label(0.001), None);
        let (m, px, _) = scale_bar(2.0, 120.0).expect("bar");
        assert!((m - 50.0).abs() < 1e-9 && (px - 100.0).abs() < 1e-3, "{m} {px}");
        let (m, _, _) = scale_bar(0.01, 120.0).expect("bar");
        assert!((m - 10_000.0).abs() < 1e-6, "{m}");
        let (m, _, label) = scale_bar(1e-300, 120.0).expect("bar");
        assert!(m.is_finite() && label.is_none());
        assert!(scale_bar(f64::MIN_POSITIVE / 4.0, 120.0).is_none());
    }
}

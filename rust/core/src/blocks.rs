//! Stage 7: city blocks, the faces of the network bounded by curb lines.
//!
//! The road surface (every road piece and junction polygon) is subtracted from a rectangle
//! larger than the network. What remains is the unbounded outer face, which holds the
//! rectangle's corner and is dropped, and one region per face of the network that roads do not
//! cover entirely: the blocks. A part of the network inside a face comes out as a hole of that
//! block; a dead-end road cuts a notch into its block; a face that roads cover entirely (between
//! the two carriageways of a dual road) leaves nothing. Faces smaller than the minimum block
//! area are dropped with a diagnostic.
//!
//! Block ids come from the road nearest to the block's lowest-left outline vertex: its id, the
//! position along it and the side (`L` or `R` looking along the road).

use std::collections::BTreeMap;

use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay_rule::OverlayRule;
use rayon::prelude::*;
use rstar::primitives::{GeomWithData, Line as RLine};
use rstar::RTree;

use crate::geom::{orient, ring_area, segment_hit, simplify_ring, SegHit};
use crate::overlay::{contour, shape, Contour};
use crate::triangulate::MIN_TRIANGLE_AREA;
use crate::types::{Block, Diagnostic, DiagnosticCode, Network, Point, Polygon};
use crate::validate::polygon_area;
use crate::Settings;
use i_overlay::mesh::float::outline::offset::OutlineOffset;
use i_overlay::mesh::float::style::{LineJoin, OutlineStyle};

fn to_ring(c: &[[f64; 2]]) -> Vec<Point> {
    c.iter().map(|p| Point::new(p[0], p[1])).collect()
}

/// The lots of a block: the block inset by its sidewalk band (`band` metres wide, measured from
/// the curb line), parts smaller than the minimum block area left out. Where the inset turns
/// around a corner of the block that points into it, it is bevelled: a mitre there can reach
/// right back to the block's outline.
fn lots_of(block: &Polygon, band: f64, settings: &Settings) -> Vec<Polygon> {
    if !(band > 0.0) {
        return vec![block.clone()];
    }
    // An inset by half the block's narrower extent or more is empty (no inscribed circle is
    // wider than the bounding box); the polygon library would also refuse (panic on) an
    // inset beyond its coordinate range.
    let (lo, hi) = block.exterior.iter().fold(([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]), |(lo, hi), p| {
        ([lo[0].min(p.x), lo[1].min(p.y)], [hi[0].max(p.x), hi[1].max(p.y)])
    });
    if !(2.0 * band < (hi[0] - lo[0]).min(hi[1] - lo[1])) {
        return Vec::new();
    }
    // The inset of a very large or very thin block can graze its outline by a rounding step;
    // such lots would leave no room for the band, so the inset is taken again a tolerance
    // deeper, a few times at most, and given up (the whole block is band) if it still does.
    let edges: Vec<GeomWithData<RLine<[f64; 2]>, ()>> = (0..block.exterior.len())
        .map(|i| {
            let (a, b) = (block.exterior[i], block.exterior[(i + 1) % block.exterior.len()]);
            GeomWithData::new(RLine::new([a.x, a.y], [b.x, b.y]), ())
        })
        .collect();
    let tree = RTree::bulk_load(edges);
    // A lot edge that meets the block's outer ring (exact test) grazes it.
    let grazes = |lots: &[Polygon]| {
        lots.iter().flat_map(|l| std::iter::once(&l.exterior).chain(l.holes.iter())).any(|r| {
            (0..r.len()).any(|i| {
                let (a, b) = (r[i], r[(i + 1) % r.len()]);
                let env = rstar::AABB::from_corners([a.x.min(b.x), a.y.min(b.y)], [a.x.max(b.x), a.y.max(b.y)]);
                tree.locate_in_envelope_intersecting(env).any(|e| {
                    let (p, q) = (e.geom().from, e.geom().to);
                    segment_hit(a, b, Point::new(p[0], p[1]), Point::new(q[0], q[1])) != SegHit::None
                })
            })
        })
    };
    for attempt in 0..LOT_RETRIES {
        let lots = inset(block, band + attempt as f64 * settings.tolerance, settings);
        if !grazes(&lots) {
            return lots;
        }
    }
    Vec::new()
}

/// How many times a lot inset that grazes its block is taken again, a tolerance deeper.
const LOT_RETRIES: usize = 4;

/// The block inset by `band`, cleaned, parts below the minimum block area left out, in a
/// deterministic order.
fn inset(block: &Polygon, band: f64, settings: &Settings) -> Vec<Polygon> {
    let style = OutlineStyle::new(-band).line_join(LineJoin::Bevel);
    let shapes = shape(block).outline(&style);
    let mut lots: Vec<Polygon> = shapes
        .into_iter()
        .map(|sh| {
            let mut rings = sh.into_iter().map(|c| to_ring(&c));
            let exterior = rings.next().unwrap_or_default();
            Polygon { exterior, holes: rings.collect() }
        })
        .map(|mut p| {
            simplify_polygon(&mut p);
            p
        })
        .filter(|p| p.exterior.len() >= 3 && polygon_area(p) >= settings.min_block_area)
        .collect();
    lots.sort_by(|a, b| {
        let ka = a
            .exterior
            .iter()
            .map(|p| (p.x, p.y))
            .fold((f64::INFINITY, f64::INFINITY), |m, q| if q < m { q } else { m });
        let kb = b
            .exterior
            .iter()
            .map(|p| (p.x, p.y))
            .fold((f64::INFINITY, f64::INFINITY), |m, q| if q < m { q } else { m });
        ka.0.total_cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
    });
    lots
}

/// Drops vertices that would only give the block's meshes slivers (see `simplify_ring`).
fn simplify_polygon(p: &mut Polygon) {
    simplify_ring(&mut p.exterior, MIN_TRIANGLE_AREA);
    for h in &mut p.holes {
        simplify_ring(h, MIN_TRIANGLE_AREA);
    }
}

/// Block outlines are computed on a grid this fine (metres: a tenth of a millimetre), so that
/// roads that nearly touch cannot leave a block whose outline nearly touches itself.
const BLOCK_GRID: f64 = 1e-4;

/// Extracts the blocks of a network whose junctions and road pieces are built.
pub(crate) fn extract_blocks(net: &Network, settings: &Settings, diags: &mut Vec<Diagnostic>) -> Vec<Block> {
    let mut clip: Vec<Vec<Contour>> = Vec::with_capacity(net.pieces.len() + net.junctions.len());
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    let mut wmax: f64 = 0.0;
    let polys = net
        .pieces
        .iter()
        .map(|p| {
            wmax = wmax.max(p.width);
            &p.polygon
        })
        .chain(net.junctions.iter().map(|j| &j.polygon));
    for poly in polys {
        if poly.exterior.len() < 3 {
            continue;
        }
        for p in &poly.exterior {
            lo = [lo[0].min(p.x), lo[1].min(p.y)];
            hi = [hi[0].max(p.x), hi[1].max(p.y)];
        }
        let mut shape = vec![contour(&poly.exterior)];
        shape.extend(poly.holes.iter().map(|h| contour(h)));
        clip.push(shape);
    }
    if clip.is_empty() || !(lo[0].is_finite() && hi[0].is_finite()) {
        return Vec::new();
    }
    // A frame one road width outside the network, so the outer face is one connected region.
    let m = wmax.max(settings.snap_distance).max(1.0_f64.min(hi[0] - lo[0] + hi[1] - lo[1]));
    let (x0, y0, x1, y1) = (lo[0] - m, lo[1] - m, hi[0] + m, hi[1] + m);
    let frame: Vec<Contour> = vec![vec![[x0, y0], [x1, y0], [x1, y1], [x0, y1]]];
    let shapes = crate::overlay::overlay_on_grid(&frame, &clip, OverlayRule::Difference, FillRule::NonZero, BLOCK_GRID);

    // Centerline segments of the road pieces, to name blocks by the road beside them.
    let mut segs = Vec::new();
    for (pi, piece) in net.pieces.iter().enumerate() {
        for k in 0..piece.centerline.len().saturating_sub(1) {
            let (a, b) = (piece.centerline[k], piece.centerline[k + 1]);
            segs.push(GeomWithData::new(RLine::new([a.x, a.y], [b.x, b.y]), (pi, k)));
        }
    }
    let tree = RTree::bulk_load(segs);

    let mut used: BTreeMap<String, usize> = BTreeMap::new();
    // Faces: the outer face (along the frame, outside all road geometry) and faces too small
    // to be blocks are dropped here; naming, cleaning and lots run in parallel below.
    let mut faces = Vec::new();
    for shape in shapes {
        let mut rings = shape.iter().map(|c| to_ring(c));
        let Some(exterior) = rings.next() else { continue };
        if exterior.iter().any(|p| p.x < lo[0] - 0.5 * m) {
            continue;
        }
        let holes: Vec<Vec<Point>> = rings.collect();
        let area = ring_area(&exterior) + holes.iter().map(|h| ring_area(h)).sum::<f64>();
        let corner =
            exterior.iter().copied().min_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y))).unwrap_or_default();
        if area < settings.min_block_area {
            diags.push(Diagnostic {
                code: DiagnosticCode::FaceDropped,
                position: corner,
                road: None,
                message: format!(
                    "a face of {:.3} m² is smaller than the minimum block area ({} m²): no block",
                    area, settings.min_block_area
                ),
            });
            continue;
        }
        faces.push((Polygon { exterior, holes }, area, corner));
    }
    let mut out: Vec<(String, Point, Block)> = faces
        .into_par_iter()
        .map(|(mut polygon, area, corner)| {
            let mut profile = settings.profile;
            let base = match tree.nearest_neighbor([corner.x, corner.y]) {
                Some(seg) => {
                    let (pi, k) = seg.data;
                    let piece = &net.pieces[pi];
                    let (a, b) = (piece.centerline[k].xy(), piece.centerline[k + 1].xy());
                    let mut s = piece.start;
                    for j in 0..k {
                        s += piece.centerline[j].xy().dist(piece.centerline[j + 1].xy());
                    }
                    let d = b.sub(a);
                    let t = if d.dot(d) > 0.0 { (corner.sub(a).dot(d) / d.dot(d)).clamp(0.0, 1.0) } else { 0.0 };
                    s += d.len() * t;
                    let left = orient(a, b, corner) > 0.0;
                    profile = piece.profile;
                    let walk = if left { profile.sidewalk_left } else { profile.sidewalk_right };
                    profile.sidewalk_left = walk;
                    profile.sidewalk_right = walk;
                    format!("b/{}/{:.1}/{}", piece.road, s, if left { "L" } else { "R" })
                }
                None => format!("b/@{:.2},{:.2}", corner.x, corner.y),
            };
            simplify_polygon(&mut polygon);
            let lots = lots_of(&polygon, profile.curb_width + profile.sidewalk_left, settings);
            (base, corner, Block { id: String::new(), polygon, area, profile, lots })
        })
        .collect();
    // Deterministic ids whatever order the overlay returned the shapes in.
    out.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.x.total_cmp(&b.1.x)).then(a.1.y.total_cmp(&b.1.y)));
    let mut blocks: Vec<Block> = out
        .into_iter()
        .map(|(base, _, mut blk)| {
            let n = used.entry(base.clone()).or_insert(0);
            *n += 1;
            blk.id = if *n == 1 { base } else { format!("{}#{}", base, n) };
            blk
        })
        .collect();
    blocks.sort_by(|a, b| a.id.cmp(&b.id));
    blocks
}

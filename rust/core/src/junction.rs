//! Stage 5: junction outlines.
//!
//! The arms of a junction (the road edges leaving it) are sorted by angle around its center.
//! For each pair of neighbouring arms, the left curb of one and the right curb of the next (the
//! real centerlines offset by half their widths) meet at a corner point. A corner whose block
//! side is narrower than a half turn is rounded by a circular fillet of the corner radius,
//! tangent to both curbs; a wider one stays sharp; curbs that never meet are joined straight
//! across. Each arm is set back to the furthest tangent point of its two corners (at least half
//! the widest arm, so that even a straight continuation has a surface). The outline runs around
//! the arms: along each mouth, back along a curb, around the fillet, out along the next curb.
//! When that ring is not simple (overlapping roads, very short arms), the outline is the union
//! of the arm stubs and corner patches instead, and a diagnostic says so.

use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay_rule::OverlayRule;

use crate::curb::{inner_vertices, mouth_at, offset_at, Curb, Side};
use crate::geom::{arc_steps, dedup_ring, dedup_ring_within, ring_area, segment_hit, Line, SegHit, COINCIDENT_SHARE};
use crate::overlay::{ccw_contour, largest, Contour};
use crate::types::{Diagnostic, DiagnosticCode, Point, Polygon};
use crate::Settings;

/// One arm of a junction, as the pipeline hands it over.
#[derive(Clone, Debug)]
pub(crate) struct ArmIn {
    /// The centerline going outward from the junction.
    pub(crate) line: Line,
    pub(crate) width: f64,
    /// Largest setback the fillets may use (half the edge when another junction is at its far
    /// end, the whole edge at a dead end), metres.
    pub(crate) avail: f64,
    /// Radius of the corners beside this arm (its road's), metres.
    pub(crate) corner_radius: f64,
    /// Input road id, for diagnostics.
    pub(crate) road: String,
    /// The other arm of the same edge, when the edge leaves this junction and comes back to it
    /// (a loop, or a road between two crossings of the junction): the left curb of one and the
    /// right curb of the other are then one curb, run from both ends.
    pub(crate) twin: Option<usize>,
}

/// A junction's geometry: the setback of each arm (in the order given) and the outline.
#[derive(Clone, Debug)]
pub(crate) struct JunctionOut {
    pub(crate) setbacks: Vec<f64>,
    /// The surface; it has holes only where arms enclose a face large enough to be a block.
    pub(crate) polygon: Polygon,
    pub(crate) diags: Vec<Diagnostic>,
}

#[derive(Clone, Debug)]
enum Corner {
    /// Curbs meet; the outline passes from `ta` (on arm a's left curb, at centerline position
    /// `sa`) through `arc` to `tb` (on arm b's right curb, at `sb`).
    Meet { p: Point, ta: Point, sa: f64, arc: Vec<Point>, tb: Point, sb: f64 },
    /// The curbs do not meet: the mouths are joined straight across.
    Open,
}

/// First crossing of two curbs: (segment of a, segment of b, point), the one with the smallest
/// sum of centerline positions.
///
/// `one_curb` says that the curbs are one curb run from both ends (see [`ArmIn::twin`]) whose
/// meeting with itself makes no corner ([`twin_curbs_meet`]): their segments lie on each other
/// and touch end to end at every vertex, which is then passed over; only a real crossing counts.
fn curb_crossing(la: &Line, ca: &Curb, lb: &Line, cb: &Curb, one_curb: bool) -> Option<(usize, usize, Point)> {
    let mut best: Option<(f64, usize, usize, Point)> = None;
    for qa in 0..ca.len_segments() {
        let (a0, a1) = (ca.verts[qa].p, ca.verts[qa + 1].p);
        let (ax0, ax1) = (a0.x.min(a1.x), a0.x.max(a1.x));
        let (ay0, ay1) = (a0.y.min(a1.y), a0.y.max(a1.y));
        for qb in 0..cb.len_segments() {
            let (b0, b1) = (cb.verts[qb].p, cb.verts[qb + 1].p);
            if b0.x.max(b1.x) < ax0 || b0.x.min(b1.x) > ax1 || b0.y.max(b1.y) < ay0 || b0.y.min(b1.y) > ay1 {
                continue;
            }
            let p = match segment_hit(a0, a1, b0, b1) {
                SegHit::Point { ta, tb } if one_curb && shared_end(a0, a1, ta, b0, b1, tb) => continue,
                SegHit::Point { ta, .. } => a0.lerp(a1, ta),
                // Collinear curbs (a straight continuation of equal widths) do not make a corner.
                SegHit::Overlap { .. } | SegHit::None => continue,
            };
            let key = ca.s_of(la, qa, p) + cb.s_of(lb, qb, p);
            if best.as_ref().is_none_or(|b| key < b.0) {
                best = Some((key, qa, qb, p));
            }
        }
    }
    best.map(|(_, qa, qb, p)| (qa, qb, p))
}

/// Whether the curbs of two twin arms (see [`ArmIn::twin`]), `a`'s left one `curb` among them,
/// make a corner where they meet themselves, as the curbs of two roads do where they cross:
/// when the curb stays within `reach` metres of the junction's `center` (a loop or roundabout
/// drawn hardly larger than its road, which the junction takes in), or when it runs around the
/// inside of the loop and encloses no face of `min_area` square metres or more (a loop too tight
/// for its width, its inner curb folded onto itself). Otherwise the side of the loop between
/// the two arms is a face of its own, and the corner is open unless the curb really crosses
/// itself.
fn twin_curbs_meet(a: &ArmIn, curb: &Curb, center: Point, reach: f64, min_area: f64) -> bool {
    let extension = usize::from(curb.seg.first() == Some(&usize::MAX));
    let inner: Vec<Point> = curb.verts.iter().skip(extension).map(|v| v.p).collect();
    if inner.iter().all(|p| p.dist(center) <= reach) {
        return true;
    }
    // Counter-clockwise from this arm, its left side is the inside of the loop.
    let line: Vec<Point> = a.line.pts.iter().map(|p| p.xy()).collect();
    ring_area(&line) > 0.0 && ring_area(&inner) < min_area
}

/// Whether the hit at `ta` on segment `a0-a1` and `tb` on `b0-b1` is an end of both, the same
/// point exactly.
fn shared_end(a0: Point, a1: Point, ta: f64, b0: Point, b1: Point, tb: f64) -> bool {
    let end = |p0: Point, p1: Point, t: f64| {
        if t == 0.0 {
            Some(p0)
        } else if t == 1.0 {
            Some(p1)
        } else {
            None
        }
    };
    matches!((end(a0, a1, ta), end(b0, b1, tb)), (Some(p), Some(q)) if p.x == q.x && p.y == q.y)
}

/// Angle of an arm around the junction center: towards its point at `reach` metres out.
fn arm_angle(center: Point, line: &Line, reach: f64) -> f64 {
    let p = line.point_at(reach.min(line.length())).xy();
    let v = p.sub(center);
    if v.len() > 0.0 {
        v.y.atan2(v.x)
    } else {
        let d = line.dir(0);
        d.y.atan2(d.x)
    }
}

/// Builds the outline of one junction.
///
/// `center` is the mean of its crossing points; `extra` are polygons that belong to the
/// junction whatever its arms (road edges inside it), used only by the fallback.
pub(crate) fn build_junction(center: Point, arms: &[ArmIn], extra: &[Contour], settings: &Settings) -> JunctionOut {
    let n = arms.len();
    let mut diags = Vec::new();
    let wmax = arms.iter().map(|a| a.width).fold(0.0, f64::max);
    let min_setback = 0.5 * wmax;
    // Order arms counter-clockwise.
    let mut order: Vec<(f64, usize)> = arms
        .iter()
        .enumerate()
        .map(|(i, a)| (arm_angle(center, &a.line, wmax.max(settings.corner_radius)), i))
        .collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let ord: Vec<usize> = order.iter().map(|o| o.1).collect();

    let mut setback = vec![0.0f64; n];
    let mut corners: Vec<Corner> = Vec::with_capacity(n);
    if n >= 2 {
        for j in 0..n {
            let (ia, ib) = (ord[j], ord[(j + 1) % n]);
            let (a, b) = (&arms[ia], &arms[ib]);
            let ca = Curb::new(&a.line, 0.5 * a.width, Side::Left, a.line.length(), wmax);
            let cb = Curb::new(&b.line, 0.5 * b.width, Side::Right, b.line.length(), wmax);
            // Twin arms' curbs meeting themselves far along the loop would take the whole loop
            // into the junction: a face as large as a block, or more.
            let one_curb = a.twin == Some(ib)
                && !twin_curbs_meet(a, &ca, center, a.width + a.corner_radius, settings.min_block_area);
            let corner = match curb_crossing(&a.line, &ca, &b.line, &cb, one_curb) {
                None => Corner::Open,
                Some((qa, qb, p)) => {
                    let ua = ca.dir(qa);
                    let ub = cb.dir(qb);
                    let cross = ua.cross(ub);
                    let beta = cross.atan2(ua.dot(ub));
                    let sp_a = ca.s_of(&a.line, qa, p);
                    let sp_b = cb.s_of(&b.line, qb, p);
                    let radius = a.corner_radius.min(b.corner_radius);
                    if beta > 0.0 && radius > 0.0 {
                        let tan_half = (0.5 * beta).tan();
                        // The rounding reaches at most one corner radius along each curb from
                        // the corner: a right angle gets the full radius, a sharper corner a
                        // proportionally smaller one (the nose of a gore, not a long taper).
                        let mut r = radius * tan_half.min(1.0);
                        let mut d = r / tan_half;
                        let room = ca.reach(&a.line, qa, p, a.avail).min(cb.reach(&b.line, qb, p, b.avail));
                        if d > room {
                            let r_fit = room * tan_half;
                            diags.push(Diagnostic {
                                code: DiagnosticCode::RadiusReduced,
                                position: p,
                                road: Some(a.road.clone()),
                                message: format!(
                                    "corner between roads {} and {}: radius {:.2} m does not fit, reduced to {:.2} m",
                                    a.road, b.road, r, r_fit
                                ),
                            });
                            r = r_fit;
                            d = room;
                        }
                        let (ta, qta) = ca.walk(qa, p, d);
                        let (tb, qtb) = cb.walk(qb, p, d);
                        let sa = ca.s_of(&a.line, qta, ta);
                        let sb = cb.s_of(&b.line, qtb, tb);
                        let arc = fillet_arc(ta, ca.dir(qta), tb, cb.dir(qtb), r, settings.tolerance);
                        Corner::Meet { p, ta, sa, arc, tb, sb }
                    } else {
                        Corner::Meet { p, ta: p, sa: sp_a, arc: Vec::new(), tb: p, sb: sp_b }
                    }
                }
            };
            if let Corner::Meet { sa, sb, .. } = &corner {
                setback[ia] = setback[ia].max(*sa);
                setback[ib] = setback[ib].max(*sb);
            }
            corners.push(corner);
        }
    }
    for (i, a) in arms.iter().enumerate() {
        setback[i] = setback[i].max(min_setback).min(a.line.length());
    }

    if n >= 2 {
        let merge = COINCIDENT_SHARE * settings.tolerance;
        let mut ring = Vec::new();
        for j in 0..n {
            let (ia, ib) = (ord[j], ord[(j + 1) % n]);
            let (a, b) = (&arms[ia], &arms[ib]);
            let (ha, hb) = (0.5 * a.width, 0.5 * b.width);
            ring.push(mouth_at(&a.line, setback[ia], ha, Side::Left, merge));
            if let Corner::Meet { ta, sa, arc, tb, sb, .. } = &corners[j] {
                let mut back = Vec::new();
                inner_vertices(&a.line, *sa, setback[ia], ha, Side::Left, &mut back);
                if *sa < 0.0 {
                    back.insert(0, offset_at(&a.line, 0.0, ha, Side::Left));
                }
                ring.extend(back.into_iter().rev());
                ring.push(*ta);
                ring.extend(arc.iter().copied());
                ring.push(*tb);
                if *sb < 0.0 {
                    ring.push(offset_at(&b.line, 0.0, hb, Side::Right));
                }
                inner_vertices(&b.line, *sb, setback[ib], hb, Side::Right, &mut ring);
            }
            ring.push(mouth_at(&b.line, setback[ib], hb, Side::Right, merge));
        }
        dedup_ring_within(&mut ring, COINCIDENT_SHARE * settings.tolerance);
        // A ring that comes back within a hair of itself (a mouth corner on the curb of the
        // next corner, where arms overlap) would fall apart in the unions that follow.
        let clearance = 2.0 * COINCIDENT_SHARE * settings.tolerance;
        if ring_area(&ring) > 0.0 && crate::validate::ring_is_clear(&ring, clearance) {
            return JunctionOut { setbacks: setback, polygon: Polygon { exterior: ring, holes: Vec::new() }, diags };
        }
    }

    // Fallback: the union of the arm stubs, the corner patches and the junction's own edges.
    let mut parts: Vec<Vec<[f64; 2]>> = Vec::new();
    // Every part counter-clockwise, so that the non-zero fill is their union.
    let to = ccw_contour;
    for (i, a) in arms.iter().enumerate() {
        parts.extend(strip_parts(
            &a.line,
            (0.0, setback[i]),
            0.5 * a.width,
            COINCIDENT_SHARE * settings.tolerance,
            [false, true],
        ));
    }
    let mut patches: Vec<Vec<Point>> = Vec::new();
    for (j, c) in corners.iter().enumerate() {
        let Corner::Meet { p, ta, sa, arc, tb, sb } = c else { continue };
        let (ia, ib) = (ord[j], ord[(j + 1) % n]);
        let (a, b) = (&arms[ia], &arms[ib]);
        if !arc.is_empty() {
            // The fillet adds the corner between the curbs and the arc.
            let mut patch = vec![*p, *ta];
            patch.extend(arc.iter().copied());
            patch.push(*tb);
            patches.push(patch);
        } else if *sa < 0.0 || *sb < 0.0 {
            // A sharp corner behind the arms' starts: the gap between the two stubs.
            patches.push(vec![
                a.line.point_at(0.0).xy(),
                offset_at(&a.line, 0.0, 0.5 * a.width, Side::Left),
                *p,
                offset_at(&b.line, 0.0, 0.5 * b.width, Side::Right),
                b.line.point_at(0.0).xy(),
            ]);
        }
    }
    // A patch touches its arms' stubs along their curbs: whether the booleans' grid leaves the
    // two joined, a step apart or touching at one point depends on how the input lands on it
    // (moved or rotated, the same junction would come out whole or in pieces). Grown by a hair,
    // every patch overlaps its stubs whichever way the rounding goes; the stubs, and so the
    // mouths, keep their outlines.
    parts.extend(grown_by_a_hair(patches, COINCIDENT_SHARE * settings.tolerance));
    parts.extend(extra.iter().cloned());
    let empty: Vec<Vec<[f64; 2]>> = Vec::new();
    let mut shapes = crate::overlay::overlay(&parts, &empty, OverlayRule::Subject, FillRule::NonZero);
    if shapes.len() > 1 {
        // Patches too thin to grow may still make up a part that holds no arm's start (patches
        // side by side), which touches the rest only: grown by a hair, it joins for certain.
        let starts: Vec<Point> = arms.iter().map(|a| a.line.point_at(0.0).xy()).collect();
        let gap = COINCIDENT_SHARE * settings.tolerance;
        if let Some(grown) = grow_detached(&shapes, &starts, gap) {
            let mut with = parts.clone();
            with.extend(grown);
            let joined = crate::overlay::overlay(&with, &empty, OverlayRule::Subject, FillRule::NonZero);
            // Slivers of no width come and go with the rounding: only real parts count.
            let real = |s: &crate::overlay::Shapes| s.iter().filter(|s| s.first().is_some_and(|c| fat(c, gap))).count();
            if real(&joined) < real(&shapes) {
                shapes = joined;
            }
        }
    }
    // Parts that do not touch (arms from crossings that no edge joins): bridged by the hull of
    // the arm starts and the center; where that leaves them apart (two nodes and their midpoint
    // make no area), by the hull of the arms' first cross-sections, each the full width of its
    // road, which holds every stub's start and so overlaps every stub.
    let starts = || arms.iter().map(|a| a.line.point_at(0.0).xy()).chain([center]).collect();
    let sections = || {
        let section = |a: &ArmIn| [Side::Left, Side::Right].map(|side| offset_at(&a.line, 0.0, 0.5 * a.width, side));
        arms.iter().flat_map(section).collect()
    };
    for bridge in [&starts as &dyn Fn() -> Vec<Point>, &sections] {
        if shapes.len() <= 1 {
            break;
        }
        let hull = convex_hull(&bridge());
        if hull.len() >= 3 {
            parts.push(to(&hull));
            shapes = crate::overlay::overlay(&parts, &empty, OverlayRule::Subject, FillRule::NonZero);
        }
    }
    let mut polygon = largest(shapes);
    polygon.holes.retain(|h| -ring_area(h) >= settings.min_block_area);
    diags.push(Diagnostic {
        code: DiagnosticCode::JunctionFallback,
        position: center,
        // The smallest road id, whatever the order of the arms.
        road: arms.iter().map(|a| &a.road).min().cloned(),
        message: format!("junction of {} arms: curbs overlap, outline built from the union of its arms", n),
    });
    JunctionOut { setbacks: setback, polygon, diags }
}

/// Each ring of `patches` as a counter-clockwise contour grown by `gap` metres with bevelled
/// corners (nowhere further than `gap` from it: a mitre at the sharp tip of a patch would stick
/// out of the junction as a spike). A patch that is not simple is first cut into triangles. One
/// thinner than four `gap`s on average ([`fat`]), or that the polygon library cannot offset,
/// stays as it is.
fn grown_by_a_hair(patches: Vec<Vec<Point>>, gap: f64) -> Vec<Contour> {
    use i_overlay::mesh::float::outline::offset::OutlineOffset;
    use i_overlay::mesh::float::style::{LineJoin, OutlineStyle};
    let style = OutlineStyle::new(gap).line_join(LineJoin::Bevel);
    patches
        .into_iter()
        .flat_map(|mut ring| {
            if ring_area(&ring) < 0.0 {
                ring.reverse();
            }
            if crate::validate::ring_is_simple(&ring) {
                vec![crate::overlay::contour(&ring)]
            } else {
                // A patch that crosses itself would count some of its area negatively in the
                // non-zero union (cutting holes into its stubs): its fan of triangles from the
                // first vertex, each counter-clockwise, covers it positively.
                (1..ring.len().saturating_sub(1))
                    .map(|k| ccw_contour(&[ring[0], ring[k], ring[k + 1]]))
                    .filter(|t| crate::validate::contour_area(t) > 0.0)
                    .collect()
            }
        })
        .map(|c| {
            if !fat(&c, gap) {
                return c;
            }
            let grown = vec![c.clone()].outline(&style).into_iter().next().and_then(|s| s.into_iter().next());
            match grown {
                // Counter-clockwise like every part, whatever the library's output direction.
                Some(mut g) if g.len() >= 3 => {
                    if crate::validate::contour_area(&g) < 0.0 {
                        g.reverse();
                    }
                    g
                }
                _ => c,
            }
        })
        .collect()
}

/// The shapes of `shapes` that hold none of the points `starts` and are at least four `gap`s
/// wide on average, grown by `gap` metres with mitred corners, as counter-clockwise contours
/// (holes left out). `None` when there is nothing to grow or the polygon library refuses the
/// offset.
fn grow_detached(shapes: &crate::overlay::Shapes, starts: &[Point], gap: f64) -> Option<Vec<Contour>> {
    use i_overlay::mesh::float::outline::offset::OutlineOffset;
    use i_overlay::mesh::float::style::{LineJoin, OutlineStyle};
    let ring = |c: &Contour| c.iter().map(|p| Point::new(p[0], p[1])).collect::<Vec<Point>>();
    let detached = |c: &Contour| {
        let r = ring(c);
        !starts.iter().any(|q| crate::validate::point_in_ring(*q, &r))
    };
    let small: Vec<Contour> =
        shapes.iter().filter_map(|s| s.first()).filter(|c| fat(c, gap) && detached(c)).cloned().collect();
    if small.is_empty() {
        return None;
    }
    let style = OutlineStyle::new(gap).line_join(LineJoin::Miter(MITER_MIN_ANGLE));
    let grown: Vec<Contour> = small.outline(&style).into_iter().filter_map(|s| s.into_iter().next()).collect();
    (!grown.is_empty()).then_some(grown)
}

/// Whether a counter-clockwise contour is at least four `gap`s wide on average (its area at
/// least twice `gap` times its perimeter). A thinner one is a sliver of no width between two
/// parts: grown, it would stick out of the rest as a spike.
fn fat(c: &[[f64; 2]], gap: f64) -> bool {
    crate::validate::contour_area(c) >= 2.0 * gap * contour_length(c)
}

/// The perimeter of a contour, metres.
fn contour_length(c: &[[f64; 2]]) -> f64 {
    let n = c.len();
    (0..n).map(|i| (c[(i + 1) % n][0] - c[i][0]).hypot(c[(i + 1) % n][1] - c[i][1])).sum()
}

/// Smallest corner angle that [`grow_detached`] keeps sharp (radians; the polygon
/// library's lower bound): sharper corners are bevelled.
const MITER_MIN_ANGLE: f64 = 0.01 * std::f64::consts::PI;

/// The fillet from `ta` (curb direction `ua` there, going outward) to `tb` (direction `ub`),
/// radius about `r`, as the points strictly between them.
fn fillet_arc(ta: Point, ua: Point, tb: Point, ub: Point, r: f64, tolerance: f64) -> Vec<Point> {
    if r <= 0.0 {
        return Vec::new();
    }
    // The center lies on the block side: left of arm a's left curb, right of arm b's right curb.
    let c = ta.add(ua.perp().scale(r)).lerp(tb.sub(ub.perp().scale(r)), 0.5);
    let (va, vb) = (ta.sub(c), tb.sub(c));
    let (ra, rb) = (va.len(), vb.len());
    let a0 = va.y.atan2(va.x);
    let mut da = vb.y.atan2(vb.x) - a0;
    while da > std::f64::consts::PI {
        da -= std::f64::consts::TAU;
    }
    while da <= -std::f64::consts::PI {
        da += std::f64::consts::TAU;
    }
    let steps = arc_steps(r, da, tolerance);
    (1..steps)
        .map(|k| {
            let t = k as f64 / steps as f64;
            let ang = a0 + da * t;
            let rad = ra + (rb - ra) * t;
            Point::new(c.x + rad * ang.cos(), c.y + rad * ang.sin())
        })
        .collect()
}

/// The carriageway of `line` between arc lengths `s0` and `s1`, as one ring (counter-clockwise
/// for a line that does not fold over itself).
pub(crate) fn strip(line: &Line, s0: f64, s1: f64, half: f64) -> Vec<Point> {
    let mut ring = vec![offset_at(line, s0, half, Side::Right)];
    inner_vertices(line, s0, s1, half, Side::Right, &mut ring);
    ring.push(offset_at(line, s1, half, Side::Right));
    ring.push(offset_at(line, s1, half, Side::Left));
    let mut left = Vec::new();
    inner_vertices(line, s0, s1, half, Side::Left, &mut left);
    ring.extend(left.into_iter().rev());
    ring.push(offset_at(line, s0, half, Side::Left));
    dedup_ring(&mut ring);
    ring
}

/// The carriageway of `line` between arc lengths `s0` and `s1` as contours whose sum under the
/// non-zero rule is that carriageway (outer contours counter-clockwise, holes clockwise): the
/// one ring of [`strip`] when its curbs do not fold. Where the centerline turns so sharply that
/// a curb folds back over itself ([`folds`]), that ring crosses itself or covers the wrong
/// part of the road; then the union of one quadrilateral per centerline segment and, at each
/// vertex between two segments, the bevel triangle on the outer side of the turn (inside what a
/// cross-section swinging round the vertex covers; the curbs' mitre would reach up to four
/// half-widths out at a sharp turn, past the mouths of a junction's other arms), minus, at each end marked in `trim` (a mouth, where a road piece goes on), the carriageway of
/// the road's next stretch past it (half a width, within one segment): the inner side of a
/// sharp turn next to a mouth reaches past its cross-section onto the piece's carriageway. The end
/// cross-sections are those of [`offset_at`], as in [`strip`]. At a vertex between two
/// segments each quadrilateral reaches `overlap` metres past it, so that neighbouring parts
/// overlap instead of sharing an edge that rounding could open (on the outer side of a
/// bevelled turn this adds at most `overlap` to the carriageway).
pub(crate) fn strip_parts(line: &Line, (s0, s1): (f64, f64), half: f64, overlap: f64, trim: [bool; 2]) -> Vec<Contour> {
    let ring = strip(line, s0, s1, half);
    if strip_is_plain(line, (s0, s1), half, &ring) {
        return vec![ccw_contour(&ring)];
    }
    let mut pts: Vec<Point> = line.cut(s0, s1, overlap).iter().map(|p| p.xy()).collect();
    pts.dedup();
    if pts.len() < 2 {
        return vec![ccw_contour(&ring)];
    }
    let m = pts.len() - 1;
    let normal = |k: usize| pts[k + 1].sub(pts[k]).unit().perp().scale(half);
    let mut parts: Vec<Contour> = Vec::with_capacity(2 * m);
    for k in 0..m {
        let n = normal(k);
        let along = pts[k + 1].sub(pts[k]).unit().scale(overlap);
        let (r0, l0) = if k == 0 {
            (offset_at(line, s0, half, Side::Right), offset_at(line, s0, half, Side::Left))
        } else {
            (pts[k].sub(n).sub(along), pts[k].add(n).sub(along))
        };
        let (mut r1, mut l1) = if k + 1 == m {
            (offset_at(line, s1, half, Side::Right), offset_at(line, s1, half, Side::Left))
        } else {
            (pts[k + 1].sub(n).add(along), pts[k + 1].add(n).add(along))
        };
        if k + 1 == m {
            // An end on a vertex (or a hair past it) has the cross-section of the segment after
            // the vertex, which a sharp turn swings across this segment's carriageway: the
            // quadrilateral ends square to its own segment, and the wedge on the outer side of
            // the turn reaches the end's outer corner. The end's inner corner lies on this segment's
            // carriageway (the trim below makes it a corner of the outline).
            let (own_r, own_l) = (pts[m].sub(n), pts[m].add(n));
            if own_r.dist(r1) > overlap || own_l.dist(l1) > overlap {
                let turn = pts[m].sub(pts[m - 1]).cross(line.dir(line.segment_at(s1)));
                let (own_outer, end_outer) = if turn > 0.0 { (own_r, r1) } else { (own_l, l1) };
                // Reaching `overlap` back into the quadrilateral along its outer half, so that
                // the two overlap instead of sharing half its end, which rounding can open
                // until they touch at one point and fall apart.
                let back = [pts[m].sub(along), own_outer.sub(along)];
                parts.push(ccw_contour(&[back[0], back[1], own_outer, end_outer, pts[m]]));
                (r1, l1) = (own_r, own_l);
            }
        }
        parts.push(ccw_contour(&[r0, r1, l1, l0]));
        if k + 1 < m {
            // The outer side of the turn at vertex k + 1: right of a left turn.
            let (d0, d1) = (pts[k + 1].sub(pts[k]), pts[k + 2].sub(pts[k + 1]));
            let side = if d0.cross(d1) > 0.0 { Side::Right } else { Side::Left };
            let mut wedge = vec![pts[k + 1], pts[k + 1].add(n.scale(side.sign()))];
            wedge.push(pts[k + 1].add(normal(k + 1).scale(side.sign())));
            dedup_ring(&mut wedge);
            if wedge.len() >= 3 {
                parts.push(ccw_contour(&wedge));
            }
        }
    }
    // Past each end to trim, the carriageway of the next feature's first stretch along the road
    // (half a width, as far as a turn's inner corner can reach, within one segment): what of the
    // parts lies there is that feature's.
    let len = line.length();
    let rect = |k: usize, a: f64, b: f64| -> Contour {
        let n = line.dir(k).perp().scale(half);
        let (p, q) = (line.point_at(a).xy(), line.point_at(b).xy());
        ccw_contour(&[p.sub(n), q.sub(n), q.add(n), p.add(n)])
    };
    let mut ends: Vec<Contour> = Vec::new();
    if trim[1] && s1 < len {
        let k = line.segment_at(s1);
        let b = line.cum.get(k + 1).copied().unwrap_or(len).min(s1 + half + overlap);
        if b > s1 {
            ends.push(rect(k, s1, b));
        }
    }
    if trim[0] && s0 > 0.0 {
        let k = line.segment_at(s0);
        let k = if line.cum.get(k).is_some_and(|&c| c >= s0) { k.saturating_sub(1) } else { k };
        let a = line.cum.get(k).copied().unwrap_or(0.0).max(s0 - half - overlap);
        if a < s0 {
            ends.push(rect(k, a, s0));
        }
    }
    if ends.is_empty() {
        let empty: Vec<Contour> = Vec::new();
        return crate::overlay::overlay(&parts, &empty, OverlayRule::Subject, FillRule::NonZero)
            .into_iter()
            .flatten()
            .collect();
    }
    crate::overlay::overlay(&parts, &ends, OverlayRule::Difference, FillRule::NonZero).into_iter().flatten().collect()
}

/// Whether `ring`, the one ring of [`strip`] of `line` between `s0` and `s1`, holds that
/// carriageway: no curb folds, and the ring is simple and counter-clockwise (or has too few
/// points to hold anything). Where it is not, [`strip_parts`] gives the carriageway in parts.
pub(crate) fn strip_is_plain(line: &Line, (s0, s1): (f64, f64), half: f64, ring: &[Point]) -> bool {
    ring.len() < 3 || (!folds(line, s0, s1, half) && ring_area(ring) > 0.0 && crate::validate::ring_is_simple(ring))
}

/// Whether a curb of `line` between `s0` and `s1` folds back over itself: the inner curb of a
/// turn by θ meets the next one `half`·tan(θ/2) before and after the vertex along the two
/// segments, and the reaches from both ends of a segment must fit in its length (within
/// `s0..s1`). A ring whose inner curb folds may still be simple, and then covers the wrong part
/// of the road.
pub(crate) fn folds(line: &Line, s0: f64, s1: f64, half: f64) -> bool {
    let n = line.pts.len();
    if n < 3 {
        return false;
    }
    // The reach at each vertex strictly inside (s0, s1), 0 elsewhere.
    let reach: Vec<f64> = (0..n)
        .map(|i| {
            let s = line.cum[i];
            if i == 0 || i + 1 == n || s <= s0 || s >= s1 {
                return 0.0;
            }
            let c = line.dir(i - 1).dot(line.dir(i)).clamp(-1.0, 1.0);
            if 1.0 + c <= f64::EPSILON {
                return f64::INFINITY;
            }
            half * ((1.0 - c) / (1.0 + c)).sqrt()
        })
        .collect();
    (0..n - 1).any(|k| {
        let (a, b) = (line.cum[k].max(s0), line.cum[k + 1].min(s1));
        b > a && reach[k] + reach[k + 1] > b - a
    })
}

/// Like [`strip`], with a half-disc cap of radius `half` beyond `s0` and/or `s1` (a dead end),
/// its arc within `tolerance` of the circle.
pub(crate) fn strip_capped(line: &Line, s0: f64, s1: f64, half: f64, caps: [bool; 2], tolerance: f64) -> Vec<Point> {
    let mut ring = strip(line, s0, s1, half);
    if !caps[0] && !caps[1] {
        return ring;
    }
    // Half a turn counter-clockwise around the centerline point at `s`, starting on `side`,
    // strictly between the two mouth corners.
    let arc = |s: f64, side: Side| -> Vec<Point> {
        let c = line.point_at(s).xy();
        let n = line.dir(line.segment_at(s)).perp();
        let start = if side == Side::Right { n.scale(-1.0) } else { n };
        let a0 = start.y.atan2(start.x);
        let steps = arc_steps(half, std::f64::consts::PI, tolerance);
        (1..steps)
            .map(|k| {
                let a = a0 + std::f64::consts::PI * k as f64 / steps as f64;
                Point::new(c.x + half * a.cos(), c.y + half * a.sin())
            })
            .collect()
    };
    let right_end = offset_at(line, s1, half, Side::Right);
    if caps[1] {
        // Between the right and the left corner of the end mouth.
        if let Some(i) = ring.iter().position(|p| *p == right_end) {
            let pts = arc(s1, Side::Right);
            ring.splice(i + 1..i + 1, pts);
        }
    }
    if caps[0] {
        // After the left corner of the start mouth, which closes the ring.
        ring.extend(arc(s0, Side::Left));
    }
    ring
}

/// Convex hull (Andrew's monotone chain), counter-clockwise.
fn convex_hull(pts: &[Point]) -> Vec<Point> {
    let mut p: Vec<Point> = pts.iter().copied().filter(|q| q.is_finite()).collect();
    p.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    p.dedup();
    if p.len() < 3 {
        return p;
    }
    let mut h: Vec<Point> = Vec::with_capacity(2 * p.len());
    for pass in 0..2 {
        let start = h.len();
        let iter: Box<dyn Iterator<Item = &Point>> =
            if pass == 0 { Box::new(p.iter()) } else { Box::new(p.iter().rev()) };
        for &q in iter {
            while h.len() >= start + 2 && crate::geom::orient(h[h.len() - 2], h[h.len() - 1], q) <= 0.0 {
                h.pop();
            }
            h.push(q);
        }
        h.pop();
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Point3;

    /// Whether `q` lies inside the union of `shapes` (outside every hole of the shape that holds it).
    fn covered(shapes: &crate::overlay::Shapes, q: Point) -> bool {
        shapes.iter().any(|s| {
            let rings: Vec<Vec<Point>> = s.iter().map(|c| c.iter().map(|p| Point::new(p[0], p[1])).collect()).collect();
            crate::validate::point_in_ring(q, &rings[0])
                && !rings[1..].iter().any(|h| crate::validate::point_in_ring(q, h))
        })
    }

    /// A centerline that turns by 20° to 170° after a segment shorter than the inner curb's
    /// reach at the sharp turns: the union of `strip_parts` covers every point within 0.9
    /// half-widths of the centerline; where the inner curb folds (135° and more) it is made of
    /// parts, and the folded ring's fill misses some of those points.
    #[test]
    fn parts_cover_a_folded_carriageway() {
        let half = 3.0;
        let mut missed_total = 0;
        for turn_deg in [20.0f64, 90.0, 135.0, 160.0, 170.0] {
            let t = turn_deg.to_radians();
            let line = Line::new(vec![
                Point3::new(0.0, 0.0, 0.0),
                Point3::new(4.0, 0.0, 0.0),
                Point3::new(4.0 + 20.0 * t.cos(), 20.0 * t.sin(), 0.0),
            ]);
            let parts = strip_parts(&line, (0.0, line.length()), half, 1e-6, [false, false]);
            let empty: Vec<crate::overlay::Contour> = Vec::new();
            let union = crate::overlay::overlay(&parts, &empty, OverlayRule::Subject, FillRule::NonZero);
            assert_eq!(union.len(), 1, "{turn_deg}°: one part");
            let ring = strip(&line, 0.0, line.length(), half);
            let ring_fill =
                crate::overlay::overlay(&vec![ccw_contour(&ring)], &empty, OverlayRule::Subject, FillRule::NonZero);
            let mut missed_by_ring = 0;
            let steps = 200;
            for k in 1..steps {
                let s = line.length() * k as f64 / steps as f64;
                for side in [Side::Left, Side::Right] {
                    let q = offset_at(&line, s, 0.9 * half, side);
                    assert!(covered(&union, q), "{turn_deg}°: {q:?} (s = {s}) not covered");
                    missed_by_ring += usize::from(!covered(&ring_fill, q));
                }
            }
            let folded = folds(&line, 0.0, line.length(), half);
            if turn_deg >= 135.0 {
                assert!(folded, "{turn_deg}°: the inner curb folds");
            } else {
                assert!(!folded, "{turn_deg}°: the inner curb does not fold");
                assert_eq!(parts, vec![ccw_contour(&ring)], "{turn_deg}°: a ring that does not fold is kept");
                assert_eq!(missed_by_ring, 0, "{turn_deg}°: the ring covers the road");
            }
            missed_total += missed_by_ring;
        }
        assert!(missed_total > 0, "some folded ring's fill misses part of the road");
    }

    /// A strip that ends on a vertex where the road turns by 150° (a merged junction's stretch
    /// of road between two of its bases, ending on a closed loop's corner): its ring takes the
    /// end's cross-section from the next segment and crosses itself, and in a union under the
    /// non-zero rule with a base over its end, the ring's lobe of the wrong sign takes part of
    /// the base away. It is not plain, and the union of its parts with the base keeps the base
    /// and the strip whole. A metre short of the vertex the ring is plain.
    #[test]
    fn a_strip_ending_on_a_sharp_vertex_is_not_plain() {
        let half = 3.0;
        let t = 150f64.to_radians();
        let line = Line::new(vec![
            Point3::new(0.0, 0.0, 0.0),
            Point3::new(20.0, 0.0, 0.0),
            Point3::new(20.0 + 20.0 * t.cos(), 20.0 * t.sin(), 0.0),
        ]);
        let s1 = 20.0;
        let ring = strip(&line, 0.0, s1, half);
        assert!(!crate::validate::ring_is_simple(&ring), "the ring crosses itself");
        assert!(!strip_is_plain(&line, (0.0, s1), half, &ring));
        let short = strip(&line, 0.0, s1 - 1.0, half);
        assert!(strip_is_plain(&line, (0.0, s1 - 1.0), half, &short), "a metre short of the vertex");
        // A base over the end: a square of side 16 m round the vertex.
        let r = 8.0;
        let base: crate::overlay::Contour = vec![[s1 - r, -r], [s1 + r, -r], [s1 + r, r], [s1 - r, r]];
        let empty: Vec<crate::overlay::Contour> = Vec::new();
        let union_with = |strip: Vec<crate::overlay::Contour>| {
            let shapes: Vec<Vec<crate::overlay::Contour>> =
                std::iter::once(vec![base.clone()]).chain(strip.into_iter().map(|c| vec![c])).collect();
            crate::overlay::overlay(&shapes, &empty, OverlayRule::Subject, FillRule::NonZero)
        };
        let with_ring = union_with(vec![ccw_contour(&ring)]);
        let with_parts = union_with(strip_parts(&line, (0.0, s1), half, 1e-6, [false, false]));
        let steps = 40;
        let mut lost_by_ring = 0;
        for i in 0..=steps {
            for j in 0..=steps {
                let q = Point::new(
                    s1 - 0.95 * r + 1.9 * r * i as f64 / steps as f64,
                    -0.95 * r + 1.9 * r * j as f64 / steps as f64,
                );
                assert!(covered(&with_parts, q), "{q:?}: base point lost with the parts");
                lost_by_ring += usize::from(!covered(&with_ring, q));
            }
        }
        assert!(lost_by_ring > 0, "the crossed ring takes part of the base away");
        for k in 1..40 {
            let s = s1 * k as f64 / 40.0;
            for side in [Side::Left, Side::Right] {
                let q = offset_at(&line, s, 0.9 * half, side);
                assert!(covered(&with_parts, q), "{q:?} (s = {s}): strip point lost with the parts");
            }
        }
    }

    /// A stub that turns by 135° one metre before its end (a mouth): the inner side of the turn
    /// reaches past the mouth onto the next piece's carriageway, and `trim` takes that off.
    #[test]
    fn trimmed_end_stops_at_the_mouth() {
        let half = 3.0;
        let t = 135f64.to_radians();
        let line = Line::new(vec![
            Point3::new(0.0, 0.0, 0.0),
            Point3::new(10.0, 0.0, 0.0),
            Point3::new(10.0 + 20.0 * t.cos(), 20.0 * t.sin(), 0.0),
        ]);
        let s1 = 11.0;
        let empty: Vec<crate::overlay::Contour> = Vec::new();
        let union = |trim| {
            let parts = strip_parts(&line, (0.0, s1), half, 1e-6, trim);
            crate::overlay::overlay(&parts, &empty, OverlayRule::Subject, FillRule::NonZero)
        };
        // Half a metre past the mouth, on the inner side of the turn.
        let q = offset_at(&line, s1 + 0.5, 0.8 * half, Side::Left);
        assert!(covered(&union([false, false]), q), "untrimmed, the turn's inner side reaches past the mouth");
        let trimmed = union([false, true]);
        assert!(!covered(&trimmed, q), "trimmed at the mouth");
        // Everything before the mouth is still there, or on the piece's carriageway (the road
        // turns back over itself).
        let piece = crate::overlay::overlay(
            &vec![ccw_contour(&strip(&line, s1, line.length(), half))],
            &empty,
            OverlayRule::Subject,
            FillRule::NonZero,
        );
        for k in 1..50 {
            let s = s1 * k as f64 / 50.0;
            for side in [Side::Left, Side::Right] {
                let p = offset_at(&line, s, 0.9 * half, side);
                assert!(covered(&trimmed, p) || covered(&piece, p), "{p:?} (s = {s})");
            }
        }
    }
}

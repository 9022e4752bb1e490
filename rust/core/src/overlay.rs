//! Polygon booleans through `i_overlay`, always with OGC-valid output: rings never touch
//! themselves, so every polygon that comes out passes [`crate::validate::check_polygon`].

use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::integer::OverlayInt;
use i_overlay::core::overlay::ShapeType;
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::core::solver::{Precision, Solver};
use i_overlay::float::overlay::{FloatOverlay, OverlayOptions};
use i_overlay::i_float::adapter::FloatPointAdapter;
use i_overlay::i_float::float::rect::FloatRect;
use i_overlay::i_shape::source::float::resource::ShapeResource;

use crate::geom::ring_area;
use crate::types::{Point, Polygon};

/// A ring as `i_overlay` takes it.
pub(crate) type Contour = Vec<[f64; 2]>;

/// Shapes: each an outer contour (counter-clockwise) followed by its holes (clockwise).
pub(crate) type Shapes = Vec<Vec<Contour>>;

/// A ring as a contour, as it is.
pub(crate) fn contour(ring: &[Point]) -> Contour {
    ring.iter().map(|p| [p.x, p.y]).collect()
}

/// A ring as a counter-clockwise contour, so that under the non-zero rule overlapping parts
/// add up to their union.
pub(crate) fn ccw_contour(ring: &[Point]) -> Contour {
    let mut c = contour(ring);
    if ring_area(ring) < 0.0 {
        c.reverse();
    }
    c
}

/// A polygon as one shape: its exterior, then its holes.
pub(crate) fn shape(p: &Polygon) -> Vec<Contour> {
    std::iter::once(&p.exterior).chain(p.holes.iter()).map(|r| contour(r)).collect()
}

/// The largest shape of an overlay result, as a polygon (empty when there is none).
pub(crate) fn largest(shapes: Shapes) -> Polygon {
    let mut best: Option<(f64, Polygon)> = None;
    for shape in shapes {
        let mut rings =
            shape.into_iter().map(|c| c.into_iter().map(|p| Point::new(p[0], p[1])).collect::<Vec<Point>>());
        let Some(exterior) = rings.next() else { continue };
        let holes: Vec<Vec<Point>> = rings.collect();
        let a = ring_area(&exterior) + holes.iter().map(|h| ring_area(h)).sum::<f64>();
        if best.as_ref().is_none_or(|b| a > b.0) {
            best = Some((a, Polygon { exterior, holes }));
        }
    }
    best.map(|b| b.1).unwrap_or_default()
}

/// Like [`overlay`], on a fixed grid of `grid` metres anchored at the origin (32-bit grid
/// coordinates within [`ANCHORED_GRID_SPAN`] steps of it, 64-bit ones within
/// [`WIDE_ANCHORED_GRID_SPAN`]; past that, centred on the extent, or with the automatic
/// scale): points closer than the grid become one, so that no outline comes out nearly
/// touching itself.
///
/// The grid is anchored at the origin, never at the input's extent: a region of the network
/// comes out the same whether it is computed with the whole network or with only its
/// neighbourhood (the incremental update relies on it), whichever width its grid coordinates
/// take. `grid` should be a power of two so that scaling a coordinate onto the grid is exact.
/// `extent` (lowest, highest corners; the inputs' own box without it) is the region the caller
/// works in; input points past it (surfaces that reach out of a frame) widen the adapter's box
/// to hold them, which moves no grid coordinate (the width of the coordinates stays the one
/// the extent chose, unless the wider box does not fit it). Where it lies on the anchored
/// grid, the grid is the same whatever box is given and only the width of its coordinates depends on the box: the inputs' own box chooses it, so
/// that a part of a network near the origin gets 32-bit coordinates (about 7 % fewer
/// instructions) while the whole network needs 64-bit ones (liege tiled 2 × 2 reaches 69 km
/// from the origin, past the 32-bit span of 33 km). Past the anchored span the grid is centred
/// on `extent`.
pub(crate) fn overlay_on_grid<R0, R1>(
    subj: &R0,
    clip: &R1,
    rule: OverlayRule,
    fill: FillRule,
    grid: f64,
    extent: Option<([f64; 2], [f64; 2])>,
) -> Shapes
where
    R0: ShapeResource<[f64; 2]> + ?Sized,
    R1: ShapeResource<[f64; 2]> + ?Sized,
{
    let own = || {
        subj.iter_paths()
            .chain(clip.iter_paths())
            .flatten()
            .fold(([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]), |(lo, hi), p| {
                ([lo[0].min(p[0]), lo[1].min(p[1])], [hi[0].max(p[0]), hi[1].max(p[1])])
            })
    };
    let scale = 1.0 / grid;
    // Within the 32-bit span of the origin the extent alone chooses the width of the grid
    // coordinates; past it, or without an extent, the inputs' own box does.
    let inputs = own();
    let (lo, hi) = match extent {
        Some(e) if reach_of(e) * scale <= ANCHORED_GRID_SPAN || !anchored(e, grid) => e,
        _ => inputs,
    };
    let reach = reach_of((lo, hi));
    // The adapter's box holds the inputs too, wherever the extent ends (surfaces that reach
    // out of a frame): every point the library gives back must lie in it. Centred on the
    // origin, it moves no grid coordinate; only a box too large for 32-bit coordinates takes
    // 64-bit ones.
    let inputs_reach = reach_of(inputs);
    let half = if inputs_reach.is_finite() { reach.max(inputs_reach) } else { reach };
    let capacity = subj.iter_paths().chain(clip.iter_paths()).map(|c| c.len()).sum();
    let run = |adapter| run_on::<i32, _, _>(adapter, subj, clip, rule, fill, capacity);
    if reach.is_finite() && reach > 0.0 && reach * scale <= WIDE_ANCHORED_GRID_SPAN {
        // A box centred on the origin puts the adapter's offset at exactly zero.
        let rect = FloatRect::new(-half, half, -half, half).ok();
        if reach * scale <= ANCHORED_GRID_SPAN {
            if let Some(adapter) = rect.and_then(|r| FloatPointAdapter::try_with_scale(r, scale).ok()) {
                return run(adapter);
            }
        }
        // Too far for 32-bit coordinates: the same origin-anchored grid in 64-bit ones, so
        // that the points of an input get the same grid coordinates as in a smaller overlay.
        if let Some(adapter) = rect.and_then(|r| FloatPointAdapter::try_with_scale(r, scale).ok()) {
            return run_on::<i64, _, _>(adapter, subj, clip, rule, fill, capacity);
        }
    }
    // The library's own choice for these inputs with this scale: centred on the extent (so
    // that every overlay given the same extent shares the grid), or on the inputs' box. The
    // adapter's box keeps that centre and grows to hold the inputs as well, so that every
    // point the library gives back lies in it (it asserts so in debug builds) on the same grid;
    // where the grown box does not fit the library's coordinates, the extent alone, as before.
    let boxes = centred_box_holding((lo, hi), inputs).into_iter().chain(std::iter::once((lo, hi)));
    let adapter = boxes
        .filter_map(|(a, b)| FloatRect::new(a[0], b[0], a[1], b[1]).ok())
        .find_map(|r| FloatPointAdapter::try_with_scale_conservative(r, scale).ok());
    match adapter {
        Some(adapter) => run(adapter),
        None => overlay(subj, clip, rule, fill),
    }
}

/// The box with the centre of `centred` that holds both boxes (lowest, highest corners), or
/// `None` when `inputs` is not finite (no inputs) or already inside `centred`. Its centre is
/// computed as the polygon library computes an adapter's offset from its box, so that the
/// grid's origin stays exactly where `centred` alone puts it.
fn centred_box_holding(centred: ([f64; 2], [f64; 2]), inputs: ([f64; 2], [f64; 2])) -> Option<([f64; 2], [f64; 2])> {
    let (lo, hi) = centred;
    let finite = |b: ([f64; 2], [f64; 2])| b.0.iter().chain(b.1.iter()).all(|v| v.is_finite());
    if !finite(inputs) || !finite(centred) {
        return None;
    }
    let inside = (0..2).all(|k| lo[k] <= inputs.0[k] && inputs.1[k] <= hi[k]);
    if inside {
        return None;
    }
    let mut out = centred;
    for k in 0..2 {
        let c = 0.5 * (lo[k] + hi[k]);
        let half = (c - lo[k]).max(hi[k] - c).max(c - inputs.0[k]).max(inputs.1[k] - c);
        out.0[k] = c - half;
        out.1[k] = c + half;
        // The library takes the middle of the box as the grid's origin: a box whose middle
        // rounds elsewhere would move every grid coordinate.
        if 0.5 * (out.0[k] + out.1[k]) != c {
            return None;
        }
    }
    Some(out)
}

/// One overlay of [`overlay_on_grid`] with `adapter`, in grid coordinates of type `I`.
fn run_on<I: OverlayInt, R0, R1>(
    adapter: FloatPointAdapter<[f64; 2], I>,
    subj: &R0,
    clip: &R1,
    rule: OverlayRule,
    fill: FillRule,
    capacity: usize,
) -> Shapes
where
    R0: ShapeResource<[f64; 2]> + ?Sized,
    R1: ShapeResource<[f64; 2]> + ?Sized,
{
    // Segments split by the library's fragment strategy at every size: a frame's faces
    // overlay (2,000 to 12,000 segments in an update of liege_center) spends most of its
    // time finding where segments cross, which the segment tree that `Solver::AUTO` picks
    // from 2,000 segments does 15 % slower (and the list below it 8 % slower) for the same
    // shapes; from 32,000 segments `AUTO` fragments too.
    let solver = Solver { precision: GRID_SNAP, ..Solver::FRAG };
    FloatOverlay::<[f64; 2], I>::new_custom(adapter, OverlayOptions::ogc(), solver, capacity)
        .unsafe_add_source(subj, ShapeType::Subject)
        .unsafe_add_source(clip, ShapeType::Clip)
        .overlay(rule, fill)
}

/// How far [`overlay_on_grid`] snaps a crossing to the segment ends near it: the library
/// finds crossings pass after pass over every segment, until a pass rounds none to the grid,
/// its snap radius growing each pass. Its own choice for the fragment strategy starts at one
/// grid step (squared radius 2^0) and doubles the squared radius each pass; this starts at two
/// steps and quadruples it (2, 4, 8 steps: 0.24, 0.49, 0.98 mm with
/// [`crate::blocks::BLOCK_GRID`]), so that crossings a few steps apart, which a snap to the
/// grid moves onto one another, settle in fewer passes. On the whole of liege, whose faces
/// strips took 3 and 6 passes over about 180,000 segments each, it takes 3 and 4, and finding
/// the faces costs 14 % fewer instructions; 4 faces of less than the minimum block area are
/// no longer found (same blocks).
const GRID_SNAP: Precision = Precision::MEDIUM_LOW;

/// Whether an overlay whose coordinates all lie in `frame` (lowest, highest corners) is on the
/// origin-anchored grid of `grid` metres in [`overlay_on_grid`].
pub(crate) fn anchored(frame: ([f64; 2], [f64; 2]), grid: f64) -> bool {
    let reach = reach_of(frame);
    reach.is_finite() && reach / grid <= WIDE_ANCHORED_GRID_SPAN
}

/// The largest distance of a box's sides from the origin's axes (lowest, highest corners).
fn reach_of(b: ([f64; 2], [f64; 2])) -> f64 {
    b.0.iter().chain(b.1.iter()).fold(0.0f64, |m, v| m.max(v.abs()))
}

/// Largest coordinate, in grid steps, of an overlay on the origin-anchored grid: 2^28, an
/// eighth of the 32-bit range, leaving room for the library's intermediate values.
const ANCHORED_GRID_SPAN: f64 = (1u64 << 28) as f64;

/// The same for 64-bit grid coordinates, past [`ANCHORED_GRID_SPAN`]: 2^32 (with
/// [`crate::blocks::BLOCK_GRID`], 524 km from the origin: any city). Kept far inside the
/// 64-bit range: with a ring reaching 771,000 km (2^42.5 grid steps, `tests/hostile.rs`,
/// `fuzz_far_ring_builds_in_bounded_work`) the 64-bit overlay gave blocks over the road, where
/// the grid centred on the extent, with the library's own scale, gives valid ones.
const WIDE_ANCHORED_GRID_SPAN: f64 = (1u64 << 32) as f64;

/// `subj` combined with `clip` by `rule`, filled by `fill`, as OGC-valid shapes, on the grid
/// the polygon library fits to their extent. Nothing (no shapes) when a coordinate lies outside
/// the range that library takes: its own constructor panics there (found by fuzzing the C ABI:
/// the faces of a network whose frame reached past that range, in a full build).
pub(crate) fn overlay<R0, R1>(subj: &R0, clip: &R1, rule: OverlayRule, fill: FillRule) -> Shapes
where
    R0: ShapeResource<[f64; 2]> + ?Sized,
    R1: ShapeResource<[f64; 2]> + ?Sized,
{
    let points = subj.iter_paths().chain(clip.iter_paths()).flatten();
    if FloatRect::with_iter(points).is_err() {
        return Vec::new();
    }
    // One overlay per thread, made again for each call from the inputs (the same grid as a
    // new one: the library's conservative adapter for their box), so that its buffers for
    // segments, splits and the graph are kept between the many small unions of a build.
    // A call made while this thread's overlay is in use (a task the library's own parallel
    // work picked up) gets a new one.
    let fresh = || FloatOverlay::<[f64; 2], i32>::new_empty(OverlayOptions::ogc(), Solver::default(), 0);
    let run = |o: &mut FloatOverlay<[f64; 2], i32>| {
        o.reinit_with_subj_and_clip(subj, clip);
        o.overlay(rule, fill)
    };
    OVERLAY.with(|cell| match cell.try_borrow_mut() {
        Ok(mut reused) => run(reused.get_or_insert_with(fresh)),
        Err(_) => run(&mut fresh()),
    })
}

thread_local! {
    /// The overlay [`overlay`] reuses on this thread.
    static OVERLAY: std::cell::RefCell<Option<FloatOverlay<[f64; 2], i32>>> = const { std::cell::RefCell::new(None) };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past the origin-anchored span the grid is centred on the extent; surfaces reaching out
    /// of it (an update's frame) must still come back inside the adapter's box, where the
    /// polygon library asserts in debug builds that every point it gives back lies, and on the
    /// grid the extent alone gives.
    #[test]
    fn far_inputs_past_the_extent_stay_on_its_grid() {
        let grid = crate::blocks::BLOCK_GRID;
        // 2^33 grid steps from the origin: past the 64-bit anchored span.
        let c = 2.0 * WIDE_ANCHORED_GRID_SPAN * grid;
        let extent = ([c - 50.0, c - 50.0], [c + 50.0, c + 50.0]);
        assert!(!anchored(extent, grid));
        let square = |x0: f64, y0: f64, k: f64| vec![[x0, y0], [x0 + k, y0], [x0 + k, y0 + k], [x0, y0 + k]];
        // A square half out of the extent, another inside it.
        let subj = vec![square(c + 20.0, c - 10.0, 75.0)];
        let clip = vec![square(c - 30.0, c - 30.0, 40.0)];
        let out = overlay_on_grid(&subj, &clip, OverlayRule::Union, FillRule::NonZero, grid, Some(extent));
        assert_eq!(out.len(), 2, "{out:?}");
        let area: f64 =
            out.iter().map(|sh| ring_area(&sh[0].iter().map(|p| Point::new(p[0], p[1])).collect::<Vec<_>>())).sum();
        assert!((area - (75.0 * 75.0 + 40.0 * 40.0)).abs() < 1e-3, "{area}");
        // The far corner comes back where it was: on the grid of the extent (its centre is a
        // whole number of steps from it).
        let far = [c + 95.0, c + 65.0];
        assert!(out.iter().flatten().flatten().any(|p| *p == far), "{out:?}");
        // Inputs inside the extent change nothing.
        assert_eq!(centred_box_holding(extent, ([c, c], [c + 1.0, c + 1.0])), None);
        assert_eq!(
            centred_box_holding(extent, ([c - 10.0, c], [c + 80.0, c + 1.0])),
            Some(([c - 80.0, c - 50.0], [c + 80.0, c + 50.0]))
        );
    }

    /// Found by fuzzing the C ABI: coordinates the polygon library does not take made its own
    /// constructor panic; they give no shapes instead, and ordinary ones what they always did.
    #[test]
    fn coordinates_out_of_range_give_no_shapes() {
        let square = |k: f64| vec![[0.0, 0.0], [k, 0.0], [k, k], [0.0, k]];
        let empty: Vec<Contour> = Vec::new();
        for k in [f64::INFINITY, f64::MAX, -f64::MAX] {
            assert!(overlay(&vec![square(k)], &empty, OverlayRule::Subject, FillRule::NonZero).is_empty(), "{k}");
        }
        let one = overlay(&vec![square(10.0)], &empty, OverlayRule::Subject, FillRule::NonZero);
        assert_eq!(one.len(), 1);
        assert!(
            (ring_area(&one[0][0].iter().map(|p| Point::new(p[0], p[1])).collect::<Vec<_>>()) - 100.0).abs() < 1e-6
        );
    }
}

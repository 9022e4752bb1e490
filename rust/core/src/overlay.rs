//! Polygon booleans through `i_overlay`, always with OGC-valid output: rings never touch
//! themselves, so every polygon that comes out passes [`crate::validate::check_polygon`].

use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::core::solver::Solver;
use i_overlay::float::overlay::{FloatOverlay, OverlayOptions};
use i_overlay::i_shape::source::float::resource::ShapeResource;

/// Shapes: each an outer contour (counter-clockwise) followed by its holes (clockwise).
pub(crate) type Shapes = Vec<Vec<Vec<[f64; 2]>>>;

/// `subj` combined with `clip` by `rule`, filled by `fill`, as OGC-valid shapes.
pub(crate) fn overlay<R0, R1>(subj: &R0, clip: &R1, rule: OverlayRule, fill: FillRule) -> Shapes
where
    R0: ShapeResource<[f64; 2]> + ?Sized,
    R1: ShapeResource<[f64; 2]> + ?Sized,
{
    FloatOverlay::<[f64; 2], i32>::from_subj_and_clip_custom(subj, clip, OverlayOptions::ogc(), Solver::default())
        .overlay(rule, fill)
}

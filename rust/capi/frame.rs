//! The one place where the caller's units and handedness meet the core's metres, right-handed,
//! z up. Unreal speaks centimetres in a left-handed frame (x forward, y right): lengths are
//! scaled and y is mirrored here, on the way in and on the way out, and nowhere else.
//!
//! Mirroring turns a counter-clockwise triangle into a clockwise one, which is exactly what a
//! left-handed host expects of a triangle that faces the same way, so triangle indices pass
//! through unchanged. Polygon rings are reversed so that an outer ring keeps a positive
//! shoelace area in the caller's coordinates. "Left" and "right" of a road (its sidewalks) are
//! physical sides and need nothing: the mirror maps a left-handed caller's left onto the core's.

use roadgen_core::{Point, Point3};

use crate::types::{RgVec2, RgVec3, RG_FRAME_LEFT_HANDED_Z_UP, RG_FRAME_RIGHT_HANDED_Z_UP};
use crate::types::{RG_UNITS_CENTIMETRES, RG_UNITS_METRES};

/// Metres in a centimetre.
const METRES_PER_CENTIMETRE: f64 = 0.01;

/// The caller's units and frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Frame {
    /// Metres per caller unit.
    scale: f64,
    /// The caller is left-handed: mirror y.
    mirror: bool,
}

impl Frame {
    /// The frame of `RG_UNITS_*` and `RG_FRAME_*` codes; `None` for an unknown code.
    pub(crate) fn new(units: u32, frame: u32) -> Option<Self> {
        let scale = match units {
            RG_UNITS_METRES => 1.0,
            RG_UNITS_CENTIMETRES => METRES_PER_CENTIMETRE,
            _ => return None,
        };
        let mirror = match frame {
            RG_FRAME_RIGHT_HANDED_Z_UP => false,
            RG_FRAME_LEFT_HANDED_Z_UP => true,
            _ => return None,
        };
        Some(Self { scale, mirror })
    }

    fn sign(self) -> f64 {
        if self.mirror {
            -1.0
        } else {
            1.0
        }
    }

    /// A caller length in metres.
    pub(crate) fn length_in(self, v: f64) -> f64 {
        v * self.scale
    }

    /// A length in metres in the caller's units.
    pub(crate) fn length_out(self, v: f64) -> f64 {
        v / self.scale
    }

    /// A caller area in square metres.
    pub(crate) fn area_in(self, v: f64) -> f64 {
        v * self.scale * self.scale
    }

    /// An area in square metres in the caller's square units.
    pub(crate) fn area_out(self, v: f64) -> f64 {
        v / (self.scale * self.scale)
    }

    /// A caller position (or tangent) in the core's frame.
    pub(crate) fn point_in(self, p: RgVec3) -> Point3 {
        Point3::new(p.x * self.scale, self.sign() * p.y * self.scale, p.z * self.scale)
    }

    /// A core position in the caller's frame.
    pub(crate) fn point_out(self, p: Point3) -> RgVec3 {
        RgVec3 { x: p.x / self.scale, y: self.sign() * p.y / self.scale, z: p.z / self.scale }
    }

    /// A core plan position in the caller's frame.
    pub(crate) fn point2_out(self, p: Point) -> RgVec2 {
        RgVec2 { x: p.x / self.scale, y: self.sign() * p.y / self.scale }
    }

    /// A core unit vector (a normal) in the caller's frame: mirrored, not scaled.
    pub(crate) fn normal_out(self, n: Point3) -> [f32; 3] {
        [n.x as f32, (self.sign() * n.y) as f32, n.z as f32]
    }

    /// A core ring in the caller's frame, keeping its orientation's meaning (an outer ring has a
    /// positive shoelace area in the caller's coordinates).
    pub(crate) fn ring_out(self, ring: &[Point]) -> Vec<RgVec2> {
        let mut out: Vec<RgVec2> = ring.iter().map(|&p| self.point2_out(p)).collect();
        if self.mirror {
            out.reverse();
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shoelace(r: &[RgVec2]) -> f64 {
        let n = r.len();
        (0..n).map(|i| r[i].x * r[(i + 1) % n].y - r[(i + 1) % n].x * r[i].y).sum::<f64>() / 2.0
    }

    #[test]
    fn unreal_frame_mirrors_y_and_scales_centimetres() {
        let f = Frame::new(RG_UNITS_CENTIMETRES, RG_FRAME_LEFT_HANDED_Z_UP).unwrap();
        let p = f.point_in(RgVec3 { x: 100.0, y: 250.0, z: -30.0 });
        assert_eq!(p, Point3::new(1.0, -2.5, -0.3));
        assert_eq!(f.point_out(p), RgVec3 { x: 100.0, y: 250.0, z: -30.0 });
        assert_eq!(f.area_out(2.0), 20_000.0);
    }

    #[test]
    fn outer_rings_stay_positive_in_both_frames() {
        let ccw = [Point::new(0.0, 0.0), Point::new(1.0, 0.0), Point::new(1.0, 1.0), Point::new(0.0, 1.0)];
        for frame in [RG_FRAME_RIGHT_HANDED_Z_UP, RG_FRAME_LEFT_HANDED_Z_UP] {
            let f = Frame::new(RG_UNITS_METRES, frame).unwrap();
            assert!(shoelace(&f.ring_out(&ccw)) > 0.0, "frame {frame}");
        }
    }

    #[test]
    fn unknown_codes_are_refused() {
        assert!(Frame::new(7, RG_FRAME_RIGHT_HANDED_Z_UP).is_none());
        assert!(Frame::new(RG_UNITS_METRES, 9).is_none());
    }
}

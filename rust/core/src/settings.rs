//! The pipeline's settings: every length is named here, in metres, with its default.

/// Settings of the pipeline. Every length is in metres; build with [`Settings::default`] and
/// change what you need.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Largest distance between a spline and its flattened polyline, metres. Default 0.05.
    pub tolerance: f64,
    /// A road end within this distance of another road (or of another road end) joins it,
    /// metres. Default 1.0.
    pub snap_distance: f64,
    /// Roads with heights that cross with a height difference above this are grade-separated
    /// (a bridge or tunnel, no junction), metres. Default 3.0.
    pub clearance: f64,
    /// Radius of the circular fillet that rounds each junction corner (curb to curb) where the
    /// curbs meet at a right angle or wider, metres. A sharper corner gets the radius whose
    /// rounding reaches the same distance (one radius) along its curbs. Default 6.0.
    pub corner_radius: f64,
    /// Crossings closer together than the widest road that meets there, plus this distance,
    /// become one junction, metres. Default 0.0.
    pub merge_distance: f64,
    /// Faces of the network smaller than this give no block (a diagnostic says so), square
    /// metres. Default 1.0.
    pub min_block_area: f64,
    /// Roads with a coordinate (or a width) beyond this distance from the origin are left out
    /// with a diagnostic, metres. Double precision still resolves a micrometre there, and the
    /// polygon booleans need bounded coordinates. Default 1e9 (a million kilometres).
    pub max_coordinate: f64,
    /// Stop with an error at the first bad road instead of leaving it out with a diagnostic.
    /// Default false.
    pub strict: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            tolerance: 0.05,
            snap_distance: 1.0,
            clearance: 3.0,
            corner_radius: 6.0,
            merge_distance: 0.0,
            min_block_area: 1.0,
            max_coordinate: 1e9,
            strict: false,
        }
    }
}

impl Settings {
    /// Checks that every setting is finite and in range.
    pub fn validate(&self) -> Result<(), crate::Error> {
        let checks: [(&'static str, f64, bool); 7] = [
            ("tolerance", self.tolerance, self.tolerance > 0.0),
            ("snap_distance", self.snap_distance, self.snap_distance >= 0.0),
            ("clearance", self.clearance, self.clearance >= 0.0),
            ("corner_radius", self.corner_radius, self.corner_radius >= 0.0),
            ("merge_distance", self.merge_distance, self.merge_distance >= 0.0),
            ("min_block_area", self.min_block_area, self.min_block_area >= 0.0),
            ("max_coordinate", self.max_coordinate, self.max_coordinate > 0.0 && self.max_coordinate <= 1e15),
        ];
        for (name, value, ok) in checks {
            if !value.is_finite() || !ok {
                return Err(crate::Error::BadSetting { name, value });
            }
        }
        Ok(())
    }
}

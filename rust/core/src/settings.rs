//! The pipeline's settings: every length is named here, in metres, with its default.

/// The cross-section of a road beside its carriageway, metres: a curb, then a sidewalk, on
/// each side. The carriageway's width is the road's own.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Profile {
    /// Height of the curb (and of sidewalks and block platforms) above the carriageway.
    /// Default 0.15.
    pub curb_height: f64,
    /// Width of the curb's top, from the curb line outwards. Default 0.3.
    pub curb_width: f64,
    /// Sidewalk width on the left of a road, looking along it (0 allowed). Default 2.0.
    pub sidewalk_left: f64,
    /// Sidewalk width on the right of a road (0 allowed). Default 2.0.
    pub sidewalk_right: f64,
}

impl Default for Profile {
    fn default() -> Self {
        Self { curb_height: 0.15, curb_width: 0.3, sidewalk_left: 2.0, sidewalk_right: 2.0 }
    }
}

impl Profile {
    /// This profile with a road's overrides applied.
    pub fn with(self, o: &crate::ProfileOverride) -> Self {
        Self {
            curb_height: o.curb_height.unwrap_or(self.curb_height),
            curb_width: o.curb_width.unwrap_or(self.curb_width),
            sidewalk_left: o.sidewalk_left.unwrap_or(self.sidewalk_left),
            sidewalk_right: o.sidewalk_right.unwrap_or(self.sidewalk_right),
        }
    }

    /// True when every length is finite and not negative.
    pub fn is_valid(&self) -> bool {
        [self.curb_height, self.curb_width, self.sidewalk_left, self.sidewalk_right]
            .iter()
            .all(|v| v.is_finite() && *v >= 0.0)
    }
}

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
    /// The default cross-section profile (curbs and sidewalks); roads may override it.
    pub profile: Profile,
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
            profile: Profile::default(),
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
        if !self.profile.is_valid() {
            return Err(crate::Error::BadSetting { name: "profile", value: f64::NAN });
        }
        for (name, value, ok) in checks {
            if !value.is_finite() || !ok {
                return Err(crate::Error::BadSetting { name, value });
            }
        }
        Ok(())
    }
}

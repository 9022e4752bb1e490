//! Plain data types shared by every stage: points, input roads, output features.
//!
//! ## Units and axes
//! Everything here is in metres, in a right-handed frame with z up. Readers convert from the
//! input's units and frame before building these types; writers convert back.

/// A point (or vector) in the plane, in metres.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Point {
    /// East, metres.
    pub x: f64,
    /// North, metres.
    pub y: f64,
}

impl Point {
    /// Makes a point.
    pub const fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }
}

/// A point (or vector) in space, in metres, z up.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Point3 {
    /// East, metres.
    pub x: f64,
    /// North, metres.
    pub y: f64,
    /// Up, metres.
    pub z: f64,
}

impl Point3 {
    /// Makes a point.
    pub const fn new(x: f64, y: f64, z: f64) -> Self {
        Self { x, y, z }
    }

    /// The point seen from above.
    pub const fn xy(self) -> Point {
        Point::new(self.x, self.y)
    }
}

/// How a spline segment that starts at a point is interpolated (Unreal's `ESplinePointType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointKind {
    /// Straight line to the next point.
    Linear,
    /// Cubic Hermite segment; tangents computed automatically when not given.
    Curve,
    /// Unreal holds the value and jumps at the next point; as a road centerline this is read
    /// as a straight line to the next point.
    Constant,
    /// Cubic Hermite segment with automatically clamped tangents (given tangents are used).
    CurveClamped,
    /// Cubic Hermite segment with the tangents the user set.
    CurveCustomTangent,
}

/// One point of a spline with Unreal's semantics.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SplinePoint {
    /// Position, metres.
    pub location: Point3,
    /// Tangent arriving at this point (metres per unit of spline parameter); `None` to compute
    /// Unreal's automatic tangent.
    pub arrive_tangent: Option<Point3>,
    /// Tangent leaving this point; `None` to compute Unreal's automatic tangent.
    pub leave_tangent: Option<Point3>,
    /// How the segment that starts here is interpolated.
    pub kind: PointKind,
}

/// The centerline of an input road.
#[derive(Clone, Debug, PartialEq)]
pub enum RoadGeometry {
    /// A polyline, used as it is.
    Polyline(Vec<Point3>),
    /// A spline, flattened to the tolerance of the settings.
    Spline(Vec<SplinePoint>),
}

/// Per-road changes to the default cross-section profile ([`crate::Profile`]); `None` keeps
/// the default. Metres.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ProfileOverride {
    /// Height of the curb above the carriageway.
    pub curb_height: Option<f64>,
    /// Width of the curb's top.
    pub curb_width: Option<f64>,
    /// Sidewalk width on the left, looking along the road.
    pub sidewalk_left: Option<f64>,
    /// Sidewalk width on the right, looking along the road.
    pub sidewalk_right: Option<f64>,
    /// Radius of the junction corners beside this road (a corner between two roads takes the
    /// smaller of their radii), instead of [`crate::Settings::corner_radius`].
    pub corner_radius: Option<f64>,
}

/// One input road: a centerline with a width.
#[derive(Clone, Debug, PartialEq)]
pub struct Road {
    /// The road's id as the input gives it (numbers are written in decimal).
    pub id: String,
    /// Carriageway width, curb to curb, metres.
    pub width: f64,
    /// Grade level: roads on different layers that cross in the middle do not meet.
    pub layer: i32,
    /// The centerline returns from its last point to its first.
    pub closed: bool,
    /// The input carries heights (z) for this road, so heights decide grade separation too.
    pub has_height: bool,
    /// The centerline.
    pub geometry: RoadGeometry,
    /// Changes to the default cross-section profile for this road.
    pub profile: ProfileOverride,
}

impl Road {
    /// The same road moved by `dx` east and `dy` north, metres (tangents are directions and stay).
    pub fn translated(&self, dx: f64, dy: f64) -> Road {
        let mut r = self.clone();
        let by = |p: &mut Point3| {
            p.x += dx;
            p.y += dy;
        };
        match &mut r.geometry {
            RoadGeometry::Polyline(pts) => pts.iter_mut().for_each(by),
            RoadGeometry::Spline(pts) => pts.iter_mut().for_each(|p| by(&mut p.location)),
        }
        r
    }
}

/// Everything the pipeline needs to know about the input.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Input {
    /// The roads, in input order (the order does not change the output's content).
    pub roads: Vec<Road>,
}

/// A polygon: one outer ring and any number of holes.
///
/// Rings are stored open (the first point is not repeated). The outer ring is counter-clockwise
/// (positive signed area), holes are clockwise.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Polygon {
    /// The outer boundary, counter-clockwise.
    pub exterior: Vec<Point>,
    /// Holes, clockwise.
    pub holes: Vec<Vec<Point>>,
}

/// A junction: where roads meet, with its surface.
#[derive(Clone, Debug, PartialEq)]
pub struct Junction {
    /// Stable id derived from the input (see `docs/ARCHITECTURE.md`).
    pub id: String,
    /// A representative point (the mean of the crossing points it merges), metres.
    pub center: Point,
    /// Number of arms (road pieces leaving the junction; a road through it counts twice).
    pub degree: usize,
    /// Ids of the input roads that meet here, sorted, without repeats.
    pub roads: Vec<String>,
    /// The junction surface: a simple polygon bounded by curbs, fillets and arm mouths.
    pub polygon: Polygon,
}

/// A piece of one input road between two junction mouths (or a dead end).
#[derive(Clone, Debug, PartialEq)]
pub struct RoadPiece {
    /// Stable id derived from the road id and the position along it.
    pub id: String,
    /// The input road's id.
    pub road: String,
    /// Junction at the start (`None` at a dead end or for a closed loop with no junction).
    pub from: Option<String>,
    /// Junction at the end (`None` at a dead end or for a closed loop with no junction).
    pub to: Option<String>,
    /// Arc-length position of the start along the flattened input road, metres.
    pub start: f64,
    /// Arc-length position of the end along the flattened input road, metres (for a piece that
    /// runs across the seam of a closed road this is past the road's length).
    pub end: f64,
    /// The centerline of the piece, cut at `start` and `end`, with heights.
    pub centerline: Vec<Point3>,
    /// Carriageway width, metres.
    pub width: f64,
    /// The road's cross-section profile (the defaults with the road's overrides).
    pub profile: crate::Profile,
    /// The carriageway surface; a dead end is closed by a half-disc cap.
    pub polygon: Polygon,
}

/// A city block: a face of the network bounded by curb lines.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// Stable id derived from the road that bounds it (see `docs/ARCHITECTURE.md`).
    pub id: String,
    /// The block's outline; holes are other parts of the network inside it.
    pub polygon: Polygon,
    /// Area of `polygon` (the exterior's less the holes'), square metres.
    pub area: f64,
    /// The block's cross-section: the profile of the road that names it, on the block's side
    /// (`sidewalk_left` and `sidewalk_right` both hold that side's sidewalk width).
    pub profile: crate::Profile,
    /// The sidewalk band's width (curb top plus sidewalk, metres) at each vertex of the outline
    /// where the roads around the block differ in it: one list per ring (the exterior, then
    /// each hole), one value per vertex. A vertex along a road takes that road's band on the
    /// block's side; round a junction's corner the band changes gradually from one arm's to the
    /// other's; between two vertices the lot's outline runs from one's band to the other's.
    /// Empty when every vertex has the band of [`Block::profile`] (`curb_width +
    /// sidewalk_left`).
    pub bands: Vec<Vec<f64>>,
    /// The lots: the block minus its sidewalk band (curb top and sidewalk along its outline).
    /// Empty when the band covers the whole block; several when it cuts the block apart.
    pub lots: Vec<Polygon>,
}

/// What a diagnostic is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DiagnosticCode {
    /// A road could not be used and was left out (bad geometry or width).
    RoadSkipped,
    /// A corner radius did not fit between two arms and was reduced.
    RadiusReduced,
    /// Junctions whose surfaces or setbacks overlapped were merged into one.
    JunctionsMerged,
    /// A road end came close to another road but further than the snap distance: not joined.
    NearMiss,
    /// Two roads cross at different layers or heights: a bridge or tunnel, no junction.
    GradeSeparated,
    /// A face of the network was smaller than the minimum block area and gives no block.
    FaceDropped,
    /// A road ended just past a crossing; the stub was trimmed so that the crossing is a T.
    OvershootTrimmed,
    /// A road end was moved onto a nearby road or road end to join it.
    EndSnapped,
    /// A junction outline could not be built from curbs and fillets and was built from the
    /// union of its arms instead.
    JunctionFallback,
}

impl DiagnosticCode {
    /// The code as written in outputs (`snake_case`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::RoadSkipped => "road_skipped",
            Self::RadiusReduced => "radius_reduced",
            Self::JunctionsMerged => "junctions_merged",
            Self::NearMiss => "near_miss",
            Self::GradeSeparated => "grade_separated",
            Self::FaceDropped => "face_dropped",
            Self::OvershootTrimmed => "overshoot_trimmed",
            Self::EndSnapped => "end_snapped",
            Self::JunctionFallback => "junction_fallback",
        }
    }
}

/// A warning that is part of the output: what happened, where, and to which road.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// What happened.
    pub code: DiagnosticCode,
    /// Where, metres.
    pub position: Point,
    /// The input road concerned, when there is one.
    pub road: Option<String>,
    /// A sentence for a person.
    pub message: String,
}

/// The result of the pipeline.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Network {
    /// Junctions, sorted by id.
    pub junctions: Vec<Junction>,
    /// Road pieces, sorted by id.
    pub pieces: Vec<RoadPiece>,
    /// Blocks, sorted by id.
    pub blocks: Vec<Block>,
    /// Diagnostics, sorted by code, position and road.
    pub diagnostics: Vec<Diagnostic>,
}

/// A flat polyline road of layer 0 with the default profile, for the core's unit tests.
#[cfg(test)]
pub(crate) fn test_road(id: &str, width: f64, pts: &[(f64, f64)]) -> Road {
    Road {
        id: id.into(),
        width,
        layer: 0,
        closed: false,
        has_height: false,
        profile: Default::default(),
        geometry: RoadGeometry::Polyline(pts.iter().map(|&(x, y)| Point3::new(x, y, 0.0)).collect()),
    }
}

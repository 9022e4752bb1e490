//! Readers: road files in, the core's [`Input`] out (metres, right-handed, z up).
//!
//! Three formats are understood (see `docs/INPUT_FORMAT.md`):
//! - [`Format::Roads`], the project's own `{"units": ..., "roads": [...]}`;
//! - [`Format::UnrealSplines`], spline components exported from Unreal (`{"Splines": [...]}`);
//! - [`Format::PointCloud`], the vertex list of an older road script (`{"GameObjects": [...]}`).
//!
//! The file is parsed into a [`serde_json::Value`] first and then walked by hand, so that every
//! error names the file, the road and the point concerned. Only structural problems (bad JSON,
//! wrong types, unknown names, duplicate ids, numbers that overflow) are errors; semantic
//! problems (a road with one point, a negative width) are left in the [`Input`] for the core
//! to report as diagnostics.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::Path;
use std::str::FromStr;

use roadgen_core::{Input, Point, Point3, PointKind, ProfileOverride, Road, RoadGeometry, SplinePoint};
use serde_json::{Map, Value};

/// An input file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// The project's own road JSON: `{"units": "m", "roads": [...]}`.
    Roads,
    /// Spline components exported from Unreal: `{"CoordSpace": "Local", "Splines": [...]}`.
    UnrealSplines,
    /// The vertex list of the older road script: `{"GameObjects": [...]}`.
    PointCloud,
}

impl Format {
    /// The format's name as the CLI's `--format` takes it.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Roads => "roads",
            Self::UnrealSplines => "unreal",
            Self::PointCloud => "pointcloud",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;

    /// Parses `roads`, `unreal` or `pointcloud` (case-insensitive; `unrealsplines`, `splines`,
    /// `point-cloud`, `point_cloud` and `gameobjects` are accepted too).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "roads" | "road" => Ok(Self::Roads),
            "unreal" | "unrealsplines" | "unreal-splines" | "unreal_splines" | "splines" => Ok(Self::UnrealSplines),
            "pointcloud" | "point-cloud" | "point_cloud" | "gameobjects" => Ok(Self::PointCloud),
            _ => Err(format!("unknown input format `{s}` (expected `roads`, `unreal` or `pointcloud`)")),
        }
    }
}

/// How to read a file.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReadOptions {
    /// The format, or `None` to detect it from the content.
    pub format: Option<Format>,
    /// Width in metres for roads whose input gives none (Unreal splines always, point clouds
    /// without a positive `Width`, road files without `width`).
    pub default_width: f64,
}

impl Default for ReadOptions {
    /// Detect the format; 5 m default width (what the Unreal tool used).
    fn default() -> Self {
        Self { format: None, default_width: 5.0 }
    }
}

/// How input coordinates map to the core's frame (metres, right-handed, z up).
///
/// A point `(x, y, z)` of the input is `(x·m, ±y·m, z·m)` in the core, with `m` =
/// [`metres_per_unit`](Self::metres_per_unit) and the sign of y negative when
/// [`mirror_y`](Self::mirror_y) is set. Vectors (tangents) map the same way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// Length of one input unit in metres (1 for metres, 0.01 for centimetres).
    pub metres_per_unit: f64,
    /// The input is left-handed (Unreal): its y axis is the core's −y.
    pub mirror_y: bool,
}

impl Default for Frame {
    /// Metres, right-handed: the identity.
    fn default() -> Self {
        Self { metres_per_unit: 1.0, mirror_y: false }
    }
}

impl Frame {
    /// An input point (or vector) in the core's frame.
    pub fn to_core(&self, x: f64, y: f64, z: f64) -> Point3 {
        let m = self.metres_per_unit;
        let y = if self.mirror_y { -y } else { y };
        Point3::new(x * m, y * m, z * m)
    }

    /// A core point (or vector) seen from above, back in the input's units and frame.
    pub fn from_core(&self, p: Point) -> [f64; 2] {
        let m = self.metres_per_unit;
        let y = if self.mirror_y { -p.y } else { p.y };
        [p.x / m, y / m]
    }

    /// A core point (or vector) back in the input's units and frame.
    pub fn from_core3(&self, p: Point3) -> [f64; 3] {
        let [x, y] = self.from_core(p.xy());
        [x, y, p.z / self.metres_per_unit]
    }

    /// A length in metres, in input units.
    pub fn length_from_core(&self, metres: f64) -> f64 {
        metres / self.metres_per_unit
    }

    /// An area in square metres, in square input units.
    pub fn area_from_core(&self, square_metres: f64) -> f64 {
        square_metres / (self.metres_per_unit * self.metres_per_unit)
    }
}

/// A file read into the core's terms, with what is needed to write results back.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    /// The roads, in metres and the core's frame.
    pub input: Input,
    /// How the input's coordinates map to the core's.
    pub frame: Frame,
    /// The format the file was read as.
    pub format: Format,
}

/// Why a file could not be read. Its `Display` is one line naming the file and, when known,
/// the road and the point.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be read.
    #[error("cannot read {path}: {message}")]
    Io {
        /// The path as given.
        path: String,
        /// What the operating system said.
        message: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The text is not JSON.
    #[error("{file}: line {line} column {column}: {message}")]
    Syntax {
        /// The file name.
        file: String,
        /// 1-based line of the problem.
        line: usize,
        /// 1-based column of the problem.
        column: usize,
        /// What the JSON parser said.
        message: String,
    },
    /// The content matches none of the known formats.
    #[error("{file}: unknown input format (expected an object with \"roads\", \"Splines\" or \"GameObjects\")")]
    UnknownFormat {
        /// The file name.
        file: String,
    },
    /// Two roads have the same id.
    #[error("{file}: duplicate road id {id}")]
    DuplicateId {
        /// The file name.
        file: String,
        /// The repeated id.
        id: String,
    },
    /// A value is missing, has the wrong type or is out of range.
    #[error("{file}: {place}{message}")]
    Invalid {
        /// The file name.
        file: String,
        /// Where, e.g. `road 17, point 3: ` (empty for the top level).
        place: String,
        /// What is wrong.
        message: String,
    },
}

/// Reads a file (see [`read_str`]).
pub fn read_file(path: &Path, opts: &ReadOptions) -> Result<Loaded, ReadError> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| ReadError::Io {
        path: name.clone(),
        message: io_message(&source),
        source,
    })?;
    let text = decode_text(&bytes).ok_or_else(|| ReadError::Invalid {
        file: name.clone(),
        place: String::new(),
        message: "file is not UTF-8 or UTF-16 text".to_owned(),
    })?;
    read_str(&text, &name, opts)
}

/// Reads the text of a file; `source` is the file name used in error messages.
///
/// The format is `opts.format`, or detected from the top-level object's members: `"roads"`,
/// `"Splines"` or `"GameObjects"`.
pub fn read_str(text: &str, source: &str, opts: &ReadOptions) -> Result<Loaded, ReadError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let cx = Cx { file: source };
    if text.trim().is_empty() {
        return Err(cx.invalid("", "file is empty"));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| syntax_error(source, &e))?;
    let format = match opts.format {
        Some(f) => f,
        None => detect(&value).ok_or_else(|| ReadError::UnknownFormat { file: source.to_owned() })?,
    };
    let top = value
        .as_object()
        .ok_or_else(|| cx.invalid("", format!("expected a JSON object at the top level, found {}", kind(&value))))?;
    let (input, frame) = match format {
        Format::Roads => read_roads(&cx, top, opts)?,
        Format::UnrealSplines => read_unreal(&cx, top, opts)?,
        Format::PointCloud => read_point_cloud(&cx, top, opts)?,
    };
    Ok(Loaded { input, frame, format })
}

/// The format a parsed file looks like.
fn detect(value: &Value) -> Option<Format> {
    let top = value.as_object()?;
    if top.contains_key("roads") {
        Some(Format::Roads)
    } else if top.contains_key("Splines") {
        Some(Format::UnrealSplines)
    } else if top.contains_key("GameObjects") {
        Some(Format::PointCloud)
    } else {
        None
    }
}

/// Bytes as text: UTF-8 (BOM optional) or UTF-16 with a BOM (what some Windows tools write).
fn decode_text(bytes: &[u8]) -> Option<String> {
    let utf16 = |big: bool| -> Option<String> {
        let units: Vec<u16> = bytes[2..]
            .chunks(2)
            .map(|c| match (c, big) {
                ([a, b], true) => u16::from_be_bytes([*a, *b]),
                ([a, b], false) => u16::from_le_bytes([*a, *b]),
                _ => 0xFFFD,
            })
            .collect();
        String::from_utf16(&units).ok()
    };
    match bytes {
        [0xFF, 0xFE, ..] => utf16(false),
        [0xFE, 0xFF, ..] => utf16(true),
        _ => String::from_utf8(bytes.to_vec()).ok(),
    }
}

/// An IO error's message without the `(os error N)` suffix.
fn io_message(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.rfind(" (os error ") {
        Some(i) if text.ends_with(')') => text[..i].to_owned(),
        _ => text,
    }
}

fn syntax_error(file: &str, e: &serde_json::Error) -> ReadError {
    let (line, column) = (e.line(), e.column());
    let text = e.to_string();
    let suffix = format!(" at line {line} column {column}");
    let message = text.strip_suffix(&suffix).unwrap_or(&text).to_owned();
    if line == 0 {
        return ReadError::Invalid { file: file.to_owned(), place: String::new(), message };
    }
    ReadError::Syntax { file: file.to_owned(), line, column, message }
}

/// What kind of JSON value this is, for messages.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Reading context: the file name, for errors.
struct Cx<'a> {
    file: &'a str,
}

impl Cx<'_> {
    fn invalid(&self, place: &str, message: impl Into<String>) -> ReadError {
        ReadError::Invalid {
            file: self.file.to_owned(),
            place: if place.is_empty() { String::new() } else { format!("{place}: ") },
            message: message.into(),
        }
    }

    fn duplicate(&self, id: &str) -> ReadError {
        ReadError::DuplicateId { file: self.file.to_owned(), id: id.to_owned() }
    }

    /// A required array member of the top level.
    fn top_array<'v>(&self, top: &'v Map<String, Value>, key: &str) -> Result<&'v [Value], ReadError> {
        match top.get(key) {
            Some(Value::Array(a)) => Ok(a),
            Some(v) => Err(self.invalid("", format!("\"{key}\" must be an array, found {}", kind(v)))),
            None => Err(self.invalid("", format!("missing \"{key}\" array"))),
        }
    }
}

/// A number, or an error naming the field.
fn number(cx: &Cx<'_>, place: &str, what: &str, v: &Value) -> Result<f64, ReadError> {
    match v.as_f64() {
        Some(x) if x.is_finite() => Ok(x),
        Some(_) => Err(cx.invalid(place, format!("{what} is out of range"))),
        None => Err(cx.invalid(place, format!("{what} is not a number (found {})", kind(v)))),
    }
}

/// An optional number member (`null` counts as absent).
fn opt_number(cx: &Cx<'_>, place: &str, obj: &Map<String, Value>, key: &str) -> Result<Option<f64>, ReadError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => number(cx, place, &format!("\"{key}\""), v).map(Some),
    }
}

/// An optional boolean member (`null` counts as absent).
fn opt_bool(cx: &Cx<'_>, place: &str, obj: &Map<String, Value>, key: &str) -> Result<Option<bool>, ReadError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(v) => Err(cx.invalid(place, format!("\"{key}\" is not a boolean (found {})", kind(v)))),
    }
}

/// A road id: a string, or a number written in decimal.
fn id_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Checks that a converted point is finite (scaling or a transform can overflow).
fn finite3(cx: &Cx<'_>, place: &str, what: &str, p: Point3) -> Result<Point3, ReadError> {
    if p.x.is_finite() && p.y.is_finite() && p.z.is_finite() {
        Ok(p)
    } else {
        Err(cx.invalid(place, format!("{what} is out of range")))
    }
}

/// Checks a converted width.
fn finite_width(cx: &Cx<'_>, place: &str, w: f64) -> Result<f64, ReadError> {
    if w.is_finite() {
        Ok(w)
    } else {
        Err(cx.invalid(place, "width is out of range"))
    }
}

// ---------------------------------------------------------------------------------------------
// Roads

fn read_roads(cx: &Cx<'_>, top: &Map<String, Value>, opts: &ReadOptions) -> Result<(Input, Frame), ReadError> {
    let metres_per_unit = match top.get("units") {
        None | Some(Value::Null) => 1.0,
        Some(Value::String(s)) => match s.as_str() {
            "m" => 1.0,
            "cm" => 0.01,
            _ => return Err(cx.invalid("", format!("unknown \"units\" \"{s}\" (expected \"m\" or \"cm\")"))),
        },
        Some(v) => return Err(cx.invalid("", format!("\"units\" is not a string (found {})", kind(v)))),
    };
    let frame = Frame { metres_per_unit, mirror_y: false };
    let list = cx.top_array(top, "roads")?;
    let mut roads = Vec::with_capacity(list.len());
    let mut seen = HashSet::with_capacity(list.len());
    for (index, value) in list.iter().enumerate() {
        let road = read_road(cx, index, value, &frame, opts)?;
        if !seen.insert(road.id.clone()) {
            return Err(cx.duplicate(&road.id));
        }
        roads.push(road);
    }
    Ok((Input { roads }, frame))
}

fn read_road(cx: &Cx<'_>, index: usize, value: &Value, frame: &Frame, opts: &ReadOptions) -> Result<Road, ReadError> {
    let by_index = format!("road #{index}");
    let obj =
        value.as_object().ok_or_else(|| cx.invalid(&by_index, format!("expected an object, found {}", kind(value))))?;
    let id = match obj.get("id") {
        None | Some(Value::Null) => return Err(cx.invalid(&by_index, "missing \"id\"")),
        Some(v) => id_text(v)
            .ok_or_else(|| cx.invalid(&by_index, format!("\"id\" must be a number or a string, found {}", kind(v))))?,
    };
    let place = format!("road {id}");
    let width = match opt_number(cx, &place, obj, "width")? {
        Some(w) => finite_width(cx, &place, w * frame.metres_per_unit)?,
        None => opts.default_width,
    };
    let layer = match obj.get("layer") {
        None | Some(Value::Null) => 0,
        Some(v) => layer_value(v)
            .ok_or_else(|| cx.invalid(&place, format!("\"layer\" must be a whole number, found {}", describe(v))))?,
    };
    let closed = opt_bool(cx, &place, obj, "closed")?.unwrap_or(false);
    let points = obj.get("points").filter(|v| !v.is_null());
    let spline = obj.get("spline").filter(|v| !v.is_null());
    let (geometry, has_height) = match (points, spline) {
        (Some(_), Some(_)) => return Err(cx.invalid(&place, "has both \"points\" and \"spline\" (give one)")),
        (None, None) => return Err(cx.invalid(&place, "missing \"points\" or \"spline\"")),
        (Some(p), None) => read_polyline(cx, &place, p, frame)?,
        (None, Some(s)) => read_spline(cx, &place, s, frame)?,
    };
    let profile = match obj.get("profile") {
        None | Some(Value::Null) => ProfileOverride::default(),
        Some(Value::Object(p)) => {
            let length = |key: &str| -> Result<Option<f64>, ReadError> {
                match opt_number(cx, &place, p, key)? {
                    Some(v) if v.is_finite() && v >= 0.0 => Ok(Some(v * frame.metres_per_unit)),
                    Some(v) => {
                        Err(cx.invalid(&place, format!("profile \"{key}\" must be a length of 0 or more, found {v}")))
                    }
                    None => Ok(None),
                }
            };
            let both = length("sidewalk")?;
            ProfileOverride {
                curb_height: length("curb_height")?,
                curb_width: length("curb_width")?,
                sidewalk_left: length("sidewalk_left")?.or(both),
                sidewalk_right: length("sidewalk_right")?.or(both),
                corner_radius: length("corner_radius")?,
            }
        }
        Some(v) => return Err(cx.invalid(&place, format!("\"profile\" must be an object, found {}", kind(v)))),
    };
    Ok(Road { id, width, layer, closed, has_height, geometry, profile })
}

/// A value for messages: its kind, or the number itself.
fn describe(v: &Value) -> String {
    match v {
        Value::Number(n) => n.to_string(),
        _ => kind(v).to_owned(),
    }
}

/// A layer: an integer (or a number with no fraction) that fits an `i32`.
fn layer_value(v: &Value) -> Option<i32> {
    if let Some(i) = v.as_i64() {
        return i32::try_from(i).ok();
    }
    let f = v.as_f64()?;
    if f.fract() == 0.0 && f >= f64::from(i32::MIN) && f <= f64::from(i32::MAX) {
        // In range and whole, so the conversion is exact.
        Some(f as i32)
    } else {
        None
    }
}

/// `[x, y]` or `[x, y, z]` in input units; returns the components (z = 0 when absent) and
/// whether z was given. `what` names the member in messages (`None` for a point itself).
fn coords(cx: &Cx<'_>, place: &str, what: Option<&str>, v: &Value) -> Result<([f64; 3], bool), ReadError> {
    let prefix = what.map_or_else(String::new, |w| format!("\"{w}\": "));
    let arr = match v {
        Value::Array(a) if a.len() == 2 || a.len() == 3 => a,
        Value::Array(a) => {
            return Err(cx
                .invalid(place, format!("{prefix}expected [x, y] or [x, y, z], found an array of length {}", a.len())))
        }
        _ => return Err(cx.invalid(place, format!("{prefix}expected [x, y] or [x, y, z], found {}", kind(v)))),
    };
    let mut out = [0.0; 3];
    for (i, (slot, c)) in out.iter_mut().zip(arr).enumerate() {
        *slot = match c.as_f64() {
            Some(x) if x.is_finite() => x,
            Some(_) => return Err(cx.invalid(place, format!("{prefix}coordinate {i} is out of range"))),
            None => {
                return Err(cx.invalid(place, format!("{prefix}coordinate {i} is not a number (found {})", kind(c))))
            }
        };
    }
    Ok((out, arr.len() == 3))
}

fn read_polyline(cx: &Cx<'_>, place: &str, v: &Value, frame: &Frame) -> Result<(RoadGeometry, bool), ReadError> {
    let list =
        v.as_array().ok_or_else(|| cx.invalid(place, format!("\"points\" must be an array, found {}", kind(v))))?;
    let mut points = Vec::with_capacity(list.len());
    let mut has_height = false;
    for (i, p) in list.iter().enumerate() {
        let here = format!("{place}, point {i}");
        let ([x, y, z], has_z) = coords(cx, &here, None, p)?;
        has_height |= has_z;
        points.push(finite3(cx, &here, "point", frame.to_core(x, y, z))?);
    }
    Ok((RoadGeometry::Polyline(points), has_height))
}

fn read_spline(cx: &Cx<'_>, place: &str, v: &Value, frame: &Frame) -> Result<(RoadGeometry, bool), ReadError> {
    let obj =
        v.as_object().ok_or_else(|| cx.invalid(place, format!("\"spline\" must be an object, found {}", kind(v))))?;
    let list = match obj.get("points") {
        Some(Value::Array(a)) => a,
        Some(v) => return Err(cx.invalid(place, format!("\"spline\".\"points\" must be an array, found {}", kind(v)))),
        None => return Err(cx.invalid(place, "\"spline\" has no \"points\" array")),
    };
    let mut points = Vec::with_capacity(list.len());
    let mut has_height = false;
    for (i, p) in list.iter().enumerate() {
        let here = format!("{place}, point {i}");
        let po = p.as_object().ok_or_else(|| cx.invalid(&here, format!("expected an object, found {}", kind(p))))?;
        let location = match po.get("location") {
            None | Some(Value::Null) => return Err(cx.invalid(&here, "missing \"location\"")),
            Some(l) => {
                let ([x, y, z], has_z) = coords(cx, &here, Some("location"), l)?;
                has_height |= has_z;
                finite3(cx, &here, "location", frame.to_core(x, y, z))?
            }
        };
        let tangent = |key: &str| -> Result<Option<Point3>, ReadError> {
            match po.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(t) => {
                    let ([x, y, z], _) = coords(cx, &here, Some(key), t)?;
                    finite3(cx, &here, key, frame.to_core(x, y, z)).map(Some)
                }
            }
        };
        let arrive_tangent = tangent("arrive_tangent")?;
        let leave_tangent = tangent("leave_tangent")?;
        let kind = match po.get("type") {
            None | Some(Value::Null) => PointKind::Curve,
            Some(t) => point_kind(t).ok_or_else(|| {
                cx.invalid(
                    &here,
                    format!(
                        "unknown point \"type\" {} (expected \"linear\", \"curve\", \"constant\", \
                         \"curve_clamped\" or \"curve_custom_tangent\")",
                        t
                    ),
                )
            })?,
        };
        points.push(SplinePoint { location, arrive_tangent, leave_tangent, kind });
    }
    Ok((RoadGeometry::Spline(points), has_height))
}

/// A spline point type: a name (`"linear"`, `"curve"`, …, case-insensitive, Unreal's
/// `CurveClamped` spelling too) or Unreal's `ESplinePointType` number 0–4.
fn point_kind(v: &Value) -> Option<PointKind> {
    if let Some(n) = v.as_u64() {
        return match n {
            0 => Some(PointKind::Linear),
            1 => Some(PointKind::Curve),
            2 => Some(PointKind::Constant),
            3 => Some(PointKind::CurveClamped),
            4 => Some(PointKind::CurveCustomTangent),
            _ => None,
        };
    }
    let name: String =
        v.as_str()?.chars().filter(|c| *c != '_' && *c != '-' && *c != ' ').collect::<String>().to_ascii_lowercase();
    match name.as_str() {
        "linear" => Some(PointKind::Linear),
        "curve" => Some(PointKind::Curve),
        "constant" => Some(PointKind::Constant),
        "curveclamped" => Some(PointKind::CurveClamped),
        "curvecustomtangent" => Some(PointKind::CurveCustomTangent),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Unreal splines

/// Unreal's frame: centimetres, left-handed.
const UNREAL: Frame = Frame { metres_per_unit: 0.01, mirror_y: true };

/// A vector member, flattened (`"Location.X"`, …) or nested (`"Location": {"X": …}`).
/// Returns `None` when no component is present; missing components take `default`.
fn vector(
    cx: &Cx<'_>,
    place: &str,
    obj: &Map<String, Value>,
    name: &str,
    axes: &[&str],
    default: f64,
) -> Result<Option<Vec<f64>>, ReadError> {
    let nested = match obj.get(name) {
        Some(Value::Object(o)) => Some(o),
        None | Some(Value::Null) => None,
        Some(v) => return Err(cx.invalid(place, format!("\"{name}\" must be an object, found {}", kind(v)))),
    };
    let mut out = Vec::with_capacity(axes.len());
    let mut any = false;
    for axis in axes {
        let key = format!("{name}.{axis}");
        let value = match nested {
            Some(o) => o.get(*axis).filter(|v| !v.is_null()),
            None => obj.get(&key).filter(|v| !v.is_null()),
        };
        match value {
            Some(v) => {
                any = true;
                out.push(number(cx, place, &format!("\"{key}\""), v)?);
            }
            None => out.push(default),
        }
    }
    Ok(any.then_some(out))
}

/// A rotation quaternion (x, y, z, w), normalised.
#[derive(Clone, Copy)]
struct Quat([f64; 4]);

impl Quat {
    /// `q v q*`, as Unreal's `FQuat::RotateVector` computes it.
    fn rotate(self, v: [f64; 3]) -> [f64; 3] {
        let [qx, qy, qz, w] = self.0;
        let cross = |a: [f64; 3], b: [f64; 3]| {
            [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
        };
        let q = [qx, qy, qz];
        let t = cross(q, v).map(|c| 2.0 * c);
        let u = cross(q, t);
        [v[0] + w * t[0] + u[0], v[1] + w * t[1] + u[1], v[2] + w * t[2] + u[2]]
    }
}

/// An actor transform: location, rotation, scale (Unreal's `FTransform`).
struct Transform {
    location: [f64; 3],
    rotation: Quat,
    scale: [f64; 3],
}

impl Transform {
    const IDENTITY: Self = Self { location: [0.0; 3], rotation: Quat([0.0, 0.0, 0.0, 1.0]), scale: [1.0; 3] };

    fn vector(&self, v: [f64; 3]) -> [f64; 3] {
        let s = self.scale;
        self.rotation.rotate([v[0] * s[0], v[1] * s[1], v[2] * s[2]])
    }

    fn point(&self, v: [f64; 3]) -> [f64; 3] {
        let r = self.vector(v);
        let l = self.location;
        [r[0] + l[0], r[1] + l[1], r[2] + l[2]]
    }
}

fn as3(v: &[f64]) -> [f64; 3] {
    let get = |i: usize| v.get(i).copied().unwrap_or(0.0);
    [get(0), get(1), get(2)]
}

/// `Local` (true) or `World` (false).
fn coord_space(cx: &Cx<'_>, place: &str, obj: &Map<String, Value>, default: bool) -> Result<bool, ReadError> {
    match obj.get("CoordSpace") {
        None | Some(Value::Null) => Ok(default),
        Some(Value::String(s)) if s.eq_ignore_ascii_case("local") => Ok(true),
        Some(Value::String(s)) if s.eq_ignore_ascii_case("world") => Ok(false),
        Some(v) => Err(cx.invalid(place, format!("\"CoordSpace\" must be \"Local\" or \"World\", found {v}"))),
    }
}

fn read_unreal(cx: &Cx<'_>, top: &Map<String, Value>, opts: &ReadOptions) -> Result<(Input, Frame), ReadError> {
    let local = coord_space(cx, "", top, true)?;
    let list = cx.top_array(top, "Splines")?;

    // Ids first, so that errors can name the road: OwnerName, or OwnerName#Index when two
    // splines share an owner.
    let mut objects = Vec::with_capacity(list.len());
    let mut owners = Vec::with_capacity(list.len());
    for (i, v) in list.iter().enumerate() {
        let by_index = format!("spline #{i}");
        let obj =
            v.as_object().ok_or_else(|| cx.invalid(&by_index, format!("expected an object, found {}", kind(v))))?;
        let owner = match obj.get("OwnerName") {
            None | Some(Value::Null) => format!("spline{i}"),
            Some(v) => id_text(v)
                .ok_or_else(|| cx.invalid(&by_index, format!("\"OwnerName\" must be a string, found {}", kind(v))))?,
        };
        let index = match obj.get("Index") {
            None | Some(Value::Null) => i.to_string(),
            Some(v) => id_text(v)
                .ok_or_else(|| cx.invalid(&by_index, format!("\"Index\" must be a number, found {}", kind(v))))?,
        };
        objects.push(obj);
        owners.push((owner, index));
    }
    let mut count: HashMap<&str, usize> = HashMap::new();
    for (owner, _) in &owners {
        *count.entry(owner.as_str()).or_default() += 1;
    }
    let mut seen = HashSet::with_capacity(list.len());
    let mut roads = Vec::with_capacity(list.len());
    for (obj, (owner, index)) in objects.into_iter().zip(&owners) {
        let id = if count.get(owner.as_str()).copied().unwrap_or(0) > 1 {
            format!("{owner}#{index}")
        } else {
            owner.clone()
        };
        if !seen.insert(id.clone()) {
            return Err(cx.duplicate(&id));
        }
        roads.push(read_unreal_spline(cx, id, obj, local, opts)?);
    }
    Ok((Input { roads }, UNREAL))
}

fn read_unreal_spline(
    cx: &Cx<'_>,
    id: String,
    obj: &Map<String, Value>,
    default_local: bool,
    opts: &ReadOptions,
) -> Result<Road, ReadError> {
    let place = format!("road {id}");
    let local = coord_space(cx, &place, obj, default_local)?;
    let transform = if local {
        let location = vector(cx, &place, obj, "Location", &["X", "Y", "Z"], 0.0)?;
        let rotation = vector(cx, &place, obj, "Rotation", &["X", "Y", "Z", "W"], 0.0)?;
        let scale = vector(cx, &place, obj, "Scale", &["X", "Y", "Z"], 1.0)?;
        let rotation = match rotation {
            None => Quat([0.0, 0.0, 0.0, 1.0]),
            Some(q) => {
                let norm = q.iter().map(|c| c * c).sum::<f64>().sqrt();
                if !(norm.is_finite() && norm > 1e-12) {
                    return Err(cx.invalid(&place, "\"Rotation\" is not a valid quaternion"));
                }
                Quat([0, 1, 2, 3].map(|i| q.get(i).copied().unwrap_or(0.0) / norm))
            }
        };
        Transform {
            location: location.as_deref().map_or([0.0; 3], as3),
            rotation,
            scale: scale.as_deref().map_or([1.0; 3], as3),
        }
    } else {
        Transform::IDENTITY
    };
    let closed = opt_bool(cx, &place, obj, "bCloseLoop")?.unwrap_or(false);
    let list = match obj.get("Points") {
        Some(Value::Array(a)) => a.as_slice(),
        None | Some(Value::Null) => &[],
        Some(v) => return Err(cx.invalid(&place, format!("\"Points\" must be an array, found {}", kind(v)))),
    };
    let xyz = ["X", "Y", "Z"];
    let mut points = Vec::with_capacity(list.len());
    for (i, p) in list.iter().enumerate() {
        let here = format!("{place}, point {i}");
        let po = p.as_object().ok_or_else(|| cx.invalid(&here, format!("expected an object, found {}", kind(p))))?;
        let location =
            vector(cx, &here, po, "Location", &xyz, 0.0)?.ok_or_else(|| cx.invalid(&here, "missing \"Location\""))?;
        let [x, y, z] = transform.point(as3(&location));
        let location = finite3(cx, &here, "location", UNREAL.to_core(x, y, z))?;
        let both = vector(cx, &here, po, "Tangent", &xyz, 0.0)?;
        let tangent = |name: &str| -> Result<Option<Point3>, ReadError> {
            let t = match vector(cx, &here, po, name, &xyz, 0.0)? {
                Some(t) => t,
                None => match &both {
                    Some(t) => t.clone(),
                    None => return Ok(None),
                },
            };
            let [x, y, z] = transform.vector(as3(&t));
            finite3(cx, &here, "tangent", UNREAL.to_core(x, y, z)).map(Some)
        };
        let arrive_tangent = tangent("ArriveTangent")?;
        let leave_tangent = tangent("LeaveTangent")?;
        let kind = match po.get("PointType") {
            None | Some(Value::Null) => PointKind::Curve,
            Some(t) => point_kind(t)
                .ok_or_else(|| cx.invalid(&here, format!("unknown \"PointType\" {t} (expected 0 to 4)")))?,
        };
        points.push(SplinePoint { location, arrive_tangent, leave_tangent, kind });
    }
    Ok(Road {
        id,
        width: opts.default_width,
        layer: 0,
        closed,
        has_height: true,
        geometry: RoadGeometry::Spline(points),
        profile: ProfileOverride::default(),
    })
}

// ---------------------------------------------------------------------------------------------
// Point cloud

fn read_point_cloud(cx: &Cx<'_>, top: &Map<String, Value>, opts: &ReadOptions) -> Result<(Input, Frame), ReadError> {
    let list = cx.top_array(top, "GameObjects")?;
    let mut roads: Vec<Road> = Vec::new();
    let mut by_id: HashMap<String, usize> = HashMap::new();
    for (i, v) in list.iter().enumerate() {
        let by_index = format!("object #{i}");
        let obj =
            v.as_object().ok_or_else(|| cx.invalid(&by_index, format!("expected an object, found {}", kind(v))))?;
        let id = match obj.get("ID") {
            None | Some(Value::Null) => return Err(cx.invalid(&by_index, "missing \"ID\"")),
            Some(v) => id_text(v).ok_or_else(|| {
                cx.invalid(&by_index, format!("\"ID\" must be a number or a string, found {}", kind(v)))
            })?,
        };
        let slot = match by_id.get(&id) {
            Some(&slot) => slot,
            None => {
                let place = format!("road {id}");
                let width = match opt_number(cx, &place, obj, "Width")? {
                    Some(w) if w > 0.0 => finite_width(cx, &place, w * UNREAL.metres_per_unit)?,
                    _ => opts.default_width,
                };
                by_id.insert(id.clone(), roads.len());
                roads.push(Road {
                    id: id.clone(),
                    width,
                    layer: 0,
                    closed: false,
                    has_height: true,
                    geometry: RoadGeometry::Polyline(Vec::new()),
                    profile: ProfileOverride::default(),
                });
                roads.len() - 1
            }
        };
        let Some(road) = roads.get_mut(slot) else {
            continue;
        };
        let RoadGeometry::Polyline(points) = &mut road.geometry else {
            continue;
        };
        let here = format!("road {id}, point {}", points.len());
        let coord = |key: &str| -> Result<f64, ReadError> {
            match obj.get(key) {
                None | Some(Value::Null) => Err(cx.invalid(&here, format!("missing \"{key}\""))),
                Some(v) => number(cx, &here, &format!("\"{key}\""), v),
            }
        };
        let (x, y) = (coord("X")?, coord("Y")?);
        let z = opt_number(cx, &here, obj, "Z")?.unwrap_or(0.0);
        points.push(finite3(cx, &here, "point", UNREAL.to_core(x, y, z))?);
    }
    Ok((Input { roads }, UNREAL))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> ReadOptions {
        ReadOptions::default()
    }

    #[test]
    fn quaternion_rotates_like_unreal() {
        // 90° about z: X goes to Y.
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let r = Quat([0.0, 0.0, h, h]).rotate([1.0, 0.0, 0.0]);
        assert!((r[0]).abs() < 1e-12 && (r[1] - 1.0).abs() < 1e-12 && r[2].abs() < 1e-12);
    }

    #[test]
    fn format_names_round_trip() {
        for f in [Format::Roads, Format::UnrealSplines, Format::PointCloud] {
            assert_eq!(f.to_string().parse::<Format>(), Ok(f));
        }
        assert!("shapefile".parse::<Format>().is_err());
    }

    #[test]
    fn frame_round_trips() {
        let f = UNREAL;
        let p = f.to_core(150.0, 250.0, 10.0);
        assert_eq!(p, Point3::new(1.5, -2.5, 0.1));
        let back = f.from_core3(p);
        assert!((back[0] - 150.0).abs() < 1e-9 && (back[1] - 250.0).abs() < 1e-9);
    }

    #[test]
    fn io_message_drops_os_error() {
        let e = std::io::Error::from_raw_os_error(2);
        assert!(!io_message(&e).contains("os error"));
    }

    #[test]
    fn overflowing_scale_is_an_error_not_inf() {
        let text = r#"{"Splines":[{"OwnerName":"A","Scale.X":1e308,"Points":[
            {"Location.X":1e308,"Location.Y":0,"Location.Z":0}]}]}"#;
        let e = read_str(text, "big.json", &opts()).unwrap_err().to_string();
        assert!(e.contains("big.json: road A, point 0"), "{e}");
    }

    #[test]
    fn utf16_is_decoded() {
        let mut bytes = vec![0xFF, 0xFE];
        for u in "{\"roads\":[]}".encode_utf16() {
            bytes.extend(u.to_le_bytes());
        }
        assert_eq!(decode_text(&bytes).as_deref(), Some("{\"roads\":[]}"));
    }
}

//! GeoJSON writer: a [`Network`] as a FeatureCollection, back in the input's units and frame.
//!
//! The output is written by hand, so its bytes depend only on the network and the frame: one
//! feature per line (junctions, then road pieces, then blocks, each in the network's order),
//! then a top-level `"diagnostics"` member with one diagnostic per line. Coordinates and
//! measures are rounded to [`DECIMALS`] decimals of the input unit, and `-0` is written as `0`.

use std::fmt::Write as _;

use roadgen_core::{Block, Diagnostic, Junction, Network, Point, Polygon, RoadPiece};

use crate::read::Frame;

/// Decimals kept for coordinates, lengths and areas, in input units (0.1 mm for metres).
const DECIMALS: i32 = 4;

/// Writes a network as a GeoJSON FeatureCollection in the input's units and frame.
///
/// Every feature has `properties.kind` (`"junction"`, `"road"` or `"block"`) and
/// `properties.id`; junctions add `degree` and `roads`, road pieces `road`, `from`, `to`,
/// `width`, `start` and `end`, blocks `area` (square input units). Geometries are Polygons with
/// closed rings, exteriors counter-clockwise and holes clockwise in the output frame. The
/// network's diagnostics are in a top-level `"diagnostics"` array.
pub fn write_geojson(network: &Network, frame: &Frame) -> String {
    let mut features = Vec::with_capacity(network.junctions.len() + network.pieces.len() + network.blocks.len());
    features.extend(network.junctions.iter().map(|j| junction(j, frame)));
    features.extend(network.pieces.iter().map(|p| piece(p, frame)));
    features.extend(network.blocks.iter().map(|b| block(b, frame)));
    features.extend(network.blocks.iter().filter(|b| !b.lots.is_empty()).map(|b| lot(b, frame)));
    let diagnostics: Vec<String> = network.diagnostics.iter().map(|d| diagnostic(d, frame)).collect();

    let mut out = String::from("{\"type\":\"FeatureCollection\",\"features\":");
    list(&mut out, &features);
    out.push_str(",\"diagnostics\":");
    list(&mut out, &diagnostics);
    out.push_str("}\n");
    out
}

/// A JSON array with one item per line (`[]` when empty).
fn list(out: &mut String, items: &[String]) {
    if items.is_empty() {
        out.push_str("[]");
        return;
    }
    out.push_str("[\n");
    for (i, item) in items.iter().enumerate() {
        out.push_str(item);
        out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
    }
    out.push(']');
}

fn junction(j: &Junction, frame: &Frame) -> String {
    let roads: Vec<String> = j.roads.iter().map(|r| string(r)).collect();
    let props = format!(
        "\"kind\":\"junction\",\"id\":{},\"degree\":{},\"roads\":[{}]",
        string(&j.id),
        j.degree,
        roads.join(",")
    );
    feature(&props, &j.polygon, frame)
}

fn piece(p: &RoadPiece, frame: &Frame) -> String {
    let props = format!(
        "\"kind\":\"road\",\"id\":{},\"road\":{},\"from\":{},\"to\":{},\"width\":{},\"start\":{},\"end\":{}",
        string(&p.id),
        string(&p.road),
        opt_string(p.from.as_deref()),
        opt_string(p.to.as_deref()),
        number(frame.length_from_core(p.width)),
        number(frame.length_from_core(p.start)),
        number(frame.length_from_core(p.end)),
    );
    feature(&props, &p.polygon, frame)
}

fn block(b: &Block, frame: &Frame) -> String {
    let props =
        format!("\"kind\":\"block\",\"id\":{},\"area\":{}", string(&b.id), number(frame.area_from_core(b.area)));
    feature(&props, &b.polygon, frame)
}

/// A block's lots (the block minus its sidewalk band): one feature with the block's id, a
/// Polygon for one lot, a MultiPolygon for several.
fn lot(b: &Block, frame: &Frame) -> String {
    let area: f64 = b.lots.iter().map(roadgen_core::validate::polygon_area).sum();
    let props = format!(
        "\"kind\":\"lot\",\"id\":{},\"block\":{},\"area\":{}",
        string(&b.id),
        string(&b.id),
        number(frame.area_from_core(area))
    );
    let geometry = if b.lots.len() == 1 {
        geometry(&b.lots[0], frame)
    } else {
        let mut out = String::from("{\"type\":\"MultiPolygon\",\"coordinates\":[");
        for (i, l) in b.lots.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push('[');
            ring(&mut out, &l.exterior, frame);
            for hole in l.holes.iter().filter(|h| !h.is_empty()) {
                out.push(',');
                ring(&mut out, hole, frame);
            }
            out.push(']');
        }
        out.push_str("]}");
        out
    };
    format!("{{\"type\":\"Feature\",\"properties\":{{{props}}},\"geometry\":{geometry}}}")
}

fn diagnostic(d: &Diagnostic, frame: &Frame) -> String {
    format!(
        "{{\"code\":\"{}\",\"message\":{},\"road\":{},\"position\":{}}}",
        d.code.as_str(),
        string(&d.message),
        opt_string(d.road.as_deref()),
        position(d.position, frame)
    )
}

fn feature(props: &str, polygon: &Polygon, frame: &Frame) -> String {
    format!("{{\"type\":\"Feature\",\"properties\":{{{props}}},\"geometry\":{}}}", geometry(polygon, frame))
}

/// A Polygon geometry, or `null` when the outer ring is empty.
fn geometry(polygon: &Polygon, frame: &Frame) -> String {
    if polygon.exterior.is_empty() {
        return "null".to_owned();
    }
    let mut out = String::from("{\"type\":\"Polygon\",\"coordinates\":[");
    ring(&mut out, &polygon.exterior, frame);
    for hole in polygon.holes.iter().filter(|h| !h.is_empty()) {
        out.push(',');
        ring(&mut out, hole, frame);
    }
    out.push_str("]}");
    out
}

/// A ring in the output frame, closed by repeating its first point. Mirroring flips the
/// orientation, so the ring is reversed then to keep exteriors counter-clockwise.
fn ring(out: &mut String, points: &[Point], frame: &Frame) {
    let mut pts: Vec<Point> = points.to_vec();
    if pts.len() > 1 && pts.first() == pts.last() {
        pts.pop();
    }
    if frame.mirror_y {
        pts.reverse();
    }
    if let Some(&first) = pts.first() {
        pts.push(first);
    }
    out.push('[');
    for (i, p) in pts.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_position(out, *p, frame);
    }
    out.push(']');
}

fn position(p: Point, frame: &Frame) -> String {
    let mut out = String::new();
    push_position(&mut out, p, frame);
    out
}

/// Appends `[x,y]` in the output frame.
fn push_position(out: &mut String, p: Point, frame: &Frame) {
    let [x, y] = frame.from_core(p);
    out.push('[');
    push_number(out, x);
    out.push(',');
    push_number(out, y);
    out.push(']');
}

/// A number rounded to [`DECIMALS`] decimals, `-0` as `0`, and `null` if it is not finite.
fn number(v: f64) -> String {
    let mut out = String::new();
    push_number(&mut out, v);
    out
}

/// Below this magnitude a number is rounded to [`DECIMALS`] decimals; beyond it a scaled value
/// has no fraction left to round (and the scaled value stays below 2^53, where every integer
/// is exact).
const ROUNDED_BELOW: f64 = 1e11;

/// Appends [`number`]'s text for `v`. The value rounded to `DECIMALS` decimals is an integer
/// count `k` of 10^-DECIMALS; the shortest decimal that reads back as `k / 10^DECIMALS` (what
/// `f64`'s `Display` writes) is that count's digits with the decimal point put in and trailing
/// zeros dropped, so it is written from the integer directly, without a float formatter.
fn push_number(out: &mut String, v: f64) {
    if !v.is_finite() {
        out.push_str("null");
        return;
    }
    if v.abs() >= ROUNDED_BELOW {
        let _ = write!(out, "{v}");
        return;
    }
    let unit = 10u64.pow(DECIMALS as u32);
    let k = (v * unit as f64).round();
    if k == 0.0 {
        out.push('0');
        return;
    }
    if k < 0.0 {
        out.push('-');
    }
    // |k| < 10^15 < 2^53: exact as an integer.
    let k = k.abs() as u64;
    let _ = write!(out, "{}", k / unit);
    let mut frac = k % unit;
    if frac != 0 {
        out.push('.');
        let mut width = DECIMALS as u32;
        while frac.is_multiple_of(10) {
            frac /= 10;
            width -= 1;
        }
        let _ = write!(out, "{frac:0width$}", width = width as usize);
    }
}

/// A JSON string literal.
fn string(s: &str) -> String {
    serde_json::Value::from(s).to_string()
}

fn opt_string(s: Option<&str>) -> String {
    s.map_or_else(|| "null".to_owned(), string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_rounded_and_never_negative_zero() {
        assert_eq!(number(-0.0), "0");
        assert_eq!(number(-0.00001), "0");
        assert_eq!(number(1.23456), "1.2346");
        assert_eq!(number(5.0), "5");
        assert_eq!(number(0.3), "0.3");
        assert_eq!(number(f64::NAN), "null");
        assert_eq!(number(-12.5), "-12.5");
    }

    /// What `f64`'s own formatter writes for the rounded value: the text `push_number` must
    /// give.
    fn by_display(v: f64) -> String {
        if !v.is_finite() {
            return "null".to_owned();
        }
        let scale = 10f64.powi(DECIMALS);
        let r = if v.abs() < ROUNDED_BELOW { (v * scale).round() / scale } else { v };
        let r = if r == 0.0 { 0.0 } else { r };
        format!("{r}")
    }

    #[test]
    fn numbers_are_written_as_the_float_formatter_writes_them() {
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut values = vec![
            0.0,
            -0.0,
            1e-5,
            -4.9999e-5,
            5e-5,
            0.00015,
            0.5,
            1.0,
            9.99995,
            123.45675,
            99_999_999_999.999_9,
            -99_999_999_999.99,
            1e11,
            -1e11,
            3.4e15,
            1e300,
            f64::MIN_POSITIVE,
            f64::INFINITY,
            f64::NAN,
        ];
        for _ in 0..200_000 {
            let bits = next();
            // Magnitudes from 1e-6 to 1e12, and raw bit patterns.
            let mag = 10f64.powf((bits % 18_000) as f64 / 1000.0 - 6.0);
            let frac = (next() % 1_000_000) as f64 / 1_000_000.0;
            let sign = if bits & (1 << 40) != 0 { -1.0 } else { 1.0 };
            values.push(sign * mag * (1.0 + frac));
            values.push(f64::from_bits(next()));
        }
        for v in values {
            assert_eq!(number(v), by_display(v), "{v:e}");
        }
    }

    #[test]
    fn strings_are_escaped() {
        assert_eq!(string("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
    }
}

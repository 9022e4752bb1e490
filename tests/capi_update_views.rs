//! `rg_update` on a real network, through the C ABI: after each of many moves (local updates,
//! whose views reuse the converted junctions, road pieces and blocks that did not change), every
//! field of every view equals that of a fresh `rg_generate` of the edited input.

// The C ABI's functions and views are raw pointers: this test calls them as a C host would.
#![allow(unsafe_code)]

mod common;

use roadgen::*;
use roadgen_core::{Input, RoadGeometry};

/// A polygon's rings, each point as the bits of its coordinates.
type Rings = Vec<Vec<[u64; 2]>>;
/// Id, center, degree, roads, outline.
type JunctionOut = (String, [u64; 2], usize, Vec<String>, Rings);
/// Id, road, from, to, (width, start, end), centerline, outline.
type PieceOut = (String, String, String, String, [u64; 3], Vec<[u64; 3]>, Rings);
/// Id, area, outline, lots.
type BlockOut = (String, u64, Rings, Vec<Rings>);
/// Code, code name, position, road, message.
type DiagnosticOut = (u32, String, [u64; 2], String, String);
/// Kind, id, positions, normals, uvs, indices, material slots.
type MeshOut = (u32, String, Vec<u64>, Vec<u32>, Vec<u32>, Vec<u32>, Vec<u32>);

/// Everything a view holds, owned, in a form that compares field by field.
#[derive(Debug, PartialEq)]
struct Owned {
    junctions: Vec<JunctionOut>,
    pieces: Vec<PieceOut>,
    blocks: Vec<BlockOut>,
    diagnostics: Vec<DiagnosticOut>,
    meshes: Vec<MeshOut>,
}

/// A view's array as a slice (empty for a null pointer).
///
/// # Safety
/// `ptr` must point to `len` values that stay valid while the slice is used.
unsafe fn slice<'a, T>(ptr: *const T, len: usize) -> &'a [T] {
    if ptr.is_null() || len == 0 {
        &[]
    } else {
        // SAFETY: the caller's promise.
        unsafe { std::slice::from_raw_parts(ptr, len) }
    }
}

fn string(s: RgStr) -> String {
    // SAFETY: strings of a live view.
    String::from_utf8_lossy(unsafe { slice(s.ptr.cast::<u8>(), s.len) }).into_owned()
}

fn v2(p: RgVec2) -> [u64; 2] {
    [p.x.to_bits(), p.y.to_bits()]
}

fn polygon(p: &RgPolygon) -> Rings {
    // SAFETY: a polygon of a live view.
    unsafe { slice(p.rings, p.ring_count) }
        .iter()
        .map(|r| unsafe { slice(r.points, r.point_count) }.iter().map(|&q| v2(q)).collect())
        .collect()
}

fn owned(h: RgHandle) -> Owned {
    let mut v = RgNetworkView::default();
    // SAFETY: a live handle and a writable view.
    assert_eq!(unsafe { rg_network_view(h, &mut v) }, RgResult::Ok);
    // SAFETY (every slice below): the arrays of the view just read, valid until the next call.
    let junctions = unsafe { slice(v.junctions, v.junction_count) }
        .iter()
        .map(|j| {
            let roads = unsafe { slice(j.roads, j.road_count) }.iter().map(|&r| string(r)).collect();
            (string(j.id), v2(j.center), j.degree, roads, polygon(&j.polygon))
        })
        .collect();
    let pieces = unsafe { slice(v.pieces, v.piece_count) }
        .iter()
        .map(|p| {
            let line = unsafe { slice(p.centerline, p.centerline_count) }
                .iter()
                .map(|q| [q.x.to_bits(), q.y.to_bits(), q.z.to_bits()])
                .collect();
            let lengths = [p.width.to_bits(), p.start.to_bits(), p.end.to_bits()];
            (string(p.id), string(p.road), string(p.from), string(p.to), lengths, line, polygon(&p.polygon))
        })
        .collect();
    let blocks = unsafe { slice(v.blocks, v.block_count) }
        .iter()
        .map(|b| {
            let lots = unsafe { slice(b.lots, b.lot_count) }.iter().map(polygon).collect();
            (string(b.id), b.area.to_bits(), polygon(&b.polygon), lots)
        })
        .collect();
    let diagnostics = unsafe { slice(v.diagnostics, v.diagnostic_count) }
        .iter()
        .map(|d| (d.code as u32, string(d.code_name), v2(d.position), string(d.road), string(d.message)))
        .collect();
    let meshes = unsafe { slice(v.meshes, v.mesh_count) }
        .iter()
        .map(|m| {
            let positions = unsafe { slice(m.positions, 3 * m.vertex_count) }.iter().map(|x| x.to_bits()).collect();
            let normals = unsafe { slice(m.normals, 3 * m.vertex_count) }.iter().map(|x| x.to_bits()).collect();
            let uvs = unsafe { slice(m.uvs, 2 * m.vertex_count) }.iter().map(|x| x.to_bits()).collect();
            let indices = unsafe { slice(m.indices, 3 * m.triangle_count) }.to_vec();
            let slots = unsafe { slice(m.material_slots, m.triangle_count) }.to_vec();
            (m.kind as u32, string(m.id), positions, normals, uvs, indices, slots)
        })
        .collect();
    Owned { junctions, pieces, blocks, diagnostics, meshes }
}

/// The points of each road as C spline points (the test inputs are polylines).
fn points(input: &Input) -> Vec<Vec<RgSplinePoint>> {
    let zero = RgVec3 { x: 0.0, y: 0.0, z: 0.0 };
    input
        .roads
        .iter()
        .map(|r| match &r.geometry {
            RoadGeometry::Polyline(p) => p
                .iter()
                .map(|q| RgSplinePoint {
                    location: RgVec3 { x: q.x, y: q.y, z: q.z },
                    arrive_tangent: zero,
                    leave_tangent: zero,
                    point_type: RG_POINT_LINEAR,
                })
                .collect(),
            RoadGeometry::Spline(_) => panic!("{}: the test inputs are polylines", r.id),
        })
        .collect()
}

fn spline(input: &Input, i: usize, pts: &[RgSplinePoint]) -> RgSpline {
    let r = &input.roads[i];
    RgSpline {
        id: r.id.as_ptr().cast(),
        id_len: r.id.len(),
        points: pts.as_ptr(),
        point_count: pts.len(),
        width: r.width,
        layer: r.layer,
        closed: u8::from(r.closed),
        auto_tangents: 0,
        profile_mask: 0,
        profile: RgProfile::default(),
        corner_radius: 0.0,
    }
}

fn generate(input: &Input, pts: &[Vec<RgSplinePoint>], settings: &RgSettings) -> RgHandle {
    let splines: Vec<RgSpline> = (0..input.roads.len()).map(|i| spline(input, i, &pts[i])).collect();
    let mut h: RgHandle = 0;
    // SAFETY: a writable handle; `splines` point into `input` and `pts`, alive for the call.
    unsafe {
        assert_eq!(rg_network_new(&mut h), RgResult::Ok);
        assert_eq!(rg_generate(h, splines.as_ptr(), splines.len(), settings), RgResult::Ok);
    }
    h
}

#[test]
fn every_view_after_local_updates_is_a_fresh_generation() {
    let input = common::load("osm/kotka.roads.json");
    let mut pts = points(&input);
    let mut settings = RgSettings::default();
    // SAFETY: a writable settings value.
    assert_eq!(
        unsafe { rg_settings_default(RG_UNITS_CENTIMETRES, RG_FRAME_LEFT_HANDED_Z_UP, &mut settings) },
        RgResult::Ok
    );
    // In centimetres, as Unreal sends them.
    for road in &mut pts {
        for p in road.iter_mut() {
            p.location = RgVec3 { x: 100.0 * p.location.x, y: 100.0 * p.location.y, z: 100.0 * p.location.z };
        }
    }
    let mut input = input;
    for r in &mut input.roads {
        r.width *= 100.0;
    }
    let h = generate(&input, &pts, &settings);
    let n = input.roads.len();
    let (mut local, mut compared) = (0, 0);
    for k in 0..24 {
        let i = (k * 7919) % n;
        let moved: Vec<RgSplinePoint> = pts[i]
            .iter()
            .map(|p| {
                let mut q = *p;
                q.location.x += 150.0;
                q.location.y -= 100.0;
                q
            })
            .collect();
        let s = spline(&input, i, &moved);
        let mut c = RgChangesView::default();
        // SAFETY: one spline pointing into `input` and `moved`, a writable changes view.
        assert_eq!(unsafe { rg_update(h, &s, 1, std::ptr::null(), 0, &mut c) }, RgResult::Ok);
        local += usize::from(c.full_build == 0);
        pts[i] = moved;
        let fresh = generate(&input, &pts, &settings);
        assert_eq!(owned(h), owned(fresh), "after moving road {} (move {k})", input.roads[i].id);
        compared += 1;
        assert_eq!(rg_network_free(fresh), RgResult::Ok);
    }
    assert_eq!(rg_network_free(h), RgResult::Ok);
    assert!(local >= compared / 2, "only {local} of {compared} updates were local");
}

//! The C ABI's entry points on inputs drawn from the fuzzer's bytes, called as a C host would:
//! settings from `rg_settings_default` with some fields replaced by any `f64` (or unknown unit
//! and frame codes, or no settings at all), a few splines with arbitrary id bytes, point types,
//! profile bits, counts and NaNs, and null pointers wherever the ABI allows them (null with a
//! count of 0, or null with a count > 0, which must be refused). Every call must return a
//! result code and never panic (libfuzzer-sys aborts on any panic, even one the library
//! catches); every view is walked completely; the handle is freed, and freeing it twice fails.
#![no_main]

use std::ffi::c_char;
use std::ptr;

use arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use roadgen::*;

/// Most splines per call.
const MAX_SPLINES: usize = 6;
/// Most points per spline.
const MAX_POINTS: usize = 6;

fn any_f64(u: &mut Unstructured) -> Result<f64> {
    Ok(f64::from_bits(u.arbitrary()?))
}

/// A coordinate: mostly on a coarse grid (so that roads meet), sometimes any `f64`.
fn coord(u: &mut Unstructured, scale: f64) -> Result<f64> {
    Ok(match u.int_in_range(0..=11u8)? {
        0 => any_f64(u)?,
        1 => f64::from(u.arbitrary::<i16>()?) * scale,
        _ => f64::from(u.int_in_range(-20i8..=20)?) * 5.0 * scale,
    })
}

fn vec3(u: &mut Unstructured, scale: f64) -> Result<RgVec3> {
    Ok(RgVec3 { x: coord(u, scale)?, y: coord(u, scale)?, z: f64::from(u.int_in_range(-2i8..=2)?) * scale })
}

fn length(u: &mut Unstructured, usual: f64) -> Result<f64> {
    Ok(match u.int_in_range(0..=7u8)? {
        0 => any_f64(u)?,
        1 => 0.0,
        _ => usual * f64::from(u.int_in_range(1u8..=4)?) / 2.0,
    })
}

/// A code: mostly one of `0..known`, sometimes any value.
fn code(u: &mut Unstructured, known: u32) -> Result<u32> {
    Ok(if u.ratio(1, 12)? { u.arbitrary()? } else { u.int_in_range(0..=known - 1)? })
}

fn settings(u: &mut Unstructured) -> Result<(RgSettings, f64)> {
    let (units, frame) = (u.int_in_range(0..=1u32)?, u.int_in_range(0..=1u32)?);
    let mut s = RgSettings {
        units: 0,
        frame: 0,
        tolerance: 0.0,
        snap_distance: 0.0,
        clearance: 0.0,
        corner_radius: 0.0,
        merge_distance: 0.0,
        min_block_area: 0.0,
        max_coordinate: 0.0,
        profile: RgProfile { curb_height: 0.0, curb_width: 0.0, sidewalk_left: 0.0, sidewalk_right: 0.0 },
        strict: 0,
        build_meshes: 0,
    };
    // SAFETY: `s` is a writable RgSettings.
    assert_eq!(unsafe { rg_settings_default(units, frame, &mut s) }, RgResult::Ok);
    let scale = if units == RG_UNITS_CENTIMETRES { 100.0 } else { 1.0 };
    if u.ratio(1, 8)? {
        s.units = u.arbitrary()?;
    }
    if u.ratio(1, 8)? {
        s.frame = u.arbitrary()?;
    }
    for _ in 0..u.int_in_range(0..=2u8)? {
        let v = any_f64(u)?;
        match u.int_in_range(0..=11u8)? {
            0 => s.tolerance = v,
            1 => s.snap_distance = v,
            2 => s.clearance = v,
            3 => s.corner_radius = v,
            4 => s.merge_distance = v,
            5 => s.min_block_area = v,
            6 => s.max_coordinate = v,
            7 => s.profile.curb_height = v,
            8 => s.profile.curb_width = v,
            9 => s.profile.sidewalk_left = v,
            10 => s.profile.sidewalk_right = v,
            _ => s.corner_radius = f64::from(u.int_in_range(0u8..=20)?) * scale,
        }
    }
    s.strict = u8::from(u.ratio(1, 6)?);
    s.build_meshes = u8::from(u.ratio(3, 4)?);
    Ok((s, scale))
}

/// The caller's storage of one spline: the library only borrows it.
struct Road {
    id: Vec<u8>,
    null_id: bool,
    points: Vec<RgSplinePoint>,
    null_points: bool,
    spline: RgSpline,
}

fn road(u: &mut Unstructured, scale: f64) -> Result<Road> {
    let id_len = u.int_in_range(0..=6usize)?;
    let id = (0..id_len).map(|_| u.arbitrary()).collect::<Result<Vec<u8>>>()?;
    let n = u.int_in_range(0..=MAX_POINTS)?;
    let mut points = Vec::with_capacity(n);
    for _ in 0..n {
        let location = vec3(u, scale)?;
        let (arrive_tangent, leave_tangent) = if u.ratio(1, 2)? {
            (vec3(u, scale)?, vec3(u, scale)?)
        } else {
            (RgVec3 { x: 0.0, y: 0.0, z: 0.0 }, RgVec3 { x: 0.0, y: 0.0, z: 0.0 })
        };
        points.push(RgSplinePoint { location, arrive_tangent, leave_tangent, point_type: code(u, 5)? });
    }
    let profile_mask = if u.ratio(1, 10)? { u.arbitrary()? } else { u.int_in_range(0..=31u32)? };
    let spline = RgSpline {
        id: ptr::null(),
        id_len,
        points: ptr::null(),
        point_count: n,
        width: length(u, 7.0 * scale)?,
        layer: u.int_in_range(-1..=1)?,
        closed: u8::from(u.ratio(1, 4)?),
        auto_tangents: u.arbitrary()?,
        profile_mask,
        profile: RgProfile {
            curb_height: length(u, 0.15 * scale)?,
            curb_width: length(u, 0.3 * scale)?,
            sidewalk_left: length(u, 2.0 * scale)?,
            sidewalk_right: length(u, 2.0 * scale)?,
        },
        corner_radius: length(u, 6.0 * scale)?,
    };
    // Null arrays: with a count of 0 they are fine, with a count > 0 they must be refused.
    let (null_id, null_points) = (u.ratio(1, 16)?, u.ratio(1, 16)?);
    Ok(Road { id, null_id, points, null_points, spline })
}

thread_local! {
    /// Some input id holds a NUL byte: ids are copied byte for byte, so an output string may too.
    static IDS_WITH_NUL: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// A library string: null only where "none" is allowed, valid UTF-8, NUL-terminated at `len`.
fn check_str(s: RgStr, may_be_none: bool) {
    if s.ptr.is_null() {
        assert!(may_be_none && s.len == 0, "a null string where one is required, or with a length");
        return;
    }
    // SAFETY: the library promises `len` bytes and a NUL at `ptr`.
    let bytes = unsafe { std::slice::from_raw_parts(s.ptr.cast::<u8>(), s.len + 1) };
    assert_eq!(bytes[s.len], 0, "not NUL-terminated");
    assert!(std::str::from_utf8(&bytes[..s.len]).is_ok(), "not UTF-8");
    assert!(IDS_WITH_NUL.get() || !bytes[..s.len].contains(&0), "inner NUL without one in the input");
}

/// # Safety
/// `ptr` must point to `count` values when `count > 0`.
unsafe fn slice<'a, T>(ptr: *const T, count: usize) -> &'a [T] {
    if count == 0 {
        return &[];
    }
    assert!(!ptr.is_null(), "null array with count {count}");
    // SAFETY: the caller promises `count` values.
    unsafe { std::slice::from_raw_parts(ptr, count) }
}

fn check_polygon(p: &RgPolygon) {
    // SAFETY: the views' counts describe their arrays (the library's promise, checked here).
    for ring in unsafe { slice(p.rings, p.ring_count) } {
        let _ = unsafe { slice(ring.points, ring.point_count) }.iter().map(|q| q.x + q.y).sum::<f64>();
    }
}

fn walk(v: &RgNetworkView) {
    // SAFETY (all blocks): the library promises every pointer/count pair of a view.
    unsafe {
        for j in slice(v.junctions, v.junction_count) {
            check_str(j.id, false);
            slice(j.roads, j.road_count).iter().for_each(|&r| check_str(r, false));
            check_polygon(&j.polygon);
        }
        for p in slice(v.pieces, v.piece_count) {
            check_str(p.id, false);
            check_str(p.road, false);
            check_str(p.from, true);
            check_str(p.to, true);
            let _ = slice(p.centerline, p.centerline_count).iter().map(|q| q.x + q.y + q.z).sum::<f64>();
            check_polygon(&p.polygon);
        }
        for b in slice(v.blocks, v.block_count) {
            check_str(b.id, false);
            check_polygon(&b.polygon);
            slice(b.lots, b.lot_count).iter().for_each(check_polygon);
        }
        for d in slice(v.diagnostics, v.diagnostic_count) {
            check_str(d.code_name, false);
            check_str(d.road, true);
            check_str(d.message, false);
        }
        for m in slice(v.meshes, v.mesh_count) {
            check_str(m.id, false);
            let positions = slice(m.positions, 3 * m.vertex_count);
            assert!(positions.iter().all(|x| x.is_finite()), "non-finite position");
            let _ = slice(m.normals, 3 * m.vertex_count);
            let _ = slice(m.uvs, 2 * m.vertex_count);
            let indices = slice(m.indices, 3 * m.triangle_count);
            assert!(indices.iter().all(|&i| (i as usize) < m.vertex_count), "index out of range");
            assert!(slice(m.material_slots, m.triangle_count).iter().all(|&s| s < RG_SLOT_COUNT), "slot");
        }
    }
}

/// The handle's last error read with a buffer of a random size: its full size (NUL included) and
/// what fitted.
fn last_error(handle: RgHandle, u: &mut Unstructured) -> Result<(usize, String)> {
    let mut needed = 0usize;
    // SAFETY: no buffer, capacity 0; `needed` is writable.
    unsafe { rg_last_error(handle, ptr::null_mut(), 0, &mut needed) };
    let capacity = u.int_in_range(0..=needed + 1)?;
    let mut buf = vec![0x55u8; capacity];
    let mut again = 0usize;
    // SAFETY: `buf` has `capacity` writable bytes.
    let r = unsafe { rg_last_error(handle, buf.as_mut_ptr().cast::<c_char>(), capacity, &mut again) };
    assert_eq!(again, needed, "the needed size changed between two reads");
    if capacity > 0 {
        // Cut exactly when the buffer is smaller than the message and its NUL; the copy always
        // ends with a NUL (the message itself may hold one when an id did).
        let end = capacity.min(needed) - 1;
        assert_eq!(buf[end], 0, "not NUL-terminated at {end}");
        assert_eq!(r == RgResult::BufferTooSmall, capacity < needed, "BufferTooSmall exactly when cut");
        return Ok((needed, String::from_utf8_lossy(&buf[..end]).into_owned()));
    }
    Ok((needed, String::new()))
}

fn check_refs(refs: *const RgFeatureRef, count: usize) {
    // SAFETY: the library promises `count` feature references at `refs`.
    for f in unsafe { slice(refs, count) } {
        assert!((f.kind as u32) < 3, "feature kind {}", f.kind as u32);
        check_str(f.id, false);
    }
}

/// An update of a generated handle: some roads moved (their points shifted), some removed by
/// id, some sent again unchanged; the result walked, its change lists too, and, when it
/// succeeds, its counts compared with a fresh generation of the edited input (the library
/// promises the same network).
fn update(
    handle: RgHandle,
    roads: &[Road],
    splines_ptr: *const RgSpline,
    settings_ptr: *const RgSettings,
    u: &mut Unstructured,
) -> Result<()> {
    if splines_ptr.is_null() || settings_ptr.is_null() {
        return Ok(());
    }
    // Moved copies of some roads' points, and the ids of some roads to remove.
    let (dx, dy) = (f64::from(u.int_in_range(-4i8..=4)?), f64::from(u.int_in_range(-4i8..=4)?));
    let mut moved: Vec<(usize, Vec<RgSplinePoint>)> = Vec::new();
    let mut removed: Vec<usize> = Vec::new();
    for (i, r) in roads.iter().enumerate() {
        match u.int_in_range(0..=3u8)? {
            0 => {
                let pts = r
                    .points
                    .iter()
                    .map(|p| {
                        let mut q = *p;
                        q.location.x += dx;
                        q.location.y += dy;
                        q
                    })
                    .collect();
                moved.push((i, pts));
            }
            1 => removed.push(i),
            _ => {}
        }
    }
    let edits: Vec<RgSpline> = moved
        .iter()
        .map(|(i, pts)| {
            let mut s = roads[*i].spline;
            s.points = if roads[*i].null_points { ptr::null() } else { pts.as_ptr() };
            s
        })
        .collect();
    let gone: Vec<RgStr> = removed
        .iter()
        .map(|&i| RgStr {
            ptr: if roads[i].null_id { ptr::null() } else { roads[i].id.as_ptr().cast() },
            len: roads[i].id.len(),
        })
        .collect();
    let mut changes = RgChangesView::default();
    // SAFETY: every array is as long as its count says; `changes` is writable.
    let r = unsafe { rg_update(handle, edits.as_ptr(), edits.len(), gone.as_ptr(), gone.len(), &mut changes) };
    let (needed, message) = last_error(handle, u)?;
    assert_ne!(r, RgResult::Panic, "the library panicked in an update: {message}");
    assert_eq!(r == RgResult::Ok, needed == 1, "a failed update has a message, a success none: {message}");
    let mut view = RgNetworkView::default();
    // SAFETY: `view` is writable.
    assert_eq!(unsafe { rg_network_view(handle, &mut view) }, RgResult::Ok);
    walk(&view);
    if r != RgResult::Ok {
        return Ok(());
    }
    // SAFETY: `changes` is writable.
    assert_eq!(unsafe { rg_changes_view(handle, &mut changes) }, RgResult::Ok);
    for (refs, count) in [
        (changes.added, changes.added_count),
        (changes.changed, changes.changed_count),
        (changes.removed, changes.removed_count),
        (changes.remeshed, changes.remeshed_count),
    ] {
        check_refs(refs, count);
    }
    // The edited input generated afresh, when every road has an id of its own (an update
    // replaces and removes roads by id: with repeated ids the two inputs are not the same).
    let mut ids: Vec<&[u8]> = roads.iter().map(|r| r.id.as_slice()).collect();
    ids.sort_unstable();
    ids.dedup();
    if ids.len() != roads.len() || roads.iter().any(|r| r.null_id) {
        return Ok(());
    }
    let edited: Vec<RgSpline> = roads
        .iter()
        .enumerate()
        .filter(|(i, _)| !removed.contains(i))
        .map(|(i, r)| moved.iter().position(|(k, _)| *k == i).map_or(r.spline, |m| edits[m]))
        .collect();
    let mut fresh = 0;
    // SAFETY: `fresh` is writable.
    assert_eq!(unsafe { rg_network_new(&mut fresh) }, RgResult::Ok);
    // SAFETY: every array is as long as its count says.
    if unsafe { rg_generate(fresh, edited.as_ptr(), edited.len(), settings_ptr) } == RgResult::Ok {
        let mut again = RgNetworkView::default();
        // SAFETY: `again` is writable.
        assert_eq!(unsafe { rg_network_view(fresh, &mut again) }, RgResult::Ok);
        assert_eq!(
            (view.junction_count, view.piece_count, view.block_count, view.mesh_count),
            (again.junction_count, again.piece_count, again.block_count, again.mesh_count),
            "an update and a fresh generation of the same input differ"
        );
    }
    assert_eq!(rg_network_free(fresh), RgResult::Ok);
    Ok(())
}

fn run(data: &[u8]) -> Result<()> {
    let mut u = Unstructured::new(data);
    let (settings, scale) = settings(&mut u)?;
    let mut roads = Vec::new();
    for _ in 0..u.int_in_range(0..=MAX_SPLINES)? {
        roads.push(road(&mut u, scale)?);
    }
    for r in &mut roads {
        r.spline.id = if r.null_id { ptr::null() } else { r.id.as_ptr().cast() };
        r.spline.points = if r.null_points { ptr::null() } else { r.points.as_ptr() };
    }
    IDS_WITH_NUL.set(roads.iter().any(|r| r.id.contains(&0)));
    let splines: Vec<RgSpline> = roads.iter().map(|r| r.spline).collect();
    let splines_ptr = if u.ratio(1, 16)? { ptr::null() } else { splines.as_ptr() };
    let settings_ptr: *const RgSettings = if u.ratio(1, 32)? { ptr::null() } else { &settings };

    let mut handle = 0;
    let mut generated = false;
    // SAFETY: `handle` is writable.
    assert_eq!(unsafe { rg_network_new(&mut handle) }, RgResult::Ok);
    for _ in 0..u.int_in_range(1..=2u8)? {
        // SAFETY: every array is null or as long as its count says.
        let r = unsafe { rg_generate(handle, splines_ptr, splines.len(), settings_ptr) };
        let (needed, message) = last_error(handle, &mut u)?;
        assert_ne!(r, RgResult::Panic, "the library panicked: {message}");
        assert_eq!(r == RgResult::Ok, needed == 1, "a failure has a message, a success none: {message}");
        let mut view = RgNetworkView::default();
        // SAFETY: `view` is writable.
        assert_eq!(unsafe { rg_network_view(handle, &mut view) }, RgResult::Ok);
        if r != RgResult::Ok {
            assert_eq!(view.piece_count + view.junction_count + view.mesh_count, 0, "a failed call left a result");
        }
        walk(&view);
        generated = r == RgResult::Ok;
    }
    if generated {
        update(handle, &roads, splines_ptr, settings_ptr, &mut u)?;
    }
    assert_eq!(rg_network_free(handle), RgResult::Ok);
    assert_eq!(rg_network_free(handle), RgResult::InvalidHandle);
    let mut view = RgNetworkView::default();
    // SAFETY: `view` is writable.
    assert_eq!(unsafe { rg_network_view(handle, &mut view) }, RgResult::InvalidHandle);
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(data);
});

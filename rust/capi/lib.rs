//! RoadGen's C ABI: the static library that the Unreal Engine plugin links.
//!
//! The header `roadgen.h` is generated from this crate by cbindgen (see `build.rs`); the C++
//! wrapper `RoadGen.hpp` next to it is what the plugin includes.
//!
//! ## The contract
//! - A network lives behind a handle (`RgHandle`, a number that is never reused): make one with
//!   [`rg_network_new`], fill it with [`rg_generate`], read it with [`rg_network_view`], free it
//!   with [`rg_network_free`]; change it with [`rg_update`] (only what the edits reach is built
//!   again) and read what changed with [`rg_changes_view`]. Freeing twice, or using a freed or made-up handle, returns
//!   `RgResult_InvalidHandle`; it never touches freed memory.
//! - Inputs are borrowed for the duration of a call; the library never keeps a caller pointer.
//! - Results are owned by the library: every pointer in a view stays valid until the handle is
//!   generated or updated again, or freed. Nothing allocated on one side is freed on the other.
//! - Every function returns an [`RgResult`]; [`rg_last_error`] copies the message of the last
//!   failure. No input (null pointers, wrong counts, non-finite numbers) crashes the host, and a
//!   panic inside the library comes back as `RgResult_Panic`.
//! - A handle may be used from any thread, one call at a time per handle (calls on one handle
//!   from several threads are serialised).
//! - Lengths are in the caller's units and positions in the caller's frame
//!   (`RgSettings::units`, `RgSettings::frame`); the conversion happens in one place.

// The C ABI is where raw pointers from the host are read: every `unsafe` block here checks the
// pointer (null, alignment, count) first.
#![allow(unsafe_code)]

pub use roadgen_core as core;

mod frame;
mod output;
mod types;

pub use types::*;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::ffi::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use roadgen_core::{
    Changes, Edit, Error, FeatureKind, Input, Profile, ProfileOverride, Road, RoadGeometry, Session, Settings,
};
use roadgen_core::{PointKind, SplinePoint};

use frame::Frame;
use output::{mesh_key, AbiMeshSink, MeshData, MeshKey, Output};

/// A handle to a network. `0` is never a valid handle.
pub type RgHandle = u64;

const fn parse_version(s: &str) -> u32 {
    let b = s.as_bytes();
    let mut v = 0u32;
    let mut i = 0;
    while i < b.len() {
        v = v * 10 + (b[i] - b'0') as u32;
        i += 1;
    }
    v
}

/// The version this library was built as, `(major << 16) | (minor << 8) | patch`; the header's
/// `ROADGEN_ABI_VERSION` is the same number for the header the caller compiled against.
const ABI_VERSION: u32 = (parse_version(env!("CARGO_PKG_VERSION_MAJOR")) << 16)
    | (parse_version(env!("CARGO_PKG_VERSION_MINOR")) << 8)
    | parse_version(env!("CARGO_PKG_VERSION_PATCH"));

/// What one handle holds.
#[derive(Default)]
struct State {
    /// The network, kept for incremental updates.
    session: Option<Session>,
    /// The caller's units and frame, from the last generation.
    frame: Option<Frame>,
    /// Whether meshes are built (from the last generation's settings).
    build_meshes: bool,
    /// Every feature's mesh, in the order of the view.
    meshes: BTreeMap<MeshKey, MeshData>,
    /// The views for the caller (pointing into `meshes`: rebuilt whenever they change).
    output: Option<Output>,
    /// What the last update changed, for the caller.
    changes: Option<ChangesOut>,
    /// The message of the last failure on this handle.
    last_error: String,
}

impl State {
    /// Empties the handle (the views first: they point into the meshes).
    fn clear(&mut self) {
        self.output = None;
        self.changes = None;
        self.meshes.clear();
        self.session = None;
        self.frame = None;
    }
}

/// The lists of an update's changes as the caller sees them.
struct ChangesOut {
    /// Owns the strings the lists point to.
    _strings: Output,
    lists: [Vec<RgFeatureRef>; 4],
    diagnostics_changed: bool,
    full_build: bool,
}

impl ChangesOut {
    fn new(c: &Changes, meshes: bool) -> Self {
        let mut strings = Output::default();
        let remeshed: &[(FeatureKind, String)] = if meshes { &c.remesh } else { &[] };
        let lists = [&c.added[..], &c.changed[..], &c.removed[..], remeshed].map(|l| {
            let mut l = l.to_vec();
            l.sort();
            strings.features(&l)
        });
        Self { _strings: strings, lists, diagnostics_changed: c.diagnostics_changed, full_build: c.stats.full_build }
    }

    fn view(&self) -> RgChangesView {
        let [a, c, r, m] = &self.lists;
        RgChangesView {
            added: a.as_ptr(),
            added_count: a.len(),
            changed: c.as_ptr(),
            changed_count: c.len(),
            removed: r.as_ptr(),
            removed_count: r.len(),
            remeshed: m.as_ptr(),
            remeshed_count: m.len(),
            diagnostics_changed: u8::from(self.diagnostics_changed),
            full_build: u8::from(self.full_build),
        }
    }
}

// The raw pointers in the lists point into strings this value owns and never changes.
unsafe impl Send for ChangesOut {}

type Shared = Arc<Mutex<State>>;

/// The live handles. A handle's number is never given out again.
static HANDLES: Mutex<BTreeMap<RgHandle, Shared>> = Mutex::new(BTreeMap::new());
static NEXT_HANDLE: AtomicU64 = AtomicU64::new(1);

thread_local! {
    /// The message of the last failure on this thread.
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while the lock was held was already reported as `RgResult_Panic`; the data is
    // still usable (the state is reset before it is filled again).
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

fn lookup(handle: RgHandle) -> Option<Shared> {
    lock(&HANDLES).get(&handle).cloned()
}

/// A failed call: its result code and message.
struct Failure {
    code: RgResult,
    message: String,
}

impl Failure {
    fn new(code: RgResult, message: impl Into<String>) -> Self {
        Self { code, message: message.into() }
    }
}

fn invalid_handle(handle: RgHandle) -> Failure {
    Failure::new(RgResult::InvalidHandle, format!("handle {handle} is not a live handle"))
}

/// Runs the body of an exported function: catches panics and records failures on the thread and
/// on the handle (when it is live).
fn run(handle: Option<RgHandle>, body: impl FnOnce() -> Result<RgResult, Failure>) -> RgResult {
    let failure = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(code)) => return code,
        Ok(Err(f)) => f,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            Failure::new(RgResult::Panic, format!("internal error (a bug in RoadGen): {what}"))
        }
    };
    LAST_ERROR.with(|e| e.borrow_mut().clone_from(&failure.message));
    if let Some(shared) = handle.and_then(lookup) {
        let mut state = lock(&shared);
        if failure.code == RgResult::Panic {
            state.clear();
        }
        state.last_error = failure.message;
    }
    failure.code
}

/// Borrows `count` values at `ptr` after checking the pointer; a null pointer is fine for an
/// empty array.
///
/// # Safety
/// When `ptr` is not null it must point to `count` readable values for the duration of the call.
unsafe fn borrow<'a, T>(ptr: *const T, count: usize, what: &str) -> Result<&'a [T], Failure> {
    if count == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(Failure::new(RgResult::NullArgument, format!("{what} is null but its count is {count}")));
    }
    if !ptr.is_aligned() {
        return Err(Failure::new(RgResult::InvalidArgument, format!("{what} is not aligned")));
    }
    if count.checked_mul(size_of::<T>()).is_none_or(|n| n > isize::MAX as usize) {
        return Err(Failure::new(RgResult::InvalidArgument, format!("{what}: count {count} is too large")));
    }
    // SAFETY: not null, aligned, the size fits; the caller promises `count` readable values.
    Ok(unsafe { std::slice::from_raw_parts(ptr, count) })
}

/// Reads a non-null `*mut T` out-parameter target.
fn out_ref<'a, T>(ptr: *mut T, what: &str) -> Result<&'a mut T, Failure> {
    if ptr.is_null() {
        return Err(Failure::new(RgResult::NullArgument, format!("{what} is null")));
    }
    if !ptr.is_aligned() {
        return Err(Failure::new(RgResult::InvalidArgument, format!("{what} is not aligned")));
    }
    // SAFETY: not null and aligned; the caller promises it points to a writable `T`.
    Ok(unsafe { &mut *ptr })
}

/// The library's version, `(major << 16) | (minor << 8) | patch`. A host checks it against the
/// header's `ROADGEN_ABI_VERSION` before any other call.
#[no_mangle]
pub extern "C" fn rg_abi_version() -> u32 {
    ABI_VERSION
}

/// Starts the worker pool that every call runs on, with `threads` threads (0: one per core,
/// at least two), the calling thread one of them. A call made from that thread then runs on it, with the
/// other workers helping, instead of being handed to a worker and waited for (the fixed cost
/// of a call made at frame rate: 3 to 7 µs instead of 50 to 80 µs, docs/PERFORMANCE_LOG.md, the
/// `call_overhead` example). Calls from other threads
/// still work, with the other workers only (the calling thread takes work only while it is in
/// a call of its own). Optional; make it once, before any other call, from the thread that
/// makes the calls that must be quick (an editor's game thread). `RgResult_InvalidArgument`,
/// with nothing changed, for one thread (calls from other threads would have no worker) and
/// when the pool runs already (any earlier call starts it).
#[no_mangle]
pub extern "C" fn rg_workers_start(threads: u32) -> RgResult {
    run(None, || {
        let threads = match threads {
            0 => std::thread::available_parallelism().map_or(2, |n| n.get()).max(2),
            1 => {
                return Err(Failure::new(
                    RgResult::InvalidArgument,
                    "the worker pool needs at least 2 threads when the calling thread is one of them",
                ))
            }
            n => usize::try_from(n).unwrap_or(usize::MAX),
        };
        rayon::ThreadPoolBuilder::new().num_threads(threads).use_current_thread().build_global().map_err(|e| {
            Failure::new(
                RgResult::InvalidArgument,
                format!("cannot start the worker pool here: {e} (start it before any other call)"),
            )
        })?;
        Ok(RgResult::Ok)
    })
}

/// Fills `out` with the default settings in the given units (`RG_UNITS_*`) and frame
/// (`RG_FRAME_*`), meshes on.
///
/// # Safety
/// `out` must be null or point to a writable `RgSettings`.
#[no_mangle]
pub unsafe extern "C" fn rg_settings_default(units: u32, frame: u32, out: *mut RgSettings) -> RgResult {
    run(None, || {
        let out = out_ref(out, "out")?;
        let f = Frame::new(units, frame).ok_or_else(|| {
            Failure::new(RgResult::InvalidArgument, format!("unknown units {units} or frame {frame}"))
        })?;
        let d = Settings::default();
        *out = RgSettings {
            units,
            frame,
            tolerance: f.length_out(d.tolerance),
            snap_distance: f.length_out(d.snap_distance),
            clearance: f.length_out(d.clearance),
            corner_radius: f.length_out(d.corner_radius),
            merge_distance: f.length_out(d.merge_distance),
            min_block_area: f.area_out(d.min_block_area),
            max_coordinate: f.length_out(d.max_coordinate),
            profile: RgProfile {
                curb_height: f.length_out(d.profile.curb_height),
                curb_width: f.length_out(d.profile.curb_width),
                sidewalk_left: f.length_out(d.profile.sidewalk_left),
                sidewalk_right: f.length_out(d.profile.sidewalk_right),
            },
            strict: u8::from(d.strict),
            build_meshes: 1,
        };
        Ok(RgResult::Ok)
    })
}

/// Makes a new, empty network handle and writes it to `out`.
///
/// # Safety
/// `out` must be null or point to a writable `RgHandle`.
#[no_mangle]
pub unsafe extern "C" fn rg_network_new(out: *mut RgHandle) -> RgResult {
    run(None, || {
        let out = out_ref(out, "out")?;
        let handle = NEXT_HANDLE.fetch_add(1, Ordering::Relaxed);
        lock(&HANDLES).insert(handle, Arc::new(Mutex::new(State::default())));
        *out = handle;
        Ok(RgResult::Ok)
    })
}

/// Frees a handle and everything it owns. Freeing a handle twice returns
/// `RgResult_InvalidHandle` and does nothing else.
#[no_mangle]
pub extern "C" fn rg_network_free(handle: RgHandle) -> RgResult {
    run(None, || match lock(&HANDLES).remove(&handle) {
        Some(_) => Ok(RgResult::Ok),
        None => Err(invalid_handle(handle)),
    })
}

fn convert_settings(s: &RgSettings) -> Result<(Settings, Frame), Failure> {
    let f = Frame::new(s.units, s.frame).ok_or_else(|| {
        Failure::new(RgResult::InvalidArgument, format!("settings: unknown units {} or frame {}", s.units, s.frame))
    })?;
    let settings = Settings {
        tolerance: f.length_in(s.tolerance),
        snap_distance: f.length_in(s.snap_distance),
        clearance: f.length_in(s.clearance),
        corner_radius: f.length_in(s.corner_radius),
        merge_distance: f.length_in(s.merge_distance),
        min_block_area: f.area_in(s.min_block_area),
        max_coordinate: f.length_in(s.max_coordinate),
        profile: Profile {
            curb_height: f.length_in(s.profile.curb_height),
            curb_width: f.length_in(s.profile.curb_width),
            sidewalk_left: f.length_in(s.profile.sidewalk_left),
            sidewalk_right: f.length_in(s.profile.sidewalk_right),
        },
        strict: s.strict != 0,
    };
    settings.validate().map_err(|e| Failure::new(RgResult::InvalidArgument, format!("settings: {e}")))?;
    Ok((settings, f))
}

const PROFILE_BITS: u32 = RG_PROFILE_CURB_HEIGHT
    | RG_PROFILE_CURB_WIDTH
    | RG_PROFILE_SIDEWALK_LEFT
    | RG_PROFILE_SIDEWALK_RIGHT
    | RG_PROFILE_CORNER_RADIUS;

fn point_kind(code: u32) -> Option<PointKind> {
    Some(match code {
        RG_POINT_LINEAR => PointKind::Linear,
        RG_POINT_CURVE => PointKind::Curve,
        RG_POINT_CONSTANT => PointKind::Constant,
        RG_POINT_CURVE_CLAMPED => PointKind::CurveClamped,
        RG_POINT_CURVE_CUSTOM_TANGENT => PointKind::CurveCustomTangent,
        _ => return None,
    })
}

/// One caller spline as a core road. Errors are the caller's mistakes (null arrays, unknown
/// codes); bad geometry (non-finite numbers, too few points) is the core's to report.
fn convert_spline(index: usize, s: &RgSpline, f: Frame) -> Result<Road, Failure> {
    // SAFETY: the caller promises `id_len` readable bytes at `id`.
    let id = unsafe { borrow(s.id.cast::<u8>(), s.id_len, &format!("spline {index}: id")) }?;
    let id = String::from_utf8_lossy(id).into_owned();
    let at = |what: String| format!("spline {index} (road {id}): {what}");
    // SAFETY: the caller promises `point_count` readable points at `points`.
    let points = unsafe { borrow(s.points, s.point_count, &at("points".into())) }?;
    if s.profile_mask & !PROFILE_BITS != 0 {
        return Err(Failure::new(
            RgResult::InvalidArgument,
            at(format!("unknown profile_mask bits {:#x}", s.profile_mask)),
        ));
    }
    let mut geometry = Vec::with_capacity(points.len());
    for (i, p) in points.iter().enumerate() {
        let kind = point_kind(p.point_type).ok_or_else(|| {
            Failure::new(RgResult::InvalidArgument, at(format!("point {i}: unknown point_type {}", p.point_type)))
        })?;
        let tangent = |t: RgVec3| (s.auto_tangents == 0).then(|| f.point_in(t));
        geometry.push(SplinePoint {
            location: f.point_in(p.location),
            arrive_tangent: tangent(p.arrive_tangent),
            leave_tangent: tangent(p.leave_tangent),
            kind,
        });
    }
    let pick = |bit: u32, v: f64| (s.profile_mask & bit != 0).then(|| f.length_in(v));
    Ok(Road {
        id,
        width: f.length_in(s.width),
        layer: s.layer,
        closed: s.closed != 0,
        has_height: true,
        geometry: RoadGeometry::Spline(geometry),
        profile: ProfileOverride {
            curb_height: pick(RG_PROFILE_CURB_HEIGHT, s.profile.curb_height),
            curb_width: pick(RG_PROFILE_CURB_WIDTH, s.profile.curb_width),
            sidewalk_left: pick(RG_PROFILE_SIDEWALK_LEFT, s.profile.sidewalk_left),
            sidewalk_right: pick(RG_PROFILE_SIDEWALK_RIGHT, s.profile.sidewalk_right),
            corner_radius: pick(RG_PROFILE_CORNER_RADIUS, s.corner_radius),
        },
    })
}

/// Builds the network of `spline_count` splines with `settings` into `handle`, replacing what
/// it held. Bad roads are left out with a diagnostic (or, in strict mode, stop the call with
/// `RgResult_InvalidRoad`); a failed call leaves the handle empty.
///
/// # Safety
/// `splines` must be null (with a count of 0) or point to `spline_count` readable splines, each
/// of whose `id` and `points` point to as many bytes and points as their counts say; `settings`
/// must be null or point to a readable `RgSettings`.
#[no_mangle]
pub unsafe extern "C" fn rg_generate(
    handle: RgHandle,
    splines: *const RgSpline,
    spline_count: usize,
    settings: *const RgSettings,
) -> RgResult {
    run(Some(handle), || {
        let shared = lookup(handle).ok_or_else(|| invalid_handle(handle))?;
        let mut state = lock(&shared);
        state.clear();
        // SAFETY: checked by `borrow`; the caller promises a readable `RgSettings`.
        let settings = unsafe { borrow(settings, 1, "settings") }?
            .first()
            .ok_or_else(|| Failure::new(RgResult::NullArgument, "settings is null"))?;
        let build_mesh = settings.build_meshes != 0;
        let (settings, f) = convert_settings(settings)?;
        // SAFETY: checked by `borrow`; the caller promises `spline_count` readable splines.
        let splines = unsafe { borrow(splines, spline_count, "splines") }?;
        let roads = splines.iter().enumerate().map(|(i, s)| convert_spline(i, s, f)).collect::<Result<_, _>>()?;
        let session = if build_mesh {
            // Road and junction meshes are built while the blocks are found.
            let mut sink = AbiMeshSink::new(f);
            let session = Session::with_meshes(Input { roads }, settings, &mut sink).map_err(core_failure)?;
            state.meshes = keyed(sink);
            session
        } else {
            Session::new(Input { roads }, settings).map_err(core_failure)?
        };
        state.output = Some(Output::new(session.network(), state.meshes.values(), f));
        state.session = Some(session);
        state.frame = Some(f);
        state.build_meshes = build_mesh;
        state.last_error.clear();
        Ok(RgResult::Ok)
    })
}

fn core_failure(e: Error) -> Failure {
    match e {
        Error::BadRoad { .. } => Failure::new(RgResult::InvalidRoad, e.to_string()),
        Error::BadSetting { .. } => Failure::new(RgResult::InvalidArgument, e.to_string()),
    }
}

/// A sink's meshes by their place in the view.
fn keyed(sink: AbiMeshSink) -> BTreeMap<MeshKey, MeshData> {
    sink.into_meshes().into_iter().filter_map(|m| Some((mesh_key(m.kind?, &m.id), m))).collect()
}

/// Changes the network that the last [`rg_generate`] built, with its settings: every spline of
/// `splines` is added, or replaces the road with its id; every road whose id is in
/// `removed_ids` is removed. Only what the edits reach is built again (junctions, road pieces,
/// blocks and their meshes); the result is exactly what [`rg_generate`] gives for the edited
/// input. What changed is written to `changes` (when not null) and stays readable through it
/// until the next call on the handle; the views of [`rg_network_view`] are renewed.
///
/// Fails with `RgResult_InvalidArgument` before any generation. A caller mistake (a null array,
/// an unknown code) or, in strict mode, a bad road fails the call and leaves the network as it
/// was.
///
/// # Safety
/// `splines` must be null (with a count of 0) or point to `spline_count` readable splines as
/// for [`rg_generate`]; `removed_ids` must be null (with a count of 0) or point to
/// `removed_count` strings, each `len` readable bytes at `ptr`; `changes` must be null or point
/// to a writable `RgChangesView`.
#[no_mangle]
pub unsafe extern "C" fn rg_update(
    handle: RgHandle,
    splines: *const RgSpline,
    spline_count: usize,
    removed_ids: *const RgStr,
    removed_count: usize,
    changes: *mut RgChangesView,
) -> RgResult {
    run(Some(handle), || {
        let shared = lookup(handle).ok_or_else(|| invalid_handle(handle))?;
        let mut state = lock(&shared);
        let f = state.frame.ok_or_else(|| {
            Failure::new(RgResult::InvalidArgument, "nothing to update: call rg_generate on this handle first")
        })?;
        // SAFETY: checked by `borrow`; the caller promises `spline_count` readable splines.
        let splines = unsafe { borrow(splines, spline_count, "splines") }?;
        // SAFETY: checked by `borrow`; the caller promises `removed_count` readable strings.
        let removed = unsafe { borrow(removed_ids, removed_count, "removed_ids") }?;
        // Grown as the edits are read, not reserved from the counts: a count the caller got
        // wrong must come back as an error, never as an allocation that aborts the host.
        let mut edits: Vec<Edit> = Vec::new();
        for (i, s) in splines.iter().enumerate() {
            edits.push(Edit::Upsert(convert_spline(i, s, f)?));
        }
        for (i, id) in removed.iter().enumerate() {
            // SAFETY: the caller promises `len` readable bytes at `ptr`.
            let bytes = unsafe { borrow(id.ptr.cast::<u8>(), id.len, &format!("removed_ids[{i}]")) }?;
            edits.push(Edit::Remove(String::from_utf8_lossy(bytes).into_owned()));
        }
        let out = if changes.is_null() { None } else { Some(out_ref(changes, "changes")?) };
        // The mesh views point into the meshes: nothing reads them again once the meshes change
        // (the junctions', pieces' and blocks' parts own what they point to and are reused).
        let previous = state.output.take();
        state.changes = None;
        let state = &mut *state;
        let Some(session) = state.session.as_mut() else {
            return Err(Failure::new(RgResult::InvalidArgument, "nothing to update: the handle is empty"));
        };
        // With meshes, the road pieces' and junctions' are built while the blocks are found.
        let mut sink = state.build_meshes.then(|| AbiMeshSink::new(f));
        let result = match sink.as_mut() {
            Some(sink) => session.update_with_meshes(&edits, sink),
            None => session.update(&edits),
        };
        if let Ok(c) = &result {
            for (k, id) in &c.removed {
                state.meshes.remove(&mesh_key(*k, id));
            }
            if let Some(sink) = sink {
                state.meshes.extend(keyed(sink));
            }
        }
        state.output = Some(match (&result, previous) {
            // Only what the update added or changed is converted again.
            (Ok(c), Some(previous)) if !c.stats.full_build => {
                let stale: std::collections::BTreeSet<(FeatureKind, &str)> =
                    c.added.iter().chain(&c.changed).map(|(k, id)| (*k, id.as_str())).collect();
                Output::renewed(previous, &stale, session.network(), state.meshes.values(), f)
            }
            _ => Output::new(session.network(), state.meshes.values(), f),
        });
        let c = result.map_err(core_failure)?;
        let view = ChangesOut::new(&c, state.build_meshes);
        if let Some(out) = out {
            *out = view.view();
        }
        state.changes = Some(view);
        state.last_error.clear();
        Ok(RgResult::Ok)
    })
}

/// Writes the lists of what the last successful [`rg_update`] changed to `out` (all empty
/// before one, and after a generation).
///
/// # Safety
/// `out` must be null or point to a writable `RgChangesView`.
#[no_mangle]
pub unsafe extern "C" fn rg_changes_view(handle: RgHandle, out: *mut RgChangesView) -> RgResult {
    run(Some(handle), || {
        let out = out_ref(out, "out")?;
        let shared = lookup(handle).ok_or_else(|| invalid_handle(handle))?;
        let state = lock(&shared);
        *out = state.changes.as_ref().map(ChangesOut::view).unwrap_or_default();
        Ok(RgResult::Ok)
    })
}

/// Writes the views of everything the handle holds to `out` (all counts 0 before the first
/// successful [`rg_generate`]). The pointers stay valid until the handle is generated or updated
/// again, or freed.
///
/// # Safety
/// `out` must be null or point to a writable `RgNetworkView`.
#[no_mangle]
pub unsafe extern "C" fn rg_network_view(handle: RgHandle, out: *mut RgNetworkView) -> RgResult {
    run(Some(handle), || {
        let out = out_ref(out, "out")?;
        let shared = lookup(handle).ok_or_else(|| invalid_handle(handle))?;
        let state = lock(&shared);
        *out = state.output.as_ref().map(Output::view).unwrap_or_default();
        Ok(RgResult::Ok)
    })
}

/// Copies the message of the last failure into `buffer` (at most `capacity` bytes, always
/// NUL-terminated when `capacity > 0`) and writes its full size, NUL included, to `needed` (when
/// not null). For a live handle it is that handle's last failure; for any other value, the last
/// failure on the calling thread. Returns `RgResult_BufferTooSmall` when the message was cut.
///
/// # Safety
/// `buffer` must be null (with a capacity of 0) or point to `capacity` writable bytes; `needed`
/// must be null or point to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn rg_last_error(
    handle: RgHandle,
    buffer: *mut c_char,
    capacity: usize,
    needed: *mut usize,
) -> RgResult {
    // Not through `run`: reading the last error must not replace it.
    let body = || {
        let message = match lookup(handle) {
            Some(shared) => lock(&shared).last_error.clone(),
            None => LAST_ERROR.with(|e| e.borrow().clone()),
        };
        if !needed.is_null() && needed.is_aligned() {
            // SAFETY: not null and aligned; the caller promises a writable `size_t`.
            unsafe { *needed = message.len() + 1 };
        }
        if capacity == 0 {
            return if message.is_empty() { RgResult::Ok } else { RgResult::BufferTooSmall };
        }
        if buffer.is_null() {
            return RgResult::NullArgument;
        }
        let n = message.len().min(capacity - 1);
        // SAFETY: the caller promises `capacity` writable bytes at `buffer`; `n + 1 <= capacity`.
        unsafe {
            std::ptr::copy_nonoverlapping(message.as_ptr(), buffer.cast::<u8>(), n);
            *buffer.add(n) = 0;
        }
        if n < message.len() {
            RgResult::BufferTooSmall
        } else {
            RgResult::Ok
        }
    };
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(RgResult::Panic)
}

/// Panics inside the library on purpose, so that a host can check that a panic comes back as
/// `RgResult_Panic` with a message (and leaves the handle empty) instead of crashing it.
#[no_mangle]
pub extern "C" fn rg_selftest_panic(handle: RgHandle) -> RgResult {
    run(Some(handle), || panic!("rg_selftest_panic was called"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use roadgen_core::Point3;

    #[test]
    fn abi_version_matches_the_crate_version() {
        let v = rg_abi_version();
        assert_eq!(
            format!("{}.{}.{}", v >> 16, (v >> 8) & 0xff, v & 0xff),
            env!("CARGO_PKG_VERSION"),
            "the version must fit 8 bits for minor and patch"
        );
    }

    #[test]
    fn point_kinds_match_unreal_numbering() {
        // ESplinePointType: Linear, Curve, Constant, CurveClamped, CurveCustomTangent.
        let kinds: Vec<_> = (0..5).map(point_kind).collect();
        assert_eq!(
            kinds,
            [
                Some(PointKind::Linear),
                Some(PointKind::Curve),
                Some(PointKind::Constant),
                Some(PointKind::CurveClamped),
                Some(PointKind::CurveCustomTangent)
            ]
        );
        assert_eq!(point_kind(5), None);
    }

    #[test]
    fn point3_in_and_out_round_trip() {
        let f = Frame::new(RG_UNITS_CENTIMETRES, RG_FRAME_LEFT_HANDED_Z_UP).unwrap();
        let p = RgVec3 { x: 12.5, y: -40.0, z: 3.0 };
        let core: Point3 = f.point_in(p);
        assert_eq!(f.point_out(core), p);
    }
}

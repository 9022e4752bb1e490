//! `roadgen bench`: times every stage of the pipeline on one input and prints the medians as JSON.
//!
//! The input is read and parsed once; then every run builds the network (`build`), its meshes
//! (`build_meshes` into a `MeshCollector`), and writes the GeoJSON and the glTF binary to memory.
//! Then `--updates` different roads are moved one at a time through a `Session` (an incremental
//! update each, and the meshes it names).
//! stdout gets one JSON object; progress goes to stderr.

use std::time::Instant;

use clap::Args;
use std::collections::BTreeSet;

use roadgen_core::{
    build, build_meshes, build_meshes_of, build_with_meshes, Edit, FeatureKind, MeshCollector, Session,
};
use roadgen_formats::{write_geojson, write_glb, GltfOptions, Loaded};
use serde_json::json;

use crate::options::InputArgs;

/// Timed runs when `--runs` is not given.
const DEFAULT_RUNS: u32 = 5;

/// Kibibytes per mebibyte, for `VmHWM` (reported in kB) to megabytes.
const KIB_PER_MIB: f64 = 1024.0;

/// The options of `roadgen bench`.
#[derive(Args, Debug)]
pub(crate) struct Bench {
    #[command(flatten)]
    input: InputArgs,
    /// Timed runs of the stages (at least 1); the median of each stage is printed.
    #[arg(long, default_value_t = DEFAULT_RUNS, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// Worker threads of the parallel stages (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Incremental updates to time after the runs: that many different roads, spread over the
    /// input, are moved one at a time and the network updated (0: none).
    #[arg(long, default_value_t = DEFAULT_UPDATES)]
    updates: usize,
    /// Keep this thread out of the worker pool: every call is handed to a worker and waited for,
    /// as for a host that has not made its calling thread a worker (the C ABI's
    /// `rg_workers_start`; the Unreal plugin's game thread is one).
    #[arg(long)]
    hand_over: bool,
}

/// Updates timed when `--updates` is not given.
const DEFAULT_UPDATES: usize = 100;

/// How far each timed update moves its road, metres east and north: a drag step.
const UPDATE_SHIFT_M: (f64, f64) = (1.5, -1.0);

/// The times of one run, in seconds, and a digest of its outputs.
struct Run {
    network_s: f64,
    meshes_s: f64,
    geojson_s: f64,
    glb_s: f64,
    /// `build_with_meshes`: network and meshes in one call.
    total_s: f64,
    /// CPU time of all threads during `build`, `build_meshes` and `build_with_meshes` (Linux
    /// only).
    network_cpu_s: Option<f64>,
    meshes_cpu_s: Option<f64>,
    total_cpu_s: Option<f64>,
    digest: u64,
}

/// What the network and meshes contain (taken from the first run; every run builds the same).
#[derive(Default)]
struct Counts {
    junctions: usize,
    pieces: usize,
    blocks: usize,
    diagnostics: usize,
    triangles: usize,
    geojson_bytes: usize,
    glb_bytes: usize,
    /// Peak memory after parsing and the first network, before any mesh (MiB; Linux only).
    peak_rss_network_mb: Option<f64>,
}

/// Runs `roadgen bench`; returns the JSON line for stdout.
pub(crate) fn bench(args: &Bench) -> Result<String, String> {
    let t_parse = Instant::now();
    let loaded = args.input.load()?;
    let parse_s = t_parse.elapsed().as_secs_f64();
    eprintln!("roadgen bench: {} read and parsed in {parse_s:.3} s", args.input.input.display());

    // The library's worker pool is the global one; every stage is called from this thread, as
    // a host calls the library from its own thread, which is one of the pool's (as the Unreal
    // plugin's game thread is) unless `--hand-over`.
    let threads = start_pool(args.threads, !args.hand_over)?;
    let mut counts = Counts::default();
    let mut runs = Vec::new();
    for i in 0..args.runs {
        let run = one_run(args, &loaded, if i == 0 { Some(&mut counts) } else { None })?;
        eprintln!(
            "roadgen bench: run {}/{}: network {:.3} s, meshes {:.3} s, geojson {:.3} s, glb {:.3} s, both in one call {:.3} s",
            i + 1,
            args.runs,
            run.network_s,
            run.meshes_s,
            run.geojson_s,
            run.glb_s,
            run.total_s
        );
        runs.push(run);
    }
    let identical = runs.iter().all(|r| r.digest == runs[0].digest);
    if !identical {
        eprintln!("roadgen bench: warning: the outputs differ between runs");
    }
    let updates = time_updates(args, &loaded)?;
    let stage = |f: fn(&Run) -> f64| median(runs.iter().map(f).collect());
    let cpu = |f: fn(&Run) -> Option<f64>| runs.iter().map(f).collect::<Option<Vec<f64>>>().map(median);
    let report = json!({
        "input": args.input.input.display().to_string(),
        "runs": args.runs,
        "threads": threads,
        "caller_in_pool": !args.hand_over,
        "cores": std::thread::available_parallelism().map_or(0, |n| n.get()),
        "parse_s": parse_s,
        "network_s": stage(|r| r.network_s),
        "meshes_s": stage(|r| r.meshes_s),
        "geojson_s": stage(|r| r.geojson_s),
        "glb_s": stage(|r| r.glb_s),
        "total_s": stage(|r| r.total_s),
        "network_cpu_s": cpu(|r| r.network_cpu_s),
        "meshes_cpu_s": cpu(|r| r.meshes_cpu_s),
        "total_cpu_s": cpu(|r| r.total_cpu_s),
        "roads": loaded.input.roads.len(),
        "junctions": counts.junctions,
        "pieces": counts.pieces,
        "blocks": counts.blocks,
        "diagnostics": counts.diagnostics,
        "triangles": counts.triangles,
        "geojson_bytes": counts.geojson_bytes,
        "glb_bytes": counts.glb_bytes,
        "output_digest": format!("{:016x}", runs[0].digest),
        "identical_runs": identical,
        "peak_rss_network_mb": counts.peak_rss_network_mb,
        "peak_rss_mb": peak_rss_mb(),
        "updates": updates.times.len(),
        "update_s": (!updates.times.is_empty()).then(|| median(updates.times.clone())),
        "update_p90_s": percentile(&updates.times, 0.9),
        "update_max_s": percentile(&updates.times, 1.0),
        "update_meshes_s": (!updates.mesh_times.is_empty()).then(|| median(updates.mesh_times.clone())),
        "update_then_meshes_s": (!updates.then_meshes_times.is_empty()).then(|| median(updates.then_meshes_times.clone())),
        "update_with_meshes_s": (!updates.with_meshes_times.is_empty()).then(|| median(updates.with_meshes_times.clone())),
        "update_roads_rebuilt": (!updates.rebuilt.is_empty()).then(|| median(updates.rebuilt.clone())),
        "update_network_s": (!updates.network.is_empty()).then(|| median(updates.network.clone())),
        "update_blocks_s": (!updates.blocks.is_empty()).then(|| median(updates.blocks.clone())),
        "update_window_builds": updates.window_builds,
        "update_full_builds": updates.full_builds,
        "update_full_blocks": updates.full_blocks,
        "update_joins_tried": updates.joins_tried,
        "update_joins_made": updates.joins_made,
    });
    Ok(report.to_string())
}

/// What the timed updates measured.
#[derive(Default)]
struct Updates {
    /// Seconds of each `Session::update`.
    times: Vec<f64>,
    /// Seconds of building the meshes each update names (`Changes::remesh`).
    mesh_times: Vec<f64>,
    /// Seconds of each update and its meshes, one call after the other (`update` then
    /// `build_meshes_of`), and in one call (`update_with_meshes`, the same moves on a second
    /// session, the two alternating).
    then_meshes_times: Vec<f64>,
    with_meshes_times: Vec<f64>,
    /// Roads each update built again.
    rebuilt: Vec<f64>,
    /// Seconds of each update's junction and road piece stage, and of its block stage.
    network: Vec<f64>,
    blocks: Vec<f64>,
    /// Builds of the window, all updates together.
    window_builds: usize,
    /// Updates that built the whole network, or looked at every block, again.
    full_builds: usize,
    full_blocks: usize,
    /// Block stages that tried to join old outlines to the overlay around the change, and
    /// those that did (the rest found their faces in frames).
    joins_tried: usize,
    joins_made: usize,
}

/// Moves `--updates` different roads, one update each, and times them.
fn time_updates(args: &Bench, loaded: &Loaded) -> Result<Updates, String> {
    let mut out = Updates::default();
    let n = loaded.input.roads.len();
    let count = args.updates.min(n);
    if count == 0 {
        return Ok(out);
    }
    let settings = args.input.settings();
    let mut session = Session::new(loaded.input.clone(), settings).map_err(|e| args.input.engine_error(e))?;
    let mut framed = Session::new(loaded.input.clone(), settings).map_err(|e| args.input.engine_error(e))?;
    for k in 0..count {
        let road = loaded.input.roads[k * n / count].translated(UPDATE_SHIFT_M.0, UPDATE_SHIFT_M.1);
        let mut together = MeshCollector::default();
        let mut with_meshes = || {
            let t = Instant::now();
            let changes = framed
                .update_with_meshes(&[Edit::Upsert(road.clone())], &mut together)
                .map_err(|e| args.input.engine_error(e))?;
            Ok::<_, String>((changes, t.elapsed().as_secs_f64()))
        };
        let first = if k % 2 == 1 { Some(with_meshes()?) } else { None };
        let t = Instant::now();
        let changes = session.update(&[Edit::Upsert(road.clone())]).map_err(|e| args.input.engine_error(e))?;
        out.times.push(t.elapsed().as_secs_f64());
        let wanted: BTreeSet<(FeatureKind, &str)> = changes.remesh.iter().map(|(k, id)| (*k, id.as_str())).collect();
        let t = Instant::now();
        let mut meshes = MeshCollector::default();
        build_meshes_of(session.network(), &settings, &|k, id| wanted.contains(&(k, id)), &mut meshes);
        out.mesh_times.push(t.elapsed().as_secs_f64());
        let (framed_changes, framed_s) = match first {
            Some(done) => done,
            None => with_meshes()?,
        };
        out.then_meshes_times.push(out.times[k] + out.mesh_times[k]);
        out.with_meshes_times.push(framed_s);
        if framed_changes.remesh != changes.remesh || together != meshes {
            return Err(format!(
                "move {k} (road {}): update_with_meshes gave other meshes than update and build_meshes_of",
                road.id
            ));
        }
        out.rebuilt.push(changes.stats.roads_rebuilt as f64);
        out.network.push(changes.stats.network_s);
        out.blocks.push(changes.stats.blocks_s);
        out.window_builds += changes.stats.rounds;
        out.full_builds += usize::from(changes.stats.full_build);
        out.full_blocks += usize::from(changes.stats.full_blocks);
        out.joins_tried += changes.stats.joins_tried;
        out.joins_made += changes.stats.joins_made;
    }
    eprintln!(
        "roadgen bench: {count} updates: median {:.2} ms; with their meshes {:.2} ms one call after the other, {:.2} ms in one call",
        1e3 * median(out.times.clone()),
        1e3 * median(out.then_meshes_times.clone()),
        1e3 * median(out.with_meshes_times.clone())
    );
    Ok(out)
}

/// Starts the global worker pool with `threads` threads (0: one per core), this thread one of
/// them when `join`; returns how many it has. Fails when a pool of another size is running
/// already.
fn start_pool(threads: usize, join: bool) -> Result<usize, String> {
    let builder = rayon::ThreadPoolBuilder::new().num_threads(threads);
    let builder = if join { builder.use_current_thread() } else { builder };
    match builder.build_global() {
        Ok(()) => Ok(rayon::current_num_threads()),
        Err(_) if threads == 0 || threads == rayon::current_num_threads() => Ok(rayon::current_num_threads()),
        Err(e) => Err(format!("cannot start {threads} worker threads: {e}")),
    }
}

/// The value below which a share `q` of `values` lie (nearest rank); `None` when empty.
fn percentile(values: &[f64], q: f64) -> Option<f64> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len().max(1));
    v.get(rank - 1).copied()
}

/// One timed run of every stage; fills `counts` when given.
fn one_run(args: &Bench, loaded: &Loaded, counts: Option<&mut Counts>) -> Result<Run, String> {
    let settings = args.input.settings();
    let (t, cpu) = (Instant::now(), cpu_time_s());
    let net = build(&loaded.input, &settings).map_err(|e| args.input.engine_error(e))?;
    let network_s = t.elapsed().as_secs_f64();
    let network_cpu_s = cpu_since(cpu);
    // The peak so far: parsing and the network only (taken in the first run, before any mesh).
    let peak_network = if counts.is_some() { peak_rss_mb() } else { None };

    let (t, cpu) = (Instant::now(), cpu_time_s());
    let mut meshes = MeshCollector::default();
    build_meshes(&net, &settings, &mut meshes);
    let meshes_s = t.elapsed().as_secs_f64();
    let meshes_cpu_s = cpu_since(cpu);

    let t = Instant::now();
    let geojson = write_geojson(&net, &loaded.frame);
    let geojson_s = t.elapsed().as_secs_f64();
    let geojson_bytes = geojson.len();
    let digest = fnv1a(FNV_OFFSET, geojson.as_bytes());
    // Dropped before the meshes are written, as `roadgen generate` does.
    drop(geojson);

    let t = Instant::now();
    let glb =
        write_glb(&meshes.meshes, &GltfOptions::default()).map_err(|e| format!("cannot write the meshes: {e}"))?;
    let glb_s = t.elapsed().as_secs_f64();

    if let Some(c) = counts {
        *c = Counts {
            junctions: net.junctions.len(),
            pieces: net.pieces.len(),
            blocks: net.blocks.len(),
            diagnostics: net.diagnostics.len(),
            triangles: meshes.meshes.iter().map(|m| m.triangles.len()).sum(),
            geojson_bytes,
            glb_bytes: glb.len(),
            peak_rss_network_mb: peak_network,
        };
    }
    let mut digest = fnv1a(digest, &glb);
    drop(glb);
    // Only a digest of the meshes is kept for the comparison below, so that the run never holds
    // two sets of meshes (the peak memory is that of one pass).
    let meshes_digest = mesh_digest(&meshes);
    drop(meshes);

    let (t, cpu) = (Instant::now(), cpu_time_s());
    let mut together = MeshCollector::default();
    let net_together =
        build_with_meshes(&loaded.input, &settings, &mut together).map_err(|e| args.input.engine_error(e))?;
    let total_s = t.elapsed().as_secs_f64();
    let total_cpu_s = cpu_since(cpu);
    if net_together != net || mesh_digest(&together) != meshes_digest {
        // Not the same output: the digest says so (and `identical_runs` turns false).
        digest = !digest;
    }
    Ok(Run { network_s, meshes_s, geojson_s, glb_s, total_s, network_cpu_s, meshes_cpu_s, total_cpu_s, digest })
}

/// FNV-1a 64 of every mesh's kind, id, vertices (bits of every coordinate), triangles and slots.
fn mesh_digest(meshes: &MeshCollector) -> u64 {
    let mut h = FNV_OFFSET;
    for m in &meshes.meshes {
        h = fnv1a(h, format!("{:?}\0{}\0", m.kind, m.id).as_bytes());
        for v in &m.vertices {
            let (p, n) = (v.position, v.normal);
            for x in [p.x, p.y, p.z, n.x, n.y, n.z, v.uv[0], v.uv[1]] {
                h = fnv1a(h, &x.to_bits().to_le_bytes());
            }
        }
        for (t, slot) in m.triangles.iter().zip(&m.slots) {
            for i in t {
                h = fnv1a(h, &i.to_le_bytes());
            }
            h = fnv1a(h, &[*slot as u8]);
        }
    }
    h
}

/// The median (the mean of the two middle values for an even count); `values` is not empty.
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
}

/// FNV-1a 64-bit offset basis.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a 64-bit prime.
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// Continues an FNV-1a 64-bit hash over `bytes` (a digest to compare outputs, not a checksum).
fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(FNV_PRIME);
    }
    hash
}

/// The process's peak resident memory so far, in MiB, from `VmHWM` in `/proc/self/status`
/// (Linux); `None` where that file does not exist.
fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.trim_start_matches("VmHWM:").trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kib / KIB_PER_MIB)
}

/// Nanoseconds per second, for `/proc/*/schedstat` (nanoseconds) to seconds.
const NANOS_PER_S: f64 = 1e9;

/// CPU time used so far by the process's live threads (the bench's worker pool lives through
/// every run), in seconds, from the first field of `/proc/self/task/*/schedstat` (Linux);
/// `None` where that is not available.
fn cpu_time_s() -> Option<f64> {
    let mut nanos = 0u64;
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let stat = std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok()?;
        nanos += stat.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(nanos as f64 / NANOS_PER_S)
}

/// CPU time since `start` (from [`cpu_time_s`]).
fn cpu_since(start: Option<f64>) -> Option<f64> {
    Some(cpu_time_s()? - start?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let v = [5.0, 1.0, 4.0, 2.0, 3.0, 6.0, 7.0, 8.0, 9.0, 10.0];
        assert_eq!(percentile(&v, 0.9), Some(9.0));
        assert_eq!(percentile(&v, 0.5), Some(5.0));
        assert_eq!(percentile(&v, 1.0), Some(10.0));
        assert_eq!(percentile(&[], 0.9), None);
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(vec![7.0]), 7.0);
    }

    #[test]
    fn fnv1a_known_value() {
        // The published FNV-1a 64 test vector for "a".
        assert_eq!(fnv1a(FNV_OFFSET, b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}

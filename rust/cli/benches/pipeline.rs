//! Benchmarks of every stage of the pipeline, and of the whole of it, on the real networks in
//! `tests/data/osm` (Kotka, the centre of Liège, all of Liège):
//!
//! - `parse`: the road JSON, already in memory, to the core's `Input` (`read_str`);
//! - `build`: the network (junctions, road pieces, blocks), input already parsed;
//! - `meshes`: `build_meshes` into a `MeshCollector`, network already built;
//! - `network_and_meshes`: `build_with_meshes` (both in one call, as `roadgen generate` and
//!   `roadgen bench`'s `total_s` run them), input already parsed;
//! - `geojson`, `glb`: the writers, to memory, from a built network and its meshes;
//! - `end_to_end`: file to glTF bytes (read, parse, `build_with_meshes`, `write_glb`);
//! - `update`: one incremental update (`Session::update`) that moves one road by a drag step,
//!   a different road each iteration (Kotka and the centre of Liège).
//!
//! Run with `cargo bench -p roadgen-cli --bench pipeline` (a few minutes), or one group with
//! e.g. `cargo bench -p roadgen-cli --bench pipeline -- build/liege`.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, SamplingMode};
use roadgen_core::{
    build, build_meshes, build_with_meshes, Edit, FeatureMesh, MeshCollector, Network, Session, Settings,
};
use roadgen_formats::{read_file, read_str, write_geojson, write_glb, GltfOptions, Loaded, ReadOptions};

/// The allocator of the `roadgen` binary, so that these figures are those of `roadgen bench`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The networks to time, with the measurement time of one stage on each (seconds, for all samples).
const NETWORKS: [(&str, u64); 3] = [("kotka", 2), ("liege_center", 4), ("liege", 15)];

/// Samples per benchmark: criterion's minimum, each of the same number of iterations (flat
/// sampling), so that the whole suite takes a few minutes.
const SAMPLES: usize = 10;

/// Measurement time of `end_to_end`, relative to one stage's.
const END_TO_END_FACTOR: u64 = 3;

/// Warm-up per benchmark (seconds).
const WARM_UP_S: u64 = 1;

/// The path of one of the networks.
fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../tests/data/osm/{name}.roads.json"))
}

/// Reads one of the networks.
fn load(name: &str) -> Loaded {
    let path = path(name);
    read_file(&path, &ReadOptions::default()).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Builds one of the networks and its meshes.
fn network_and_meshes(name: &str, settings: &Settings) -> (Loaded, Network, Vec<FeatureMesh>) {
    let loaded = load(name);
    let net = build(&loaded.input, settings).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut sink = MeshCollector::default();
    build_meshes(&net, settings, &mut sink);
    (loaded, net, sink.meshes)
}

/// A group with the suite's sample size and warm-up.
fn new_group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut group = c.benchmark_group(name);
    group.sample_size(SAMPLES).sampling_mode(SamplingMode::Flat).warm_up_time(Duration::from_secs(WARM_UP_S));
    group
}

fn parse(c: &mut Criterion) {
    let mut group = new_group(c, "parse");
    for (name, _) in NETWORKS {
        let text = std::fs::read_to_string(path(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        group.bench_function(name, |b| {
            b.iter(|| read_str(black_box(&text), name, &ReadOptions::default()).map(|l| l.input))
        });
    }
    group.finish();
}

fn pipeline(c: &mut Criterion) {
    let settings = Settings::default();
    let mut group = new_group(c, "build");
    for (name, seconds) in NETWORKS {
        let input = load(name).input;
        group.measurement_time(Duration::from_secs(seconds));
        group.bench_function(name, |b| b.iter(|| build(black_box(&input), black_box(&settings))));
    }
    group.finish();
}

fn meshes(c: &mut Criterion) {
    let settings = Settings::default();
    let mut group = new_group(c, "meshes");
    for (name, seconds) in NETWORKS {
        let net = build(&load(name).input, &settings).unwrap_or_else(|e| panic!("{name}: {e}"));
        group.measurement_time(Duration::from_secs(seconds));
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut sink = MeshCollector::default();
                build_meshes(black_box(&net), black_box(&settings), &mut sink);
                sink
            })
        });
    }
    group.finish();
}

fn together(c: &mut Criterion) {
    let settings = Settings::default();
    let mut group = new_group(c, "network_and_meshes");
    for (name, seconds) in NETWORKS {
        let input = load(name).input;
        group.measurement_time(Duration::from_secs(seconds));
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut sink = MeshCollector::default();
                let net = build_with_meshes(black_box(&input), black_box(&settings), &mut sink);
                (net, sink)
            })
        });
    }
    group.finish();
}

fn writers(c: &mut Criterion) {
    let settings = Settings::default();
    let built: Vec<_> = NETWORKS.iter().map(|&(name, s)| (name, s, network_and_meshes(name, &settings))).collect();
    let mut group = new_group(c, "geojson");
    for (name, seconds, (loaded, net, _)) in &built {
        group.measurement_time(Duration::from_secs(*seconds));
        group.bench_function(*name, |b| b.iter(|| write_geojson(black_box(net), &loaded.frame)));
    }
    group.finish();
    let mut group = new_group(c, "glb");
    let opts = GltfOptions::default();
    for (name, seconds, (_, _, meshes)) in &built {
        group.measurement_time(Duration::from_secs(*seconds));
        group.bench_function(*name, |b| b.iter(|| write_glb(black_box(meshes), &opts)));
    }
    group.finish();
}

fn end_to_end(c: &mut Criterion) {
    let settings = Settings::default();
    let mut group = new_group(c, "end_to_end");
    for (name, seconds) in NETWORKS {
        let path = path(name);
        // File to glTF bytes: every stage once per iteration.
        group.measurement_time(Duration::from_secs(seconds * END_TO_END_FACTOR));
        group.bench_function(name, |b| {
            b.iter(|| {
                let loaded = read_file(black_box(&path), &ReadOptions::default()).expect("readable network");
                let mut sink = MeshCollector::default();
                build_with_meshes(&loaded.input, &settings, &mut sink).expect("valid settings");
                write_glb(&sink.meshes, &GltfOptions::default()).expect("meshes within the glTF size limit")
            })
        });
    }
    group.finish();
}

/// How far each `update` iteration moves its road, metres east and north (back again the next
/// time the same road comes round).
const DRAG_STEP_M: (f64, f64) = (1.5, -1.0);

/// Roads the `update` benchmark cycles through, spread evenly over the input.
const UPDATE_ROADS: usize = 64;

fn update(c: &mut Criterion) {
    let settings = Settings::default();
    let mut group = new_group(c, "update");
    for (name, seconds) in NETWORKS.iter().filter(|(n, _)| *n != "liege") {
        let input = load(name).input;
        let mut session = Session::new(input.clone(), settings).unwrap_or_else(|e| panic!("{name}: {e}"));
        let n = input.roads.len();
        let picks: Vec<usize> = (0..UPDATE_ROADS.min(n)).map(|k| k * n / UPDATE_ROADS.min(n)).collect();
        let mut turn = 0usize;
        group.measurement_time(Duration::from_secs(*seconds));
        group.bench_function(*name, |b| {
            b.iter(|| {
                let i = picks[turn % picks.len()];
                // Odd rounds over the list move each road back.
                let sign = if (turn / picks.len()).is_multiple_of(2) { 1.0 } else { 0.0 };
                turn += 1;
                let road = input.roads[i].translated(sign * DRAG_STEP_M.0, sign * DRAG_STEP_M.1);
                session.update(&[Edit::Upsert(road)]).expect("valid settings")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, parse, pipeline, meshes, together, writers, end_to_end, update);
criterion_main!(benches);

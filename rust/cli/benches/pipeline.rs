//! Benchmarks of the whole pipeline on the real networks in `tests/data/osm` (Kotka, the
//! centre of Liège, all of Liège): `build` (the network, input already read and parsed) and
//! `meshes` (`build_meshes` into a `MeshCollector`, network already built).
//!
//! Run with `cargo bench -p roadgen-cli --bench pipeline`.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use roadgen_core::{build, build_meshes, MeshCollector, Settings};
use roadgen_formats::{read_file, ReadOptions};

/// The networks to time, with the measurement time each one gets.
const NETWORKS: [(&str, u64); 3] = [("kotka", 10), ("liege_center", 10), ("liege", 20)];

/// Reads one of the networks.
fn load(name: &str) -> roadgen_core::Input {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../tests/data/osm/{name}.roads.json"));
    read_file(&path, &ReadOptions::default()).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display())).input
}

fn pipeline(c: &mut Criterion) {
    let settings = Settings::default();
    let mut group = c.benchmark_group("build");
    group.sample_size(10);
    for (name, seconds) in NETWORKS {
        let input = load(name);
        group.measurement_time(Duration::from_secs(seconds));
        group.bench_function(name, |b| b.iter(|| build(black_box(&input), black_box(&settings))));
    }
    group.finish();
}

fn meshes(c: &mut Criterion) {
    let settings = Settings::default();
    let mut group = c.benchmark_group("meshes");
    group.sample_size(10);
    for (name, seconds) in NETWORKS {
        let net = build(&load(name), &settings).unwrap_or_else(|e| panic!("{name}: {e}"));
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

criterion_group!(benches, pipeline, meshes);
criterion_main!(benches);

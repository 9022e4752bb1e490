//! Same input, same output, byte for byte, at any thread count and in any order of the input
//! roads.

mod common;

use common::{data, load};
use roadgen::core::{build, build_meshes, build_with_meshes, Input, MeshCollector, Network, Settings};
use roadgen_formats::{read_file, write_geojson, write_glb, Frame, GltfOptions, ReadOptions};

fn geojson_with_threads(rel: &str, threads: usize) -> String {
    let loaded = read_file(&data(rel), &ReadOptions::default()).unwrap();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    let net = pool.install(|| build(&loaded.input, &Settings::default())).unwrap();
    write_geojson(&net, &loaded.frame)
}

#[test]
fn identical_bytes_at_any_thread_count() {
    for rel in ["osm/kotka.roads.json", "osm/liege_center.roads.json", "pcgdemo/CitySpline.json"] {
        let one = geojson_with_threads(rel, 1);
        let two = geojson_with_threads(rel, 2);
        let four = geojson_with_threads(rel, 4);
        assert!(one == two && two == four, "{rel}: output depends on the thread count");
    }
}

fn ids(net: &Network) -> Vec<String> {
    net.junctions
        .iter()
        .map(|j| j.id.clone())
        .chain(net.pieces.iter().map(|p| p.id.clone()))
        .chain(net.blocks.iter().map(|b| b.id.clone()))
        .collect()
}

#[test]
fn ids_do_not_depend_on_input_order() {
    let input = load("osm/kotka.roads.json");
    let mut reversed = Input { roads: input.roads.clone() };
    reversed.roads.reverse();
    let a = build(&input, &Settings::default()).unwrap();
    let b = build(&reversed, &Settings::default()).unwrap();
    assert_eq!(ids(&a), ids(&b));
    assert_eq!(a.blocks.len(), b.blocks.len());
}

/// GeoJSON and glTF bytes of a file under `tests/data`, built inside a pool of `threads`.
fn outputs_with_threads(rel: &str, threads: usize) -> (String, Vec<u8>) {
    let loaded = read_file(&data(rel), &ReadOptions::default()).unwrap();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| {
        let settings = Settings::default();
        let net = build(&loaded.input, &settings).unwrap();
        let mut meshes = MeshCollector::default();
        build_meshes(&net, &settings, &mut meshes);
        let glb = write_glb(&meshes.meshes, &GltfOptions::default()).unwrap();
        (write_geojson(&net, &loaded.frame), glb)
    })
}

#[test]
fn identical_bytes_across_runs() {
    for rel in
        ["golden/x.roads.json", "golden/hole.roads.json", "golden/spline_curves.roads.json", "osm/kotka.roads.json"]
    {
        let (geojson, glb) = outputs_with_threads(rel, 2);
        let (geojson2, glb2) = outputs_with_threads(rel, 2);
        assert!(geojson == geojson2, "{rel}: GeoJSON differs between runs");
        assert!(glb == glb2, "{rel}: glTF differs between runs");
        assert!(!glb.is_empty() && geojson.contains("\"kind\""), "{rel}: empty output");
    }
}

#[test]
fn identical_meshes_and_gltf_at_any_thread_count() {
    for rel in ["osm/kotka.roads.json", "pcgdemo/CitySpline.json"] {
        let one = outputs_with_threads(rel, 1);
        let two = outputs_with_threads(rel, 2);
        let four = outputs_with_threads(rel, 4);
        assert!(one.0 == two.0 && two.0 == four.0, "{rel}: GeoJSON depends on the thread count");
        assert!(one.1 == two.1 && two.1 == four.1, "{rel}: glTF depends on the thread count");
    }
}

/// [`outputs_with_threads`], with network and meshes built in one call.
fn together_with_threads(rel: &str, threads: usize) -> (String, Vec<u8>) {
    let loaded = read_file(&data(rel), &ReadOptions::default()).unwrap();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| {
        let mut meshes = MeshCollector::default();
        let net = build_with_meshes(&loaded.input, &Settings::default(), &mut meshes).unwrap();
        let glb = write_glb(&meshes.meshes, &GltfOptions::default()).unwrap();
        (write_geojson(&net, &loaded.frame), glb)
    })
}

/// Network and meshes in one call (road and junction meshes built while the blocks are found)
/// give the bytes of `build` then `build_meshes`, at any thread count.
#[test]
fn network_and_meshes_in_one_call_are_the_same_bytes() {
    for rel in ["golden/x.roads.json", "golden/hole.roads.json", "osm/kotka.roads.json", "pcgdemo/CitySpline.json"] {
        let apart = outputs_with_threads(rel, 2);
        for threads in [1, 2, 4] {
            let together = together_with_threads(rel, threads);
            assert!(together.0 == apart.0, "{rel}, {threads} threads: GeoJSON differs");
            assert!(together.1 == apart.1, "{rel}, {threads} threads: glTF differs");
            assert!(together.1.len() > 1000, "{rel}: no meshes");
        }
    }
}

/// GeoJSON and glTF bytes of `input` listed as it is, reversed, and rotated by a third.
fn bytes_in_three_orders(input: &Input) -> [(String, Vec<u8>); 3] {
    let bytes = |input: &Input| {
        let settings = Settings::default();
        let net = build(input, &settings).unwrap();
        let mut meshes = MeshCollector::default();
        build_meshes(&net, &settings, &mut meshes);
        (write_geojson(&net, &Frame::default()), write_glb(&meshes.meshes, &GltfOptions::default()).unwrap())
    };
    let mut reversed = input.clone();
    reversed.roads.reverse();
    let mut rotated = input.clone();
    rotated.roads.rotate_left(input.roads.len() / 3);
    [bytes(input), bytes(&reversed), bytes(&rotated)]
}

/// Golden cases in three orders whose outputs differ.
fn order_dependent() -> Vec<String> {
    let dir = data("golden");
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().filter_map(|e| e.ok()?.file_name().into_string().ok()).collect();
    names.sort();
    let mut differ = Vec::new();
    for name in names {
        let [a, b, c] = bytes_in_three_orders(&load(&format!("golden/{name}")));
        if !(a.0 == b.0 && b.0 == c.0 && a.1 == b.1 && b.1 == c.1) {
            differ.push(name);
        }
    }
    differ
}

/// Every golden case given in three orders gives the same GeoJSON and glTF, byte for byte:
/// roads are numbered by id before anything else, so no tie can be broken by the input order
/// (`grade_separated` and `junction_fallback` used to name whichever road came first: heights,
/// layers, spline_curves).
#[test]
fn identical_bytes_in_any_input_order() {
    let differ = order_dependent();
    assert!(differ.is_empty(), "outputs depend on the input order: {differ:?}");
}

/// kotka's GeoJSON and glTF, byte for byte, in three orders (a merged junction's buried mouths
/// used to be unburied in input order, so one road piece started 0.2 m further in one order
/// than in another, and a `junctions_merged` named another road).
#[test]
fn kotka_identical_bytes_in_any_input_order() {
    let [a, b, c] = bytes_in_three_orders(&load("osm/kotka.roads.json"));
    assert!(a.0 == b.0 && b.0 == c.0, "GeoJSON depends on the input order");
    assert!(a.1 == b.1 && b.1 == c.1, "glTF depends on the input order");
}

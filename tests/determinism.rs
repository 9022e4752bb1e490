//! Same input, same output, byte for byte, at any thread count; ids do not depend on the order
//! of the input roads.

mod common;

use common::{data, load};
use roadgen::core::{build, Input, Network, Settings};
use roadgen_formats::{read_file, write_geojson, ReadOptions};

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

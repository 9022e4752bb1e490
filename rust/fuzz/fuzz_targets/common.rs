//! What the pipeline targets check on a built network: no panic anywhere (build, meshes,
//! writers), valid polygons, finite mesh vertices and indices in range.

use roadgen_core::validate::check_network;
use roadgen_core::{build, build_meshes, Input, MeshCollector, Settings};
use roadgen_formats::{write_geojson, write_glb, Frame, GltfOptions};

/// Runs the whole pipeline on `input` and checks its outputs.
pub fn run(input: &Input, settings: &Settings) {
    let Ok(net) = build(input, settings) else { return };
    let report = check_network(&net);
    assert!(report.invalid.is_empty(), "invalid polygons: {:?}", report.invalid);
    let mut meshes = MeshCollector::default();
    build_meshes(&net, settings, &mut meshes);
    for m in &meshes.meshes {
        for v in &m.vertices {
            let p = v.position;
            assert!(p.x.is_finite() && p.y.is_finite() && p.z.is_finite(), "{}: non-finite vertex", m.id);
        }
        for t in &m.triangles {
            assert!(t.iter().all(|&i| (i as usize) < m.vertices.len()), "{}: index out of range", m.id);
        }
    }
    let _ = write_geojson(&net, &Frame::default());
    let _ = write_glb(&meshes.meshes, &GltfOptions::default());
}

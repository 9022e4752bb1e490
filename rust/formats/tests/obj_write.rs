//! The OBJ writer, read back by a small independent parser: every vertex, face and material
//! where it belongs, y up, 1-based global indices, deterministic text.

use roadgen_core::{FeatureKind, FeatureMesh, MaterialSlot, MeshVertex, Point3};
use roadgen_formats::write_obj;

fn vertex(p: [f64; 3], uv: [f64; 2]) -> MeshVertex {
    MeshVertex { position: Point3::new(p[0], p[1], p[2]), normal: Point3::new(0.0, 0.0, 1.0), uv }
}

/// A flat quad at height `z` made of two triangles in two slots.
fn quad(kind: FeatureKind, id: &str, x0: f64, z: f64) -> FeatureMesh {
    FeatureMesh {
        kind: Some(kind),
        id: id.into(),
        vertices: vec![
            vertex([x0, 0.0, z], [0.0, 0.0]),
            vertex([x0 + 1.0, 0.0, z], [1.0, 0.0]),
            vertex([x0 + 1.0, 2.0, z], [1.0, 2.0]),
            vertex([x0, 2.0, z], [0.0, 2.0]),
        ],
        triangles: vec![[0, 1, 2], [0, 2, 3]],
        slots: vec![MaterialSlot::Carriageway, MaterialSlot::Junction],
    }
}

/// What a reader of the OBJ text sees.
#[derive(Default)]
struct Parsed {
    objects: Vec<String>,
    v: Vec<[f64; 3]>,
    vt: usize,
    vn: Vec<[f64; 3]>,
    /// (object index, material, vertex indices, 1-based).
    faces: Vec<(usize, String, [usize; 3])>,
    mtllib: Option<String>,
}

fn parse(text: &str) -> Parsed {
    let mut p = Parsed::default();
    let mut mtl = String::new();
    let nums = |rest: &str| -> Vec<f64> { rest.split_whitespace().map(|t| t.parse().unwrap()).collect() };
    for line in text.lines() {
        let (tag, rest) = line.split_once(' ').unwrap_or((line, ""));
        match tag {
            "#" | "" => {}
            "mtllib" => p.mtllib = Some(rest.to_string()),
            "o" => p.objects.push(rest.to_string()),
            "v" => p.v.push(nums(rest).try_into().unwrap()),
            "vt" => p.vt += 1,
            "vn" => p.vn.push(nums(rest).try_into().unwrap()),
            "usemtl" => mtl = rest.to_string(),
            "f" => {
                let idx: Vec<usize> = rest
                    .split_whitespace()
                    .map(|t| {
                        let parts: Vec<usize> = t.split('/').map(|k| k.parse().unwrap()).collect();
                        assert!(parts.len() == 3 && parts.iter().all(|&k| k == parts[0]), "{t}");
                        parts[0]
                    })
                    .collect();
                p.faces.push((p.objects.len() - 1, mtl.clone(), idx.try_into().unwrap()));
            }
            other => panic!("unexpected OBJ line tag {other:?}"),
        }
    }
    p
}

#[test]
fn objects_vertices_faces_and_materials_read_back() {
    let empty = FeatureMesh { kind: Some(FeatureKind::Block), id: "b/empty".into(), ..FeatureMesh::default() };
    let meshes = [
        quad(FeatureKind::Road, "r/main street/0.00", 10.0, 0.0),
        empty,
        quad(FeatureKind::Junction, "j/1", 20.0, 3.0),
    ];
    let files = write_obj(&meshes, "network.mtl");
    let p = parse(&files.obj);
    assert_eq!(p.mtllib.as_deref(), Some("network.mtl"));
    // The feature without triangles is left out; whitespace in ids is replaced.
    assert_eq!(p.objects, ["r/main_street/0.00", "j/1"]);
    assert_eq!((p.v.len(), p.vt, p.vn.len()), (8, 8, 8));
    assert_eq!(p.faces.len(), 4);
    for (obj, _, idx) in &p.faces {
        // 1-based, global, and inside the object's own vertices.
        let range = (4 * obj + 1)..=(4 * obj + 4);
        assert!(idx.iter().all(|i| range.contains(i)), "{idx:?} outside {range:?}");
    }
    let mats: Vec<&str> = p.faces.iter().map(|f| f.1.as_str()).collect();
    assert_eq!(mats, ["carriageway", "junction", "carriageway", "junction"]);
    // y up: the core's (x, y, z) is (x, z, -y); normals too.
    assert_eq!(p.v[2], [11.0, 0.0, -2.0]);
    assert_eq!(p.v[6], [21.0, 3.0, -2.0]);
    assert!(p.vn.iter().all(|n| *n == [0.0, 1.0, 0.0]));
    // The MTL file defines every slot.
    for slot in MaterialSlot::ALL {
        assert!(files.mtl.contains(&format!("newmtl {}\n", slot.as_str())), "{}", slot.as_str());
    }
    assert_eq!(write_obj(&meshes, "network.mtl"), files, "two runs differ");
}

#[test]
fn faces_keep_facing_up_after_the_axis_change() {
    let files = write_obj(&[quad(FeatureKind::Road, "r", 0.0, 0.0)], "m.mtl");
    let p = parse(&files.obj);
    for (_, _, [a, b, c]) in &p.faces {
        let (a, b, c) = (p.v[a - 1], p.v[b - 1], p.v[c - 1]);
        let (u, v) = ([b[0] - a[0], b[1] - a[1], b[2] - a[2]], [c[0] - a[0], c[1] - a[1], c[2] - a[2]]);
        // Cross product's y component (up): positive for a counter-clockwise, upward face.
        let up = u[2] * v[0] - u[0] * v[2];
        assert!(up > 0.0, "face {a:?} {b:?} {c:?} faces down");
    }
}

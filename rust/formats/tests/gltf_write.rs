//! The glTF writer on hand-made meshes: the GLB container, the JSON it holds, and the data the
//! accessors point at, parsed back independently of the writer.
//!
//! The test `writes_sample_files` also leaves sample files in `<target>/gltf-check/`, which
//! `.ci/run` checks with the Khronos glTF-Validator (`scripts/validate_gltf.sh`).

use std::path::PathBuf;

use roadgen_core::{FeatureKind, FeatureMesh, MaterialSlot, MeshVertex, Point3};
use roadgen_formats::{write_glb, GltfError, GltfOptions};
use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// Meshes.

fn vertex(p: [f64; 3], n: [f64; 3], uv: [f64; 2]) -> MeshVertex {
    MeshVertex { position: Point3::new(p[0], p[1], p[2]), normal: Point3::new(n[0], n[1], n[2]), uv }
}

/// An axis-aligned box with 24 vertices (flat-shaded) and 12 triangles, counter-clockwise seen
/// from outside, all in `slot`.
fn cuboid(kind: FeatureKind, id: &str, min: [f64; 3], max: [f64; 3], slot: MaterialSlot) -> FeatureMesh {
    let c = [0, 1, 2].map(|k| (min[k] + max[k]) / 2.0);
    let h = [0, 1, 2].map(|k| (max[k] - min[k]) / 2.0);
    let axis = |k: usize, s: f64| {
        let mut a = [0.0; 3];
        a[k] = s;
        a
    };
    // (normal axis, sign, u axis, v axis) with u × v = normal.
    let faces = [(0, 1.0, 1, 2), (0, -1.0, 2, 1), (1, 1.0, 2, 0), (1, -1.0, 0, 2), (2, 1.0, 0, 1), (2, -1.0, 1, 0)];
    let mut mesh = FeatureMesh { kind: Some(kind), id: id.into(), ..FeatureMesh::default() };
    for (n, sign, u, v) in faces {
        let base = mesh.vertices.len() as u32;
        for (su, sv) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            let mut p = c;
            p[n] += sign * h[n];
            p[u] += su * h[u];
            p[v] += sv * h[v];
            mesh.vertices.push(vertex(p, axis(n, sign), [p[u], p[v]]));
        }
        mesh.triangles.extend([[base, base + 1, base + 2], [base, base + 2, base + 3]]);
        mesh.slots.extend([slot, slot]);
    }
    mesh
}

/// A flat quad (two triangles, counter-clockwise seen from above) appended to `mesh`.
fn quad(mesh: &mut FeatureMesh, x0: f64, y0: f64, x1: f64, y1: f64, z: f64, slot: MaterialSlot) {
    let base = mesh.vertices.len() as u32;
    for (x, y) in [(x0, y0), (x1, y0), (x1, y1), (x0, y1)] {
        mesh.vertices.push(vertex([x, y, z], [0.0, 0.0, 1.0], [x - x0, y - y0]));
    }
    mesh.triangles.extend([[base, base + 1, base + 2], [base, base + 2, base + 3]]);
    mesh.slots.extend([slot, slot]);
}

/// A vertical quad from (x, y0) to (x, y1), facing +x or −x, appended to `mesh`.
fn wall(mesh: &mut FeatureMesh, x: f64, (y0, y1): (f64, f64), (z0, z1): (f64, f64), facing: f64, slot: MaterialSlot) {
    let base = mesh.vertices.len() as u32;
    let (ya, yb) = if facing > 0.0 { (y0, y1) } else { (y1, y0) };
    for (y, z) in [(ya, z0), (yb, z0), (yb, z1), (ya, z1)] {
        mesh.vertices.push(vertex([x, y, z], [facing, 0.0, 0.0], [y - y0, z - z0]));
    }
    mesh.triangles.extend([[base, base + 1, base + 2], [base, base + 2, base + 3]]);
    mesh.slots.extend([slot, slot]);
}

/// A small street scene far from the origin (as in a projected frame) using all five slots: a
/// road with carriageway, curbs and sidewalks, a junction, and a raised block with a curb skirt.
fn street(x: f64, y: f64) -> Vec<FeatureMesh> {
    let mut road = FeatureMesh { kind: Some(FeatureKind::Road), id: "12:0".into(), ..FeatureMesh::default() };
    quad(&mut road, x - 3.0, y, x + 3.0, y + 40.0, 0.0, MaterialSlot::Carriageway);
    wall(&mut road, x + 3.0, (y, y + 40.0), (0.0, 0.15), -1.0, MaterialSlot::Curb);
    wall(&mut road, x - 3.0, (y, y + 40.0), (0.0, 0.15), 1.0, MaterialSlot::Curb);
    quad(&mut road, x + 3.0, y, x + 5.0, y + 40.0, 0.15, MaterialSlot::Sidewalk);
    quad(&mut road, x - 5.0, y, x - 3.0, y + 40.0, 0.15, MaterialSlot::Sidewalk);

    let mut junction = FeatureMesh { kind: Some(FeatureKind::Junction), id: "j7".into(), ..FeatureMesh::default() };
    quad(&mut junction, x - 3.0, y + 40.0, x + 3.0, y + 46.0, 0.0, MaterialSlot::Junction);

    let mut block = cuboid(FeatureKind::Block, "b3", [x + 5.0, y, 0.0], [x + 45.0, y + 40.0, 0.15], MaterialSlot::Curb);
    // The top of the box is the lot.
    for (t, slot) in block.triangles.iter().zip(block.slots.iter_mut()) {
        let normal = block.vertices[t[0] as usize].normal;
        if normal.z > 0.5 {
            *slot = MaterialSlot::Block;
        }
    }
    vec![road, junction, block]
}

// ---------------------------------------------------------------------------------------------
// Reading a GLB back.

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

struct Glb {
    json: Value,
    bin: Vec<u8>,
}

/// Parses and checks the container: header, chunk types and lengths, padding, buffer views.
fn parse(bytes: &[u8]) -> Glb {
    assert!(bytes.len() >= 20, "too short: {}", bytes.len());
    assert_eq!(&bytes[0..4], b"glTF");
    assert_eq!(u32_at(bytes, 4), 2, "container version");
    assert_eq!(u32_at(bytes, 8) as usize, bytes.len(), "total length");
    let json_len = u32_at(bytes, 12) as usize;
    assert_eq!(&bytes[16..20], b"JSON");
    assert_eq!(json_len % 4, 0, "JSON chunk not padded");
    let json_bytes = &bytes[20..20 + json_len];
    let text = std::str::from_utf8(json_bytes).unwrap();
    let trimmed = text.trim_end_matches(' ');
    assert!(text.len() - trimmed.len() < 4, "more padding than needed");
    let json: Value = serde_json::from_str(trimmed).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let rest = &bytes[20 + json_len..];
    let bin = if rest.is_empty() {
        assert!(json.get("buffers").is_none(), "buffers without a BIN chunk");
        Vec::new()
    } else {
        let bin_len = u32_at(rest, 0) as usize;
        assert_eq!(&rest[4..8], b"BIN\0");
        assert_eq!(bin_len % 4, 0, "BIN chunk not padded");
        assert_eq!(rest.len(), 8 + bin_len, "bytes after the BIN chunk");
        let buffers = json["buffers"].as_array().unwrap();
        assert_eq!(buffers.len(), 1);
        assert!(buffers[0].get("uri").is_none());
        let byte_length = buffers[0]["byteLength"].as_u64().unwrap() as usize;
        assert!(byte_length <= bin_len && bin_len - byte_length < 4, "buffer {byte_length} vs chunk {bin_len}");
        rest[8..8 + byte_length].to_vec()
    };
    for view in json["bufferViews"].as_array().unwrap_or(&Vec::new()) {
        let offset = view["byteOffset"].as_u64().unwrap_or(0) as usize;
        let len = view["byteLength"].as_u64().unwrap() as usize;
        assert_eq!(view["buffer"], 0);
        assert_eq!(offset % 4, 0, "unaligned view {view}");
        assert!(offset + len <= bin.len(), "view outside the buffer: {view}");
        assert!(view["target"] == 34962 || view["target"] == 34963, "{view}");
    }
    Glb { json, bin }
}

impl Glb {
    fn accessor(&self, i: &Value) -> &Value {
        &self.json["accessors"][i.as_u64().unwrap() as usize]
    }

    /// The accessor's elements as f64 tuples (checks it fits its buffer view).
    fn read(&self, index: &Value) -> Vec<Vec<f64>> {
        let a = self.accessor(index);
        let view = &self.json["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
        let width = match a["type"].as_str().unwrap() {
            "SCALAR" => 1,
            "VEC2" => 2,
            "VEC3" => 3,
            t => panic!("type {t}"),
        };
        let size = match a["componentType"].as_u64().unwrap() {
            5123 => 2,
            5125 | 5126 => 4,
            t => panic!("componentType {t}"),
        };
        let count = a["count"].as_u64().unwrap() as usize;
        let start = view["byteOffset"].as_u64().unwrap_or(0) as usize + a["byteOffset"].as_u64().unwrap_or(0) as usize;
        assert!(view.get("byteStride").is_none());
        assert!(
            count * width * size <= view["byteLength"].as_u64().unwrap() as usize,
            "accessor larger than its view: {a}"
        );
        let data = &self.bin[start..start + count * width * size];
        let value = |b: &[u8]| match a["componentType"].as_u64().unwrap() {
            5123 => f64::from(u16::from_le_bytes([b[0], b[1]])),
            5125 => f64::from(u32::from_le_bytes(b.try_into().unwrap())),
            _ => f64::from(f32::from_le_bytes(b.try_into().unwrap())),
        };
        data.chunks(width * size).map(|e| e.chunks(size).map(value).collect()).collect()
    }

    fn node(&self, name: &str) -> &Value {
        let nodes = self.json["nodes"].as_array().unwrap();
        nodes.iter().find(|n| n["name"] == name).unwrap_or_else(|| panic!("no node {name}"))
    }

    fn mesh_of(&self, node: &Value) -> &Value {
        &self.json["meshes"][node["mesh"].as_u64().unwrap() as usize]
    }

    fn translation(node: &Value) -> [f64; 3] {
        let t = node["translation"].as_array().unwrap();
        [0, 1, 2].map(|k| t[k].as_f64().unwrap())
    }

    /// Triangles of a primitive as glTF-frame absolute positions, with the vertex normals.
    fn triangles(&self, node: &Value, primitive: &Value) -> Vec<[([f64; 3], [f64; 3]); 3]> {
        let t = Self::translation(node);
        let positions = self.read(&primitive["attributes"]["POSITION"]);
        let normals = self.read(&primitive["attributes"]["NORMAL"]);
        let indices = self.read(&primitive["indices"]);
        assert_eq!(indices.len() % 3, 0);
        let vert = |i: &Vec<f64>| {
            let i = i[0] as usize;
            let p = &positions[i];
            let n = &normals[i];
            ([p[0] + t[0], p[1] + t[1], p[2] + t[2]], [n[0], n[1], n[2]])
        };
        indices.chunks(3).map(|c| [vert(&c[0]), vert(&c[1]), vert(&c[2])]).collect()
    }
}

fn glb(meshes: &[FeatureMesh]) -> Vec<u8> {
    write_glb(meshes, &GltfOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn to_y_up(p: [f64; 3]) -> [f64; 3] {
    [p[0], p[2], -p[1]]
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

// ---------------------------------------------------------------------------------------------
// Tests.

#[test]
fn known_point_is_converted_to_y_up() {
    let mut mesh = FeatureMesh { kind: Some(FeatureKind::Road), id: "r".into(), ..FeatureMesh::default() };
    // The bounding box is centred on the origin, so positions are not shifted.
    mesh.vertices = vec![
        vertex([1.0, 2.0, 3.0], [0.0, 0.0, 1.0], [0.25, 7.5]),
        vertex([-1.0, -2.0, -3.0], [0.0, 1.0, 0.0], [0.0, 0.0]),
        vertex([0.0, 0.0, 0.0], [3.0, 0.0, 0.0], [1.0, 1.0]),
    ];
    mesh.triangles = vec![[0, 1, 2]];
    mesh.slots = vec![MaterialSlot::Carriageway];
    let g = parse(&glb(&[mesh]));
    let node = g.node("r");
    assert_eq!(Glb::translation(node), [0.0, 0.0, 0.0]);
    let primitive = &g.mesh_of(node)["primitives"][0];
    let positions = g.read(&primitive["attributes"]["POSITION"]);
    assert_eq!(positions[0], vec![1.0, 3.0, -2.0]);
    assert_eq!(positions[1], vec![-1.0, -3.0, 2.0]);
    let normals = g.read(&primitive["attributes"]["NORMAL"]);
    assert_eq!(normals[0], vec![0.0, 1.0, 0.0], "up");
    assert_eq!(normals[1], vec![0.0, 0.0, -1.0], "north is -z");
    assert_eq!(normals[2], vec![1.0, 0.0, 0.0], "normalised");
    let uvs = g.read(&primitive["attributes"]["TEXCOORD_0"]);
    assert_eq!(uvs[0], vec![0.25, 7.5], "uv as given");
    let accessor = g.accessor(&primitive["attributes"]["POSITION"]);
    assert_eq!(accessor["min"], serde_json::json!([-1.0, -3.0, -2.0]));
    assert_eq!(accessor["max"], serde_json::json!([1.0, 3.0, 2.0]));
}

#[test]
fn far_feature_keeps_millimetres() {
    let (x0, y0) = (48_123.456_7, -39_876.543_2);
    let mesh = cuboid(FeatureKind::Block, "far", [x0, y0, 100.001], [x0 + 3.002, y0 + 1.5, 102.0], MaterialSlot::Block);
    let g = parse(&glb(std::slice::from_ref(&mesh)));
    let node = g.node("far");
    let t = Glb::translation(node);
    let centre = to_y_up([x0 + 1.501, y0 + 0.75, 101.0005]);
    for k in 0..3 {
        assert!((t[k] - centre[k]).abs() < 1e-9, "translation {t:?} vs {centre:?}");
    }
    let primitive = &g.mesh_of(node)["primitives"][0];
    let accessor = g.accessor(&primitive["attributes"]["POSITION"]);
    assert_eq!(accessor["count"], 24);
    let positions = g.read(&primitive["attributes"]["POSITION"]);
    // min/max are exactly those of the stored values, and small (relative to the centre).
    for k in 0..3 {
        let lo = positions.iter().map(|p| p[k]).fold(f64::INFINITY, f64::min);
        let hi = positions.iter().map(|p| p[k]).fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(accessor["min"][k].as_f64(), Some(lo));
        assert_eq!(accessor["max"][k].as_f64(), Some(hi));
        assert!(hi.abs() < 2.0 && lo.abs() < 2.0);
    }
    for (stored, v) in positions.iter().zip(&mesh.vertices) {
        let want = to_y_up([v.position.x, v.position.y, v.position.z]);
        for k in 0..3 {
            assert!((stored[k] + t[k] - want[k]).abs() < 1e-6, "{stored:?} + {t:?} vs {want:?}");
        }
    }
}

#[test]
fn winding_and_normals_face_outwards() {
    let mesh = cuboid(FeatureKind::Block, "box", [-1.0, -2.0, 0.0], [1.0, 2.0, 1.0], MaterialSlot::Block);
    let g = parse(&glb(&[mesh]));
    let node = g.node("box");
    let primitive = &g.mesh_of(node)["primitives"][0];
    let tris = g.triangles(node, primitive);
    assert_eq!(tris.len(), 12);
    let mut up = 0;
    for [(a, na), (b, _), (c, _)] in tris {
        let face = cross(sub(b, a), sub(c, a));
        assert!(dot(face, na) > 0.0, "triangle wound against its normal {na:?}");
        // The normal points away from the box's centre (glTF frame: centre (0, 0.5, 0)).
        let centroid = [0, 1, 2].map(|k| (a[k] + b[k] + c[k]) / 3.0);
        assert!(dot(na, sub(centroid, [0.0, 0.5, 0.0])) > 0.0);
        up += usize::from(na == [0.0, 1.0, 0.0]);
    }
    assert_eq!(up, 2, "the top (core +z) is glTF +y");
}

#[test]
fn one_node_mesh_and_primitive_per_slot() {
    let meshes = street(500_000.25, 4_100_000.75);
    let bytes = glb(&meshes);
    let g = parse(&bytes);
    let nodes = g.json["nodes"].as_array().unwrap();
    let names: Vec<&str> = nodes.iter().map(|n| n["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["12:0", "j7", "b3"]);
    let kinds: Vec<&Value> = nodes.iter().map(|n| &n["extras"]["kind"]).collect();
    assert_eq!(kinds, ["road", "junction", "block"]);
    assert_eq!(g.json["scenes"][0]["nodes"], serde_json::json!([0, 1, 2]));
    assert_eq!(g.json["scene"], 0);
    assert_eq!(g.json["meshes"].as_array().unwrap().len(), 3);
    assert_eq!(g.json["asset"]["version"], "2.0");
    assert_eq!(g.json["asset"]["generator"], format!("RoadGen {}", env!("CARGO_PKG_VERSION")));

    let materials = g.json["materials"].as_array().unwrap();
    let material_names: Vec<&str> = materials.iter().map(|m| m["name"].as_str().unwrap()).collect();
    assert_eq!(material_names, MaterialSlot::ALL.map(MaterialSlot::as_str));
    let colours: Vec<&Value> = materials.iter().map(|m| &m["pbrMetallicRoughness"]["baseColorFactor"]).collect();
    for (i, a) in colours.iter().enumerate() {
        assert!(colours[i + 1..].iter().all(|b| b != a), "colours not distinct: {colours:?}");
    }
    for m in materials {
        assert_eq!(m["pbrMetallicRoughness"]["metallicFactor"], 0.0);
        assert!((m["pbrMetallicRoughness"]["roughnessFactor"].as_f64().unwrap() - 0.9).abs() < 0.05);
        assert_ne!(m["doubleSided"], true);
    }

    // The road: carriageway, curb, sidewalk, each with only its own triangles.
    let road = g.node("12:0");
    let primitives = g.mesh_of(road)["primitives"].as_array().unwrap();
    let slots: Vec<u64> = primitives.iter().map(|p| p["material"].as_u64().unwrap()).collect();
    assert_eq!(slots, [0, 1, 2]);
    let heights: Vec<Vec<f64>> =
        primitives.iter().map(|p| g.triangles(road, p).iter().flatten().map(|(pos, _)| pos[1]).collect()).collect();
    assert_eq!(heights[0].len(), 6);
    assert!(heights[0].iter().all(|&h| h.abs() < 1e-6), "carriageway at 0 m: {:?}", heights[0]);
    assert_eq!(heights[1].len(), 12);
    assert!(heights[2].iter().all(|&h| (h - 0.15).abs() < 1e-6), "sidewalk at 0.15 m: {:?}", heights[2]);
    // Shared vertex data, one index accessor each.
    assert!(primitives.iter().all(|p| p["attributes"] == primitives[0]["attributes"]));
    let counts: Vec<&Value> = primitives.iter().map(|p| &g.accessor(&p["indices"])["count"]).collect();
    assert_eq!(counts, [6, 12, 12]);
    assert!(primitives.iter().all(|p| g.accessor(&p["indices"])["componentType"] == 5123));

    // The block: curb and block.
    let block = g.node("b3");
    let primitives = g.mesh_of(block)["primitives"].as_array().unwrap();
    let slots: Vec<u64> = primitives.iter().map(|p| p["material"].as_u64().unwrap()).collect();
    assert_eq!(slots, [MaterialSlot::Curb as u64, MaterialSlot::Block as u64]);
    let top = g.triangles(block, &primitives[1]);
    assert_eq!(top.len(), 2);
    assert!(top.iter().flatten().all(|(_, n)| *n == [0.0, 1.0, 0.0]));
}

#[test]
fn two_slots_give_two_primitives() {
    let mut mesh = FeatureMesh { kind: Some(FeatureKind::Road), id: "two".into(), ..FeatureMesh::default() };
    quad(&mut mesh, 0.0, 0.0, 1.0, 1.0, 0.0, MaterialSlot::Sidewalk);
    quad(&mut mesh, 1.0, 0.0, 2.0, 1.0, 0.0, MaterialSlot::Carriageway);
    // One more carriageway triangle listed after the sidewalk ones, reusing sidewalk vertices.
    mesh.triangles.push([1, 5, 2]);
    mesh.slots.push(MaterialSlot::Carriageway);
    let g = parse(&glb(&[mesh]));
    let node = g.node("two");
    let primitives = g.mesh_of(node)["primitives"].as_array().unwrap();
    assert_eq!(primitives.len(), 2);
    assert_eq!(primitives[0]["material"], MaterialSlot::Carriageway as u64);
    assert_eq!(primitives[1]["material"], MaterialSlot::Sidewalk as u64);
    let carriageway = g.triangles(node, &primitives[0]);
    assert_eq!(carriageway.len(), 3);
    let t = Glb::translation(node);
    let xs: Vec<f64> = carriageway.iter().flatten().map(|(p, _)| p[0]).collect();
    assert!(xs.iter().all(|&x| x >= 1.0 - 1e-6), "{xs:?} (translation {t:?})");
    let sidewalk = g.triangles(node, &primitives[1]);
    assert_eq!(sidewalk.len(), 2);
    assert!(sidewalk.iter().flatten().all(|(p, _)| p[0] <= 1.0 + 1e-6));
}

#[test]
fn unused_vertices_and_empty_features_are_left_out() {
    let mut mesh = FeatureMesh { kind: Some(FeatureKind::Junction), id: "j".into(), ..FeatureMesh::default() };
    mesh.vertices.push(vertex([1000.0, 1000.0, 1000.0], [0.0, 0.0, 1.0], [0.0, 0.0])); // unused
    quad(&mut mesh, 0.0, 0.0, 2.0, 2.0, 0.0, MaterialSlot::Junction);
    let empty = FeatureMesh {
        kind: Some(FeatureKind::Road),
        id: "empty".into(),
        vertices: vec![vertex([5.0, 5.0, 5.0], [0.0, 0.0, 1.0], [0.0, 0.0])],
        ..FeatureMesh::default()
    };
    let g = parse(&glb(&[empty.clone(), mesh, empty]));
    assert_eq!(g.json["nodes"].as_array().unwrap().len(), 1);
    let node = g.node("j");
    assert_eq!(node["mesh"], 0);
    assert_eq!(Glb::translation(node), [1.0, 0.0, -1.0], "unused vertex ignored in the bounds");
    let primitive = &g.mesh_of(node)["primitives"][0];
    assert_eq!(g.accessor(&primitive["attributes"]["POSITION"])["count"], 4);
    assert_eq!(g.accessor(&primitive["attributes"]["NORMAL"])["count"], 4);
    assert_eq!(g.read(&primitive["indices"]), [[0.0], [1.0], [2.0], [0.0], [2.0], [3.0]]);
}

#[test]
fn empty_input_gives_a_valid_empty_scene() {
    let g = parse(&glb(&[]));
    assert!(g.bin.is_empty());
    assert_eq!(g.json["scenes"].as_array().unwrap().len(), 1);
    for key in ["nodes", "meshes", "accessors", "bufferViews", "buffers"] {
        assert!(g.json.get(key).is_none(), "empty `{key}` array");
    }
    assert!(g.json["scenes"][0].get("nodes").is_none());
    assert_eq!(g.json["materials"].as_array().unwrap().len(), 5);
}

#[test]
fn zero_normal_falls_back_to_up() {
    let mut mesh = FeatureMesh { kind: Some(FeatureKind::Road), id: "z".into(), ..FeatureMesh::default() };
    quad(&mut mesh, 0.0, 0.0, 1.0, 1.0, 0.0, MaterialSlot::Carriageway);
    mesh.vertices[0].normal = Point3::new(0.0, 0.0, 0.0);
    mesh.vertices[1].normal = Point3::new(0.0, 3e-200, 4e-200);
    let g = parse(&glb(&[mesh]));
    let primitive = &g.mesh_of(g.node("z"))["primitives"][0];
    let normals = g.read(&primitive["attributes"]["NORMAL"]);
    assert_eq!(normals[0], [0.0, 1.0, 0.0]);
    let n1 = &normals[1];
    assert!((n1[0]).abs() < 1e-6 && (n1[1] - 0.8).abs() < 1e-6 && (n1[2] + 0.6).abs() < 1e-6, "{n1:?}");
}

#[test]
fn large_features_use_32_bit_indices() {
    let mut mesh = FeatureMesh { kind: Some(FeatureKind::Block), id: "big".into(), ..FeatureMesh::default() };
    let n = 70_000_u32;
    for i in 0..n {
        let x = f64::from(i % 300);
        let y = f64::from(i / 300);
        mesh.vertices.push(vertex([x, y, 0.0], [0.0, 0.0, 1.0], [x, y]));
    }
    for i in 0..n - 2 {
        mesh.triangles.push([i, i + 1, i + 2]);
        mesh.slots.push(MaterialSlot::Block);
    }
    let g = parse(&glb(&[mesh]));
    let primitive = &g.mesh_of(g.node("big"))["primitives"][0];
    let accessor = g.accessor(&primitive["indices"]);
    assert_eq!(accessor["componentType"], 5125);
    let indices = g.read(&primitive["indices"]);
    assert_eq!(indices.len(), 3 * (n as usize - 2));
    assert_eq!(indices.last().unwrap()[0], f64::from(n - 1));
}

#[test]
fn non_finite_coordinates_are_errors_naming_the_feature() {
    let fine = cuboid(FeatureKind::Block, "fine", [0.0; 3], [1.0; 3], MaterialSlot::Block);
    for (what, bad) in [
        ("position", Point3::new(f64::NAN, 0.0, 0.0)),
        ("position", Point3::new(0.0, f64::INFINITY, 0.0)),
        ("normal", Point3::new(0.0, 0.0, f64::NEG_INFINITY)),
    ] {
        let mut mesh = cuboid(FeatureKind::Road, "road \"7\"", [0.0; 3], [1.0; 3], MaterialSlot::Curb);
        if what == "position" {
            mesh.vertices[5].position = bad;
        } else {
            mesh.vertices[5].normal = bad;
        }
        let err = write_glb(&[fine.clone(), mesh], &GltfOptions::default());
        match err {
            Err(e @ GltfError::NonFinite { .. }) => {
                let text = e.to_string();
                assert!(text.contains("road \"7\"") && text.contains(what), "{text}");
            }
            other => panic!("{what}: {other:?}"),
        }
    }
    let mut mesh = fine.clone();
    mesh.vertices[0].uv = [0.0, f64::NAN];
    assert!(matches!(write_glb(&[mesh], &GltfOptions::default()), Err(GltfError::NonFinite { .. })));
    // Finite, but too far apart for 32-bit offsets.
    let mut mesh = fine;
    mesh.vertices[0].position.x = -1e300;
    mesh.vertices[1].position.x = 1e300;
    let err = write_glb(&[mesh], &GltfOptions::default());
    assert!(matches!(&err, Err(GltfError::OutOfRange { feature, .. }) if feature == "fine"), "{err:?}");
}

#[test]
fn bad_indices_are_errors_naming_the_feature() {
    let mut mesh = cuboid(FeatureKind::Junction, "j-42", [0.0; 3], [1.0; 3], MaterialSlot::Junction);
    mesh.triangles[3][1] = 24;
    let err = write_glb(&[mesh], &GltfOptions::default());
    match err {
        Err(e @ GltfError::IndexOutOfRange { .. }) => {
            let text = e.to_string();
            assert!(text.contains("j-42") && text.contains("24"), "{text}");
        }
        other => panic!("{other:?}"),
    }
    let mut mesh = cuboid(FeatureKind::Junction, "j-43", [0.0; 3], [1.0; 3], MaterialSlot::Junction);
    mesh.slots.pop();
    let err = write_glb(&[mesh], &GltfOptions::default());
    assert!(matches!(&err, Err(GltfError::SlotCountMismatch { feature, .. }) if feature == "j-43"), "{err:?}");
}

#[test]
fn output_is_deterministic() {
    let meshes = street(12.5, -7.25);
    let opts = GltfOptions { generator: "test".into() };
    let a = write_glb(&meshes, &opts).unwrap();
    let b = write_glb(&meshes, &opts).unwrap();
    assert_eq!(a, b);
    assert_eq!(parse(&a).json["asset"]["generator"], "test");
}

/// Writes the files `.ci/run` hands to the Khronos glTF-Validator.
#[test]
fn writes_sample_files() {
    // Integration tests get `<target>/tmp`; the samples go next to it.
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let dir = tmp.parent().unwrap_or(&tmp).join("gltf-check");
    std::fs::create_dir_all(&dir).unwrap();
    let samples = [
        ("box.glb", vec![cuboid(FeatureKind::Block, "box", [-1.0, -2.0, 0.0], [1.0, 2.0, 1.0], MaterialSlot::Block)]),
        ("street.glb", street(512_345.678, 5_401_234.567)),
        ("empty.glb", Vec::new()),
    ];
    for (name, meshes) in samples {
        let bytes = glb(&meshes);
        parse(&bytes);
        std::fs::write(dir.join(name), bytes).unwrap();
    }
}

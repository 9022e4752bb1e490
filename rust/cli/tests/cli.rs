//! The `roadgen` command end to end: outputs on a real file, one clear line on bad input.

use std::path::PathBuf;
use std::process::Command;

fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data").join(rel)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("roadgen-cli-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn roadgen(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_roadgen")).args(args).output().unwrap()
}

#[test]
fn generate_writes_geojson_preview_and_summary() {
    let out = scratch("kotka");
    let input = data("osm/kotka.roads.json");
    let o = roadgen(&["generate".as_ref(), input.as_os_str(), "--out".as_ref(), out.as_os_str()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8(o.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    for word in ["181 roads", "junctions", "road pieces", "blocks", "diagnostics", " s "] {
        assert!(stdout.contains(word), "summary lacks {word:?}: {stdout}");
    }
    let gj: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("network.geojson")).unwrap()).unwrap();
    assert_eq!(gj["type"], "FeatureCollection");
    let kinds: Vec<&str> =
        gj["features"].as_array().unwrap().iter().map(|f| f["properties"]["kind"].as_str().unwrap()).collect();
    for k in ["junction", "road", "block"] {
        assert!(kinds.contains(&k), "no {k} feature");
    }
    assert!(gj["diagnostics"].is_array());
    let png = std::fs::read(out.join("preview.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let _ = std::fs::remove_dir_all(&out);
}

fn one_line_error(input: &std::path::Path, extra: &[&str]) -> String {
    let out = scratch("bad");
    let mut args: Vec<&std::ffi::OsStr> =
        vec!["generate".as_ref(), input.as_os_str(), "--out".as_ref(), out.as_os_str()];
    args.extend(extra.iter().map(std::ffi::OsStr::new));
    let o = roadgen(&args);
    assert!(!o.status.success());
    let stderr = String::from_utf8(o.stderr).unwrap();
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(!stderr.contains("panicked") && !stderr.contains("backtrace"), "{stderr}");
    stderr
}

#[test]
fn bad_input_gives_one_clear_line() {
    let dir = scratch("inputs");
    let truncated = dir.join("truncated.json");
    std::fs::write(&truncated, r#"{"units": "m", "roads": [{"id": 1, "width": 7, "points": [[0, 0], [1"#).unwrap();
    let e = one_line_error(&truncated, &[]);
    assert!(e.contains("truncated.json") && e.contains("line 1"), "{e}");

    let wrong = dir.join("wrong.json");
    std::fs::write(&wrong, r#"{"roads": [{"id": "a", "width": 7, "points": [[0, 0], [10, "x"]]}]}"#).unwrap();
    let e = one_line_error(&wrong, &[]);
    assert!(e.contains("wrong.json") && e.contains("road a") && e.contains("point 1"), "{e}");

    let unknown = dir.join("unknown.json");
    std::fs::write(&unknown, r#"{"something": []}"#).unwrap();
    let e = one_line_error(&unknown, &[]);
    assert!(e.contains("unknown.json"), "{e}");

    let e = one_line_error(&dir.join("missing.json"), &[]);
    assert!(e.contains("missing.json"), "{e}");

    // Strict mode stops at a bad road and names it.
    let bad_width = dir.join("bad_width.json");
    std::fs::write(&bad_width, r#"{"roads": [{"id": "w", "width": -3, "points": [[0, 0], [10, 0]]}]}"#).unwrap();
    let e = one_line_error(&bad_width, &["--strict"]);
    assert!(e.contains("road w"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_road_does_not_stop_the_rest() {
    let dir = scratch("lenient");
    let input = dir.join("mixed.json");
    std::fs::write(
        &input,
        r#"{"roads": [{"id": "w", "width": -3, "points": [[0, 0], [10, 0]]},
                      {"id": "a", "width": 7, "points": [[-100, 0], [100, 0]]},
                      {"id": "b", "width": 7, "points": [[0, -100], [0, 100]]}]}"#,
    )
    .unwrap();
    let out = dir.join("out");
    let o = roadgen(&["generate".as_ref(), input.as_os_str(), "--out".as_ref(), out.as_os_str()]);
    assert!(o.status.success());
    let gj: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("network.geojson")).unwrap()).unwrap();
    let diags = gj["diagnostics"].as_array().unwrap();
    assert!(diags.iter().any(|d| d["code"] == "road_skipped" && d["road"] == "w"), "{diags:?}");
    let junctions = gj["features"].as_array().unwrap().iter().filter(|f| f["properties"]["kind"] == "junction").count();
    assert_eq!(junctions, 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn obj_option_writes_obj_and_mtl() {
    let out = scratch("obj");
    let input = data("golden/x.roads.json");
    let o = roadgen(&["generate".as_ref(), input.as_os_str(), "--out".as_ref(), out.as_os_str(), "--obj".as_ref()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let obj = std::fs::read_to_string(out.join("network.obj")).unwrap();
    let mtl = std::fs::read_to_string(out.join("network.mtl")).unwrap();
    assert!(obj.lines().any(|l| l == "mtllib network.mtl"), "no mtllib line");
    // One object per junction, road piece and block of the GeoJSON (all of them have meshes).
    let gj: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("network.geojson")).unwrap()).unwrap();
    let features = gj["features"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| ["junction", "road", "block"].contains(&f["properties"]["kind"].as_str().unwrap()))
        .count();
    assert_eq!(obj.lines().filter(|l| l.starts_with("o ")).count(), features);
    let vertices = obj.lines().filter(|l| l.starts_with("v ")).count();
    for face in obj.lines().filter(|l| l.starts_with("f ")) {
        for corner in face.split_whitespace().skip(1) {
            let i: usize = corner.split('/').next().unwrap().parse().unwrap();
            assert!(i >= 1 && i <= vertices, "{face}");
        }
    }
    for used in obj.lines().filter_map(|l| l.strip_prefix("usemtl ")) {
        assert!(mtl.contains(&format!("newmtl {used}\n")), "material {used} is not defined");
    }
    let _ = std::fs::remove_dir_all(&out);
}

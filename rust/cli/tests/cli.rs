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
    check_references(&gj, &input_road_ids(&input));
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

/// The ids of a road JSON file's roads, as the outputs write them (numbers as decimal text).
fn input_road_ids(path: &std::path::Path) -> std::collections::BTreeSet<String> {
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["roads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| match &r["id"] {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect()
}

/// The properties of the features of one kind.
fn features<'a>(gj: &'a serde_json::Value, kind: &str) -> Vec<&'a serde_json::Value> {
    gj["features"].as_array().unwrap().iter().map(|f| &f["properties"]).filter(|p| p["kind"] == kind).collect()
}

/// What the GeoJSON's features say of each other (docs/INPUT_FORMAT.md, section 4): a road
/// piece's `from` / `to` is `null` or the id of a junction feature, and its `road` an input
/// road; a junction's `degree` (its number of arms) is the number of piece ends that name it,
/// its `roads` are input road ids, sorted, without repeats, among them the road of every piece
/// that ends there. Returns the number of dead ends.
fn check_references(gj: &serde_json::Value, input_ids: &std::collections::BTreeSet<String>) -> usize {
    let junctions = features(gj, "junction");
    let pieces = features(gj, "road");
    let junction_ids: std::collections::BTreeSet<&str> = junctions.iter().map(|j| j["id"].as_str().unwrap()).collect();
    assert_eq!(junction_ids.len(), junctions.len(), "junction ids repeat");
    let mut dead_ends = 0;
    for p in &pieces {
        let road = p["road"].as_str().unwrap();
        assert!(input_ids.contains(road), "piece {} of unknown road {road}", p["id"]);
        for end in ["from", "to"] {
            match &p[end] {
                serde_json::Value::Null => dead_ends += 1,
                serde_json::Value::String(j) => {
                    assert!(junction_ids.contains(j.as_str()), "piece {}: {end} {j} is no junction", p["id"])
                }
                other => panic!("piece {}: {end} is {other}", p["id"]),
            }
        }
    }
    for j in &junctions {
        let id = j["id"].as_str().unwrap();
        let ends: usize = pieces.iter().map(|p| usize::from(p["from"] == id) + usize::from(p["to"] == id)).sum();
        assert_eq!(
            j["degree"].as_u64(),
            Some(ends as u64),
            "junction {id}: degree {} but {ends} piece ends",
            j["degree"]
        );
        let roads: Vec<&str> = j["roads"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
        assert!(!roads.is_empty(), "junction {id} names no road");
        assert!(roads.windows(2).all(|w| w[0] < w[1]), "junction {id}: roads {roads:?} not sorted and unique");
        for r in &roads {
            assert!(input_ids.contains(*r), "junction {id} names unknown road {r}");
        }
        for p in pieces.iter().filter(|p| p["from"] == id || p["to"] == id) {
            let road = p["road"].as_str().unwrap();
            assert!(
                roads.contains(&road),
                "junction {id}: piece {} of road {road} ends there, roads {roads:?}",
                p["id"]
            );
        }
    }
    dead_ends
}

/// Two crossing roads with numeric ids and a dead end off one of them.
const CROSS_AND_DEAD_END: &str = r#"{"units": "m", "roads": [
    {"id": 1, "width": 7, "points": [[-100, 0], [100, 0]]},
    {"id": 2, "width": 7, "points": [[0, -100], [0, 100]]},
    {"id": "dead", "width": 7, "points": [[50, 0], [50, 60]]}]}"#;

#[test]
fn explicit_format_reads_the_file_as_detection_does() {
    let dir = scratch("format");
    let input = dir.join("roads.json");
    std::fs::write(&input, CROSS_AND_DEAD_END).unwrap();
    let (given, detected) = (dir.join("given"), dir.join("detected"));
    for (out, extra) in [(&given, &["--format", "roads"][..]), (&detected, &[][..])] {
        let mut args: Vec<&std::ffi::OsStr> =
            vec!["generate".as_ref(), input.as_os_str(), "--out".as_ref(), out.as_os_str()];
        args.extend(extra.iter().map(std::ffi::OsStr::new));
        let o = roadgen(&args);
        assert!(o.status.success(), "{extra:?}: {}", String::from_utf8_lossy(&o.stderr));
    }
    let text = std::fs::read_to_string(given.join("network.geojson")).unwrap();
    assert_eq!(text, std::fs::read_to_string(detected.join("network.geojson")).unwrap());
    let gj: serde_json::Value = serde_json::from_str(&text).unwrap();
    let ids = input_road_ids(&input);
    assert_eq!(ids.iter().map(String::as_str).collect::<Vec<_>>(), ["1", "2", "dead"]);
    // Both ends of roads 1 and 2 and the far end of `dead` are dead ends.
    assert_eq!(check_references(&gj, &ids), 5);
    // A crossing (4 arms) of roads 1 and 2 and a T (3 arms) where `dead` starts on road 1.
    let mut junctions: Vec<(u64, Vec<&str>)> = features(&gj, "junction")
        .iter()
        .map(|j| {
            (
                j["degree"].as_u64().unwrap(),
                j["roads"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect(),
            )
        })
        .collect();
    junctions.sort();
    assert_eq!(junctions, [(3, vec!["1", "dead"]), (4, vec!["1", "2"])]);
    // Road 1 is cut at both junctions, road 2 at one.
    let pieces = features(&gj, "road");
    let of = |road: &str| pieces.iter().filter(|p| p["road"] == road).count();
    assert_eq!((of("1"), of("2"), of("dead")), (3, 2, 1));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn wrong_format_is_a_clear_error() {
    let dir = scratch("wrong-format");
    let input = dir.join("roads.json");
    std::fs::write(&input, CROSS_AND_DEAD_END).unwrap();
    // A format the file is not in: one line naming the file and the member it lacks.
    let e = one_line_error(&input, &["--format", "unreal"]);
    assert!(e.contains("roads.json") && e.contains("\"Splines\""), "{e}");
    let e = one_line_error(&input, &["--format", "pointcloud"]);
    assert!(e.contains("roads.json") && e.contains("\"GameObjects\""), "{e}");
    // A format that does not exist: a usage error naming the value and the formats there are.
    // (clap adds a blank line and a hint to try --help after the error line.)
    let out = dir.join("out");
    let o = roadgen(&[
        "generate".as_ref(),
        input.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
        "--format".as_ref(),
        "shapefile".as_ref(),
    ]);
    assert!(!o.status.success());
    let stderr = String::from_utf8(o.stderr).unwrap();
    let first = stderr.lines().next().unwrap_or_default();
    for word in ["shapefile", "--format", "roads", "unreal", "pointcloud"] {
        assert!(first.contains(word), "{word:?} not in the first line: {stderr}");
    }
    assert!(stderr.lines().skip(1).all(|l| l.trim().is_empty() || l.contains("--help")), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!out.exists(), "an output directory was made for a usage error");
    let _ = std::fs::remove_dir_all(&dir);
}

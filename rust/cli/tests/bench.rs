//! `roadgen bench`: one JSON object on stdout with every stage's median time, the same outputs at
//! any thread count, one clear line on bad input.

use std::path::PathBuf;
use std::process::Command;

fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data").join(rel)
}

/// Runs `roadgen bench INPUT ARGS...`; returns the parsed JSON and stderr.
fn bench(input: &std::path::Path, extra: &[&str]) -> (serde_json::Value, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_roadgen")).arg("bench").arg(input).args(extra).output().unwrap();
    let stderr = String::from_utf8(o.stderr).unwrap();
    assert!(o.status.success(), "{stderr}");
    let stdout = String::from_utf8(o.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 1, "stdout must be one JSON line: {stdout}");
    (serde_json::from_str(&stdout).unwrap(), stderr)
}

const STAGES: [&str; 6] = ["parse_s", "network_s", "meshes_s", "geojson_s", "glb_s", "total_s"];
const COUNTS: [&str; 6] = ["roads", "junctions", "pieces", "blocks", "triangles", "glb_bytes"];

#[test]
fn bench_prints_positive_finite_stage_medians() {
    let (j, stderr) = bench(&data("golden/hole.roads.json"), &["--runs", "3", "--threads", "1"]);
    for key in STAGES {
        let v = j[key].as_f64().unwrap_or_else(|| panic!("{key} missing or not a number: {j}"));
        assert!(v.is_finite() && v > 0.0, "{key} = {v}");
    }
    for key in COUNTS {
        assert!(j[key].as_u64().unwrap_or_else(|| panic!("{key} missing: {j}")) > 0, "{key}: {j}");
    }
    assert_eq!(j["runs"], 3);
    assert_eq!(j["threads"], 1);
    assert_eq!(j["identical_runs"], true);
    // No relation between the stage times is asserted: on an input this small each is well
    // under a millisecond, and the hand-over of every call to the worker pool alone varies by
    // as much on a busy machine.
    // Linux reports the peak memory; elsewhere it is null.
    assert!(j["peak_rss_mb"].is_null() || j["peak_rss_mb"].as_f64().unwrap() > 0.0, "{j}");
    for key in ["network_cpu_s", "meshes_cpu_s"] {
        assert!(j[key].is_null() || j[key].as_f64().unwrap() >= 0.0, "{key}: {j}");
    }
    if let (Some(network), Some(all)) = (j["peak_rss_network_mb"].as_f64(), j["peak_rss_mb"].as_f64()) {
        assert!(network > 0.0 && network <= all, "{j}");
    }
    // Progress goes to stderr, one line per run, one for parsing and one for the updates.
    assert_eq!(stderr.lines().count(), 5, "{stderr}");
    // The updates: every road of the 8 moved once (fewer roads than the default 100).
    assert_eq!(j["updates"], 8, "{j}");
    for key in ["update_s", "update_p90_s", "update_network_s", "update_blocks_s", "update_meshes_s"] {
        let v = j[key].as_f64().unwrap_or_else(|| panic!("{key} missing or not a number: {j}"));
        assert!(v.is_finite() && v >= 0.0, "{key} = {v}");
    }
    assert!(j["update_s"].as_f64().unwrap() > 0.0, "{j}");
    assert!(j["update_p90_s"].as_f64().unwrap() >= j["update_s"].as_f64().unwrap(), "{j}");
    assert!(j["update_max_s"].as_f64().unwrap() >= j["update_p90_s"].as_f64().unwrap(), "{j}");
    assert_eq!(j["update_full_builds"].as_u64().map(|n| n <= 8), Some(true), "{j}");
    // Every move changes something, so every update that was not a full build built its window.
    let (builds, full) = (j["update_window_builds"].as_u64(), j["update_full_builds"].as_u64().unwrap_or(0));
    assert!(builds.is_some_and(|b| b + full >= 8), "{j}");
}

#[test]
fn bench_without_updates() {
    let (j, stderr) = bench(&data("golden/x.roads.json"), &["--runs", "1", "--updates", "0"]);
    assert_eq!(j["updates"], 0);
    assert!(j["update_s"].is_null(), "{j}");
    assert_eq!(stderr.lines().count(), 2, "{stderr}");
}

#[test]
fn bench_outputs_do_not_depend_on_the_thread_count() {
    let input = data("osm/kotka.roads.json");
    let (one, _) = bench(&input, &["--runs", "1", "--threads", "1"]);
    let (two, _) = bench(&input, &["--runs", "1", "--threads", "2"]);
    assert_eq!(one["threads"], 1);
    assert_eq!(two["threads"], 2);
    assert_eq!(one["output_digest"], two["output_digest"]);
    assert_eq!(one["triangles"], two["triangles"]);
    assert_eq!(one["roads"], 181);
}

#[test]
fn bench_takes_the_settings_of_generate() {
    let input = data("golden/x.roads.json");
    let (plain, _) = bench(&input, &["--runs", "1"]);
    let (wide, _) = bench(&input, &["--runs", "1", "--sidewalk-width", "0", "--corner-radius", "2"]);
    assert_ne!(plain["output_digest"], wide["output_digest"]);
}

#[test]
fn bench_bad_input_gives_one_clear_line() {
    let dir = std::env::temp_dir().join(format!("roadgen-bench-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"roads": [{"id": 1, "width": 7, "points": [[0, 0], [1"#).unwrap();
    for input in [bad, dir.join("missing.json")] {
        let o = Command::new(env!("CARGO_BIN_EXE_roadgen")).arg("bench").arg(&input).output().unwrap();
        assert!(!o.status.success());
        assert!(o.stdout.is_empty());
        let stderr = String::from_utf8(o.stderr).unwrap();
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
        assert!(stderr.contains(&*input.file_name().unwrap().to_string_lossy()), "{stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

//! Reproducer of slow `pipeline` artifacts (not a fuzz target: a plain binary).
//!
//! `cargo run --release --bin slow_repro -- [--wait SECONDS] [--debug] FILE...` decodes each file
//! exactly as the `pipeline` target does (`decode::input`), prints the decoded input compactly
//! (roads, points, coordinate ranges, widths, settings), then times `build` and `build_meshes`
//! separately in a worker thread (`--debug`: the whole decoded input as Rust `Debug`, for a
//! regression test). When a stage is still running after `--wait` seconds
//! (default [`DEFAULT_WAIT`]) the file is reported as still running and the next file is not
//! attempted (the worker cannot be stopped; the process exits).

mod decode;

use arbitrary::Unstructured;
use roadgen_core::{build, build_meshes, Input, MeshCollector, RoadGeometry, Settings};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Seconds to wait for one stage before reporting it as still running.
const DEFAULT_WAIT: u64 = 60;

fn summary(input: &Input, settings: &Settings) -> String {
    let mut out = format!(
        "settings: tol {} corner {} merge {} snap {} min_block {} sidewalk {}/{} curb {}x{}\n",
        settings.tolerance,
        settings.corner_radius,
        settings.merge_distance,
        settings.snap_distance,
        settings.min_block_area,
        settings.profile.sidewalk_left,
        settings.profile.sidewalk_right,
        settings.profile.curb_width,
        settings.profile.curb_height
    );
    out += &format!("roads: {}\n", input.roads.len());
    for r in &input.roads {
        let (kind, pts): (&str, Vec<_>) = match &r.geometry {
            RoadGeometry::Polyline(p) => ("poly", p.clone()),
            RoadGeometry::Spline(p) => ("spline", p.iter().map(|s| s.location).collect()),
        };
        let range = |f: fn(&roadgen_core::Point3) -> f64| {
            pts.iter().map(f).fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)))
        };
        let (x0, x1) = range(|p| p.x);
        let (y0, y1) = range(|p| p.y);
        out += &format!(
            "  {} {kind}{} {} pts layer {} width {:e} x [{x0:e}, {x1:e}] y [{y0:e}, {y1:e}]",
            r.id,
            if r.closed { " closed" } else { "" },
            pts.len(),
            r.layer,
            r.width
        );
        let p = &r.profile;
        if p.curb_height.is_some() || p.sidewalk_left.is_some() {
            out += &format!(
                " profile curb {:?}x{:?} sidewalk {:?}/{:?}",
                p.curb_width, p.curb_height, p.sidewalk_left, p.sidewalk_right
            );
        }
        out += &format!("\n    pts {:?}\n", pts.iter().map(|p| (p.x, p.y)).collect::<Vec<_>>());
    }
    out
}

/// Vertex counts of the network's outputs: centerline points of all pieces, and the largest
/// ring (exterior plus holes) of a junction, a piece and a block.
fn sizes(net: &roadgen_core::Network) -> String {
    let verts = |p: &roadgen_core::Polygon| p.exterior.len() + p.holes.iter().map(Vec::len).sum::<usize>();
    let centerline: usize = net.pieces.iter().map(|p| p.centerline.len()).sum();
    let junction = net.junctions.iter().map(|j| verts(&j.polygon)).max().unwrap_or(0);
    let piece = net.pieces.iter().map(|p| verts(&p.polygon)).max().unwrap_or(0);
    let block = net.blocks.iter().map(|b| verts(&b.polygon)).max().unwrap_or(0);
    let lots: usize = net.blocks.iter().flat_map(|b| &b.lots).map(verts).sum();
    format!(
        "centerline points {centerline}; largest polygon vertices: junction {junction}, piece {piece}, block {block}; lot vertices {lots}; diagnostics {:?}",
        net.diagnostics.iter().map(|d| format!("{:?}", d.code)).collect::<Vec<_>>()
    )
}

/// Runs `f` in a thread; `None` when it is still running after `wait`.
fn timed<T: Send + 'static>(wait: Duration, f: impl FnOnce() -> T + Send + 'static) -> Option<(T, Duration)> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let t = Instant::now();
        let v = f();
        let _ = tx.send((v, t.elapsed()));
    });
    rx.recv_timeout(wait).ok()
}

fn main() {
    let mut wait = Duration::from_secs(DEFAULT_WAIT);
    let mut files = Vec::new();
    let mut debug = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--debug" {
            debug = true;
        } else if a == "--wait" {
            wait = Duration::from_secs(args.next().and_then(|s| s.parse().ok()).expect("--wait SECONDS"));
        } else {
            files.push(a);
        }
    }
    for file in files {
        let data = std::fs::read(&file).expect("readable artifact");
        let mut u = Unstructured::new(&data);
        println!("== {file}");
        let Ok((input, settings)) = decode::input(&mut u) else {
            println!("does not decode");
            continue;
        };
        print!("{}", summary(&input, &settings));
        if debug {
            println!("{settings:?}\n{:?}", input.roads);
        }
        let Some((net, t)) = timed(wait, move || build(&input, &settings)) else {
            println!("build: still running after {wait:?}");
            std::process::exit(2);
        };
        let Ok(net) = net else {
            println!("build: error after {t:?}");
            continue;
        };
        println!(
            "build: {t:.3?}: {} junctions, {} pieces, {} blocks, {} diagnostics",
            net.junctions.len(),
            net.pieces.len(),
            net.blocks.len(),
            net.diagnostics.len()
        );
        println!("  {}", sizes(&net));
        let Some((meshes, t)) = timed(wait, move || {
            let mut m = MeshCollector::default();
            build_meshes(&net, &settings, &mut m);
            m
        }) else {
            println!("build_meshes: still running after {wait:?}");
            std::process::exit(2);
        };
        let verts: usize = meshes.meshes.iter().map(|m| m.vertices.len()).sum();
        let tris: usize = meshes.meshes.iter().map(|m| m.triangles.len()).sum();
        println!("build_meshes: {t:.3?}: {} meshes, {verts} vertices, {tris} triangles", meshes.meshes.len());
        let mut big: Vec<_> = meshes.meshes.iter().map(|m| (m.vertices.len(), m.id.as_str())).collect();
        big.sort_unstable_by(|a, b| b.cmp(a));
        println!("  largest meshes (vertices, id): {:?}", &big[..big.len().min(3)]);
    }
}

//! The moves of `roadgen bench --updates N` (road `k·n/N` moved by (1.5 m, −1 m), one update
//! each, on one worker thread unless `THREADS` says otherwise), for looking at updates more
//! closely than the bench does:
//!
//! ```sh
//! cargo build --release -p roadgen-cli --example update_moves
//! # Time each move; print the indices of the share SHARE of moves nearest the median (the
//! # slowest moves, with their window builds, on stderr).
//! target/release/examples/update_moves time INPUT N SHARE > target/perf/median.txt
//! # Instructions of those moves alone (each made through `profiled_update`).
//! valgrind --tool=callgrind --toggle-collect='*profiled_update*' \
//!     target/release/examples/update_moves profile INPUT N target/perf/median.txt
//! # Compare the network after every move with a full build of the edited input.
//! target/release/examples/update_moves check INPUT N
//! # Drag N roads in small steps, as a designer drags a spline (THREADS=2 for two threads).
//! THREADS=2 target/release/examples/update_moves drag INPUT N
//! # With AGAIN=1, `time` and `profile` make each move twice and look at the second update
//! # only: a window built where nothing changed, every result from the session's memo.
//! AGAIN=1 target/release/examples/update_moves time INPUT N SHARE
//! # With MESHES=1, `time` and `profile` make each move with its meshes
//! # (`Session::update_with_meshes`, into a `MeshCollector`).
//! MESHES=1 target/release/examples/update_moves time INPUT N SHARE
//! # With EVERY=1, `time` also gives the time of every move, slowest last, with its
//! # `UpdateStats`.
//! EVERY=1 target/release/examples/update_moves time INPUT N SHARE
//! ```

use roadgen_core::{build, Changes, Edit, Error, MeshCollector, Session, Settings};
use roadgen_formats::{read_str, ReadOptions};
use std::time::Instant;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// How many of the slowest moves `time` names.
const SLOWEST: usize = 12;

/// The move of `roadgen bench` (metres).
const SHIFT: (f64, f64) = (1.5, -1.0);

#[inline(never)]
fn profiled_update(session: &mut Session, edits: &[Edit], meshes: bool) {
    std::hint::black_box(update(session, edits, meshes).map(|c| c.added.len()).ok());
}

/// One update, with its meshes when `meshes` is set.
fn update(session: &mut Session, edits: &[Edit], meshes: bool) -> Result<Changes, Error> {
    if meshes {
        let mut sink = MeshCollector::default();
        let changes = session.update_with_meshes(edits, &mut sink);
        std::hint::black_box(sink);
        changes
    } else {
        session.update(edits)
    }
}

fn usage() -> ! {
    eprintln!("usage: update_moves time INPUT N SHARE | profile INPUT N LIST | check INPUT N | drag INPUT N");
    std::process::exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        usage();
    }
    let threads = std::env::var("THREADS").ok().and_then(|t| t.parse().ok()).unwrap_or(1);
    rayon::ThreadPoolBuilder::new().num_threads(threads).build_global().ok();
    let text = std::fs::read_to_string(&args[1]).unwrap_or_else(|e| panic!("{}: {e}", args[1]));
    let loaded = read_str(&text, &args[1], &ReadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let n = loaded.input.roads.len();
    let count = args[2].parse::<usize>().unwrap_or_else(|_| usage()).min(n);
    let settings = Settings::default();
    let listed: Vec<usize> = match args[0].as_str() {
        "profile" => std::fs::read_to_string(args.get(3).unwrap_or_else(|| usage()))
            .expect("list")
            .split_whitespace()
            .map(|s| s.parse().expect("index"))
            .collect(),
        "time" | "check" => Vec::new(),
        "drag" => {
            drag(&loaded.input, count, settings);
            return;
        }
        _ => usage(),
    };
    let mut session = Session::new(loaded.input.clone(), settings).expect("session");
    let (mut times, mut differing) = (Vec::new(), 0);
    let again = std::env::var_os("AGAIN").is_some() && args[0] != "check";
    let meshes = std::env::var_os("MESHES").is_some() && args[0] != "check";
    for k in 0..count {
        let road = loaded.input.roads[k * n / count].translated(SHIFT.0, SHIFT.1);
        let edits = [Edit::Upsert(road)];
        if again {
            update(&mut session, &edits, meshes).expect("update");
        }
        if listed.contains(&k) {
            // On a worker of the pool, where `Session::update` does its work, so that callgrind
            // (which counts per thread) sees the whole update inside this call.
            rayon::scope(|_| profiled_update(&mut session, &edits, meshes));
            continue;
        }
        let t = Instant::now();
        let changes = update(&mut session, &edits, meshes).expect("update");
        times.push((t.elapsed().as_secs_f64(), k, changes.stats));
        if args[0] == "check" {
            let full = build(&session.input(), &settings).expect("build");
            if *session.network() != full {
                differing += 1;
                eprintln!("move {k} (road {}): the update differs from a full build", edits_id(&edits));
            }
        }
    }
    match args[0].as_str() {
        "time" => {
            let share: f64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or_else(|| usage());
            times.sort_by(|a, b| a.0.total_cmp(&b.0));
            let keep = ((share * count as f64).round() as usize).clamp(1, count);
            let from = (count - keep) / 2;
            let picked = &times[from..from + keep];
            let rounds: usize = times.iter().map(|t| t.2.rounds).sum();
            let total: f64 = times.iter().map(|t| t.0).sum();
            eprintln!(
                "median {:.3} ms, p90 {:.3} ms, total {:.1} ms, {rounds} window builds; picked {keep} moves from {:.3} to {:.3} ms",
                1e3 * times[count / 2].0,
                1e3 * times[count * 9 / 10].0,
                1e3 * total,
                1e3 * picked[0].0,
                1e3 * picked[keep - 1].0
            );
            let slowest: Vec<String> = times
                .iter()
                .rev()
                .take(SLOWEST)
                .map(|(t, k, s)| format!("move {k} {:.3} ms ({} window builds)", 1e3 * t, s.rounds))
                .collect();
            eprintln!("slowest: {}", slowest.join(", "));
            for (_, k, _) in picked {
                println!("{k}");
            }
            if std::env::var_os("EVERY").is_some() {
                for (t, k, s) in &times {
                    eprintln!(
                        "move {k} {:.3} ms: network {:.3} ms ({} roads, {} builds), blocks {:.3} ms (joins {}/{}{})",
                        1e3 * t,
                        1e3 * s.network_s,
                        s.roads_rebuilt,
                        s.rounds,
                        1e3 * s.blocks_s,
                        s.joins_made,
                        s.joins_tried,
                        if s.full_blocks { ", whole network" } else { "" }
                    );
                }
            }
        }
        "check" => {
            eprintln!("{count} moves, {differing} differing from a full build");
            if differing > 0 {
                std::process::exit(1);
            }
        }
        _ => {}
    }
}

/// Drags `count` roads spread over the input, one after the other, each by `DRAG_STEPS` steps
/// of (0.25 m, −0.15 m), one update per step; prints the median of the first steps and of the
/// others.
fn drag(input: &roadgen_core::Input, count: usize, settings: Settings) {
    const DRAG_STEPS: usize = 20;
    let n = input.roads.len();
    let mut session = Session::new(input.clone(), settings).expect("session");
    let (mut first, mut later) = (Vec::new(), Vec::new());
    for k in 0..count {
        let road = &input.roads[k * n / count];
        for step in 1..=DRAG_STEPS {
            let moved = road.translated(0.25 * step as f64, -0.15 * step as f64);
            let t = Instant::now();
            session.update(&[Edit::Upsert(moved)]).expect("update");
            let dt = t.elapsed().as_secs_f64();
            if step == 1 {
                first.push(dt)
            } else {
                later.push(dt)
            }
        }
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        1e3 * v[v.len() / 2]
    };
    eprintln!(
        "drag of {count} roads, {DRAG_STEPS} steps each: first step median {:.3} ms, later steps median {:.3} ms",
        median(first),
        median(later)
    );
}

fn edits_id(edits: &[Edit]) -> &str {
    match &edits[0] {
        Edit::Upsert(r) => &r.id,
        Edit::Remove(id) => id,
    }
}

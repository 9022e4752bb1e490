//! The fixed cost of a library call made from a host's thread: `Session::update` with no
//! edits, called again and again with a pause between calls (as a drag at frame rate calls it,
//! the workers asleep in between), the calling thread a worker of the pool (`join`, as after
//! the C ABI's `rg_workers_start`) or not (`hand`, every call handed to a worker and waited
//! for):
//!
//! ```sh
//! cargo build --release -p roadgen-cli --example call_overhead
//! target/release/examples/call_overhead tests/data/osm/kotka.roads.json hand
//! target/release/examples/call_overhead tests/data/osm/kotka.roads.json join
//! ```

use roadgen_core::{Session, Settings};
use roadgen_formats::{read_str, ReadOptions};
use std::time::{Duration, Instant};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Calls timed.
const CALLS: usize = 3000;

/// The pause between calls: long enough for rayon's idle workers to fall asleep.
const PAUSE: Duration = Duration::from_micros(300);

/// Worker threads of the pool.
const THREADS: usize = 2;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(path), Some(mode)) = (args.first(), args.get(1)) else {
        eprintln!("usage: call_overhead INPUT hand|join");
        std::process::exit(2);
    };
    let builder = rayon::ThreadPoolBuilder::new().num_threads(THREADS);
    let builder = if mode == "join" { builder.use_current_thread() } else { builder };
    builder.build_global().expect("the worker pool");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let loaded = read_str(&text, path, &ReadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let mut session = Session::new(loaded.input, Settings::default()).expect("a session");
    let mut times: Vec<f64> = (0..CALLS)
        .map(|_| {
            std::thread::sleep(PAUSE);
            let t = Instant::now();
            std::hint::black_box(session.update(&[]).ok());
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!("{mode}: median {:.1} us, p90 {:.1} us over {CALLS} calls", times[CALLS / 2], times[CALLS * 9 / 10]);
}

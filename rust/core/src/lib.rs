//! RoadGen's core: turns road centerlines into a planar street network.
//!
//! The one entry point is [`build`]: input roads and [`Settings`] in, a [`Network`] of
//! junctions, road pieces and city blocks out. It is pure and deterministic (no IO, no global
//! state): the same input gives the same output, byte for byte, at any thread count.
//!
//! ## Units
//! Metres, right-handed, z up; counter-clockwise rings have positive area.

// Comparisons written `!(a > b)` are meant to be true for NaN as well.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

mod blocks;
mod boxgrid;
mod curb;
mod error;
mod geom;
mod graph;
mod incremental;
mod junction;
mod mesh;
mod mesh_types;
mod overlay;
mod pipeline;
#[cfg(test)]
#[path = "proptests/config.rs"]
mod proptest_config;
mod settings;
mod types;

pub mod flatten;
pub mod triangulate;
pub mod validate;

pub use error::Error;
pub use incremental::{Changes, Edit, Session, UpdateStats};
pub use mesh::{build_meshes, build_meshes_of};
pub use mesh_types::*;
pub use pipeline::{build, build_with_meshes};
pub use settings::{Profile, Settings};
pub use types::*;

/// Runs `op` on a thread of the worker pool (rayon's global pool, or the pool the caller
/// already runs in) and waits for it. A host calls the library from its own threads (an
/// editor's game thread); without this, every parallel loop of a call would hand its work to
/// the pool and wait for it on its own, which costs more than a small incremental update's
/// parallel work saves.
pub(crate) fn in_pool<R: Send>(op: impl FnOnce() -> R + Send) -> R {
    rayon::scope(|_| op())
}

/// [`in_pool`] for short calls made of many small parallel loops (an incremental update):
/// every other worker of the pool stays on the call until it ends, taking the loops' work as
/// soon as it is there (`rayon::yield_now`), instead of falling asleep between loops and
/// being woken for each, which costs more than one loop of a small update gains. The helpers
/// are the oldest work the call leaves in its queue, so a worker that steals any of the call's
/// work took a helper first: the calling worker never runs one while the call goes on.
pub(crate) fn in_pool_eager<R: Send>(op: impl FnOnce() -> R + Send) -> R {
    use std::sync::atomic::{AtomicBool, Ordering};
    /// Ends the helpers however `op` ends.
    struct Done<'a>(&'a AtomicBool);
    impl Drop for Done<'_> {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Release);
        }
    }
    let done = AtomicBool::new(false);
    rayon::scope(|s| {
        for _ in 1..rayon::current_num_threads() {
            s.spawn(|_| {
                while !done.load(Ordering::Acquire) {
                    if rayon::yield_now() != Some(rayon::Yield::Executed) {
                        std::hint::spin_loop();
                    }
                }
            });
        }
        let _done = Done(&done);
        op()
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn in_pool_runs_on_a_worker_thread_from_outside_and_inside_the_pool() {
        // From a thread of no pool (the test's own), the work moves to a worker.
        assert!(rayon::current_thread_index().is_none());
        assert!(super::in_pool(rayon::current_thread_index).is_some());
        // From a worker of another pool, it stays there.
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let (outer, inner) =
            pool.install(|| (std::thread::current().id(), super::in_pool(|| std::thread::current().id())));
        assert_eq!(outer, inner);
    }

    #[test]
    fn in_pool_eager_runs_many_small_loops_and_ends_at_any_thread_count() {
        use rayon::prelude::*;
        for threads in [1, 2, 4] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            // Many small loops in a row, on a worker of the pool.
            let sums = pool.install(|| {
                super::in_pool_eager(|| {
                    (0..200u64).map(|k| (0..64u64).into_par_iter().map(|i| i * k).sum::<u64>()).sum::<u64>()
                })
            });
            assert_eq!(sums, (0..200u64).sum::<u64>() * (0..64u64).sum::<u64>(), "{threads} threads");
        }
    }

    #[test]
    fn in_pool_eager_ends_its_helpers_when_the_work_panics() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let caught = pool.install(|| std::panic::catch_unwind(|| super::in_pool_eager(|| panic!("inside"))));
        assert!(caught.is_err());
        // The pool is free again.
        assert_eq!(pool.install(|| super::in_pool_eager(|| 7)), 7);
    }
}

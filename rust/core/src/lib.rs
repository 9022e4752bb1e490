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
}

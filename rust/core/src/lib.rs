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

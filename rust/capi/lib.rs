//! RoadGen's C ABI: the static library that the Unreal Engine plugin links.
//!
//! This crate is a thin shell for now: it re-exports the core so that the workspace's root
//! package builds as the library the plugin will link. The exported C functions arrive with the
//! C ABI work.

pub use roadgen_core as core;

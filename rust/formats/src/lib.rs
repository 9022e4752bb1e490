//! RoadGen's file formats: readers that turn road files into the core's [`Input`] (in metres,
//! right-handed), and writers that turn a [`Network`] into GeoJSON and a PNG preview, and its meshes into glTF and OBJ (back in
//! the input's units and frame).
//!
//! [`Input`]: roadgen_core::Input
//! [`Network`]: roadgen_core::Network

mod geojson;
mod gltf;
mod obj;
mod preview;
mod read;

pub use geojson::write_geojson;
pub use gltf::{write_glb, GltfError, GltfOptions};
pub use obj::{write_obj, ObjFiles};
pub use preview::{render_preview, PreviewError, PreviewOptions};
pub use read::{read_file, read_str, Format, Frame, Loaded, ReadError, ReadOptions};

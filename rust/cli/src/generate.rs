//! `roadgen generate`: the network, its GeoJSON, glTF meshes and a PNG preview, written to a folder.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use roadgen_core::{build_with_meshes, MeshCollector};
use roadgen_formats::{render_preview, write_geojson, write_glb, write_obj, GltfOptions, PreviewOptions};

use crate::options::InputArgs;

/// The options of `roadgen generate`.
#[derive(Args, Debug)]
pub(crate) struct Generate {
    #[command(flatten)]
    input: InputArgs,
    /// Folder to write `network.geojson`, `network.glb` and `preview.png` to (created if missing).
    #[arg(long, short)]
    out: PathBuf,
    /// Longer side of the preview picture (pixels).
    #[arg(long, default_value_t = PreviewOptions::default().max_size_px)]
    preview_size: u32,
    /// Also write the meshes as Wavefront OBJ (`network.obj` with `network.mtl`; metres, y up).
    #[arg(long)]
    obj: bool,
}

/// Writes `bytes` to `dir/name`, or says which file could not be written.
fn write_file(dir: &std::path::Path, name: &str, bytes: impl AsRef<[u8]>) -> Result<(), String> {
    let path = dir.join(name);
    std::fs::write(&path, bytes).map_err(|e| format!("cannot write {}: {}", path.display(), e))
}

/// Runs `roadgen generate`; returns the one-line summary.
pub(crate) fn generate(args: &Generate) -> Result<String, String> {
    let t0 = Instant::now();
    let loaded = args.input.load()?;
    let settings = args.input.settings();
    // Network and meshes in one call: road and junction meshes are built while blocks are found.
    let t_build = Instant::now();
    let mut meshes = MeshCollector::default();
    let net = build_with_meshes(&loaded.input, &settings, &mut meshes).map_err(|e| args.input.engine_error(e))?;
    let build_s = t_build.elapsed().as_secs_f64();
    std::fs::create_dir_all(&args.out).map_err(|e| format!("cannot create {}: {}", args.out.display(), e))?;
    let gj = args.out.join("network.geojson");
    std::fs::write(&gj, write_geojson(&net, &loaded.frame))
        .map_err(|e| format!("cannot write {}: {}", gj.display(), e))?;
    let png = render_preview(&net, &PreviewOptions { max_size_px: args.preview_size, ..PreviewOptions::default() })
        .map_err(|e| format!("cannot draw the preview: {e}"))?;
    let pp = args.out.join("preview.png");
    std::fs::write(&pp, png).map_err(|e| format!("cannot write {}: {}", pp.display(), e))?;
    let triangles: usize = meshes.meshes.iter().map(|m| m.triangles.len()).sum();
    let glb =
        write_glb(&meshes.meshes, &GltfOptions::default()).map_err(|e| format!("cannot write the meshes: {e}"))?;
    write_file(&args.out, "network.glb", glb)?;
    if args.obj {
        let files = write_obj(&meshes.meshes, "network.mtl");
        write_file(&args.out, "network.obj", files.obj)?;
        write_file(&args.out, "network.mtl", files.mtl)?;
    }
    Ok(format!(
        "{} roads, {} junctions, {} road pieces, {} blocks, {} diagnostics, {} triangles in {:.3} s (network and meshes {:.3} s) -> {}",
        loaded.input.roads.len(),
        net.junctions.len(),
        net.pieces.len(),
        net.blocks.len(),
        net.diagnostics.len(),
        triangles,
        t0.elapsed().as_secs_f64(),
        build_s,
        args.out.display()
    ))
}

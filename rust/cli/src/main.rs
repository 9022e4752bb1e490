//! `roadgen`: runs the RoadGen engine on road files.
//!
//! `roadgen generate INPUT --out DIR` writes `DIR/network.geojson`, `DIR/network.glb` and
//! `DIR/preview.png` and
//! prints a one-line summary. Errors are one line on stderr and a non-zero exit status.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};
use roadgen_core::{build, build_meshes, MeshCollector, Profile, Settings};
use roadgen_formats::{
    read_file, render_preview, write_geojson, write_glb, Format, GltfOptions, PreviewOptions, ReadOptions,
};

/// Turns road centerlines into a street network: junctions, road pieces and city blocks.
#[derive(Parser, Debug)]
#[command(name = "roadgen", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Builds the network of a road file and writes GeoJSON, glTF meshes and a PNG preview.
    Generate(Generate),
}

#[derive(Args, Debug)]
struct Generate {
    /// The road file: RoadGen's road JSON, an Unreal spline export, or a point-cloud road file.
    input: PathBuf,
    /// Folder to write `network.geojson`, `network.glb` and `preview.png` to (created if missing).
    #[arg(long, short)]
    out: PathBuf,
    /// Input format, instead of detecting it from the content: roads, unreal or pointcloud.
    #[arg(long)]
    format: Option<Format>,
    /// Carriageway width for inputs that carry none (metres).
    #[arg(long, default_value_t = ReadOptions::default().default_width)]
    default_width: f64,
    /// Largest distance between a spline and its flattened polyline (metres).
    #[arg(long, default_value_t = Settings::default().tolerance)]
    tolerance: f64,
    /// A road end this close to another road joins it (metres).
    #[arg(long, default_value_t = Settings::default().snap_distance)]
    snap_distance: f64,
    /// Height difference above which crossing roads with heights do not meet (metres).
    #[arg(long, default_value_t = Settings::default().clearance)]
    clearance: f64,
    /// Radius of the rounded curb at right-angle junction corners; sharper corners get a smaller one (metres).
    #[arg(long, default_value_t = Settings::default().corner_radius)]
    corner_radius: f64,
    /// Extra distance, beyond the widest road, within which crossings become one junction (metres).
    #[arg(long, default_value_t = Settings::default().merge_distance)]
    merge_distance: f64,
    /// Faces smaller than this give no block (square metres).
    #[arg(long, default_value_t = Settings::default().min_block_area)]
    min_block_area: f64,
    /// Roads with a coordinate or width beyond this are left out with a diagnostic (metres).
    #[arg(long, default_value_t = Settings::default().max_coordinate)]
    max_coordinate: f64,
    /// Curb height above the carriageway, for roads that do not set their own (metres).
    #[arg(long, default_value_t = Profile::default().curb_height)]
    curb_height: f64,
    /// Width of the curb's top (metres).
    #[arg(long, default_value_t = Profile::default().curb_width)]
    curb_width: f64,
    /// Sidewalk width on each side of a road, for roads that do not set their own (metres).
    #[arg(long, default_value_t = Profile::default().sidewalk_left)]
    sidewalk_width: f64,
    /// Stop at the first bad road instead of leaving it out with a diagnostic.
    #[arg(long)]
    strict: bool,
    /// Longer side of the preview picture (pixels).
    #[arg(long, default_value_t = PreviewOptions::default().max_size_px)]
    preview_size: u32,
}

fn generate(args: &Generate) -> Result<String, String> {
    let t0 = Instant::now();
    let opts = ReadOptions { format: args.format, default_width: args.default_width };
    let loaded = read_file(&args.input, &opts).map_err(|e| e.to_string())?;
    let settings = Settings {
        tolerance: args.tolerance,
        snap_distance: args.snap_distance,
        clearance: args.clearance,
        corner_radius: args.corner_radius,
        merge_distance: args.merge_distance,
        min_block_area: args.min_block_area,
        max_coordinate: args.max_coordinate,
        profile: Profile {
            curb_height: args.curb_height,
            curb_width: args.curb_width,
            sidewalk_left: args.sidewalk_width,
            sidewalk_right: args.sidewalk_width,
        },
        strict: args.strict,
    };
    let t_build = Instant::now();
    let net = build(&loaded.input, &settings).map_err(|e| format!("{}: {}", args.input.display(), e))?;
    let build_s = t_build.elapsed().as_secs_f64();
    std::fs::create_dir_all(&args.out).map_err(|e| format!("cannot create {}: {}", args.out.display(), e))?;
    let gj = args.out.join("network.geojson");
    std::fs::write(&gj, write_geojson(&net, &loaded.frame))
        .map_err(|e| format!("cannot write {}: {}", gj.display(), e))?;
    let png = render_preview(&net, &PreviewOptions { max_size_px: args.preview_size, ..PreviewOptions::default() })
        .map_err(|e| format!("cannot draw the preview: {e}"))?;
    let pp = args.out.join("preview.png");
    std::fs::write(&pp, png).map_err(|e| format!("cannot write {}: {}", pp.display(), e))?;
    let t_mesh = Instant::now();
    let mut meshes = MeshCollector::default();
    build_meshes(&net, &settings, &mut meshes);
    let mesh_s = t_mesh.elapsed().as_secs_f64();
    let triangles: usize = meshes.meshes.iter().map(|m| m.triangles.len()).sum();
    let glb =
        write_glb(&meshes.meshes, &GltfOptions::default()).map_err(|e| format!("cannot write the meshes: {e}"))?;
    let gp = args.out.join("network.glb");
    std::fs::write(&gp, glb).map_err(|e| format!("cannot write {}: {}", gp.display(), e))?;
    Ok(format!(
        "{} roads, {} junctions, {} road pieces, {} blocks, {} diagnostics, {} triangles in {:.3} s (network {:.3} s, meshes {:.3} s) -> {}",
        loaded.input.roads.len(),
        net.junctions.len(),
        net.pieces.len(),
        net.blocks.len(),
        net.diagnostics.len(),
        triangles,
        t0.elapsed().as_secs_f64(),
        build_s,
        mesh_s,
        args.out.display()
    ))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The library never panics by design; should it ever, say so in one line, not a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        eprintln!("roadgen: internal error: {msg} (please report it with the input file)");
    }));
    let result = std::panic::catch_unwind(|| match &cli.command {
        Command::Generate(g) => generate(g),
    });
    match result {
        Ok(Ok(summary)) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Ok(Err(msg)) => {
            eprintln!("roadgen: {msg}");
            ExitCode::FAILURE
        }
        Err(_) => ExitCode::FAILURE,
    }
}

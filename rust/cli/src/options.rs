//! The input and settings options that every subcommand shares.

use std::path::PathBuf;

use clap::Args;
use roadgen_core::{Profile, Settings};
use roadgen_formats::{read_file, Format, Loaded, ReadOptions};

/// The input file, how to read it, and the engine's settings.
#[derive(Args, Debug)]
pub(crate) struct InputArgs {
    /// The road file: RoadGen's road JSON, an Unreal spline export, or a point-cloud road file.
    pub(crate) input: PathBuf,
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
}

impl InputArgs {
    /// Reads and parses the input file; the error is one line naming the file.
    pub(crate) fn load(&self) -> Result<Loaded, String> {
        let opts = ReadOptions { format: self.format, default_width: self.default_width };
        read_file(&self.input, &opts).map_err(|e| e.to_string())
    }

    /// The engine's settings from the options.
    pub(crate) fn settings(&self) -> Settings {
        Settings {
            tolerance: self.tolerance,
            snap_distance: self.snap_distance,
            clearance: self.clearance,
            corner_radius: self.corner_radius,
            merge_distance: self.merge_distance,
            min_block_area: self.min_block_area,
            max_coordinate: self.max_coordinate,
            profile: Profile {
                curb_height: self.curb_height,
                curb_width: self.curb_width,
                sidewalk_left: self.sidewalk_width,
                sidewalk_right: self.sidewalk_width,
            },
            strict: self.strict,
        }
    }

    /// Prefixes an engine error with the input's name.
    pub(crate) fn engine_error(&self, e: impl std::fmt::Display) -> String {
        format!("{}: {}", self.input.display(), e)
    }
}

//! `roadgen`: runs the RoadGen engine on road files.
//!
//! `roadgen generate INPUT --out DIR` writes `DIR/network.geojson`, `DIR/network.glb` and
//! `DIR/preview.png` and prints a one-line summary. `roadgen bench INPUT` times every stage and
//! prints the medians as one JSON object. Errors are one line on stderr and a non-zero exit
//! status.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// mimalloc: the pipeline allocates many small rings and vectors on every thread, where it is
/// faster than the system allocator (figures in docs/PERFORMANCE_LOG.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod bench;
mod generate;
mod options;

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
    Generate(generate::Generate),
    /// Times each stage (parse, network, meshes, GeoJSON, glTF) and prints the medians as JSON.
    Bench(bench::Bench),
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
        Command::Generate(g) => generate::generate(g),
        Command::Bench(b) => bench::bench(b),
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

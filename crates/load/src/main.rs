//! `citadel-load`: load a running Citadel server; see the crate docs.

use clap::Parser;
use std::process::ExitCode;

/// mimalloc, as in the server: the tool parses tens of thousands of
/// messages a second on the same cores as the server it measures, and
/// every cycle it saves is one the server gets.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> ExitCode {
    let options = citadel_load::Options::parse();
    if let Some(codes) = options.worker_codes.clone() {
        return match citadel_load::worker(options, &codes).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("citadel-load worker: {e:#}");
                ExitCode::FAILURE
            }
        };
    }
    let played = options.games > 0;
    match citadel_load::run(options).await {
        Ok(report) => {
            println!("{report}");
            // A run with errors, or with games that never played, failed.
            if report.errors() > 0 || (played && report.stats.commands == 0) {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("citadel-load: {e:#}");
            ExitCode::from(2)
        }
    }
}

//! image (being built).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use crate::anneal_args::AnnealArgs;

#[derive(Args, Debug, Clone)]
pub struct ImageArgs {
    /// Input file.
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub anneal: AnnealArgs,
}

/// Runs without a terminal: one JSON object per line on `out`, a summary on `log`.
pub fn headless(
    _args: &ImageArgs,
    _out: &mut dyn Write,
    _log: &mut dyn Write,
) -> color_eyre::Result<()> {
    color_eyre::eyre::bail!("image is not built yet")
}

//! What every `kiln plot` figure shares: its text's font and what drawing one returns.

use color_eyre::eyre::eyre;
use plotters::prelude::*;

/// Embedded so a PNG has its text on any machine (plotters' `ab_glyph` reads no system fonts).
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
pub(crate) const FAMILY: &str = "sans-serif";

/// Makes [`FAMILY`] the embedded font; before any text is drawn.
pub(crate) fn register_font() -> color_eyre::Result<()> {
    plotters::style::register_font(FAMILY, FontStyle::Normal, FONT)
        .map_err(|_| eyre!("the embedded font does not load"))
}

pub(crate) type Drawn<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

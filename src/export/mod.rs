//! Pictures of boards (PNG, SVG) and `kiln plot`'s figures of traces.

/// Axes and their ticks.
pub mod axis;
/// A raster canvas to draw boards on.
pub mod canvas;
/// Figures of curves with axes and a legend.
pub mod figure;
/// The bitmap font of pictures.
pub mod font;
/// Legends of figures.
pub mod legend;
/// Labels placed without overlapping.
pub mod overlap;
/// SVG output.
pub mod svg;

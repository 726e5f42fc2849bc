//! Pictures of boards (PNG, SVG) and `kiln plot`'s figures of traces.

mod axis;
mod canvas;
mod figure;
mod font;
pub mod image;
mod image_figure;
mod legend;
mod overlap;
pub mod plot;
pub mod sudoku;
mod svg;
pub mod tsp;

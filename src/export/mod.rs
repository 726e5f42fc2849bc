//! Pictures of boards (PNG, SVG) and `kiln plot`'s figures of traces.

pub mod axis;
pub mod canvas;
pub mod figure;
pub mod font;
pub mod legend;
pub mod overlap;
pub mod svg;

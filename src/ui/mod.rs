//! kiln's own boards, demos and race screen, drawn by the live view of `kiln_tui`.

pub mod boards;
pub mod demos;
#[cfg(test)]
mod lesson_frames;
pub mod race;

pub use kiln_tui::*;

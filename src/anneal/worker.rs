//! Worker thread (soon).

//! When the next frame may be drawn: at most `fps` a second, and no faster than a byte
//! budget allows, so that a board in full swing (an image of thousands of pixels changing
//! at once) costs a terminal over SSH a bounded bandwidth. A key's effect is drawn at once.

use std::time::{Duration, Instant};

/// Bytes a second an 80x24 screen may take while running.
const BASE_BUDGET: f64 = 18_000.0;
/// The most any screen may take, however large (reached at about 225x60).
const MAX_BUDGET: f64 = 240_000.0;
/// Cells of an 80x24 screen.
const BASE_CELLS: f64 = 80.0 * 24.0;
/// How much unspent budget a quiet stretch may save up.
const BURST: f64 = 0.25;

#[derive(Debug, Clone)]
pub(super) struct Pacer {
    frame: Duration,
    /// Bytes a second.
    budget: f64,
    /// Bytes that may be written now; below zero, the debt of the last frames.
    tokens: f64,
    refilled: Instant,
    last_draw: Option<Instant>,
}

/// The byte budget of a `width` x `height` screen, the same for a local terminal and an
/// SSH client. It grows faster than the screen's area: the stats panel keeps its width, so
/// a board's share of the screen grows with it, and a board drawn to fill its part (an
/// image sized to the terminal) changes more cells a frame the larger it is. At 200x50
/// (214 KB/s) the busiest board, an image annealing, still gets ten frames a second.
pub(super) fn budget(width: u16, height: u16) -> f64 {
    let cells = f64::from(width) * f64::from(height);
    (BASE_BUDGET * (cells / BASE_CELLS).powf(1.5)).clamp(BASE_BUDGET, MAX_BUDGET)
}

impl Pacer {
    pub(super) fn new(fps: u32, width: u16, height: u16, now: Instant) -> Self {
        let budget = budget(width, height);
        Pacer {
            frame: Duration::from_secs_f64(1.0 / f64::from(fps.max(1))),
            budget,
            tokens: budget * BURST,
            refilled: now,
            last_draw: None,
        }
    }

    pub(super) fn resize(&mut self, width: u16, height: u16) {
        self.budget = budget(width, height);
    }

    fn refill(&mut self, now: Instant) {
        let elapsed = now.saturating_duration_since(self.refilled).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.budget).min(self.budget * BURST);
        self.refilled = now;
    }

    /// How long until a frame may be drawn (zero: now). An `urgent` frame (a key's effect)
    /// waits only for the frame interval, not for the budget.
    pub(super) fn wait(&mut self, now: Instant, urgent: bool) -> Duration {
        self.refill(now);
        let interval = self
            .last_draw
            .map(|t| self.frame.saturating_sub(now.saturating_duration_since(t)))
            .unwrap_or_default();
        if urgent || self.tokens >= 0.0 {
            return interval;
        }
        interval.max(Duration::from_secs_f64(-self.tokens / self.budget))
    }

    /// A frame of `bytes` was drawn at `now`.
    pub(super) fn drawn(&mut self, now: Instant, bytes: u64) {
        self.refill(now);
        self.tokens -= bytes as f64;
        self.last_draw = Some(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_grows_with_the_screen_within_its_bounds() {
        assert_eq!(budget(80, 24), BASE_BUDGET);
        assert_eq!(budget(10, 5), BASE_BUDGET);
        assert!((budget(160, 48) - 8.0 * BASE_BUDGET).abs() < 1e-9);
        assert!(
            (budget(200, 50) - 213_954.0).abs() < 1.0,
            "{}",
            budget(200, 50)
        );
        assert_eq!(budget(500, 200), MAX_BUDGET);
    }

    /// Frames of `bytes` drawn as soon as allowed for `seconds`: the bytes sent per second.
    fn rate(bytes: u64, fps: u32) -> f64 {
        let start = Instant::now();
        let mut pacer = Pacer::new(fps, 80, 24, start);
        let mut now = start;
        let mut sent = 0;
        let end = start + Duration::from_secs(10);
        while now < end {
            now += pacer.wait(now, false);
            pacer.drawn(now, bytes);
            sent += bytes;
            now += Duration::from_millis(1);
        }
        sent as f64 / 10.0
    }

    #[test]
    fn big_frames_are_spaced_out_to_the_budget_and_small_ones_keep_the_frame_rate() {
        let big = rate(5_000, 20);
        // The budget, plus the saved-up burst and one frame spread over the 10 s.
        assert!(big <= BASE_BUDGET * 1.06, "{big} bytes/s");
        assert!(big >= BASE_BUDGET * 0.9, "{big} bytes/s");
        // 500-byte frames at 20 fps are 10 KB/s: under budget, every frame goes.
        let small = rate(500, 20);
        assert!((small - 10_000.0).abs() < 600.0, "{small} bytes/s");
    }

    #[test]
    fn a_key_is_drawn_without_waiting_for_the_budget() {
        let now = Instant::now();
        let mut pacer = Pacer::new(20, 80, 24, now);
        pacer.drawn(now, 100_000);
        let later = now + Duration::from_millis(50);
        assert!(pacer.wait(later, false) > Duration::from_secs(1));
        assert_eq!(pacer.wait(later, true), Duration::ZERO);
    }
}

//! Interrupts of a headless run: the first SIGINT, SIGTERM or SIGHUP asks every search to
//! stop at its next budget check (a batch, well under 0.2 s), so the best state so far is
//! printed as a normal result; a second one ends the process at once. The engine holds the
//! request; whoever owns the process installs the handlers that make it.

use std::sync::atomic::{AtomicI32, Ordering};

/// The signal that asked for the stop, 0 for none.
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// The signal that interrupted the run, if one did.
pub fn requested() -> Option<i32> {
    match SIGNAL.load(Ordering::Relaxed) {
        0 => None,
        signal => Some(signal),
    }
}

/// Records that `signal` asked the run to stop; `false` if one already had.
pub fn record(signal: i32) -> bool {
    SIGNAL
        .compare_exchange(0, signal, Ordering::Relaxed, Ordering::Relaxed)
        .is_ok()
}

/// The exit code of a run ended by `signal`, as a shell reports it.
pub fn exit_code(signal: i32) -> u8 {
    (128 + signal).clamp(0, 255) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIGHUP: i32 = 1;
    const SIGINT: i32 = 2;
    const SIGTERM: i32 = 15;

    #[test]
    fn exit_codes_are_128_plus_the_signal() {
        assert_eq!(exit_code(SIGINT), 130);
        assert_eq!(exit_code(SIGTERM), 143);
        assert_eq!(exit_code(SIGHUP), 129);
    }
}
